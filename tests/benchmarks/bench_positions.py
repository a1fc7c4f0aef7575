"""``Position.push`` and ``pop`` against python-chess's ``Board.push`` and ``pop``, for every
game: figures, not tests.

    python tests/benchmarks/bench_positions.py [--rounds 5]

Each side plays 20 random games of its own game move by move from the start and takes
every move back (a push and a pop per move), each in a fresh process (ours here, python-chess
in ``.venv-bench``: a long-lived process, the benchmark table's, collects its garbage over
a larger heap); each keeps its best rate over rounds that alternate between them (CPU
time). The speed issue asks for at least 1.0x in every game.
"""
from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import notation  # noqa: E402
from notation.core.new_games import random_record  # noqa: E402

from bench_peers import DECKS  # noqa: E402
from bench_select import bench_python  # noqa: E402

GAMES = ("tilewe", "flows", "philosophy", "sanguine", "nomic")
TARGET = 1.0

CHESS = r'''
import chess, random, time
rng = random.Random(3)
games = []
for _ in range(20):
    board, moves = chess.Board(), []
    while not board.is_game_over() and len(moves) < 100:
        move = rng.choice(list(board.legal_moves))
        board.push(move)
        moves.append(move)
    games.append(moves)
start = time.process_time()
count = 0
for moves in games:
    board = chess.Board()
    for move in moves:
        board.push(move)
    for _ in moves:
        board.pop()
    count += len(moves)
print(count / (time.process_time() - start))
'''


def ours(name: str) -> float:
    """Pushes and pops a CPU second of ``Position``, over 20 random games of ``name``."""
    game = notation.get_game(name)
    options = ({"red": str(DECKS / "legion.deck"), "blue": str(DECKS / "legion.deck")}
               if name == "sanguine" else {})
    records = [random_record(game, random.Random(seed), options) for seed in range(20)]
    starts = [(record, list(record.events)) for record in records]
    start = time.process_time()
    count = 0
    for record, events in starts:
        position = notation.Position.from_record(record, 0)
        for event in events:
            position.push(event)
        for _ in events:
            position.pop()
        count += len(events)
    return count / (time.process_time() - start)


def ours_in_a_process(name: str) -> float:
    """:func:`ours` in a fresh process, as python-chess's side runs."""
    return float(subprocess.run([sys.executable, __file__, "--ours", name],
                                capture_output=True, text=True, check=True).stdout)


def rows(rounds: int = 5) -> list[tuple[str, float, float]]:
    python = str(bench_python())
    theirs = 0.0
    best = {name: 0.0 for name in GAMES}
    for _ in range(rounds):
        theirs = max(theirs, float(subprocess.run([python, "-c", CHESS], capture_output=True,
                                                  text=True, check=True).stdout))
        for name in GAMES:
            best[name] = max(best[name], ours_in_a_process(name))
    print(f"python-chess push+pop: {theirs:,.0f} a CPU second; "
          + ", ".join(f"{name} {rate:,.0f}" for name, rate in best.items()))
    return [(f"{name} `Position.push`+`pop` against python-chess's", rate / theirs, TARGET)
            for name, rate in best.items()]


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--ours", choices=GAMES, help="Print one game's rate alone (a round's).")
    args = ap.parse_args()
    if args.ours:
        print(ours(args.ours))
        return
    for name, ratio, target in rows(args.rounds):
        print(f"| {name} | {ratio:.2f}x | >= {target}x | {'yes' if ratio >= target else 'no'} |")


if __name__ == "__main__":
    main()
