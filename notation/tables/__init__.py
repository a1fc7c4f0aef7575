"""Archives as tables (``notation export``): ``games``, ``events`` and ``positions``,
one schema for every game (:mod:`.schema`, published as ``schemas/tables.schema.json``),
written as Parquet, CSV or JSON lines.

Parquet holds each column in its own type: lists (``winners``, ``scores``, ``glyphs``,
``nags``, ``tags`` as ``{name, value}`` in the record's order), a map (``commands``),
numbers (``clock_seconds``, ``eval``) and a struct with a member per game (``fields``,
each game's event parts typed by its grammar: :func:`notation.core.fields.field_kinds`).
CSV and JSON lines hold the same values, nested ones as JSON text; ``notation sql``
reads any of the three back into the Parquet types (:mod:`.sql`).

Every table starts with ``file``, ``index`` (the game's place in its file, from 1) and
``game`` (its name; null when unknown). ``games`` has a row per game, valid or not (its
first problem, its result, winners and scores); ``events`` a row per event of every line
of play, the mainline first, then each variation after the line it branches from (a line
stops at its first problem, whose row carries ``error``); ``positions`` a row per
position reached, the start (ply 0) first, with a ``key`` equal for transpositions
(:mod:`.keys`; with ``--symmetric``, for Tilewe's eight board symmetries too).

A folder holds one format's tables; ``export --append`` adds a run's as files beside
them (:func:`.writers.table_parts`).
"""
from __future__ import annotations

from .rows import game_row, placed_rows, table_rows, tabled, tabled_symmetric
from .schema import EVENTS, GAMES, POSITIONS, TABLES, Column
from .writers import FORMATS, CsvTable, Export, JsonLinesTable, Opener

__all__ = ["EVENTS", "FORMATS", "GAMES", "POSITIONS", "TABLES", "Column", "CsvTable", "Export",
           "JsonLinesTable", "Opener", "game_row", "placed_rows", "table_rows", "tabled",
           "tabled_symmetric"]
