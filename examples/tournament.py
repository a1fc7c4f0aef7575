"""A round robin of Tilewe bots, recorded as one validated archive.

    python examples/tournament.py ARCHIVE [GAMES] [SEED]

Every move a bot makes is checked as it is pushed (an illegal one would raise
notation.IllegalMoveError and disqualify the bot); each game is recorded with
its result tags; the archive is written to a temporary file and renamed, then
read back and validated before the standings are printed.
"""
from __future__ import annotations

import collections
import itertools
import random
import sys
from typing import Callable

import notation
from notation.archive import write_atomically

Bot = Callable[[notation.Position, random.Random], object]


def random_bot(pos: notation.Position, rng: random.Random) -> object:
    return rng.choice(pos.legal_moves)


def big_pieces_first(pos: notation.Position, rng: random.Random) -> object:
    moves = pos.legal_moves
    biggest = max(int(str(move)[1]) for move in moves)
    return rng.choice([move for move in moves if int(str(move)[1]) == biggest])


BOTS: dict[str, Bot] = {"random": random_bot, "big-first": big_pieces_first}
COLOURS = ("blue", "yellow")


def play(seats: tuple[str, str], rng: random.Random, round_number: int) -> notation.GameNode:
    """One two-player game; the bots take turns as the position says."""
    pos = notation.new("tilewe", players=2)
    while not pos.is_over():
        bot = BOTS[seats[COLOURS.index(pos.turn)]]
        pos.push(bot(pos, rng))
    return notation.GameNode.from_position(pos, Event="bot round robin", Round=round_number,
                      Blue=seats[0], Yellow=seats[1])


def main(archive: str, games: int, seed: int) -> int:
    rng = random.Random(seed)
    pairings = itertools.cycle(itertools.permutations(BOTS, 2))
    records = [play(next(pairings), rng, n) for n in range(1, games + 1)]
    write_atomically(archive, "\n".join(notation.format_record(r) for r in records), create=True)

    wins: collections.Counter[str] = collections.Counter()
    checked = 0
    for outcome in notation.read_verdicts(archive):
        if not outcome.valid:
            print(f"{archive}: game {outcome.index}: {outcome.error.describe()}")
            return 1
        checked += 1
        headers = outcome.record.headers
        for colour in headers["Result"].split():
            wins[headers[colour.capitalize()]] += 1
    print(f"{checked} games written to {archive} and validated")
    for bot in sorted(BOTS, key=lambda b: -wins[b]):
        print(f"  {bot:10} {wins[bot]} wins")
    return 0


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if not arguments:
        sys.exit(__doc__)
    sys.exit(main(arguments[0], int(arguments[1]) if len(arguments) > 1 else 10,
                  int(arguments[2]) if len(arguments) > 2 else 1))
