"""Tilewe's compiled position text (``compiled/text.c``) equals its Python definition.

Both paths are tested: the compiled module must be built here (the install compiles it
where a C compiler is at hand, as on every machine of this project's), and each test
that replays runs again with the module taken away, as on a machine without one.
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.core import registry
from notation.core.ast import EventNode, Tag
from notation.core.game import Game
from notation.core.reading import chunks, records_of
from notation.games.tilewe import state
from notation.games.tilewe.state import Board
from notation.core.replay import run
from notation.tables.rows import plain_rows, table_rows

from conftest import drawn_square_by_square, SAMPLES

TILEWE = registry.get("tilewe")
PATHS = ("compiled", "python")


@contextmanager
def taken(path: str) -> Iterator[None]:
    """Within: positions written by ``path`` (``python``: as if the module were missing)."""
    saved = state.compiled_board_text, state.compiled_position_text
    if path == "python":
        state.compiled_board_text = state.compiled_position_text = None
    try:
        yield
    finally:
        state.compiled_board_text, state.compiled_position_text = saved


def test_the_compiled_module_is_built() -> None:
    assert state.COMPILED, ("notation.games.tilewe.compiled.text was not built: install a C "
                            "compiler and the Python headers, then reinstall")


@st.composite
def boards(draw: st.DrawFn) -> Board:
    """Any tiles for 1 to 4 colours, no tile of two colours (legal or not: the text is
    only a drawing)."""
    players = draw(st.integers(1, 4))
    owner = draw(st.lists(st.integers(-1, players - 1), min_size=400, max_size=400))
    board = Board(players)
    board.own = [sum(1 << tile for tile, who in enumerate(owner) if who == p)
                 for p in range(players)]
    board.occupied = sum(board.own)
    board.used = [draw(st.integers(0, (1 << 21) - 1)) for _ in range(players)]
    return board


@given(boards(), st.sampled_from(["b", "y", "r", "g", "-"]))
@settings(max_examples=300, deadline=None)
def test_compiled_text_equals_the_python_definition(board: Board, mover: str) -> None:
    compiled = board.board_text()
    assert compiled == board.written_board_text() == drawn_square_by_square(board)
    hands = ",".join(f"{state.ALL_PIECES & ~used:x}" for used in board.used)
    assert state.compiled_position_text is not None
    assert (state.compiled_position_text(board.own, board.used, mover)
            == Board.position_of((compiled, hands), None if mover == "-"
                                 else "byrg".index(mover)))


def test_full_and_empty_boards() -> None:
    board = Board(4)
    assert board.board_text() == "/".join(["20"] * 20)
    board.own = [(1 << 400) - 1, 0, 0, 0]
    board.occupied = board.own[0]
    assert board.board_text() == "/".join(["b" * 20] * 20) == board.written_board_text()
    board.own = [1, 1 << 19, 1 << 380, 1 << 399]  # a1, t1, a20, t20
    board.occupied = sum(board.own)
    assert board.board_text() == "r18g/" + "20/" * 18 + "b18y"


@pytest.mark.parametrize("own", [[], [0] * 5, [-1], [1 << 400], [0, 1 << 450]])
def test_the_compiled_module_refuses_tiles_off_the_board(own: list[int]) -> None:
    assert state.compiled_board_text is not None and state.compiled_position_text is not None
    with pytest.raises((ValueError, TypeError)):
        state.compiled_board_text(own)
    with pytest.raises((ValueError, TypeError)):
        state.compiled_position_text(own, [0] * len(own), "b")


@pytest.mark.parametrize("used", [0, 5, (1 << 21) - 1, -1, -6, 1 << 21, (1 << 70) + 5])
def test_a_hand_takes_the_low_21_bits_as_python_does(used: int) -> None:
    assert state.compiled_position_text is not None
    hand = f"{state.ALL_PIECES & ~used:x}"
    assert state.compiled_position_text([0], [used], "b") == f"{'20/' * 19}20 b {hand}"


def test_the_compiled_module_refuses_other_types() -> None:
    assert state.compiled_board_text is not None and state.compiled_position_text is not None
    for wrong in ((1, 2), [1.0], ["x"], b"x" * 50):
        with pytest.raises(TypeError):
            state.compiled_board_text(wrong)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        state.compiled_position_text([0], [0], 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        state.compiled_position_text([0], ["0"], "b")  # type: ignore[list-item]
    with pytest.raises(TypeError):
        state.compiled_position_text([0], [0])  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="a hand for each colour"):
        state.compiled_position_text([0, 0], [0], "b")
    with pytest.raises(ValueError, match="one-letter mover"):
        state.compiled_position_text([0], [0], "by")


@pytest.mark.parametrize("path", PATHS)
@given(seed=st.integers(0, 2**32), players=st.integers(1, 4), blokus=st.booleans())
@settings(max_examples=30, deadline=None)
def test_each_path_writes_the_positions_the_game_neutral_hook_writes(
        path: str, seed: int, players: int, blokus: bool) -> None:
    """Every ply of a random game, under the Blokus tags too: the Tilewe hook (each move's
    colour written again) against ``Game.line_positions`` (the whole position at each
    ply, asking the board who is to move)."""
    assert TILEWE is not None
    rng = random.Random(seed)
    record = TILEWE.random_record(rng, {})
    record.tags = [Tag("Game", "tilewe"), Tag("Players", str(players))]
    if blokus:
        record.tags += [Tag("Corners", "fixed"), Tag("Scoring", "blokus")]
    record.items = [EventNode(e) for e in TILEWE.random_events(rng, record)]
    events = record.events
    with taken(path):
        ours = list(TILEWE.line_positions(TILEWE.start(record), events))
        neutral = list(Game.line_positions(TILEWE, TILEWE.start(record), events))
    assert ours == neutral and len(ours) == len(events) + 1
    for _mover, text, _full in ours:
        board = TILEWE.read_position(text)
        assert text.split(" ")[0] == drawn_square_by_square(board)


@pytest.mark.parametrize("sample", sorted((SAMPLES / "tilewe").glob("*.tilewe")),
                         ids=lambda p: p.name)
def test_export_rows_are_the_same_on_both_paths(sample: Path) -> None:
    """The one-pass rows of each plain game and the full path's rows of every game."""
    text = sample.read_text(encoding="utf-8")
    rows = {}
    for path in PATHS:
        with taken(path):
            fast = [None if (o := plain_rows(r)) is None else o.data
                    for r in records_of(chunks((text,)), str(sample), headers=True)]
            full = [table_rows(r, run(r)) for r in records_of(chunks((text,)), str(sample))]
        rows[path] = fast, full
    assert rows["compiled"] == rows["python"]
    assert rows["compiled"][1]
