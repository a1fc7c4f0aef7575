"""Archives as tables (``notation export``): ``games``, ``events`` and ``positions``,
one schema for every game, written as Parquet, CSV or JSON lines.

Every table starts with ``file``, ``index`` (the game's place in its file, from 1) and
``game`` (its name; null when unknown). JSON columns hold JSON text in every format.

``games``: one row per game, valid or not.
    ``tags`` (JSON object of every tag), ``players`` (count, where the replay reached a
    state), ``plies`` (events applied, as ``validate``), ``valid``, the first problem
    (``error``, ``error_line``, ``error_column``, ``error_ply``; null when valid),
    ``result`` (JSON: ``replay --json``'s result object), and for a valid game ``over``,
    ``winners`` (JSON list in the game's own words, as ``stats`` counts them) and
    ``scores`` (JSON list, where the game keeps scores).
``events``: one row per event of every line of play, the mainline first, then each
    variation after the line it branches from; a line stops at its first problem (that
    event's row carries ``error``). ``ply`` (counted from the start, in variations too),
    ``variation`` ("" for the mainline, else ``variation N after ply P`` as problems name
    it), ``mover`` (who was to move, in the game's words), ``event`` (canonical text),
    ``fields`` (JSON object: the event's parts as its grammar terminal names them,
    ``{"piece": "F5", "rotation": "e", "contact": "a2", "target": "d4"}``; see
    :mod:`notation.core.fields`), ``glyphs`` (``!? $7``), ``nags`` (JSON list of ints), ``comment`` (the remarks around
    it), ``commands`` (JSON object, ``{"clk": "0:01:30"}``), ``clock`` and ``eval`` (the
    ``clk`` and ``eval`` commands), ``error``.
``positions``: one row per position reached, the start (ply 0) first. ``ply``,
    ``variation``, ``position`` (the game's position notation, as ``replay --json``) and
    ``key`` (:mod:`.keys`: equal for transpositions; with ``--symmetric``, for
    Tilewe's eight board symmetries too).
"""
from __future__ import annotations

from .rows import game_row, placed_rows, table_rows, tabled, tabled_symmetric
from .schema import EVENTS, GAMES, POSITIONS, TABLES, Column
from .writers import FORMATS, CsvTable, Export, JsonLinesTable, Opener

__all__ = ["EVENTS", "FORMATS", "GAMES", "POSITIONS", "TABLES", "Column", "CsvTable", "Export",
           "JsonLinesTable", "Opener", "game_row", "placed_rows", "table_rows", "tabled",
           "tabled_symmetric"]
