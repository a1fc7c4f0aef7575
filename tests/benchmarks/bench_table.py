"""The benchmark table in one run: every row a ratio measured here, with its peer.

    python tests/benchmarks/bench_table.py [--runs 5]

Each row comes from the script that measures it (CPU time, one core, runs interleaved
with the peer's, the least of several): the peers are python-chess's ``read_game``
(``bench_peers.py``), pgn-extract (``bench_select.py``, ``bench_validate.py``), ``python -c pass``
(``bench_startup.py``), ``validate`` itself (``bench_stats.py``, ``bench_export.py``,
and the cost of generating games), the old way of writing pictures
(``bench_render.py``), ``explore`` against ``validate`` (``bench_explore.py``),
python-chess's push and pop (``bench_positions.py``), ``--jobs 2`` and ``merge``
(``bench_parallel.py``), and the language server's whole check of an archive on open,
for one game's edit (``bench_lsp.py``). ``make bench`` prints it; the Speed page of the handbook carries the last figures.
"""
from __future__ import annotations

import argparse
import hashlib
import shutil
import subprocess
import sys
import tempfile
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import bench_explore  # noqa: E402
import bench_export  # noqa: E402
import bench_lsp  # noqa: E402
import bench_parallel  # noqa: E402
import bench_peers  # noqa: E402
import bench_positions  # noqa: E402
import bench_render  # noqa: E402
import bench_select  # noqa: E402
import bench_startup  # noqa: E402
import bench_stats  # noqa: E402
import bench_tilewe_moves  # noqa: E402
import bench_validate  # noqa: E402
from child_cpu import cpu_of  # noqa: E402

from notation.archive import Duplicates  # noqa: E402

NOTATION = str(Path(sys.executable).with_name("notation"))
#: The issue's figure: generating random Tilewe games cost about 45 times validating them.
RANDOM_BEFORE = 45.0

Row = tuple[str, float, str, bool]


def peers(runs: int) -> list[Row]:
    """Each game against python-chess: at least 5 rounds, each round being short."""
    chess, ours = bench_peers.measured(list(bench_peers.GAMES), max(runs, 5))
    return [(f"{name} validate, moves/s against python-chess `read_game`", ours[name] / chess,
             f">= {target}x", ours[name] / chess >= target)
            for name, (_count, target) in bench_peers.GAMES.items()]


def startup(runs: int) -> list[Row]:
    figures = bench_startup.measure(runs)
    base = figures["python -c pass"]
    ratio = figures["notation validate (one small file)"] / base
    wheel = bench_startup.wheel_figures(runs)
    in_wheel = wheel["notation validate (one small file)"] / wheel["python -c pass"]
    share = wheel["notation validate (one small file)"] / wheel['python -c "import chess.pgn"']
    return [("start-up, one small file, against `python -c pass`", ratio,
             f"<= {bench_startup.TARGET}x", ratio <= bench_startup.TARGET),
            ("start-up in a wheel install, against `python -c pass`", in_wheel,
             f"<= {bench_startup.WHEEL_TARGET}x", in_wheel <= bench_startup.WHEEL_TARGET),
            ("start-up in a wheel install, against `python -c \"import chess.pgn\"`", share,
             f"<= {bench_startup.CHESS_SHARE}x", share <= bench_startup.CHESS_SHARE)]


def stats(runs: int, folder: Path) -> list[Row]:
    path, _count = bench_stats.archive(folder, "tilewe", 3000)
    validate, figures = bench_stats.measure(path, runs)
    ratio = figures / validate
    return [("`stats` against `validate` (Tilewe, 3,000 games)", ratio,
             f"<= {bench_stats.TARGET}x", ratio <= bench_stats.TARGET)]


def select() -> list[Row]:
    name, ratio, target = bench_select.main([])
    return [(f"{name}", ratio, f">= {target}x", ratio >= target)]


def render(runs: int, folder: Path) -> list[Row]:
    rows = []
    for game in bench_render.PICTURED:
        path = folder / f"render.{game}"
        path.write_text(subprocess.run([NOTATION, "random", game, "--count", "20", "--seed",
                                        "23"], capture_output=True, text=True,
                                       check=True).stdout, encoding="utf-8")
        before, now = bench_render.measure(path, runs)
        rows.append((f"`render --html` ({game}, 20 games), speed-up over ElementTree",
                     before / now, f">= {bench_render.TARGET}x",
                     before / now >= bench_render.TARGET))
    return rows


def dedupe() -> list[Row]:
    """Held memory per distinct game of ``dedupe``'s table (tracemalloc, 100,000 games)."""
    games = 100_000
    keys = [hashlib.sha256(n.to_bytes(8, "little")).digest()[:16] for n in range(games)]
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        duplicates = Duplicates()
        for number, key in enumerate(keys):
            duplicates.first_copy(key, f"archive-{number * 10 // games}.tilewe", number + 1)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    per_game = (held - before) / games
    return [("`dedupe` memory per distinct game (bytes)", per_game, "<= 100", per_game <= 100)]


def cpu(command: list[str], out: Path | None = None) -> float:
    return cpu_of(command, out, check=True)


#: Copies of the generated games that ``validate`` checks (300 games check in about as
#: long as the command starts: the difference of the two would be noise).
CHECKED_COPIES = 20


def random_games(runs: int, folder: Path) -> list[Row]:
    """Generating 300 four-player games against validating them, less each command's
    start-up (a run on one game): the issue's figure was 45x."""
    path = folder / "random.tilewe"
    copies = folder / "random-copies.tilewe"
    made = checked = float("inf")
    for _ in range(runs):
        made = min(made, cpu([NOTATION, "random", "tilewe", "--players", "4", "--count", "300",
                              "--seed", "3", "--jobs", "1"], path)
                   - cpu([NOTATION, "random", "tilewe", "--count", "1", "--seed", "3"]))
        copies.write_text("\n".join([path.read_text()] * CHECKED_COPIES))
        checked = min(checked, (cpu([NOTATION, "validate", "-q", "--jobs", "1", str(copies)])
                                - cpu([NOTATION, "validate", "-q", "--jobs", "1",
                                       str(Path(__file__).parents[2] /
                                           "samples/tilewe/tw-sample-1.tilewe")]))
                      / CHECKED_COPIES)
    faster = RANDOM_BEFORE / (made / checked)
    legal = bench_tilewe_moves.one_round()["legal_moves"]
    return [(f"`random tilewe --players 4`: faster than 45x validating (now {made / checked:.1f}x; "
             f"`legal_moves` {legal:,.0f}/s)", faster, ">= 4x", faster >= 4)]


def validate() -> list[Row]:
    name, ratio, target = bench_validate.main([])
    return [(name, ratio, f">= {target}x", ratio >= target)]


def parallel(runs: int) -> list[Row]:
    return bench_parallel.rows(3000, runs)


def positions(runs: int) -> list[Row]:
    return [(name, ratio, f">= {target}x", ratio >= target)
            for name, ratio, target in bench_positions.rows(max(runs, 3))]


def explore(runs: int) -> list[Row]:
    return [(name, ratio, f"<= {target}x", ratio <= target)
            for name, ratio, target in bench_explore.rows(3000, max(runs, 5))]


def export(runs: int) -> list[Row]:
    name, ratio, target = bench_export.row(3000, runs)
    return [(name, ratio, f"<= {target}x", ratio <= target)]


def lsp(runs: int) -> list[Row]:
    name, ratio, target = bench_lsp.row(1000, runs)
    return [(name, ratio, f"<= {target}x", ratio <= target)]


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="notation-bench-"))
    try:
        rows = [*peers(args.runs), *startup(args.runs), *stats(args.runs, folder), *select(),
                *validate(), *render(args.runs, folder), *dedupe(),
                *random_games(args.runs, folder),
                *export(args.runs), *explore(args.runs), *positions(args.runs),
                *parallel(args.runs), *lsp(args.runs)]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"\nIssue 23 (and the data issue's export, the language server's edit), CPU time, "
          f"one core, least of {args.runs}:\n")
    print("| row | measured | target | met |")
    print("|---|---|---|---|")
    for name, value, target, met in rows:
        print(f"| {name} | {value:.2f}{'' if 'bytes' in name or '(s)' in name else 'x'} | {target} | "
              f"{'yes' if met else 'no'} |")


if __name__ == "__main__":
    main()
