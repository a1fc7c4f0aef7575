"""Tilewe's move generation: figures, not timed tests.

    python tests/benchmarks/bench_tilewe_moves.py [--rounds 5] [--against OLD_TREE]

* ``random``: four-player games per CPU second as ``notation random tilewe`` makes each
  (the game, its replay, its text), on one core;
* ``random_events``: the generator alone, in plies per CPU second;
* ``legal_moves``: ``rules.legal_moves`` per CPU second, over positions of random games.

Each figure is the least CPU time of its rounds. ``--against`` runs the same rounds on
another source tree (``PYTHONPATH``), alternating with this one: the two columns are
measured side by side, so their ratio is what the machine's load disturbs least.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time

GAMES = 100
POSITION_GAMES = 20


def one_round() -> dict[str, float]:
    """This tree's figures, one round each (imports here: the tree is chosen by the caller)."""
    from notation.games.tilewe import generate, rules
    from notation.games.tilewe.state import Board
    from notation.parallel.generate import Plan, made

    plan = Plan("tilewe", 1, {"players": 4})
    made(plan, 1)  # (tables built on first use are not timed)
    start = time.process_time()
    for n in range(1, GAMES + 1):
        made(plan, n)
    games = GAMES / (time.process_time() - start)

    rng, plies = random.Random(1), 0
    start = time.process_time()
    for _ in range(GAMES):
        plies += len(generate.random_events(rng, Board(4)))
    events = plies / (time.process_time() - start)

    rng, boards = random.Random(5), []
    for _ in range(POSITION_GAMES):
        board = Board(4)
        for move in generate.random_events(rng, Board(4)):
            board.to_move()
            boards.append(board.copy())
            rules.play(board, move)
    start = time.process_time()
    for board in boards:
        rules.legal_moves(board)
    legal = len(boards) / (time.process_time() - start)
    return {"random": games, "random_events": events, "legal_moves": legal}


def measured(tree: str | None) -> dict[str, float]:
    """One round in a fresh process, on ``tree`` (None: this checkout)."""
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = tree
    out = subprocess.run([sys.executable, __file__, "--one-round"], env=env, check=True,
                         capture_output=True, text=True, cwd="/").stdout
    return {key: float(value) for key, value in json.loads(out).items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--against", metavar="OLD_TREE", help="another source tree to compare")
    ap.add_argument("--one-round", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one_round:
        print(json.dumps(one_round()))
        return
    trees = [None] + ([args.against] if args.against else [])
    best: list[dict[str, float]] = [{} for _ in trees]
    for _ in range(args.rounds):
        for figures, tree in zip(best, trees):
            for key, value in measured(tree).items():
                figures[key] = max(figures.get(key, 0.0), value)  # least CPU time
    units = {"random": "games/s", "random_events": "plies/s", "legal_moves": "calls/s"}
    head = "| work | this tree |" + (" other tree | ratio |" if args.against else "")
    print(head + "\n" + "|---" * (head.count("|") - 1) + "|")
    for key, unit in units.items():
        row = f"| {key} ({unit}) | {best[0][key]:,.0f} |"
        if args.against:
            row += f" {best[1][key]:,.0f} | {best[0][key] / best[1][key]:.2f}x |"
        print(row)


if __name__ == "__main__":
    main()
