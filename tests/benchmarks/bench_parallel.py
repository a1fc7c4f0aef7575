"""Parallel work's cost and ``merge``'s growth: figures, not tests.

    python tests/benchmarks/bench_parallel.py [--games 3000] [--runs 5]

* ``validate --jobs 2`` against ``--jobs 1`` on ``--games`` random Tilewe games: the CPU
  of the command and its workers (``getrusage`` of the children, which counts the workers
  the command waited for), the median of side-by-side rounds' ratios;
* ``replay --json``'s first line, ``--jobs 2`` against ``--jobs 1``: the wall time from the
  start to the first line on its standard output (a latency: on a busy machine, take the
  least of the rounds), as the difference in seconds;
* ``merge`` of 4,096 copies of one game, each with a comment, against 1,024 copies (CPU).

The speed issue asks for at most 1.05x, at most 0.1 s, and at most 4.5x.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from child_cpu import cpu_of  # noqa: E402

NOTATION = str(Path(sys.executable).with_name("notation"))
JOBS, FIRST_LINE, MERGE = 1.05, 0.1, 4.5


def first_line_seconds(command: list[str]) -> float:
    """Wall seconds from the start of ``command`` to its first line of output."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert child.stdout is not None
    child.stdout.readline()
    seconds = time.perf_counter() - start
    child.kill()
    child.wait()
    return seconds


def copies(folder: Path, count: int) -> list[str]:
    """``count`` files, each the same random game with a comment of its own."""
    game = subprocess.run([NOTATION, "random", "tilewe", "--count", "1", "--seed", "4"],
                          capture_output=True, text=True, check=True).stdout
    head, _, body = game.partition("\n\n")
    paths = []
    for number in range(count):
        path = folder / f"copy{number}.tilewe"
        path.write_text(f"{head}\n\n{{ copy {number} }} {body}", encoding="utf-8")
        paths.append(str(path))
    return paths


def rows(games: int = 3000, runs: int = 5) -> list[tuple[str, float, str, bool]]:
    folder = Path(tempfile.mkdtemp(prefix="notation-parallel-"))
    try:
        archive = folder / "archive.tilewe"
        with open(archive, "w", encoding="utf-8") as out:
            subprocess.run([NOTATION, "random", "tilewe", "--players", "4", "--count",
                            str(games), "--seed", "11"], stdout=out, check=True)
        ratios, lines = [], {1: float("inf"), 2: float("inf")}
        for _ in range(runs):
            one = cpu_of([NOTATION, "validate", "-q", "--jobs", "1", str(archive)])
            two = cpu_of([NOTATION, "validate", "-q", "--jobs", "2", str(archive)])
            ratios.append(two / one)
            for jobs in lines:
                lines[jobs] = min(lines[jobs], first_line_seconds(
                    [NOTATION, "replay", "--json", "--jobs", str(jobs), str(archive)]))
        (folder / "small").mkdir()
        (folder / "large").mkdir()
        small, large = copies(folder / "small", 1024), copies(folder / "large", 4096)
        merged = min(cpu_of([NOTATION, "merge", *large]) / cpu_of([NOTATION, "merge", *small])
                     for _ in range(max(1, runs // 2)))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    jobs = statistics.median(ratios)
    late = lines[2] - lines[1]
    print(f"validate --jobs 2 / --jobs 1 CPU, rounds: "
          f"{' '.join(f'{r:.2f}' for r in sorted(ratios))}; replay --json first line: "
          f"{lines[1]:.2f} s (--jobs 1), {lines[2]:.2f} s (--jobs 2)")
    return [("`validate --jobs 2` CPU against `--jobs 1`", jobs, f"<= {JOBS}x", jobs <= JOBS),
            ("`replay --json` first line, `--jobs 2` later than `--jobs 1` by (s)", late,
             f"<= {FIRST_LINE}", late <= FIRST_LINE),
            ("`merge` of 4,096 copies against 1,024 (CPU)", merged, f"<= {MERGE}x",
             merged <= MERGE)]


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    for name, value, target, met in rows(args.games, args.runs):
        print(f"| {name} | {value:.2f} | {target} | {'yes' if met else 'no'} |")


if __name__ == "__main__":
    main()
