"""An event's own fields, read from its grammar terminal's named groups (export's
``fields`` column)."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.core.new_games import random_record
from notation.core import registry
from notation.core.fields import event_fields, fields_column, fields_json

from conftest import ROOT, SAMPLES, invoke

KNOWN = [
    ("tilewe", "F5e-a2d4", {"piece": "F5", "rotation": "e", "contact": "a2", "target": "d4"}),
    ("flows", "P1B4T3NW", {"player": "1", "label": "B4", "tile": "3", "orientation": "NW"}),
    ("flows", "P2T1", {"drawer": "2", "drawn": "1"}),
    ("philosophy", "In:C7ClNe", {"player": "In", "space": "C7", "tile": "Cl", "facing": "Ne",
                                 "dots": ""}),
    ("philosophy", "rule:join:permitted:between_turns",
     {"rule": "join", "variable": "permitted", "value": "between_turns"}),
    # a part several terminals have is named after its terminal: the prefix is dropped
    ("sanguine", "R place Spark (1, 2)", {"side": "R", "verb": "place", "at": "(1, 2)",
                                          "row": "1", "col": "2"}),
    ("sanguine", "result 5-3 red", {"red": "5", "blue": "3", "winner": "red"}),
    ("nomic", "join Bob", {}),  # its terminals name no groups
    ("tilewe", "not a move", {}),
]


@pytest.mark.parametrize("game, text, fields", KNOWN)
def test_known_fields(game: str, text: str, fields: dict[str, str]) -> None:
    found = registry.get(game)
    assert found is not None
    assert event_fields(found, text) == fields


def test_every_named_group_of_a_move_terminal_is_a_field_name() -> None:
    """The fields are the grammar's own: Tilewe's terminal file names each one."""
    grammar = (ROOT / "grammars" / "tilewe.lark").read_text()
    named = set(re.findall(r"\(\?P<([a-z_]+)>", grammar))
    tilewe = registry.get("tilewe")
    assert tilewe is not None
    assert set(event_fields(tilewe, "F5e-a2d4")) == named


def test_fields_in_the_exported_events_answer_a_query(tmp_path: Path) -> None:
    result = invoke("export", str(SAMPLES / "tilewe" / "tw-sample-1.tilewe"), "--to", "jsonl",
                    "-o", str(tmp_path))
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in
            (tmp_path / "events.jsonl").read_text(encoding="utf-8").splitlines()]
    for row in rows:
        fields = json.loads(row["fields"])
        assert row["event"] == (f"{fields['piece']}{fields['rotation']}-"
                                f"{fields['contact']}{fields['target']}")
    pieces = duckdb.sql(f"SELECT fields::JSON->>'piece' AS piece, count(*) AS n FROM "
                        f"read_json_auto('{tmp_path / 'events.jsonl'}') GROUP BY piece")
    assert pieces is not None
    counted = dict(pieces.fetchall())
    assert sum(counted.values()) == len(rows)
    assert set(counted) <= {"O1", "I2", "I3", "L3", "O4", "I4", "L4", "Z4", "T4", "F5", "I5",
                            "L5", "N5", "P5", "T5", "U5", "V5", "W5", "X5", "Y5", "Z5"}


@given(st.sampled_from(["tilewe", "flows", "philosophy", "sanguine", "nomic"]),
       st.integers(0, 2**32))
@settings(max_examples=30, deadline=None)
def test_the_json_built_from_the_layout_is_what_json_writes(name: str, seed: int) -> None:
    game = registry.get(name)
    assert game is not None
    record = random_record(game, random.Random(seed), {})
    for event in record.events:
        text = game.format_event(event)
        assert fields_json(game, text) == json.dumps(event_fields(game, text), sort_keys=True,
                                                     ensure_ascii=False)


@pytest.mark.parametrize("text", ['In+:"Zoë"', 'In+:"a \\"b\\" c"', 'In+:"back\\\\slash"',
                                  'In+:"tab\\there"'])
def test_values_that_need_escapes_are_escaped_as_json_escapes_them(text: str) -> None:
    game = registry.get("philosophy")
    assert game is not None
    assert event_fields(game, text)  # (each reads as a join with a quoted name)
    assert fields_json(game, text) == json.dumps(event_fields(game, text), sort_keys=True,
                                                 ensure_ascii=False)
    assert json.loads(fields_json(game, text)) == event_fields(game, text)


def _as_json_writes(name: str, texts: list[str]) -> list[str]:
    game = registry.get(name)
    assert game is not None
    return [json.dumps(event_fields(game, text), sort_keys=True, ensure_ascii=False)
            for text in texts]


@given(st.sampled_from(["tilewe", "flows", "philosophy", "sanguine", "nomic"]),
       st.integers(0, 2**32),
       st.lists(st.sampled_from(["", "F5e-a2d4\nO1n-a1a1", "F5e-a2d4 ", '"', "\\", "Zoë",
                                 "12. F5e-a2d4", "F5e-a2d4!", "In+:\"a\"", "x"]), max_size=3),
       st.integers(0, 200))
@settings(max_examples=60, deadline=None)
def test_a_whole_column_is_each_text_as_json_writes_it(name: str, seed: int, odd: list[str],
                                                        at: int) -> None:
    """A game's events, with texts that are no single event (or need escapes) put among
    them: the column equals ``json.dumps`` of each text's fields."""
    game = registry.get(name)
    assert game is not None
    record = random_record(game, random.Random(seed), {})
    texts = [game.format_event(event) for event in record.events]
    for text in odd:
        texts.insert(at % (len(texts) + 1), text)
    assert fields_column(game, texts) == _as_json_writes(name, texts)

