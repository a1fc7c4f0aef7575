"""A bot plays a whole game of Tilewe against itself, every move checked as it is pushed.

    python examples/bot_loop.py [SEED]

The loop python-chess users write for chess, for any game of notation:
ask for the legal moves, choose one, push it, until the game is over.
"""
from __future__ import annotations

import random
import sys

import notation


def choose(moves: list, rng: random.Random) -> object:
    """The biggest piece that fits (a piece's name ends in its size: F5), else any."""
    biggest = max(int(str(move)[1]) for move in moves)
    return rng.choice([move for move in moves if int(str(move)[1]) == biggest])


def main(seed: int) -> None:
    rng = random.Random(seed)
    pos = notation.new("tilewe", players=4)
    while not pos.is_over():
        pos.push(choose(pos.legal_moves, rng))
    result = pos.result()
    print(f"{pos.ply} moves; winners: {' '.join(result.winners)}; scores: {result.scores}")
    print(notation.format_record(notation.GameNode.from_position(pos, Event="bot loop", Seed=seed)))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
