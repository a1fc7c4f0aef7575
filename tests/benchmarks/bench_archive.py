"""Archive scale: figures, not timed tests.

    python tests/benchmarks/bench_archive.py [--sizes 10,50,200]

* peak RSS and wall time of ``notation validate`` on archives of 10, 50 and
  200 MB (random Tilewe games from ``notation random``, repeated to size);
* ``--jobs 1`` against ``--jobs 2`` on the 50 MB archive;
* time to the first output line of ``replay --json`` on the largest archive.

Every game's ``validate`` path against python-chess is ``bench_peers.py``'s.
"""
from __future__ import annotations

import argparse
import io
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import notation

ROOT = Path(__file__).resolve().parents[2]
NOTATION = str(Path(sys.executable).with_name("notation"))

def timed_run(args: list[str]) -> tuple[float, int, str]:
    """(wall seconds, peak RSS in KB, stderr) of one command."""
    out = subprocess.run(["/usr/bin/time", "-v", NOTATION, *args], capture_output=True,
                         text=True)
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", out.stderr).group(1))
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", out.stderr)
    parts = [float(p) for p in wall.group(1).split(":")]
    seconds = parts[-1] + 60 * parts[-2] + (3600 * parts[-3] if len(parts) > 2 else 0)
    return seconds, rss, out.stderr


def first_line_seconds(path: Path) -> float:
    start = time.perf_counter()
    proc = subprocess.Popen([NOTATION, "replay", "--json", "--jobs", "1", str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    proc.stdout.readline()
    took = time.perf_counter() - start
    proc.kill()
    proc.wait()
    return took


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10,50,200", help="archive sizes in MB")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    folder = Path(tempfile.mkdtemp(prefix="notation-bench-"))
    try:
        base = subprocess.run([NOTATION, "random", "tilewe", "--count", "2000", "--seed", "1"],
                              capture_output=True, text=True, check=True).stdout
        print(f"base archive: 2,000 random 4-player Tilewe games, {len(base) / 1e6:.1f} MB")
        base_plies = sum(o.plies for o in notation.read_verdicts(io.StringIO(base), "tilewe"))
        print("\n| archive | validate --jobs 1 | peak RSS | moves/s |")
        print("|---|---|---|---|")
        paths = {}
        for size in sizes:
            path = folder / f"archive-{size}.tilewe"
            copies = 0
            with open(path, "w") as fh:
                while fh.tell() < size * 1_000_000:
                    fh.write(base + "\n")
                    copies += 1
            paths[size] = path
            seconds, rss, _ = timed_run(["validate", "-q", "--jobs", "1", str(path)])
            plies = copies * base_plies  # (--quiet prints no summary to count them from)
            print(f"| {path.stat().st_size / 1e6:.0f} MB | {seconds:.1f} s | {rss / 1024:.0f} MB "
                  f"| {plies / seconds:,.0f} |")
        middle = paths[sorted(paths)[len(paths) // 2]]
        one, _, _ = timed_run(["validate", "-q", "--jobs", "1", str(middle)])
        two, rss2, _ = timed_run(["validate", "-q", "--jobs", "2", str(middle)])
        print(f"\n--jobs 2 on {middle.stat().st_size / 1e6:.0f} MB: {two:.1f} s against {one:.1f} s "
              f"with --jobs 1: {one / two:.2f}x (peak RSS of the main process {rss2 / 1024:.0f} MB)")
        largest = paths[max(paths)]
        print(f"first line of replay --json on {largest.stat().st_size / 1e6:.0f} MB: "
              f"{first_line_seconds(largest):.2f} s")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
