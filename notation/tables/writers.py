"""Writing the three tables into a folder, each atomically: rows go to a hidden temporary
file beside its final name, and only a finished run renames them into place (a failed
run removes them, and the folder too if it made it).

CSV and JSON lines need only the standard library; Parquet is :mod:`.parquet`'s.
"""
from __future__ import annotations

import errno
import json
import os
import secrets
from typing import IO, Any, Callable, Protocol

from .columns import Columns
from .schema import TABLES, Column

#: The formats ``export --to`` writes, by the extension of their files.
FORMATS = ("parquet", "csv", "jsonl")


def tables_held(folder: str) -> dict[str, list[str]]:
    """The export tables in ``folder`` by format: ``{"csv": ["games.csv", ...]}`` (empty
    when it holds none, or is no folder). Two formats in one folder would leave a reader
    to guess which tables are the current ones, so export and sql refuse them."""
    held: dict[str, list[str]] = {}
    for extension in FORMATS:
        for name in TABLES:
            if os.path.isfile(os.path.join(folder, f"{name}.{extension}")):
                held.setdefault(extension, []).append(f"{name}.{extension}")
    return held


class Table(Protocol):
    """One table being written: rows in (as columns), then closed (flushed) once."""

    def add(self, columns: Columns) -> None: ...

    def close(self) -> None: ...


#: Opens a table writer on a temporary path for that table's columns.
Opener = Callable[[str, tuple[Column, ...]], Table]


def _csv_cell(value: Any) -> str:
    """Null as an empty field, text always quoted (so "" stays an empty text, as DuckDB and
    pandas read it), numbers and ``true``/``false`` bare."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return '"' + str(value).replace('"', '""') + '"'


class CsvTable:
    """RFC 4180 CSV with a header line, lines ending in ``\\n``; null is an empty field,
    an empty text ``""``."""

    def __init__(self, path: str, columns: tuple[Column, ...]) -> None:
        self.names = [c.name for c in columns]
        self.handle: IO[str] = open(path, "w", encoding="utf-8", newline="")
        self.handle.write(",".join(self.names) + "\n")

    def add(self, columns: Columns) -> None:
        self.handle.writelines(",".join(map(_csv_cell, row)) + "\n"
                               for row in zip(*(columns[name] for name in self.names)))

    def close(self) -> None:
        self.handle.close()


class JsonLinesTable:
    """One JSON object per line, every column in schema order."""

    def __init__(self, path: str, columns: tuple[Column, ...]) -> None:
        self.names = [c.name for c in columns]
        self.handle: IO[str] = open(path, "w", encoding="utf-8")

    def add(self, columns: Columns) -> None:
        names, dumps = self.names, json.dumps
        self.handle.writelines(dumps(dict(zip(names, row)), ensure_ascii=False) + "\n"
                               for row in zip(*(columns[name] for name in names)))

    def close(self) -> None:
        self.handle.close()


class Export:
    """The three tables of one run in ``folder`` as ``NAME.EXT``; :meth:`commit` puts
    them in place (replacing tables of the same format), :meth:`discard` leaves the
    folder as it was. A folder holding another format's tables is refused
    (``FileExistsError``): export neither mixes formats nor deletes what it did not write."""

    def __init__(self, folder: str, extension: str, opener: Opener) -> None:
        self.folder, self.extension = folder, extension
        others = [file for held, files in tables_held(folder).items() if held != extension
                  for file in files]
        if others:
            raise FileExistsError(errno.EEXIST, f"it holds tables of another format "
                                  f"({', '.join(others)}); remove them or choose another "
                                  f"folder", folder)
        self.made_folder = not os.path.isdir(folder)
        os.makedirs(folder, exist_ok=True)
        self.temporary: dict[str, str] = {}
        self.tables: dict[str, Table] = {}
        try:
            for name, columns in TABLES.items():
                path = os.path.join(folder, f".{name}.{secrets.token_hex(6)}.tmp")
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
                self.temporary[name] = path  # (the umask's rights, as any file made)
                self.tables[name] = opener(path, columns)
        except BaseException:
            self.discard()
            raise

    def final(self, name: str) -> str:
        return os.path.join(self.folder, f"{name}.{self.extension}")

    def add(self, rows: dict[str, Any]) -> None:
        """One game's rows (:func:`notation.tables.rows.table_rows`'s shape: its games row,
        its events and positions as columns)."""
        self.tables["games"].add({name: [value] for name, value in rows["games"].items()})
        for table in ("events", "positions"):
            if table in rows:
                self.tables[table].add(rows[table])

    def commit(self) -> list[str]:
        """Every table closed and renamed into place; their final paths."""
        for table in self.tables.values():
            table.close()
        for name, path in self.temporary.items():
            os.replace(path, self.final(name))
        self.temporary = {}
        return [self.final(name) for name in TABLES]

    def discard(self) -> None:
        """The temporary files removed (and the folder, if this run made it)."""
        for table in self.tables.values():
            try:
                table.close()
            except Exception:  # a table that failed to write is dropped anyway
                pass
        for path in self.temporary.values():
            try:
                os.unlink(path)
            except OSError:
                pass
        self.temporary = {}
        if self.made_folder:
            try:
                os.rmdir(self.folder)
            except OSError:
                pass
