"""Sanguine throughput: prints figures, asserts nothing (not a timed test).

    python tests/benchmarks/bench_sanguine.py [--games 500] [--seed 1]

Random games on a 5x7 board between two copies of samples/sanguine/decks/legion.deck,
replayed through parse + rules (deal, draws, placements, influence, scoring) as
`notation validate` does; reports moves/s (every event counts: deals, draws,
placements, passes, the result line).
"""
from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import time
from pathlib import Path

from notation.core.new_games import random_record
import notation
from notation.core.writer import format_record
from notation.games.sanguine.events import Place

DECK = str(Path(__file__).resolve().parents[2] / "samples" / "sanguine" / "decks" / "legion.deck")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    game = notation.get_game("sanguine")
    rng = random.Random(args.seed)
    options = {"red": DECK, "blue": DECK, "rows": 5, "cols": 7}
    records = [random_record(game, rng, options) for _ in range(args.games)]
    events = sum(len(r.events) for r in records)
    text = "\n".join(format_record(r, game) for r in records)
    print(f"{args.games} random 5x7 games, {events} events "
          f"({sum(isinstance(e, Place) for r in records for e in r.events)} placements)")
    best = float("inf")
    for _ in range(3):
        gc.collect()
        start = time.perf_counter()
        plies = sum(notation.run(r).plies for r in notation.parse(text))
        best = min(best, time.perf_counter() - start)
    assert plies == events
    print(f"validate  {best:.3f} s  {events / best:>9,.0f} moves/s  (parse + rules + replay; "
          f"each distinct inline deck is parsed and checked once)")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
