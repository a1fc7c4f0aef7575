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

from notation.core.new_games import random_record
from notation.core import registry
from notation.core.ast import EventNode, Tag
from notation.core.game import Game
from notation.read.reading import chunks, records_of
from notation.games.tilewe import state
from notation.games.tilewe.state import Board
from notation.core.replay import run
from notation.read.texts import Texts
from notation.tables.rows import plain_rows, table_rows

from conftest import drawn_square_by_square, rows_as_lists, SAMPLES

TILEWE = registry.get("tilewe")
PATHS = ("compiled", "python")


@contextmanager
def taken(path: str) -> Iterator[None]:
    """Within: positions written by ``path`` (``python``: as if the module were missing)."""
    saved = state.compiled_board_text, state.compiled_line_texts
    if path == "python":
        state.compiled_board_text = state.compiled_line_texts = None
    try:
        yield
    finally:
        state.compiled_board_text, state.compiled_line_texts = saved


def position_text(own: list[int], used: list[int], mover: str) -> str:
    """The compiled TPN of one position: a line of no moves."""
    assert state.compiled_line_texts is not None
    data, lengths = state.compiled_line_texts(own, used, [], [], [], mover)
    assert Texts(data, lengths) == Texts.of([data.decode("ascii")])
    return data.decode("ascii")


def python_position(own: list[int], used: list[int], mover: str) -> str:
    """The same in Python: the board's text, the mover, the hands."""
    board = Board(len(own))
    board.own, board.used = list(own), list(used)
    return (f"{board.written_board_text()} {mover} "
            + ",".join(f"{state.ALL_PIECES & ~hand:x}" for hand in used))


def test_the_compiled_module_is_built() -> None:
    assert state.COMPILED, ("notation.games.tilewe.compiled.text was not built: install a C "
                            "compiler and the Python headers, then reinstall")


@st.composite
def boards(draw: st.DrawFn) -> Board:
    """Any tiles for 1 to 4 colours, no tile of two colours (legal or not: the text is
    only a drawing). The 400 tiles' owners are drawn as one string of 400 marks, ``.`` for
    none, one letter a colour: the boards of a list of 400 owners drawn one by one, at a
    seventh of Hypothesis' cost."""
    players = draw(st.integers(1, 4))
    marks = ".byrg"[:players + 1]
    owner = [marks.index(mark) - 1
             for mark in draw(st.text(marks, min_size=400, max_size=400))]
    board = Board(players)
    board.own = [sum(1 << tile for tile, who in enumerate(owner) if who == p)
                 for p in range(players)]
    board.occupied = sum(board.own)
    board.used = [draw(st.integers(0, (1 << 21) - 1)) for _ in range(players)]
    return board


@pytest.mark.slow
@given(boards(), st.sampled_from(["b", "y", "r", "g", "-"]))
@settings(max_examples=300, deadline=None)
def test_compiled_text_equals_the_python_definition(board: Board, mover: str) -> None:
    compiled = board.board_text()
    assert compiled == board.written_board_text() == drawn_square_by_square(board)
    hands = ",".join(f"{state.ALL_PIECES & ~used:x}" for used in board.used)
    assert (position_text(board.own, board.used, mover)
            == Board.position_of((compiled, hands), None if mover == "-"
                                 else "byrg".index(mover)))


@st.composite
def lines(draw: st.DrawFn) -> tuple[list[int], list[int], list[tuple[int, int, int]], str]:
    """A board and moves of any tiles (any ranks, tiles taken again, no tiles at all) and
    any pieces: the compiled line writes what the rules never make as well."""
    board = draw(boards())
    players = board.players
    moves = draw(st.lists(st.tuples(st.integers(0, players - 1),
                                    st.sets(st.integers(0, 399), max_size=30),
                                    st.integers(0, 20)), max_size=12))
    masks = [(player, sum(1 << tile for tile in tiles), piece) for player, tiles, piece in moves]
    return board.own, board.used, masks, draw(st.sampled_from(["b", "y", "r", "g", "-"]))


@pytest.mark.slow
@given(lines())
@settings(max_examples=300, deadline=None)
def test_a_compiled_line_writes_each_position_the_python_definition_writes(
        line: tuple[list[int], list[int], list[tuple[int, int, int]], str]) -> None:
    """Each ply's position of a line against the position made in Python: its tiles put
    on its colour (taking them from any other), its piece out of its hand."""
    own, used, moves, last = line
    assert state.compiled_line_texts is not None
    data, lengths = state.compiled_line_texts(own, used, [p for p, _m, _k in moves],
                                              [m for _p, m, _k in moves],
                                              [k for _p, _m, k in moves], last)
    own, used = list(own), list(used)
    expected = []
    for player, mask, piece in moves:
        expected.append(python_position(own, used, "byrg"[player]))
        own = [tiles & ~mask for tiles in own]
        own[player] |= mask
        used[player] |= 1 << piece
    expected.append(python_position(own, used, last))
    assert list(Texts(data, lengths)) == expected


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
    assert state.compiled_board_text is not None
    with pytest.raises((ValueError, TypeError)):
        state.compiled_board_text(own)
    with pytest.raises((ValueError, TypeError)):
        position_text(own, [0] * len(own), "b")


@pytest.mark.parametrize("used", [0, 5, (1 << 21) - 1, -1, -6, 1 << 21, (1 << 70) + 5])
def test_a_hand_takes_the_low_21_bits_as_python_does(used: int) -> None:
    hand = f"{state.ALL_PIECES & ~used:x}"
    assert position_text([0], [used], "b") == f"{'20/' * 19}20 b {hand}"


def test_the_compiled_module_refuses_other_types() -> None:
    line = state.compiled_line_texts
    assert state.compiled_board_text is not None and line is not None
    for wrong in ((1, 2), [1.0], ["x"], b"x" * 50):
        with pytest.raises(TypeError):
            state.compiled_board_text(wrong)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        line([0], [0], [], [], [], 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        line([0], ["0"], [], [], [], "b")  # type: ignore[list-item]
    with pytest.raises(TypeError):
        line([0], [0], [], [], "b")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        line([0], [0], (0,), [1], [0], "b")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        line([0], [0], [0], [1.0], [0], "b")  # type: ignore[list-item]
    with pytest.raises(ValueError, match="a hand each"):
        line([0, 0], [0], [], [], [], "b")
    with pytest.raises(ValueError, match="one-letter last mover"):
        line([0], [0], [], [], [], "by")
    with pytest.raises(ValueError, match="tiles and a piece for each ply"):
        line([0], [0], [0], [1], [], "b")


class Emptying:
    """An index that empties a list when read: Python code run in the middle of a call."""

    def __init__(self, emptied: list[object]) -> None:
        self.emptied = emptied

    def __index__(self) -> int:
        self.emptied.clear()
        return 0


@pytest.mark.parametrize("which", ["placed", "pieces", "used"])
def test_the_compiled_line_takes_no_object_that_could_change_its_lists(which: str) -> None:
    """Only ints: an object's ``__index__`` could empty a list being read (a crash)."""
    assert state.compiled_line_texts is not None
    lists: dict[str, list[object]] = {"placed": [0] * 50, "pieces": [0] * 50, "used": [0, 0]}
    target = lists[which]
    target[0] = Emptying(target)
    with pytest.raises(TypeError, match="int"):
        state.compiled_line_texts([0, 0], lists["used"], lists["placed"],  # type: ignore[arg-type]
                                  [1 << i for i in range(50)], lists["pieces"], "b")


@pytest.mark.parametrize("placed, mask, piece", [
    (1, 1, 0), (-1, 1, 0), (0, 1, 21), (0, 1, -1), (0, -1, 0), (0, 1 << 400, 0)])
def test_the_compiled_line_refuses_a_colour_piece_or_tiles_out_of_range(
        placed: int, mask: int, piece: int) -> None:
    """One colour (0 only), 21 pieces, 400 tiles: anything else is refused, not written."""
    assert state.compiled_line_texts is not None
    with pytest.raises(ValueError):
        state.compiled_line_texts([0], [0], [placed], [mask], [piece], "b")


@pytest.mark.slow
@pytest.mark.parametrize("path", PATHS)
@given(seed=st.integers(0, 2**32), players=st.integers(1, 4), blokus=st.booleans())
@settings(max_examples=30, deadline=None)
def test_each_path_writes_the_positions_the_game_neutral_hook_writes(
        path: str, seed: int, players: int, blokus: bool) -> None:
    """Every ply of a random game, under the Blokus tags too: the Tilewe hook (each move's
    colour's move kept, the line written at once) against ``Game.line_columns`` (the
    whole position at each ply, asking the board who is to move)."""
    assert TILEWE is not None
    rng = random.Random(seed)
    record = random_record(TILEWE, rng, {})
    record.tags = [Tag("Game", "tilewe"), Tag("Players", str(players))]
    if blokus:
        record.tags += [Tag("Corners", "fixed"), Tag("Scoring", "blokus")]
    record.items = [EventNode(e) for e in TILEWE.random_events(rng, record)]
    events = record.events
    with taken(path):
        ours = [list(column) for column in TILEWE.line_columns(TILEWE.start(record), events)]
        neutral = [list(column) for column in
                   Game.line_columns(TILEWE, TILEWE.start(record), events)]
        assert isinstance(TILEWE.line_columns(TILEWE.start(record), events)[1],
                          Texts if path == "compiled" else list)
    assert ours == neutral and len(ours[1]) == len(events) + 1
    for text in ours[1]:
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
            fast = [None if (o := plain_rows(r)) is None else rows_as_lists(o.data)
                    for r in records_of(chunks((text,)), str(sample), headers=True)]
            full = [rows_as_lists(table_rows(r, run(r)))
                    for r in records_of(chunks((text,)), str(sample))]
        rows[path] = fast, full
    assert rows["compiled"] == rows["python"]
    assert rows["compiled"][1]
