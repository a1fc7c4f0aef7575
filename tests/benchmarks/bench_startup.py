"""Start-up cost: CPU time of short commands against ``python -c pass``, one interpreter.

    python tests/benchmarks/bench_startup.py [--runs 7] [--wheel]

Each command runs as its own process, interleaved with the others round by
round; the figure kept is the minimum CPU time (user + system of the child,
from ``getrusage``) over the runs, so other load on the machine weighs as
little as it can. The issue's target is 4x ``python -c pass`` for a small
``validate``. With ``--wheel`` the commands run from a wheel built here and installed in
a fresh virtual environment beside python-chess (a plain interpreter: no editable
install's finder in its ``site``), and ``python -c "import chess.pgn"`` runs there too:
the speed issue asks for at most 5x ``python -c pass`` there, and at most half of
python-chess's import.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from child_cpu import cpu_of  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = str(ROOT / "samples" / "tilewe" / "tw-sample-1.tilewe")
TARGET = 4.0

#: The console script next to this interpreter (the one the peer runs on).
NOTATION = str(Path(sys.executable).with_name("notation"))

#: What is measured: a name and its command line.
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "notation --help": [NOTATION, "--help"],
    "notation validate (one small file)": [NOTATION, "validate", SAMPLE],
}


#: As an installed package runs: with its byte code written (pip compiles it at install).
ENVIRONMENT = {name: value for name, value in os.environ.items()
               if name != "PYTHONDONTWRITEBYTECODE"}


def cpu_seconds(command: list[str]) -> float:
    """User + system CPU of one child process running ``command``."""
    return cpu_of(command, cwd=ROOT, env=ENVIRONMENT)


def measure(runs: int) -> dict[str, float]:
    """The minimum CPU time of each command over ``runs`` interleaved rounds."""
    best = {name: float("inf") for name in COMMANDS}
    for _ in range(runs):
        for name, command in COMMANDS.items():
            best[name] = min(best[name], cpu_seconds(command))
    return best


def wheel_commands(folder: Path) -> dict[str, list[str]]:
    """The commands run from a wheel of this checkout installed in a fresh environment in
    ``folder``, with python-chess beside it."""
    import subprocess
    import venv
    dist = folder / "dist"
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(dist), str(ROOT)],
                   check=True, capture_output=True)
    (wheel,) = dist.glob("game_notation-*.whl")
    venv.EnvBuilder(with_pip=True).create(folder / "venv")
    python = str(folder / "venv" / "bin" / "python")
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    str(wheel), "chess"], check=True)
    notation = str(folder / "venv" / "bin" / "notation")
    return {"python -c pass": [python, "-c", "pass"],
            "python -c \"import chess.pgn\"": [python, "-c", "import chess.pgn"],
            "notation --help": [notation, "--help"],
            "notation validate (one small file)": [notation, "validate", SAMPLE]}


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--wheel", action="store_true",
                    help="Run the commands from a wheel installed in a fresh environment.")
    args = ap.parse_args()
    if args.wheel:
        report(wheel_figures(args.runs), args.runs, WHEEL_TARGET)
        return
    report(warm_figures(args.runs), args.runs, TARGET)


#: The speed issue's targets in a wheel install: times ``python -c pass``, and a share of
#: ``python -c "import chess.pgn"``.
WHEEL_TARGET, CHESS_SHARE = 5.0, 0.5


def warm_figures(runs: int) -> dict[str, float]:
    """:func:`measure` after two rounds that warm the byte code, Lark's cache and the
    terminal tables."""
    for _ in range(2):
        measure(1)
    return measure(runs)


def wheel_figures(runs: int) -> dict[str, float]:
    """The figures of the commands run from a wheel installed in a fresh environment."""
    import shutil
    import tempfile
    folder = Path(tempfile.mkdtemp(prefix="notation-wheel-"))
    saved = dict(COMMANDS)
    try:
        COMMANDS.clear()
        COMMANDS.update(wheel_commands(folder))
        return warm_figures(runs)
    finally:
        COMMANDS.clear()
        COMMANDS.update(saved)
        shutil.rmtree(folder, ignore_errors=True)


def report(best: dict[str, float], runs: int, target: float) -> None:
    """Print the table of the figures."""
    args = argparse.Namespace(runs=runs)
    base = best["python -c pass"]
    print(f"start-up: CPU time, minimum of {args.runs} interleaved runs "
          f"({os.path.basename(sys.executable)} {sys.version.split()[0]})\n")
    print("| command | CPU | ratio to `python -c pass` |")
    print("|---|---|---|")
    for name, value in best.items():
        print(f"| `{name}` | {value * 1000:.0f} ms | {value / base:.1f}x |")
    ratio = best["notation validate (one small file)"] / base
    print(f"\nsmall validate: {ratio:.1f}x `python -c pass` (target <= {target:.0f}x): "
          f"{'met' if ratio <= target else 'not met'}")
    chess = best.get('python -c "import chess.pgn"')
    if chess is not None:
        share = best["notation validate (one small file)"] / chess
        print(f"small validate: {share:.2f}x `import chess.pgn` (target <= {CHESS_SHARE}x): "
              f"{'met' if share <= CHESS_SHARE else 'not met'}")


if __name__ == "__main__":
    main()
