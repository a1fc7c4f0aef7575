"""``notation sql "SELECT ..." PATH...``: DuckDB over the export tables (:mod:`notation.
tables.sql`), of export folders as they are, or of archives exported on the way into a
temporary folder that is removed after the query (with anything DuckDB spilled there).
No answer is printed unless every input was read."""
from __future__ import annotations

import csv
import importlib
import io
import json
import os
import tempfile
from typing import Any, Iterator

import click

from .common import JOBS_OPTION, Context, emit, reading_options
from .export import ExportError, write_tables
from .progress import Tally, watch

#: How to get DuckDB: said in one line, exit 2, when it is missing.
DUCKDB_HINT = "notation sql needs duckdb: pip install 'game-notation[data]'"


@click.command()
@click.argument("sql_text", metavar="QUERY")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option("--format", "shape", type=click.Choice(["table", "csv", "jsonl"]),
              default="table", show_default=True, help="How the answer is printed.")
@click.option("--symmetric", is_flag=True,
              help="Archives: position keys equal for Tilewe's eight board symmetries.")
@JOBS_OPTION
@reading_options
def sql(sql_text: str, paths: tuple[str, ...], shape: str, symmetric: bool, jobs: int | None,
        game_name: str | None, encoding: str) -> None:
    """The tables are games, events and positions.

    Each PATH is a folder written by notation export, or archives (files or folders of
    records), which are exported on the way. Invalid games are rows like the others.
    """
    try:
        tables = importlib.import_module("notation.tables.sql")
    except ImportError:
        raise ExportError(DUCKDB_HINT) from None
    ctx = Context(game_name, encoding, None)
    try:
        folders = [p for p in paths if os.path.isdir(p) and tables.table_files(p)]
    except tables.QueryError as exc:
        raise ExportError(f"sql: {exc}") from None
    archives = tuple(p for p in paths if p not in folders)
    with tempfile.TemporaryDirectory(prefix="notation-sql-") as scratch:
        if archives:
            made = os.path.join(scratch, "tables")
            tally = Tally(watch(ctx, archives, True))
            write_tables(ctx, tally, archives, "parquet", made, symmetric, jobs)
            tally.close()
            folders.append(made)
        # an input not read (or a bug met) leaves no answer: a count without its games
        # would pass for the answer with a script that reads standard output only
        if not (ctx.inputs.input_errors or ctx.internal):
            ctx.invalid = False  # the answer is what this command gives, not a verdict
            try:
                columns, rows = tables.query(sql_text, folders, os.path.join(scratch, "spill"))
                _print(shape, columns, rows)
            except tables.QueryError as exc:
                raise ExportError(f"sql: {exc}") from None
    ctx.finish()


def _print(shape: str, columns: list[str], rows: Iterator[tuple[Any, ...]]) -> None:
    if shape == "jsonl":
        for row in rows:
            emit(json.dumps(dict(zip(columns, row)), default=str))
        return
    if shape == "csv":
        emit(_csv_line(columns))
        for row in rows:
            emit(_csv_line([_cell(value) for value in row]))
        return
    cells = [[_cell(value) for value in row] for row in rows]  # a table is read whole
    widths = [max([len(name)] + [len(row[i]) for row in cells]) for i, name in
              enumerate(columns)]
    emit("  ".join(name.ljust(width) for name, width in zip(columns, widths)).rstrip())
    for line in cells:
        emit("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())


def _csv_line(values: list[Any]) -> str:
    line = io.StringIO()
    csv.writer(line, lineterminator="").writerow(values)
    return line.getvalue()


def _cell(value: Any) -> str:
    """A value as one cell: null empty, a list, map or struct as its JSON text."""
    if value is None:
        return ""
    if isinstance(value, (list, dict, tuple)):
        return json.dumps(value, ensure_ascii=False, default=str)
    return str(value)


__all__ = ["sql"]
