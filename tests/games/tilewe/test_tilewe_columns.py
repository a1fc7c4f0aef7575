"""Tilewe's event columns for export (``columns.py``): every spelling with every target
gives the text and the fields (column by column) that writing the move and reading its
text back give."""
from __future__ import annotations

import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.core.new_games import random_record
from notation.core import registry
from notation.core.fields import field_columns
from notation.read.texts import Texts
from notation.games.tilewe import columns
from notation.games.tilewe.events import Move

TILEWE = registry.get("tilewe")
PATHS = ("compiled", "python")


@pytest.fixture(params=PATHS)
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test runs compiled and in Python (as if the module were missing)."""
    assert columns.compiled_move_columns is not None, "compiled/text.c was not built"
    if request.param == "python":
        monkeypatch.setattr(columns, "compiled_move_columns", None)
    return str(request.param)


@pytest.mark.slow
def test_every_spelling_with_every_target(path: str) -> None:
    assert TILEWE is not None
    found = columns.tables(TILEWE)
    assert found is not None
    spellings, _names = found
    assert len(spellings) == 309  # every contact spelling of the 21 pieces
    moves = [Move(*spelling, target) for spelling in spellings for target in range(400)]
    got = TILEWE.event_columns(moves)
    assert got is not None
    kind = Texts if path == "compiled" else list
    assert isinstance(got[0], kind)
    assert all(isinstance(values, Texts if path == "compiled" else tuple)
               for values in got[1].values())
    texts, fields = list(got[0]), {name: list(values) for name, values in got[1].items()}
    assert texts == [str(move) for move in moves]
    assert fields == field_columns(TILEWE, texts)
    assert all(t.endswith(target) for target, t in zip(fields["target"], texts))


@given(st.integers(0, 2**32))
@settings(max_examples=30, deadline=None)
def test_random_games_give_the_read_back_columns(seed: int) -> None:
    assert TILEWE is not None
    record = random_record(TILEWE, random.Random(seed), {})
    moves = list(record.events)
    texts = [TILEWE.format_event(move) for move in moves]
    for compiled in (columns.compiled_move_columns, None):
        columns_of = columns.event_columns
        saved, columns.compiled_move_columns = columns.compiled_move_columns, compiled
        try:
            got = columns_of(TILEWE, moves)
        finally:
            columns.compiled_move_columns = saved
        assert got is not None
        assert list(got[0]) == texts
        assert {name: list(values) for name, values in got[1].items()} == field_columns(
            TILEWE, texts)


@pytest.mark.parametrize("move", [
    Move(0, 0, (3, 3), 0), Move(0, 0, (0, 0), 400), Move(0, 0, (0, 0), -1),
    Move(21, 0, (0, 0), 0), Move(0, 8, (0, 0), 0), Move(0, 0, (5, 0), 0),
    Move(0, 0, (0, -1), 0), Move(0, 0, (0, 0, 0), 0), Move("O1", 0, (0, 0), 0),  # type: ignore[arg-type]
    Move(0, 0, (0, 0), 2**70)])
def test_a_move_made_by_hand_is_left_to_the_read_back(path: str, move: Move) -> None:
    """A contact that is no contact tile, a target off the board, or fields that are no
    move's: no columns, and the read back says what the move is."""
    assert TILEWE is not None
    assert TILEWE.event_columns([Move(0, 0, (0, 0), 0), move]) is None


def test_the_compiled_columns_refuse_what_is_not_their_tables() -> None:
    assert TILEWE is not None and columns.compiled_move_columns is not None
    tables = columns.compiled_tables(TILEWE)
    assert tables is not None
    names, compiled = tables
    assert names == ["contact", "piece", "rotation", "target"]
    move_columns = columns.compiled_move_columns
    assert move_columns([], compiled) == [(b"", b"")] * 5
    assert move_columns([(0, 0, (0, 0), 0)], []) == []
    assert move_columns([(0, 0, (0, 0), 0)], compiled) == [
        (b"O1n-a1a1", (8).to_bytes(4, sys.byteorder)), (b"a1", (2).to_bytes(4, sys.byteorder)),
        (b"O1", (2).to_bytes(4, sys.byteorder)), (b"n", (1).to_bytes(4, sys.byteorder)),
        (b"a1", (2).to_bytes(4, sys.byteorder))]
    assert move_columns([[0, 0, (0, 0), 0]], compiled) is None  # (a list is no move)
    spellings, targets = compiled[0]
    for wrong in ((spellings[:-1], targets), (spellings, targets[:-1]),
                  (list(spellings), targets), (spellings,), spellings):
        with pytest.raises(TypeError):
            move_columns([], [wrong])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        move_columns((), compiled)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        move_columns([], tuple(compiled))  # type: ignore[arg-type]


def test_a_field_of_spelling_and_target_both_gives_no_tables(
        path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Were a field fixed by neither the spelling nor the target alone, the cut would be
    wrong: the tables refuse, and export reads each text back."""
    assert TILEWE is not None
    real = columns.event_fields

    def mixed(game: object, text: str) -> dict[str, str]:
        fields = dict(real(TILEWE, text))
        fields["piece"] += fields["target"]
        return fields

    monkeypatch.setattr(columns, "event_fields", mixed)
    columns.field_tables.cache_clear()
    columns.compiled_tables.cache_clear()
    try:
        assert columns.field_tables(TILEWE) is None
        assert TILEWE.event_columns([Move(0, 0, (0, 0), 0)]) is None
    finally:
        columns.field_tables.cache_clear()
        columns.compiled_tables.cache_clear()
