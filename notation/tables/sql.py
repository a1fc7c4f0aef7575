"""SQL over exported tables (``notation sql``): DuckDB with the views ``games``, ``events``
and ``positions`` over one or more export folders, whatever format each was written in.

DuckDB is the ``data`` extra's; this module is imported only when a query comes.
"""
from __future__ import annotations

import os
from decimal import Decimal
from typing import Any, Iterator

import duckdb

from notation.core.errors import Error

from .schema import TABLES
from .writers import FORMATS

#: How DuckDB reads each format (CSV: an empty field is null, as the export writes it).
_READERS = {"parquet": "read_parquet({})", "csv": "read_csv({}, header=true)",
            "jsonl": "read_json({}, format='newline_delimited')"}


class QueryError(Error):
    """A query DuckDB refused, or folders that hold no tables: its message, one line."""


def table_files(folder: str) -> dict[str, str]:
    """The tables an export folder holds: name -> file (the first format found)."""
    found: dict[str, str] = {}
    for name in TABLES:
        for extension in FORMATS:
            path = os.path.join(folder, f"{name}.{extension}")
            if os.path.isfile(path):
                found[name] = path
                break
    return found


def _source(path: str) -> str:
    extension = path.rsplit(".", 1)[-1]
    quoted = "'" + path.replace("'", "''") + "'"
    return f"SELECT * FROM {_READERS[extension].format(quoted)}"


def connect(folders: list[str]) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB whose views ``games``, ``events``, ``positions`` read the
    folders' tables (several folders: their rows one after another, by column name)."""
    con = duckdb.connect()
    files = [table_files(folder) for folder in folders]
    if not any(files):
        raise QueryError(f"no tables in {', '.join(folders)} (games, events, positions as "
                         f"written by notation export)")
    for name in TABLES:
        parts = [_source(found[name]) for found in files if name in found]
        if parts:
            con.execute(f"CREATE VIEW {name} AS " + " UNION ALL BY NAME ".join(parts))
    return con


def query(sql: str, folders: list[str]) -> tuple[list[str], Iterator[tuple[Any, ...]]]:
    """The columns and rows of ``sql`` over the folders' tables, rows fetched in batches
    (flat memory on a large answer)."""
    con = connect(folders)
    try:
        result = con.execute(sql)
    except duckdb.Error as exc:
        raise QueryError(" ".join(str(exc).split())) from None
    columns = [column[0] for column in result.description or []]

    def rows() -> Iterator[tuple[Any, ...]]:
        while True:
            batch = result.fetchmany(4096)
            if not batch:
                return
            yield from (tuple(_plain(value) for value in row) for row in batch)

    return columns, rows()


def _plain(value: Any) -> Any:
    """A value as JSON and CSV write it: DuckDB's wide integers and decimals as numbers."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


__all__ = ["QueryError", "connect", "query", "table_files"]
