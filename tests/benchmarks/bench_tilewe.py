"""Tilewe throughput: prints figures, asserts nothing (not a timed test).

    python tests/benchmarks/bench_tilewe.py [--games 1000] [--seed 1]

Measures, over random four-player games from the engine's own generator:
* parse: the whole file through the LALR parser into the AST (events/s);
* validate: parse + rules + replay of every game, as `notation validate` does (moves/s);
* the `notation validate` command end to end on the same file (wall time);
* legal-move generation in positions taken from those games (generations/s).
"""
from __future__ import annotations

import argparse
import gc
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from notation.core.tree import GameNode
import notation
from notation.core.ast import Tag
from notation.core.writer import format_events


def best_of(runs: int, fn):
    best = float("inf")
    result = None
    for _ in range(runs):
        result = None
        gc.collect()
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    game = notation.get_game("tilewe")
    rng = random.Random(args.seed)

    start = time.perf_counter()
    texts, positions, moves_total = [], [], 0
    for _ in range(args.games):
        board = game.start(GameNode("tilewe", [Tag("Players", "4")]))
        moves = []
        while not game.is_over(board):
            if len(positions) < 2000 and rng.random() < 0.05:
                positions.append(board.copy())
            move = rng.choice(game.legal_moves(board))
            game.apply(board, move)
            moves.append(move)
        moves_total += len(moves)
        texts.append(format_events(game, {"Game": "tilewe", "Players": "4"}, moves))
    generated = time.perf_counter() - start
    text = "\n".join(texts)
    print(f"generated {args.games} random 4-player games, {moves_total} moves, "
          f"in {generated:.2f} s ({moves_total / generated:,.0f} moves/s with full legal-move lists)")

    parse_time, _ = best_of(3, lambda: len(notation.parse(text)))
    print(f"parse     {parse_time:.3f} s  {moves_total / parse_time:>10,.0f} events/s  "
          f"({len(text) / parse_time / 1e6:.1f} MB/s, LALR, one parse per file)")

    def validate():
        plies = 0
        for record in notation.parse(text):
            outcome = notation.run(record)
            assert outcome.valid
            plies += outcome.plies
        return plies

    validate_time, plies = best_of(3, validate)
    assert plies == moves_total
    print(f"validate  {validate_time:.3f} s  {moves_total / validate_time:>10,.0f} moves/s  "
          f"(parse + rules + replay, library)")

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.tilewe"
        path.write_text(text)
        exe = Path(sys.executable).with_name("notation")
        cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "notation"]
        cli_time, proc = best_of(3, lambda: subprocess.run(
            cmd + ["validate", "--quiet", str(path)], capture_output=True))
        assert proc.returncode == 0, proc.stdout[-500:]
        print(f"CLI       {cli_time:.3f} s  {moves_total / cli_time:>10,.0f} moves/s  "
              f"(`notation validate` end to end, start-up included)")

    def generate():
        count = 0
        for board in positions:
            count += len(game.legal_moves(board))
        return count

    gen_time, count = best_of(3, generate)
    print(f"legal     {gen_time:.3f} s  {len(positions) / gen_time:>10,.0f} generations/s  "
          f"({len(positions)} positions, {count / len(positions):.0f} moves each on average)")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
