"""Tilewe ``validate`` against pgn-extract's full check of a chess archive, in one run: a
figure, not a timed test.

    python tests/benchmarks/bench_validate.py [--mb 20] [--rounds 7]

Each side checks every game of an archive of its own game, of about the same size:
``pgn-extract -r -s`` (every move's legality, in C) a chess archive, ``notation validate
-q --jobs 1`` a Tilewe archive (both made as ``bench_select.py`` makes them). The figure is
bytes of input per CPU second of the child (user and system, ``getrusage``), start-up
included; a round runs one then the other, and the row is the median of the rounds'
ratios (a shared machine's speed drifts between minutes: two runs side by side see the
same machine). Moves per CPU second are printed too. The speed issue asks for at least
1.0x pgn-extract's bytes per second.
"""
from __future__ import annotations

import re
import shutil
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_select import NOTATION, PGN_EXTRACT, archives, table_row  # noqa: E402
from child_cpu import cpu_of  # noqa: E402

NAME, TARGET = "Tilewe `validate` against `pgn-extract -r -s`", 1.0
#: A chess move in movetext (a SAN token after its number was dropped); a Tilewe move.
CHESS_MOVE = re.compile(r"(?<![\[\"{])\b(?:[KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](?:=[QRBN])?|O-O(?:-O)?)[+#]?")
TILEWE_MOVE = re.compile(r"\b[A-Z][1-5][nesw]f?-[a-e][1-5][a-t](?:1[0-9]|20|[1-9])\b")


def moves_in(path: Path, pattern: re.Pattern[str]) -> int:
    """The moves of an archive's move text (tag lines left out)."""
    count = 0
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if not line.startswith("["):
                count += len(pattern.findall(line))
    return count


def main(argv: list[str] | None = None) -> tuple[str, float, float]:
    """Measure, print the one-row table, and give the row: (name, ratio, target)."""
    args, folder, chess_path, tilewe_path = archives(
        argv, (__doc__ or "").splitlines()[0], 7)
    try:
        theirs_command = [PGN_EXTRACT, "--quiet", "-r", "-s", str(chess_path)]
        ours_command = [NOTATION, "validate", "-q", "--jobs", "1", str(tilewe_path)]
        theirs_bytes, ours_bytes = chess_path.stat().st_size, tilewe_path.stat().st_size
        theirs_moves = moves_in(chess_path, CHESS_MOVE)
        ours_moves = moves_in(tilewe_path, TILEWE_MOVE)
        ratios, least = [], [float("inf"), float("inf")]
        for _ in range(args.rounds):
            theirs = cpu_of(theirs_command, check=True)
            ours = cpu_of(ours_command, check=True)
            least = [min(least[0], theirs), min(least[1], ours)]
            ratios.append((ours_bytes / ours) / (theirs_bytes / theirs))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    ratio = statistics.median(ratios)
    print(f"pgn-extract -r -s: {theirs_bytes / least[0] / 1e6:.1f} MB/s, "
          f"{theirs_moves / least[0] / 1e6:.2f} M moves/s per CPU second; notation validate: "
          f"{ours_bytes / least[1] / 1e6:.1f} MB/s, {ours_moves / least[1] / 1e6:.2f} M moves/s "
          f"(least of {args.rounds} rounds, {args.mb:g} MB each); rounds' ratios (bytes/s) "
          f"{' '.join(f'{r:.2f}' for r in sorted(ratios))}\n")
    return table_row(NAME, ratio, TARGET)


if __name__ == "__main__":
    main()
