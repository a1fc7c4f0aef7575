"""Flows throughput: prints figures, asserts nothing (not a timed test).

    python tests/benchmarks/bench_flows.py [--games 300] [--seed 1]

Over random games from the engine's own generator (2, 3, 4 and 6 players):
* validate: parse + full legality + flows + victory checks, as `notation validate` does (moves/s);
* legal-placement counting for a drawn tile, as `notation legal --tile` does (counts/s).
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
from notation.games.flows import rules as flows_rules


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    game = notation.get_game("flows")
    rng = random.Random(args.seed)
    texts, states, moves = [], [], 0
    start = time.perf_counter()
    for n in range(args.games):
        players = (2, 3, 4, 6)[n % 4]
        tags = game.random_tags({"players": players})
        record = GameNode("flows", [Tag(k, v) for k, v in tags.items()])
        events = game.random_events(rng, record)
        moves += len(events)
        texts.append(format_events(game, tags, events))
        if len(states) < 200:
            state = game.start(record)
            for event in events[: rng.randrange(len(events))]:
                game.apply(state, event)
            states.append(state)
    generated = time.perf_counter() - start
    text = "\n".join(texts)
    print(f"generated {args.games} random games (2, 3, 4, 6 players), {moves} moves, in "
          f"{generated:.2f} s (each move draws a tile and lists its legal placements)")

    best = float("inf")
    for _ in range(3):
        gc.collect()
        t0 = time.perf_counter()
        plies = 0
        for rec in notation.parse(text):
            outcome = notation.run(rec)
            assert outcome.valid
            plies += outcome.plies
        best = min(best, time.perf_counter() - t0)
    assert plies == moves
    print(f"validate  {best:.3f} s  {moves / best:>9,.0f} moves/s  (parse + full legality + victory)")

    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        for state in states:
            flows_rules.legal_placements(state, rng.randrange(4))
        best = min(best, time.perf_counter() - t0)
    print(f"legal     {best:.3f} s  {len(states) / best:>9,.0f} tile counts/s  "
          f"({len(states)} positions, all 6 rotations of every empty hex)")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
