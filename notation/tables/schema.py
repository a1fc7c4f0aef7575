"""The columns of the three export tables, one schema for every game.

A column's kind says how each format holds it: ``text``, ``int`` and ``bool`` as
themselves (CSV: ``true``/``false``, and an empty field for null), ``json`` as JSON
text in every format, so that the three formats hold the same values and one
query reads any of them (DuckDB: ``tags::JSON``, ``from_json(winners, '["VARCHAR"]')``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["text", "int", "bool", "json"]


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    kind: Kind


def _columns(spec: str) -> tuple[Column, ...]:
    """``"file:text index:int"`` as columns (the schema reads as one line per table)."""
    found = []
    for word in spec.split():
        name, kind = word.split(":")
        assert kind in ("text", "int", "bool", "json"), kind
        found.append(Column(name, kind))  # type: ignore[arg-type]
    return tuple(found)


#: Where a row comes from: every table starts with these.
_WHERE = "file:text index:int game:text"

GAMES = _columns(f"{_WHERE} tags:json players:int plies:int valid:bool error:text "
                 "error_line:int error_column:int error_ply:int result:json over:bool "
                 "winners:json scores:json")
EVENTS = _columns(f"{_WHERE} ply:int variation:text mover:text event:text fields:json glyphs:text "
                  "nags:json comment:text commands:json clock:text eval:text error:text")
POSITIONS = _columns(f"{_WHERE} ply:int variation:text position:text key:text")

#: Every table by name, in the order they are written.
TABLES: dict[str, tuple[Column, ...]] = {"games": GAMES, "events": EVENTS,
                                         "positions": POSITIONS}
