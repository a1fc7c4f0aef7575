"""The columns of the three export tables, one schema for every game.

A column's kind says what it holds. Parquet (and DuckDB through ``notation sql``) hold
every kind natively: lists, a map, structs, numbers. CSV and JSON lines hold scalars
as themselves (CSV: ``true``/``false``, an empty field for null) and every nested kind
as JSON text (``["blue"]``, ``{"clk": "0:01:30"}``): the same values, in the form a
text format has. The schema is published as ``schemas/tables.schema.json``
(:func:`described`; a test holds the file to it).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["text", "int", "bool", "double", "json", "texts", "ints", "smallints", "tags",
               "map", "fields"]

#: Kinds a text format writes as JSON text.
NESTED = frozenset({"texts", "ints", "smallints", "tags", "map", "fields"})

#: Each kind's SQL type (DuckDB's spelling); ``fields`` is a struct with one member per
#: registered game (:func:`notation.tables.fields.fields_type`).
SQL_TYPES: dict[str, str] = {
    "text": "VARCHAR", "int": "BIGINT", "bool": "BOOLEAN", "double": "DOUBLE",
    "json": "VARCHAR", "texts": "VARCHAR[]", "ints": "BIGINT[]", "smallints": "SMALLINT[]",
    "tags": "STRUCT(name VARCHAR, value VARCHAR)[]", "map": "MAP(VARCHAR, VARCHAR)",
    "fields": "STRUCT(...)"}


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    kind: Kind


def _columns(spec: str) -> tuple[Column, ...]:
    """``"file:text index:int"`` as columns (the schema reads as one line per table)."""
    found = []
    for word in spec.split():
        name, kind = word.split(":")
        assert kind in SQL_TYPES, kind
        found.append(Column(name, kind))  # type: ignore[arg-type]
    return tuple(found)


#: Where a row comes from: every table starts with these.
_WHERE = "file:text index:int game:text"

#: The tags of PGN's roster that are no player's name, each a column of its own too
#: (null where a record does not give it): the ones a query filters by most.
TAG_COLUMNS = ("Event", "Site", "Date", "Round")

GAMES = _columns(f"{_WHERE} tags:tags event:text site:text date:text round:text players:int "
                 "plies:int valid:bool error:text error_line:int error_column:int "
                 "error_ply:int result:json over:bool winners:texts scores:ints")
EVENTS = _columns(f"{_WHERE} ply:int variation:text mover:text event:text fields:fields "
                  "glyphs:texts nags:smallints comment:text commands:map "
                  "clock_seconds:double eval:double error:text")
POSITIONS = _columns(f"{_WHERE} ply:int variation:text position:text key:text")

#: Every table by name, in the order they are written.
TABLES: dict[str, tuple[Column, ...]] = {"games": GAMES, "events": EVENTS,
                                         "positions": POSITIONS}

#: What each column holds, for the published schema and the handbook.
DESCRIPTIONS: dict[str, str] = {
    "file": "The record's file, as it was named on the command line.",
    "index": "The game's place in its file, from 1.",
    "game": "The game's registered name (null when unknown).",
    "tags": "Every tag in the record's order.",
    "games.event": "The Event tag (null when absent).",
    "events.event": "The event in canonical form.",
    "site": "The Site tag (null when absent).",
    "date": "The Date tag (null when absent).", "round": "The Round tag (null when absent).",
    "players": "How many seats, where the replay reached a state.",
    "plies": "Events applied, as validate counts them.",
    "valid": "Whether the game is valid.",
    "error": "The first problem's message (null when valid).",
    "error_line": "Its line.", "error_column": "Its column.", "error_ply": "Its ply.",
    "result": "replay --json's result object, as JSON text.",
    "over": "Whether a valid game has ended.",
    "winners": "A valid game's winners in the game's own words, as stats counts them.",
    "scores": "Points per seat, where the game keeps scores.",
    "ply": "Counted from the start, in variations too (positions: 0 is the start).",
    "variation": "Empty for the mainline, else 'variation N after ply P'.",
    "mover": "Who was to move, in the game's words.",
    "fields": "The event's parts as its grammar terminal names them: one member per game, "
              "each a struct of that game's fields (null where the event has no such part).",
    "glyphs": "Annotation glyphs ('!?', '$7').", "nags": "The same as numbers.",
    "comment": "The remarks around the event.",
    "commands": "Comment commands ([%clk 0:01:30] is clk -> 0:01:30).",
    "clock_seconds": "The [%clk] time left, in seconds.",
    "eval": "The [%eval] value as a number.",
    "position": "The game's position notation, as replay --json writes it.",
    "key": "Equal for transpositions (with --symmetric, for Tilewe's symmetries too).",
}


def described(fields_sql: str) -> dict[str, Any]:
    """The published schema: every table's columns with their SQL types and meanings
    (``fields_sql``: the ``fields`` struct's type for the games it is made for)."""
    return {"format": "notation-tables", "version": 2,
            "description": "The tables notation export writes (games, events, positions), "
                           "one schema for every game, with the types Parquet holds and "
                           "DuckDB reads (notation sql). CSV and JSON lines hold the same "
                           "values, each list, map or struct as JSON text (tags as an "
                           "object in the record's order, fields as an object of the "
                           "event's parts).",
            "tables": {table: [{"name": c.name,
                                "type": fields_sql if c.kind == "fields" else SQL_TYPES[c.kind],
                                "description": DESCRIPTIONS.get(f"{table}.{c.name}")
                                or DESCRIPTIONS[c.name]} for c in columns]
                       for table, columns in TABLES.items()}}
