"""Archive tools on a large archive: figures, not timed tests.

    python tests/benchmarks/bench_tools.py [--mb 100]

``tags``, ``select --tag``, ``dedupe`` and ``validate`` on the same archive
(random Tilewe games from ``notation random``, repeated to size), one process.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

NOTATION = str(Path(sys.executable).with_name("notation"))


def seconds(*args: str) -> float:
    start = time.perf_counter()
    subprocess.run([NOTATION, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=int, default=100)
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="notation-tools-"))
    try:
        base = subprocess.run([NOTATION, "random", "tilewe", "--count", "2000", "--seed", "2"],
                              capture_output=True, text=True, check=True).stdout
        path = folder / "archive.tilewe"
        with open(path, "w") as fh:
            while fh.tell() < args.mb * 1_000_000:
                fh.write(base + "\n")
        size = path.stat().st_size / 1e6
        figures = {
            "tags": seconds("tags", str(path)),
            "select --tag Round=7": seconds("select", "--tag", "Round=7", str(path)),
            "dedupe": seconds("dedupe", str(path)),
            "validate --jobs 1": seconds("validate", "-q", "--jobs", "1", str(path)),
        }
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    tags = figures["tags"]
    print(f"archive: {size:.0f} MB of random four-player Tilewe games\n")
    print("| command | time | relative to tags |")
    print("|---|---|---|")
    for name, value in figures.items():
        print(f"| `notation {name}` | {value:.1f} s | {value / tags:.1f}x |")


if __name__ == "__main__":
    main()
