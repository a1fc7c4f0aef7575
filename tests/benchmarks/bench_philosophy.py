"""Philosophy throughput: prints figures, asserts nothing (not a timed test).

    python tests/benchmarks/bench_philosophy.py [--games 1000] [--seed 1]

Replays random games from the engine's own generator (2-4 players, with joins,
leaves, respect passes, rule changes and choices) through parse + rules, as
`notation validate` does, and reports events/s.
"""
from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import time

from notation.core.tree import GameNode
import notation
from notation.core.ast import Tag
from notation.core.writer import format_events


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    game = notation.get_game("philosophy")
    rng = random.Random(args.seed)
    texts, count = [], 0
    for n in range(args.games):
        tags = game.random_tags({"players": 2 + n % 3})
        events = game.random_events(rng, GameNode("philosophy", [Tag(k, v) for k, v in tags.items()]))
        count += len(events)
        texts.append(format_events(game, tags, events))
    text = "\n".join(texts)
    print(f"{args.games} random games, {count} events")
    best = float("inf")
    for _ in range(3):
        gc.collect()
        start = time.perf_counter()
        plies = sum(notation.run(r).plies for r in notation.parse(text))
        best = min(best, time.perf_counter() - start)
    assert plies == count
    print(f"validate  {best:.3f} s  {count / best:>9,.0f} events/s  (parse + rules + replay)")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
