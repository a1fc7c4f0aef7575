"""SQL over exported tables (``notation sql``): DuckDB with the views ``games``, ``events``
and ``positions`` over one or more export folders, whatever format each was written in.

The tables are opened here, by their exact paths, as Arrow datasets that DuckDB scans
(columns and filters pushed down, in flat memory); DuckDB itself is then denied every
file and the network (``enable_external_access`` off, configuration locked), so a query
reads only the tables named and writes nothing (``COPY``, ``read_text``, ``ATTACH``:
refused). Paths reach no glob: a folder named ``x*`` is that folder.

DuckDB and pyarrow are the ``data`` extra's; this module is imported only when a query comes.
"""
from __future__ import annotations

import json
import os
from decimal import Decimal
from typing import Any, Iterator

import duckdb
import pyarrow as pa
import pyarrow.csv as pa_csv
import pyarrow.dataset as pa_dataset
import pyarrow.fs as pa_fs
import pyarrow.json as pa_json
import pyarrow.parquet as pa_parquet

from notation.core.errors import Error
from notation.core.limits import printable

from .parquet import arrow_schema, fields_type, sql_type
from .schema import NESTED, SQL_TYPES, TABLES
from .writers import csv_columns, jsonl_columns, table_parts, tables_held

#: Rows fetched from DuckDB at a time.
BATCH = 4096


class QueryError(Error):
    """A query DuckDB refused, or folders that hold no tables, or tables that cannot be
    read: its message, one line."""


def _one_line(text: str) -> str:
    return printable(" ".join(text.split()), newlines=False)


def table_files(folder: str) -> dict[str, list[str]]:
    """The tables an export folder holds: name -> its files, in order (one a run:
    ``games.parquet``, then any ``export --append`` added). A folder holding tables of two
    formats is a :class:`QueryError` naming them (which are current is not for sql to
    guess)."""
    held = tables_held(folder)
    if len(held) > 1:
        formats = "; ".join(f"{extension}: {', '.join(files)}"
                            for extension, files in held.items())
        raise QueryError(f"{printable(folder, newlines=False)} holds tables of several "
                         f"formats ({formats}); keep one format in a folder")
    return {name: [os.path.join(folder, part) for part in table_parts(folder, name, extension)]
            for extension, files in held.items()
            for name in (file.rsplit(".", 1)[0] for file in files)}


def _dataset(paths: list[str], name: str) -> Any:
    """The table in ``paths`` (one a run) as one Arrow dataset, its format by its
    extension. Parquet holds the schema's own types (checked: a table of another schema is
    refused, whoever wrote it); CSV and JSON lines are read with the schema's scalars and
    their nested columns as text, which :func:`_typed_select` reads back (CSV: an empty
    field is null, ``""`` an empty text, as the export writes them)."""
    extension = paths[0].rsplit(".", 1)[-1]
    schema = arrow_schema(TABLES[name])
    local = pa_fs.LocalFileSystem()
    absolute = [os.path.abspath(path) for path in paths]  # (a name like "s3:x" is a file)
    if extension == "parquet":
        for path in absolute:
            _same_types(pa_parquet.read_schema(path, filesystem=local), schema)
        return pa_dataset.dataset(absolute, format="parquet", filesystem=local)
    texts = pa.schema([pa.field(c.name, pa.string() if c.kind in NESTED else schema.field(c.name).type)
                       for c in TABLES[name]])
    # the header, or the first row's members: a table given schema columns it lacks would
    # read them as nulls
    if extension == "csv":
        for path in absolute:
            _same_columns(csv_columns(path), schema.names)
        form: Any = pa_dataset.CsvFileFormat(convert_options=pa_csv.ConvertOptions(
            column_types=texts, strings_can_be_null=True, quoted_strings_can_be_null=False))
    else:
        for path in absolute:
            names = jsonl_columns(path)
            if names is not None:
                _same_columns(names, schema.names)
        form = pa_dataset.JsonFileFormat(parse_options=pa_json.ParseOptions(
            explicit_schema=texts))
    return pa_dataset.dataset(absolute, schema=texts, format=form, filesystem=local)


def _typed_select(name: str, view: str, fields: Any) -> str:
    """A SELECT giving a text format's table in the schema's types: each nested column's
    JSON text read back (tags in the record's order; ``fields`` into the member of the
    row's game)."""
    parts = []
    for column in TABLES[name]:
        quoted = f'"{column.name}"'
        if column.kind in ("texts", "ints", "smallints"):
            item = SQL_TYPES[column.kind].removesuffix("[]")
            parts.append(f"from_json({quoted}, '[\"{item}\"]') AS {quoted}")
        elif column.kind == "map":
            parts.append(f"from_json({quoted}, '\"{SQL_TYPES['map']}\"') AS {quoted}")
        elif column.kind == "tags":  # (an object in the record's order, read as a map)
            parts.append(f"[{{'name': e.key, 'value': e.value}} FOR e IN map_entries("
                         f"from_json({quoted}, '\"{SQL_TYPES['map']}\"'))] AS {quoted}")
        elif column.kind == "fields":
            members = []
            for at in range(fields.num_fields):
                member = fields.field(at)
                structure = json.dumps({child.name: sql_type(child.type) for child in member.type})
                members.append(f"{_sql_literal(member.name)}: CASE WHEN game = "
                               f"{_sql_literal(member.name)} THEN from_json({quoted}, "
                               f"{_sql_literal(structure)}) END")
            parts.append(f"CASE WHEN {quoted} IS NOT NULL THEN {{{', '.join(members)}}} "
                         f"END AS {quoted}")
        else:
            parts.append(quoted)
    return f"SELECT {', '.join(parts)} FROM {view}"


def _sql_literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _same_types(found: Any, wanted: Any) -> None:
    """A Parquet table of the export's columns and types (an ``OSError`` saying what
    differs: a table of an older export, or another program's)."""
    _same_columns(found.names, wanted.names)
    for field in wanted:
        have = found.field(field.name).type
        if field.name == "fields" and pa.types.is_struct(have):
            continue  # (its members are the games registered when it was written)
        if have != field.type:
            raise OSError(f"not a table this notation export writes (its column "
                          f"{field.name} is {have}, not {field.type}; export it again)")


def _same_columns(found: list[str], wanted: list[str]) -> None:
    """A table whose columns are not the export's is not read as if they were (an
    ``OSError`` saying which differ)."""
    if found != wanted:
        missing = [column for column in wanted if column not in found]
        extra = [column for column in found if column not in wanted]
        why = "; ".join(part for part in (
            f"no column {', '.join(missing)}" if missing else "",
            f"a column {', '.join(extra)} the export never writes" if extra else "",
            "its columns in another order" if not (missing or extra) else "") if part)
        raise OSError(f"not a table notation export wrote ({why})")


def connect(folders: list[str], spill: str | None = None) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB whose views ``games``, ``events``, ``positions`` read the
    folders' tables (several folders: their rows one after another, by column name), and
    which can read or write no file besides (``spill``: its folder for sorts and joins
    larger than memory; none, no spilling)."""
    files = [table_files(folder) for folder in folders]
    if not any(files):
        raise QueryError(f"no tables in {printable(', '.join(folders), newlines=False)} "
                         f"(games, events, positions as written by notation export)")
    con = duckdb.connect()
    fields = fields_type()
    for name in TABLES:
        parts = []
        for number, found in enumerate(files, 1):
            if name in found:
                try:
                    dataset = _dataset(found[name], name)
                except (OSError, pa.ArrowException) as exc:
                    con.close()
                    raise QueryError(f"cannot read {printable(found[name][0], newlines=False)}: "
                                     f"{_one_line(getattr(exc, 'strerror', None) or str(exc))}"
                                     ) from None
                view = f"notation_{name}_{number}"
                con.register(view, dataset)
                parts.append(f"SELECT * FROM {view}" if found[name][0].endswith(".parquet")
                             else _typed_select(name, view, fields))
        if parts:
            con.execute(f"CREATE VIEW {name} AS " + " UNION ALL BY NAME ".join(parts))
    con.execute("SET temp_directory = ?", [spill or ""])
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")
    return con


def query(sql: str, folders: list[str], spill: str | None = None
          ) -> tuple[list[str], Iterator[tuple[Any, ...]]]:
    """The columns and rows of ``sql`` over the folders' tables, rows fetched in batches
    (flat memory on a large answer); a failure while they come is a :class:`QueryError`
    too."""
    con = connect(folders, spill)
    try:
        result = con.execute(sql)
    except duckdb.Error as exc:
        con.close()
        raise QueryError(_one_line(str(exc))) from None
    columns = [column[0] for column in result.description or []]

    def rows() -> Iterator[tuple[Any, ...]]:
        try:
            while True:
                try:
                    batch = result.fetchmany(BATCH)
                except duckdb.Error as exc:
                    raise QueryError(_one_line(str(exc))) from None
                if not batch:
                    return
                yield from (tuple(_plain(value) for value in row) for row in batch)
        finally:
            con.close()  # (its spilled files go with it)

    return columns, rows()


def _plain(value: Any) -> Any:
    """A value as JSON and CSV write it: DuckDB's wide integers and decimals as numbers."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


__all__ = ["QueryError", "connect", "query", "table_files"]
