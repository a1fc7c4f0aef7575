"""Writing the three tables into a folder, each atomically: rows go to a hidden temporary
file beside its final name, and only a finished run renames them into place (a failed
run removes them, and the folder too if it made it).

A table is ``NAME.EXT``, and each run ``export --append`` adds is a file beside it,
``NAME_000002.EXT``, ``NAME_000003.EXT``, ...: names that sort in the order the runs
came, so that one glob (``games*.parquet``) reads the table across them.

CSV and JSON lines need only the standard library; Parquet is :mod:`.parquet`'s.
"""
from __future__ import annotations

import csv
import errno
import json
import os
import re
import secrets
from typing import IO, Any, Callable, Protocol

from notation.core.limits import MAX_GAME_CHARS

from .columns import Column as ColumnValues
from .columns import Columns, Repeated
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


def numbered_parts(folder: str, name: str, extension: str) -> list[tuple[int, str]]:
    """A table's files in ``folder`` with the numbers of the runs that wrote them, in
    that order: ``NAME.EXT`` (1), then each appended run's ``NAME_NNNNNN.EXT``."""
    pattern = re.compile(rf"{re.escape(name)}_([0-9]{{6,}})\.{re.escape(extension)}")
    try:
        found = sorted((int(matched.group(1)), entry) for entry in os.listdir(folder)
                       if (matched := pattern.fullmatch(entry)))
    except OSError:
        return []
    first = f"{name}.{extension}"
    return ([(1, first)] if os.path.isfile(os.path.join(folder, first)) else []) + found


def table_parts(folder: str, name: str, extension: str) -> list[str]:
    """A table's files in ``folder``, in the order of the runs that wrote them."""
    return [entry for _number, entry in numbered_parts(folder, name, extension)]


class Table(Protocol):
    """One table being written: rows in (as columns), then closed (flushed) once."""

    def add(self, columns: Columns) -> None: ...

    def close(self) -> None: ...


class Opener(Protocol):
    """A format's table writer: opened on a temporary path for a table's columns; what
    its files say of their columns (``layout_of``) compared with what it would write
    (``layout``) before a run is appended to them."""

    def __call__(self, path: str, columns: tuple[Column, ...], /) -> Table: ...

    def layout(self, columns: tuple[Column, ...], /) -> object: ...

    def layout_of(self, path: str, /) -> object: ...


def csv_columns(path: str) -> list[str]:
    """A CSV table's column names (its first line; bytes that are no UTF-8 replaced)."""
    with open(path, "rb") as handle:
        header = handle.readline(1 << 16)
    return next(csv.reader([header.decode("utf-8", "replace")]), [])


def jsonl_columns(path: str) -> list[str] | None:
    """A JSON lines table's column names: its first row's members (None: no row, or a
    first row longer than a game, which is not looked at)."""
    with open(path, "rb") as handle:
        first = handle.readline(MAX_GAME_CHARS)
    if not first.strip() or not (first.endswith(b"\n") or len(first) < MAX_GAME_CHARS):
        return None
    try:
        row = json.loads(first)
    except ValueError:
        return ["(not a JSON object)"]
    return list(row) if isinstance(row, dict) else ["(not a JSON object)"]


_in_order = json.JSONEncoder(ensure_ascii=False).encode
_sorted = json.JSONEncoder(ensure_ascii=False, sort_keys=True).encode

#: How a text format writes each nested kind: JSON text (tags as an object in the
#: record's order, a map's keys sorted); ``fields`` come as text already.
_TEXT_FORMS: dict[str, Callable[[Any], str]] = {
    "texts": lambda value: _in_order(list(value)), "ints": lambda value: _in_order(list(value)),
    "smallints": lambda value: _in_order(list(value)),
    "tags": lambda value: _in_order(dict(value)), "map": _sorted}


def text_form(kind: str, column: ColumnValues) -> ColumnValues:
    """A column's values as a text format writes them (null stays null)."""
    encode = _TEXT_FORMS.get(kind)
    if encode is None:
        return column
    if type(column) is Repeated:
        return Repeated(None if column.value is None else encode(column.value), column.count)
    return [None if value is None else encode(value) for value in column]


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
        self.kinds = [c.kind for c in columns]
        self.handle: IO[str] = open(path, "w", encoding="utf-8", newline="")
        self.handle.write(",".join(self.names) + "\n")

    def add(self, columns: Columns) -> None:
        values = [text_form(kind, columns[name]) for name, kind in zip(self.names, self.kinds)]
        self.handle.writelines(",".join(map(_csv_cell, row)) + "\n" for row in zip(*values))

    def close(self) -> None:
        self.handle.close()

    @staticmethod
    def layout(columns: tuple[Column, ...]) -> object:
        return [c.name for c in columns]

    @staticmethod
    def layout_of(path: str) -> object:
        return csv_columns(path)


class JsonLinesTable:
    """One JSON object per line, every column in schema order."""

    def __init__(self, path: str, columns: tuple[Column, ...]) -> None:
        self.names = [c.name for c in columns]
        self.kinds = [c.kind for c in columns]
        self.handle: IO[str] = open(path, "w", encoding="utf-8")

    def add(self, columns: Columns) -> None:
        names, dumps = self.names, json.dumps
        values = [text_form(kind, columns[name]) for name, kind in zip(names, self.kinds)]
        self.handle.writelines(dumps(dict(zip(names, row)), ensure_ascii=False) + "\n"
                               for row in zip(*values))

    def close(self) -> None:
        self.handle.close()

    @staticmethod
    def layout(columns: tuple[Column, ...]) -> object:
        return [c.name for c in columns]

    @staticmethod
    def layout_of(path: str) -> object:
        return jsonl_columns(path)


class Export:
    """The three tables of one run in ``folder``; :meth:`commit` puts them in place,
    :meth:`discard` leaves the folder as it was. A run writes ``NAME.EXT`` (replacing the
    tables of that format, any appended runs' files too); with ``append``, a folder's
    tables of that format keep their files and the run's are added beside them
    (``NAME_NNNNNN.EXT``), once their columns are found to be the run's (else
    ``FileExistsError``). A folder holding another format's tables is refused
    (``FileExistsError``): export neither mixes formats nor deletes what it did not write."""

    def __init__(self, folder: str, extension: str, opener: Opener, append: bool = False
                 ) -> None:
        self.folder, self.extension = folder, extension
        others = [file for held, files in tables_held(folder).items() if held != extension
                  for file in files]
        if others:
            raise FileExistsError(errno.EEXIST, f"it holds tables of another format "
                                  f"({', '.join(others)}); remove them or choose another "
                                  f"folder", folder)
        self.number = self._next_number(opener) if append else 1
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

    def _next_number(self, opener: Opener) -> int:
        """The number of the run being appended (1: the folder holds no such tables),
        once every held table's files are found to have the run's columns."""
        number = 1
        for name, columns in TABLES.items():
            parts = numbered_parts(self.folder, name, self.extension)
            wanted = opener.layout(columns)
            for held, part in parts:
                number = max(number, held + 1)
                found = opener.layout_of(os.path.join(self.folder, part))
                if found is not None and found != wanted:
                    raise FileExistsError(errno.EEXIST, f"its table {part} has other columns "
                                          f"than this export writes (written by another "
                                          f"version, or with other games installed); export "
                                          f"to another folder", self.folder)
        return number

    def _linked(self) -> bool:
        """Every table's temporary linked at its final name (a link, unlike a rename,
        refuses a name that is taken); False, and none left linked, if one was taken by
        another run appending to the folder meanwhile."""
        done: list[tuple[str, str, bool]] = []  # (temporary, final, renamed)
        for name, path in self.temporary.items():
            final = self.final(name)
            try:
                os.link(path, final)
                done.append((path, final, False))
                continue
            except FileExistsError:
                pass
            except OSError:  # a file system without hard links: a rename, after a look
                if not os.path.lexists(final):
                    os.replace(path, final)
                    done.append((path, final, True))
                    continue
            for temporary, linked, renamed in done:  # (taken: the others undone)
                if renamed:
                    os.replace(linked, temporary)
                else:
                    os.unlink(linked)
            return False
        return True

    def final(self, name: str) -> str:
        if self.number == 1:
            return os.path.join(self.folder, f"{name}.{self.extension}")
        return os.path.join(self.folder, f"{name}_{self.number:06d}.{self.extension}")

    def add(self, rows: dict[str, Any]) -> None:
        """One game's rows (:func:`notation.tables.rows.table_rows`'s shape: its games row,
        its events and positions as columns)."""
        self.tables["games"].add({name: [value] for name, value in rows["games"].items()})
        for table in ("events", "positions"):
            if table in rows:
                self.tables[table].add(rows[table])

    def commit(self) -> list[str]:
        """Every table closed and renamed into place; their final paths. A run that
        replaces a folder's tables removes the files of runs appended to them."""
        for table in self.tables.values():
            table.close()
        if self.number == 1:
            for name, path in self.temporary.items():
                os.replace(path, self.final(name))
        else:  # never over another run's files: the next free number if one took this
            while not self._linked():
                self.number += 1
            for path in self.temporary.values():
                if os.path.lexists(path):  # (a rename took it already)
                    os.unlink(path)
        self.temporary = {}
        if self.number == 1:
            for name in TABLES:
                for part in table_parts(self.folder, name, self.extension)[1:]:
                    os.unlink(os.path.join(self.folder, part))
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
