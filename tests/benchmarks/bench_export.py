"""``export --to parquet`` against ``validate`` on the same archive: figures, not tests.

    python tests/benchmarks/bench_export.py [--games 3000] [--runs 9] [ARCHIVE]

The archive is ``--games`` random four-player Tilewe games (``notation random``, seed 11,
the games of every run the same), or the one named. Both commands run on one core
(``--jobs 1``), each as its own process, in rounds that run one then the other; each
round's ratio is export's CPU time (user and system of the child, ``getrusage``) over
validate's, and the row is the median of the rounds' ratios: on a shared machine whose
speed drifts (by a third between minutes, measured), two runs side by side see the same
machine where the least of each command's runs need not. The least CPU times and the
largest peak memory are printed too. The data issue asks export for at least half
validate's speed: a ratio of at most 2, with peak memory under 150 MB.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from child_cpu import cpu_of, peak_mb  # noqa: E402

NOTATION = str(Path(sys.executable).with_name("notation"))
TARGET = 2.0
MEMORY_MB = 150


def run(command: list[str]) -> tuple[float, float]:
    """CPU seconds and peak resident megabytes of one child running ``command``."""
    return cpu_of(command), peak_mb()


def measure(archive: Path, runs: int, folder: Path
            ) -> tuple[dict[str, tuple[float, float]], list[float]]:
    """The least CPU and the peak memory of each command over ``runs`` rounds, and each
    round's ratio of export's CPU to validate's."""
    found: dict[str, tuple[float, float]] = {}
    ratios = []
    for _ in range(runs):
        this: dict[str, float] = {}
        for name, command in (
                ("validate", [NOTATION, "validate", "-q", "--jobs", "1", str(archive)]),
                ("export", [NOTATION, "export", "--jobs", "1", "--to", "parquet",
                            "-o", str(folder / "tables"), str(archive)])):
            shutil.rmtree(folder / "tables", ignore_errors=True)
            cpu, memory = run(command)
            this[name] = cpu
            least, peak = found.get(name, (cpu, memory))
            found[name] = (min(least, cpu), max(peak, memory))
        ratios.append(this["export"] / this["validate"])
    return found, ratios


def row(games: int = 3000, runs: int = 9, archive: Path | None = None) -> tuple[str, float, float]:
    """``("export against validate", ratio, target)`` for the one-table bench."""
    folder = Path(tempfile.mkdtemp(prefix="notation-export-"))
    try:
        if archive is None:
            archive = folder / "archive.tilewe"
            with open(archive, "w", encoding="utf-8") as out:
                subprocess.run([NOTATION, "random", "tilewe", "--players", "4", "--count",
                                str(games), "--seed", "11"], stdout=out, check=True)
        found, ratios = measure(archive, runs, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    ratio = statistics.median(ratios)
    print(f"least: validate {found['validate'][0]:.2f} s, export {found['export'][0]:.2f} s; "
          f"rounds' ratios {' '.join(f'{r:.2f}' for r in sorted(ratios))}; peak memory "
          f"of the runs {found['export'][1]:.0f} MB (target under {MEMORY_MB})")
    return "export --to parquet against validate (CPU)", ratio, TARGET


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("archive", nargs="?", type=Path)
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--runs", type=int, default=9)
    args = ap.parse_args()
    name, ratio, target = row(args.games, args.runs, args.archive)
    print(f"| {name} | {ratio:.2f}x | <= {target}x | {'yes' if ratio <= target else 'no'} |")


if __name__ == "__main__":
    main()
