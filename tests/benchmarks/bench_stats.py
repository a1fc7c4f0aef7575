"""``stats`` against ``validate`` on one core: figures, not timed tests.

    python tests/benchmarks/bench_stats.py [--games 3000] [--runs 5] [--games-of tilewe,flows]

Both read the same archive of random games (``notation random``, repeated to
``--games``) with ``--jobs 1``; each run's CPU time (user + system, from
``getrusage``) is taken, the two commands interleaved, and the least of ``--runs``
kept, so other load on the machine weighs as little as it can. ``stats`` reads valid
plain games on the reader's fast path, as ``validate`` does: the target is a ratio
of at most 1.25 (issue 23).
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from child_cpu import cpu_of  # noqa: E402

NOTATION = str(Path(sys.executable).with_name("notation"))
TARGET = 1.25
#: Different games in each archive (the rest are copies): ``random`` is slow for some.
DISTINCT = {"tilewe": 300, "flows": 200, "philosophy": 200, "sanguine": 100, "nomic": 50}


def cpu_seconds(args: list[str]) -> float:
    """CPU time (user + system) of one run of ``notation`` with ``args``."""
    return cpu_of([NOTATION, *args])


def archive(folder: Path, game: str, games: int) -> tuple[Path, int]:
    """An archive of about ``games`` random games of ``game`` (copies of a few hundred
    distinct ones), and how many games it holds."""
    distinct = min(games, DISTINCT.get(game, 100))
    made = subprocess.run([NOTATION, "random", game, "--count", str(distinct), "--seed", "23"],
                          capture_output=True, text=True, check=False)
    if made.returncode:
        sys.exit(f"notation random {game} failed: {made.stderr.strip()}")
    text = made.stdout.rstrip("\n")
    copies = max(1, round(games / distinct))
    path = folder / f"archive.{game}"
    path.write_text("\n\n".join([text] * copies) + "\n", encoding="utf-8")
    return path, copies * distinct


def measure(path: Path, runs: int) -> tuple[float, float]:
    """The least CPU time of ``validate`` and of ``stats`` over ``runs`` interleaved runs."""
    validate = stats = float("inf")
    for _ in range(runs):
        validate = min(validate, cpu_seconds(["validate", "--jobs", "1", str(path)]))
        stats = min(stats, cpu_seconds(["stats", "--jobs", "1", str(path)]))
    return validate, stats


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--games-of", default="tilewe", help="Comma-separated game names.")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="notation-stats-"))
    rows = []
    try:
        for game in args.games_of.split(","):
            path, count = archive(folder, game, args.games)
            validate, stats = measure(path, args.runs)
            rows.append((game, count, validate, stats))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"`stats` against `validate`, --jobs 1, CPU seconds (least of {args.runs})\n")
    print(f"| game | games | validate | stats | ratio | target <= {TARGET} |")
    print("|---|---|---|---|---|---|")
    for game, count, validate, stats in rows:
        ratio = stats / validate
        print(f"| {game} | {count:,} | {validate:.2f} | {stats:.2f} | {ratio:.2f}x | "
              f"{'met' if ratio <= TARGET else 'not met'} |")


if __name__ == "__main__":
    main()
