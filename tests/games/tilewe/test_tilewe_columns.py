"""Tilewe's event columns for export (``columns.py``): every spelling with every target
gives the text and the fields (column by column) that writing the move and reading its
text back give."""
from __future__ import annotations

import json
import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.core.new_games import random_record
from notation.core import registry
from notation.core.fields import field_columns, fields_json
from notation.read.texts import Texts
from notation.games.tilewe import columns
from notation.games.tilewe.events import Move

TILEWE = registry.get("tilewe")
PATHS = ("compiled", "python")


@pytest.fixture(params=PATHS)
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test runs compiled and in Python (as if the module were missing)."""
    assert columns.compiled_move_texts is not None, "compiled/text.c was not built"
    if request.param == "python":
        monkeypatch.setattr(columns, "compiled_move_texts", None)
    return str(request.param)


@pytest.mark.slow
def test_every_spelling_with_every_target(path: str) -> None:
    assert TILEWE is not None
    found = columns.tables(TILEWE)
    assert found is not None
    spellings, _targets = found
    assert len(spellings) == 309  # every contact spelling of the 21 pieces
    moves = [Move(*spelling, target) for spelling in spellings for target in range(400)]
    got = TILEWE.event_columns(moves)
    assert got is not None
    assert isinstance(got[0], Texts if path == "compiled" else list)
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
    for compiled in (columns.compiled_move_texts, None):
        columns_of = columns.event_columns
        saved, columns.compiled_move_texts = columns.compiled_move_texts, compiled
        try:
            got = columns_of(TILEWE, moves)
        finally:
            columns.compiled_move_texts = saved
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
    assert TILEWE is not None and columns.compiled_move_texts is not None
    tables = columns.compiled_tables(TILEWE)
    assert tables is not None
    texts, fields, names, tails = tables
    move_texts = columns.compiled_move_texts
    assert move_texts([], *tables) == (b"", b"", b"", b"")
    field = fields[0]
    assert field is not None
    field += tails[0]
    assert move_texts([(0, 0, (0, 0), 0)], *tables) == (
        b"O1n-a1a1", (8).to_bytes(4, sys.byteorder), field, len(field).to_bytes(4, sys.byteorder))
    assert move_texts([[0, 0, (0, 0), 0]], *tables) is None  # (a list is no move)
    for wrong in ((texts[:-1], fields, names, tails), (texts, fields, names[:-1], tails),
                  (tuple(texts), fields, names, tails)):
        with pytest.raises(TypeError):
            move_texts([], *wrong)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        move_texts((), *tables)  # type: ignore[arg-type]


def test_fields_named_otherwise_give_no_tables(path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Were the target not the last field, the cut would be wrong: the tables refuse."""
    assert TILEWE is not None

    def target_first(game: object, text: str) -> str:
        fields = json.loads(fields_json(TILEWE, text))
        return json.dumps({"target": fields.pop("target"), **fields})

    monkeypatch.setattr(columns, "fields_json", target_first)
    columns.tables.cache_clear()
    columns.compiled_tables.cache_clear()
    try:
        assert columns.tables(TILEWE) is None
        assert TILEWE.event_columns([Move(0, 0, (0, 0), 0)]) is None
    finally:
        columns.tables.cache_clear()
        columns.compiled_tables.cache_clear()
