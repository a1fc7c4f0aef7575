"""Text cut into games: the blank lines between games belong to none of them.

A game is held whole and refused past MAX_GAME_CHARS; the blank lines after a game's
last line (or before the first game) are neither counted into a game nor held, and the
games after them keep their line numbers, in every reader: one pass (``tags``, ``cat``),
batches (``validate``, ``--jobs``), and skimming (``select --tag``).
"""
from __future__ import annotations

import base64
import gzip
import itertools
import os
import random
import subprocess
import tracemalloc
from pathlib import Path

import pytest

from notation.core import limits
from notation.read import text as text_stage
from notation.core.errors import InputError

from conftest import HANG_BREAKER, SAMPLES, notation_exe

BLOCK = 64 << 10
FIRST = '[Game "tilewe"]\n[Players "2"]\n\n1. I4n-a1a1\n'
SECOND = '[Game "flows"]\n\n1. x\n'


def fresh_blanks(blocks: int, line: str = "\n"):
    """Blocks of blank lines, each a new string (as a file's decoded blocks are): holding
    them would show in the memory traced."""
    for _ in range(blocks):
        yield line * (BLOCK // len(line))


def cut(*runs: str) -> list[tuple[int, str]]:
    return list(text_stage.pieces(text_stage.chunks(runs)))


def test_blank_lines_between_games_are_in_no_game(monkeypatch):
    """Far more blank lines than a game may hold, between games and before the first: both
    games read, each at its own line."""
    monkeypatch.setattr(limits, "MAX_GAME_CHARS", 1 << 16)
    gap = 64 * BLOCK + 30000  # lines of "\n", then of " \t\n"
    got = cut(FIRST, *fresh_blanks(64), " \t\n" * 30000, SECOND, "\n \n\t")
    assert got == [(1, FIRST), (5 + gap, SECOND)]
    assert cut(*fresh_blanks(4), "  \n", FIRST) == [(4 * BLOCK + 2, FIRST)]
    assert cut(*fresh_blanks(4), " \n\t") == [] == cut()


def test_blank_lines_within_a_game_are_its_own(monkeypatch):
    """Between a game's tags and moves, or between its moves, blank lines are the game's:
    kept as written, and counted against the limit."""
    monkeypatch.setattr(limits, "MAX_GAME_CHARS", 1 << 16)
    game = '[Game "tilewe"]\n \n\t\n' + "\n" * 500 + "1. I4n-a1a1\n  \n\n2. x\n"
    assert cut(game, "\n" * 9, SECOND) == [(1, game), (game.count("\n") + 10, SECOND)]
    for before in ('[Game "tilewe"]\n', FIRST):
        with pytest.raises(InputError, match="^<text>: error: the game from line 1 runs past "
                                             "65,536 characters"):
            cut(before, *fresh_blanks(2, " \n"), "2. x\n")
    # Before a game's first body line a tag line would not end it: its blank lines are
    # refused once past the limit, endless as they may be.
    endless = itertools.chain(['[Game "tilewe"]\n'], iter(lambda: "\n" * BLOCK, None))
    with pytest.raises(InputError, match="the game from line 1 runs past 65,536"):
        list(text_stage.pieces(text_stage.chunks(endless)))


def test_blank_lines_between_games_are_not_held():
    """A run of blank lines as long as the largest game, under the default limit: read in
    the memory of the games around it."""
    runs = (FIRST, *fresh_blanks(limits.MAX_GAME_CHARS // BLOCK + 16), SECOND)
    tracemalloc.start()
    try:
        got = list(text_stage.pieces(text_stage.chunks(iter(runs))))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [text for _, text in got] == [FIRST, SECOND]
    assert peak < 1 << 20, peak


# -- every reader, in bounded memory -------------------------------------------------------

BAD = '[Game "tilewe"]\n[Players "2"]\n\n1. Z9z-q99 *\n'


def limited(address_space: int, cpu: int = 300):
    """``preexec_fn`` for a child held to ``address_space`` bytes and ``cpu`` seconds of
    CPU (a hang breaker, never a measure)."""
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    return limit


@pytest.fixture(scope="module")
def spaced(tmp_path_factory) -> tuple[Path, str, int]:
    """A ``.gz`` of a valid game (2 MB of comments make the file big enough for worker
    processes), 96 MiB of blank lines (more than a game may hold), and an invalid game; the
    first game's text, and the line the second begins at."""
    rows = random.Random(5)
    noise = "".join(f"; {base64.b64encode(rows.randbytes(57)).decode()}\n" for _ in range(30000))
    first = (SAMPLES / "tilewe" / "tw-sample-1.tilewe").read_text().replace(
        "\n1. ", "\n" + noise + "1. ", 1)
    blanks = b"\n" * (48 << 20)
    path = tmp_path_factory.mktemp("spaced") / "spaced.tilewe.gz"
    with open(path, "wb") as out:
        out.write(gzip.compress(first.encode(), 6, mtime=0))
        for _ in range(2):
            out.write(gzip.compress(blanks, 6, mtime=0))
        out.write(gzip.compress(BAD.encode(), 6, mtime=0))
    assert path.stat().st_size > 1 << 20
    return path, first, first.count("\n") + (96 << 20) + 1


@pytest.mark.slow
@pytest.mark.parametrize("command", [["validate"], ["validate", "--jobs", "2"], ["tags"],
                                     ["cat"], ["select", "--tag", "Players=2"]], ids=" ".join)
def test_games_far_apart_read_in_every_reader(spaced, command):
    """Two games 96 MiB of blank lines apart, under a 256 MiB address space: both read, the
    second's errors at its own lines (they were refused as one game past MAX_GAME_CHARS)."""
    path, first, line = spaced
    done = subprocess.run(notation_exe() + command + [str(path)], capture_output=True,
                          text=True, timeout=HANG_BREAKER, preexec_fn=limited(256 << 20),
                          env=dict(os.environ, NO_COLOR="1"))
    expected = {
        "validate": (1, [f"{path}: game 1: ok, 58 plies",
                         f"{path}:{line + 3}:4: error: game 2, ply 1 (Z9z-q99): unknown piece "
                         f"'Z9'"]),
        "tags": (0, [f'{path}:1: Game="tilewe" Players="4"', f'{path}:2: Game="tilewe" '
                                                             f'Players="2"']),
        "cat": (0, [first.rstrip("\n") + "\n\n" + BAD]),
        "select": (0, [BAD])}[command[0]]
    assert done.returncode == expected[0], done.stderr[-2000:]
    if command[0] in ("cat", "select"):
        assert done.stdout == expected[1][0]
    else:
        lines = done.stdout.splitlines()
        assert [row[:len(want)] for row, want in zip(lines, expected[1])] == expected[1]
