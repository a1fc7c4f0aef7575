"""``notation select --tag`` against pgn-extract's tag filter, in one run: a figure, not a
timed test.

    python tests/benchmarks/bench_select.py [--mb 20] [--rounds 5]

Each side filters an archive of its own game by one tag value, keeping one game: pgn-extract
a chess archive (``-t`` criteria file, output to /dev/null), ``notation select --tag
Round=7`` a Tilewe archive of about the same size (``notation random tilewe``, repeated,
each game with its own ``[Round]``). The figure is bytes of input per CPU second of the
child process (user and system, from ``getrusage``), start-up included, each side's best of
rounds that alternate between the two: the machine's other load weighs as little as it can
on the ratio. The chess archive is made with python-chess in ``.venv-bench`` (made on first
use, as ``bench_peers.py`` does: not a dependency of this project).
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_peers import RANDOM_GAME  # noqa: E402  (the same random chess games)
from child_cpu import cpu_of  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
NOTATION = str(Path(sys.executable).with_name("notation"))
PGN_EXTRACT = shutil.which("pgn-extract") or "/usr/games/pgn-extract"

#: Issue 23's row: our bytes/s over pgn-extract's, and its target.
NAME, TARGET = "`select --tag`", 1.0

#: python-chess: 300 random games' move text, then games with realistic tags (each its own
#: zero-padded round, so that pgn-extract's prefix match of a round keeps one game) until
#: the archive holds the bytes asked for.
CHESS = "import chess, chess.pgn, random, sys\n" + RANDOM_GAME + r'''
path, size = sys.argv[1], int(sys.argv[2])
rng = random.Random(3)
bodies = []
for _ in range(300):
    game, _moves = random_game(rng)
    bodies.append(game.accept(chess.pgn.StringExporter(headers=False)))
names = ["Carlsen, Magnus", "Caruana, Fabiano", "Nakamura, Hikaru", "Ding, Liren",
         "Firouzja, Alireza", "Giri, Anish", "So, Wesley", "Aronian, Levon"]
with open(path, "w") as out:
    number = 0
    while out.tell() < size:
        number += 1
        white, black = rng.sample(names, 2)
        out.write(f'[Event "Open {number % 40}"]\n[Site "Wijk aan Zee NED"]\n'
                  f'[Date "20{number % 25:02d}.{number % 12 + 1:02d}.{number % 28 + 1:02d}"]\n'
                  f'[Round "{number:06d}"]\n[White "{white}"]\n[Black "{black}"]\n'
                  f'[Result "*"]\n[WhiteElo "{rng.randint(2500, 2850)}"]\n'
                  f'[BlackElo "{rng.randint(2500, 2850)}"]\n[ECO "A00"]\n\n'
                  f'{bodies[number % len(bodies)]}\n\n')
'''


def bench_python() -> Path:
    """``.venv-bench``'s interpreter, with python-chess (made on first use)."""
    python = ROOT / ".venv-bench" / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(python.parent.parent)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "chess"], check=True)
    return python


def chess_archive(path: Path, size: int) -> None:
    subprocess.run([str(bench_python()), "-c", CHESS, str(path), str(size)], check=True)


def tilewe_archive(path: Path, size: int) -> None:
    """Random Tilewe games repeated to ``size`` bytes, renumbered: each its own round."""
    games = subprocess.run([NOTATION, "random", "tilewe", "--count", "300", "--seed", "5",
                            "--jobs", "1"], capture_output=True, text=True,
                           check=True).stdout.strip("\n").split("\n\n[")
    games = games[:1] + ["[" + game for game in games[1:]]
    with open(path, "w") as out:
        number = 0
        while out.tell() < size:
            number += 1
            game = games[number % len(games)]
            out.write(re.sub(r'\[Round "\d+"\]', f'[Round "{number}"]', game) + "\n\n")


def archives(argv: list[str] | None, description: str, rounds: int
             ) -> tuple[argparse.Namespace, Path, Path, Path]:
    """The options (``--mb``, ``--rounds``), and a new folder holding a chess archive and
    a Tilewe archive of about ``--mb`` megabytes each (exit 2 without pgn-extract)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--mb", type=float, default=20.0, help="Size of each archive (MB).")
    ap.add_argument("--rounds", type=int, default=rounds)
    args = ap.parse_args(argv)
    if not os.access(PGN_EXTRACT, os.X_OK):
        print("pgn-extract is missing: install it (Debian/Ubuntu: apt-get install pgn-extract)")
        raise SystemExit(2)
    folder = Path(tempfile.mkdtemp(prefix="notation-bench-"))
    chess_path, tilewe_path = folder / "games.pgn", folder / "games.tilewe"
    try:
        chess_archive(chess_path, int(args.mb * 1_000_000))
        tilewe_archive(tilewe_path, int(args.mb * 1_000_000))
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return args, folder, chess_path, tilewe_path


def cpu_seconds(command: list[str]) -> float:
    """The CPU time (user and system) of one run of ``command``, output dropped."""
    return cpu_of(command, check=True)


def main(argv: list[str] | None = None) -> tuple[str, float, float]:
    """Measure, print the one-row table, and give the row: (name, ratio, target)."""
    args, folder, chess_path, tilewe_path = archives(
        argv, (__doc__ or "").splitlines()[0], 5)
    try:
        criteria = folder / "criteria"
        criteria.write_text('Round "000007"\n')
        theirs_command = [PGN_EXTRACT, "--quiet", "-s", f"-t{criteria}", f"-o{os.devnull}",
                          str(chess_path)]
        ours_command = [NOTATION, "select", "--tag", "Round=7", str(tilewe_path)]
        theirs = ours = float("inf")
        for _ in range(args.rounds):
            theirs = min(theirs, cpu_seconds(theirs_command))
            ours = min(ours, cpu_seconds(ours_command))
        theirs_rate = chess_path.stat().st_size / theirs
        ours_rate = tilewe_path.stat().st_size / ours
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    ratio = ours_rate / theirs_rate
    print(f"pgn-extract -t: {theirs_rate / 1e6:.1f} MB/s per CPU second; notation select "
          f"--tag: {ours_rate / 1e6:.1f} MB/s (best of {args.rounds} rounds, "
          f"{args.mb:g} MB each)\n")
    return table_row(NAME, ratio, TARGET)


def table_row(name: str, ratio: float, target: float) -> tuple[str, float, float]:
    """Print a row against pgn-extract as a one-row table, and give it."""
    print("| work | ratio to pgn-extract (bytes/s) | target | met |")
    print("|---|---|---|---|")
    print(f"| {name} | {ratio:.2f}x | >= {target:g}x | {'yes' if ratio >= target else 'no'} |")
    return name, ratio, target


if __name__ == "__main__":
    main()
