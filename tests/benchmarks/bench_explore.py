"""``explore --depth 3`` against ``validate`` on the same archive, and its memory on a 16x
larger one: figures, not tests.

    python tests/benchmarks/bench_explore.py [--games 3000] [--runs 9]

The archive is ``--games`` random four-player Tilewe games (``notation random``, seed 11).
Both commands run on one core (``--jobs 1``), each as its own process; a round runs one
then the other, and the CPU row is the median of the rounds' ratios (on a shared machine
two runs side by side see the same machine). The memory row: the peak resident memory of
``explore`` on an archive of 300 distinct games repeated to 16 times ``--games`` over its
peak on the same games repeated to ``--games`` (the tree is the same: what grows with the
archive beyond it is what the row counts). The speed issue asks for at most 1.5x and 2x.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from child_cpu import cpu_of, own_peak_mb  # noqa: E402

NOTATION = str(Path(sys.executable).with_name("notation"))
SPEED, MEMORY = 1.5, 2.0


def random_archive(path: Path, games: int, seed: int) -> None:
    with open(path, "w", encoding="utf-8") as out:
        subprocess.run([NOTATION, "random", "tilewe", "--players", "4", "--count", str(games),
                        "--seed", str(seed)], stdout=out, check=True)


def repeated(source: Path, path: Path, games: int) -> None:
    """``source``'s games repeated to ``games`` games."""
    pieces = source.read_text(encoding="utf-8").strip("\n").split("\n\n[")
    pieces = pieces[:1] + ["[" + piece for piece in pieces[1:]]
    with open(path, "w", encoding="utf-8") as out:
        for number in range(games):
            out.write(pieces[number % len(pieces)].rstrip("\n") + "\n\n")


def explore(archive: Path) -> list[str]:
    return [NOTATION, "explore", "--json", "--depth", "3", "--jobs", "1", str(archive)]


def rows(games: int = 3000, runs: int = 9) -> list[tuple[str, float, float]]:
    """The CPU row and the memory row: (name, ratio, target)."""
    folder = Path(tempfile.mkdtemp(prefix="notation-explore-"))
    try:
        archive = folder / "archive.tilewe"
        random_archive(archive, games, 11)
        ratios = []
        for _ in range(runs):
            ours = cpu_of(explore(archive))
            theirs = cpu_of([NOTATION, "validate", "-q", "--jobs", "1", str(archive)])
            ratios.append(ours / theirs)
        distinct = folder / "distinct.tilewe"
        random_archive(distinct, 300, 5)
        small, large = folder / "small.tilewe", folder / "large.tilewe"
        repeated(distinct, small, games)
        repeated(distinct, large, 16 * games)
        small_mb, large_mb = own_peak_mb(explore(small)), own_peak_mb(explore(large))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"explore --depth 3 against validate, rounds' ratios "
          f"{' '.join(f'{r:.2f}' for r in sorted(ratios))}; peak memory {small_mb:.0f} MB "
          f"({games} games), {large_mb:.0f} MB ({16 * games})")
    return [("`explore --depth 3` against `validate` (CPU)", statistics.median(ratios), SPEED),
            ("`explore --depth 3` memory, 16x the games", large_mb / small_mb, MEMORY)]


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--runs", type=int, default=9)
    args = ap.parse_args()
    for name, ratio, target in rows(args.games, args.runs):
        print(f"| {name} | {ratio:.2f}x | <= {target}x | {'yes' if ratio <= target else 'no'} |")


if __name__ == "__main__":
    main()
