"""Shared helpers: the Tilewe game, reference data, and running the CLI."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import settings

# Properties here are about correctness, not speed: a cold parser cache on a fresh
# machine can make one example slow, which must not read as a failure.
settings.register_profile("notation", deadline=None)
settings.load_profile("notation")

import notation
from notation.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
SAMPLES = ROOT / "samples"
SHARED = ROOT.parent / "shared"


def drawn_square_by_square(board) -> str:
    """A Tilewe board's TPN ranks drawn one tile at a time, as the notation defines them
    (what the position writers, in Python and compiled, are held to)."""
    import re

    ranks = []
    for y in range(19, -1, -1):
        row = "".join("." if board.color_at(x + 20 * y) is None
                      else "byrg"[board.color_at(x + 20 * y)] for x in range(20))
        ranks.append(re.sub(r"\.+", lambda run: str(len(run.group())), row))
    return "/".join(ranks)


def rows_as_lists(rows: dict) -> dict:
    """A game's export rows with every column's values as a list, whatever forms they
    came in (lists, ranges, ``Repeated``, ``Texts``): the rows two paths give compare
    equal so."""
    return {table: value if table == "games" else
            {name: list(column) for name, column in value.items()}
            for table, value in rows.items()}


def reference_games(game: str) -> list[dict]:
    with open(DATA / game / "games.jsonl", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


@pytest.fixture(scope="session")
def tilewe() -> notation.Game:
    return notation.get_game("tilewe")


def invoke(*args: str, input: str | bytes | None = None):
    """Run the CLI in-process; returns click's Result (exit_code, output)."""
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def notation_exe() -> list[str]:
    """The installed console script next to this interpreter, else ``python -m notation``."""
    exe = Path(sys.executable).with_name("notation")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "notation"]


def run_cli(*args: str, input: str | None = None, cwd: str | os.PathLike | None = None):
    return subprocess.run(notation_exe() + list(args), input=input, capture_output=True,
                          text=True, cwd=cwd, timeout=300)


def interruptible() -> None:
    """``preexec_fn`` for a child that must take Ctrl-C: a shell's background job (a CI
    runner, ``make test &``) starts with SIGINT ignored, and Python keeps it ignored."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_DFL)
