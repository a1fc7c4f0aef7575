"""Tilewe's event columns for export (``columns.py``): every spelling with every target
gives the text and the fields that writing the move and reading its text back give."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.core import registry
from notation.core.fields import fields_column, fields_json
from notation.games.tilewe import columns
from notation.games.tilewe.events import Move

TILEWE = registry.get("tilewe")


def test_every_spelling_with_every_target() -> None:
    assert TILEWE is not None
    found = columns.tables(TILEWE)
    assert found is not None
    spellings, _targets = found
    assert len(spellings) == 309  # every contact spelling of the 21 pieces
    moves = [Move(*spelling, target) for spelling in spellings for target in range(400)]
    got = TILEWE.event_columns(moves)
    assert got is not None
    texts, fields = got
    assert texts == [str(move) for move in moves]
    assert fields == fields_column(TILEWE, texts)
    assert all(json.loads(f)["target"] == t[-len(json.loads(f)["target"]):]
               for f, t in zip(fields[::997], texts[::997]))


@given(st.integers(0, 2**32))
@settings(max_examples=30, deadline=None)
def test_random_games_give_the_read_back_columns(seed: int) -> None:
    assert TILEWE is not None
    record = TILEWE.random_record(random.Random(seed), {})
    moves = list(record.events)
    texts = [TILEWE.format_event(move) for move in moves]
    assert TILEWE.event_columns(moves) == (texts, fields_column(TILEWE, texts))


def test_a_move_made_by_hand_is_left_to_the_read_back() -> None:
    """A contact that is no contact tile, or a target off the board: no columns."""
    assert TILEWE is not None
    assert TILEWE.event_columns([Move(0, 0, (3, 3), 0)]) is None
    assert TILEWE.event_columns([Move(0, 0, (0, 0), 400)]) is None


def test_fields_named_otherwise_give_no_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Were the target not the last field, the cut would be wrong: the tables refuse."""
    assert TILEWE is not None

    def target_first(game: object, text: str) -> str:
        fields = json.loads(fields_json(TILEWE, text))
        return json.dumps({"target": fields.pop("target"), **fields})

    monkeypatch.setattr(columns, "fields_json", target_first)
    columns.tables.cache_clear()
    try:
        assert columns.tables(TILEWE) is None
        assert TILEWE.event_columns([Move(0, 0, (0, 0), 0)]) is None
    finally:
        columns.tables.cache_clear()
