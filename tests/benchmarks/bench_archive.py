"""Archive scale: figures, not timed tests.

    python tests/benchmarks/bench_archive.py [--sizes 10,50,200] [--skip-chess]

* peak RSS and wall time of ``notation validate`` on archives of 10, 50 and
  200 MB (random Tilewe games from ``notation random``, repeated to size);
* ``--jobs 1`` against ``--jobs 2`` on the 50 MB archive;
* time to the first output line of ``replay --json`` on the largest archive;
* moves/s of every game's ``validate`` path (read + rules + result check, one
  process) next to python-chess's ``read_game`` measured in the same run.
  python-chess is installed into ``.venv-bench`` (a separate environment, not
  a dependency of this project).
"""
from __future__ import annotations

import argparse
import io
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import notation
from notation.core.reading import source_records
from notation.core.results import with_result_tags
from notation.core.writer import format_record

ROOT = Path(__file__).resolve().parents[2]
NOTATION = str(Path(sys.executable).with_name("notation"))
DECKS = ROOT / "samples" / "sanguine" / "decks"

CHESS = r'''
import chess, chess.pgn, io, random, time
rng = random.Random(1)
games, moves = [], 0
for _ in range(400):
    board, game = chess.Board(), chess.pgn.Game()
    node = game
    for _ in range(rng.randint(40, 120)):
        legal = list(board.legal_moves)
        if not legal:
            break
        move = rng.choice(legal)
        node = node.add_variation(move)
        board.push(move)
        moves += 1
    games.append(str(game))
text = "\n\n".join(games)
best = 1e9
for _ in range(3):
    start = time.perf_counter()
    handle = io.StringIO(text)
    while chess.pgn.read_game(handle) is not None:
        pass
    best = min(best, time.perf_counter() - start)
print(moves / best)
'''


def timed_run(args: list[str]) -> tuple[float, int, str]:
    """(wall seconds, peak RSS in KB, stderr) of one command."""
    out = subprocess.run(["/usr/bin/time", "-v", NOTATION, *args], capture_output=True,
                         text=True)
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", out.stderr).group(1))
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", out.stderr)
    parts = [float(p) for p in wall.group(1).split(":")]
    seconds = parts[-1] + 60 * parts[-2] + (3600 * parts[-3] if len(parts) > 2 else 0)
    return seconds, rss, out.stderr


def first_line_seconds(path: Path) -> float:
    start = time.perf_counter()
    proc = subprocess.Popen([NOTATION, "replay", "--json", "--jobs", "1", str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    proc.stdout.readline()
    took = time.perf_counter() - start
    proc.kill()
    proc.wait()
    return took


def chess_moves_per_second() -> float | None:
    env = ROOT / ".venv-bench"
    python = env / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(env)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "chess"], check=True)
    out = subprocess.run([str(python), "-c", CHESS], capture_output=True, text=True)
    return float(out.stdout.strip()) if out.returncode == 0 else None


def game_moves_per_second(name: str, count: int) -> float:
    game = notation.get_game(name)
    rng = random.Random(7)
    options = {"red": str(DECKS / "legion.deck"), "blue": str(DECKS / "legion.deck")}
    texts = []
    for _ in range(count):
        record, _ = with_result_tags(game.random_record(rng, options))
        texts.append(format_record(record, game))
    text = "\n".join(texts)
    best, plies = 1e9, 0
    for _ in range(3):
        start = time.perf_counter()
        plies = 0
        for record in source_records(io.StringIO(text), name, checked=True):
            outcome = notation.run(record)
            assert outcome.valid
            plies += outcome.plies
        best = min(best, time.perf_counter() - start)
    return plies / best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10,50,200", help="archive sizes in MB")
    ap.add_argument("--skip-chess", action="store_true")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    folder = Path(tempfile.mkdtemp(prefix="notation-bench-"))
    try:
        base = subprocess.run([NOTATION, "random", "tilewe", "--count", "2000", "--seed", "1"],
                              capture_output=True, text=True, check=True).stdout
        print(f"base archive: 2,000 random 4-player Tilewe games, {len(base) / 1e6:.1f} MB")
        base_plies = sum(o.plies for o in notation.read_verdicts(io.StringIO(base), "tilewe"))
        print("\n| archive | validate --jobs 1 | peak RSS | moves/s |")
        print("|---|---|---|---|")
        paths = {}
        for size in sizes:
            path = folder / f"archive-{size}.tilewe"
            copies = 0
            with open(path, "w") as fh:
                while fh.tell() < size * 1_000_000:
                    fh.write(base + "\n")
                    copies += 1
            paths[size] = path
            seconds, rss, _ = timed_run(["validate", "-q", "--jobs", "1", str(path)])
            plies = copies * base_plies  # (--quiet prints no summary to count them from)
            print(f"| {path.stat().st_size / 1e6:.0f} MB | {seconds:.1f} s | {rss / 1024:.0f} MB "
                  f"| {plies / seconds:,.0f} |")
        middle = paths[sorted(paths)[len(paths) // 2]]
        one, _, _ = timed_run(["validate", "-q", "--jobs", "1", str(middle)])
        two, rss2, _ = timed_run(["validate", "-q", "--jobs", "2", str(middle)])
        print(f"\n--jobs 2 on {middle.stat().st_size / 1e6:.0f} MB: {two:.1f} s against {one:.1f} s "
              f"with --jobs 1: {one / two:.2f}x (peak RSS of the main process {rss2 / 1024:.0f} MB)")
        largest = paths[max(paths)]
        print(f"first line of replay --json on {largest.stat().st_size / 1e6:.0f} MB: "
              f"{first_line_seconds(largest):.2f} s")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    chess = None if args.skip_chess else chess_moves_per_second()
    print("\n| game | validate path, one process (moves/s) | ratio to python-chess read_game |")
    print("|---|---|---|")
    for name, count in (("tilewe", 400), ("flows", 300), ("philosophy", 300),
                        ("sanguine", 60), ("nomic", 200)):
        rate = game_moves_per_second(name, count)
        ratio = f"{rate / chess:.2f}x" if chess else "-"
        print(f"| {name} | {rate:,.0f} | {ratio} |")
    if chess:
        print(f"\npython-chess read_game in the same run: {chess:,.0f} moves/s")


if __name__ == "__main__":
    main()
