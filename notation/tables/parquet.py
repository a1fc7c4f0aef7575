"""Parquet tables (the ``game-notation[data]`` extra: pyarrow), written a row group at a time
so memory stays flat on any archive.

Arrow allocates from mimalloc (see :func:`_flat_pool`), and only the number and truth
columns keep statistics (min and max, what a query skips row groups by): the file's
footer, held until the file is closed, does not grow by the long texts' extremes.
"""
from __future__ import annotations

import os
from array import array
from collections.abc import Iterable
from itertools import accumulate, repeat
from typing import Any, Callable

# mimalloc commits an arena's memory as it is used, not all of it at once: 10 MB less at
# the peak of a long export, no time lost. mimalloc reads it once, when Arrow's library
# loads, so it counts only if pyarrow is first imported here (as in `notation export`);
# processes started later inherit it (and any other mimalloc reads it too).
os.environ.setdefault("MIMALLOC_ARENA_EAGER_COMMIT", "0")

import pyarrow as pa  # noqa: E402  (after mimalloc's option)
import pyarrow.parquet as pq  # noqa: E402

from notation.core import registry  # noqa: E402
from notation.core.fields import grammar_field_kinds  # noqa: E402
from notation.read.texts import LENGTH, Texts  # noqa: E402

text_offsets: Callable[[bytes], bytes] | None
try:  # the offsets compiled (compiled/columns.c), where the install could build it
    from .compiled.columns import text_offsets
except ImportError:  # pragma: no cover - a machine without a C compiler
    text_offsets = None

from .columns import Column as ColumnValues  # noqa: E402
from .columns import Columns, Fields, Repeated  # noqa: E402
from .schema import Column  # noqa: E402

#: Rows held before they are written as one row group.
ROWS_PER_GROUP = 16384

#: Columns whose values are nearly all distinct: no dictionary is tried for them (it
#: would be dropped after its first megabyte anyway, having cost a hash of every value).
DISTINCT = frozenset({"tags", "event", "fields", "position", "key"})


def _flat_pool() -> None:
    """Arrow's allocations from mimalloc: with the system's allocator a long export's
    memory grew with the archive (freed buffers of every size left the heap in pieces),
    with jemalloc's default it grew more slowly; measured flat with mimalloc, or jemalloc
    giving back at once."""
    try:
        pa.set_memory_pool(pa.mimalloc_memory_pool())
    except (NotImplementedError, AttributeError):  # an Arrow built without mimalloc
        try:
            pa.jemalloc_set_decay_ms(0)
        except (NotImplementedError, AttributeError):
            pass


_flat_pool()

#: The most text bytes a row group's column holds with 32-bit offsets.
_LARGEST = 2**31 - 1

_TYPES = {"text": pa.string(), "int": pa.int64(), "bool": pa.bool_(), "double": pa.float64(),
          "json": pa.string(), "texts": pa.list_(pa.string()), "ints": pa.list_(pa.int64()),
          "smallints": pa.list_(pa.int16()),
          "tags": pa.list_(pa.struct([("name", pa.string()), ("value", pa.string())])),
          "map": pa.map_(pa.string(), pa.string())}

_FIELD_TYPES = {"int": pa.int64(), "text": pa.string()}


def fields_type(games: Iterable[Any] | None = None) -> Any:
    """The ``fields`` column's type: a struct with a member per game that has fields
    (``games``: default every registered game), by name, each a struct of the game's
    fields typed by its grammar (:func:`notation.core.fields.field_kinds`: from the
    grammars' terminals alone, no game's code loaded). A game whose events have no named
    parts (the nomic game's) has no member: Parquet holds no empty struct."""
    grammars = registry.grammars() if games is None else {
        game.name: (game.grammar, game.grammar_package) for game in games}
    members = []
    for name, grammar in sorted(grammars.items()):
        kinds = grammar_field_kinds(*grammar)
        if kinds:
            members.append((name, pa.struct([(field, _FIELD_TYPES[kind])
                                             for field, kind in kinds.items()])))
    return pa.struct(members)


def arrow_schema(columns: tuple[Column, ...], fields: Any = None) -> Any:
    """The table's Arrow schema (``fields``: the ``fields`` column's type, default
    :func:`fields_type` of every registered game)."""
    if fields is None and any(c.kind == "fields" for c in columns):
        fields = fields_type()
    return pa.schema([pa.field(c.name, fields if c.kind == "fields" else _TYPES[c.kind])
                      for c in columns])


def sql_type(kind: Any) -> str:
    """An Arrow type as DuckDB spells it (the published schema's ``fields``)."""
    if pa.types.is_struct(kind):
        return "STRUCT(" + ", ".join(f"{_sql_name(kind.field(i).name)} "
                                     f"{sql_type(kind.field(i).type)}"
                                     for i in range(kind.num_fields)) + ")"
    return {pa.string(): "VARCHAR", pa.int64(): "BIGINT"}[kind]


def _sql_name(name: str) -> str:
    return name if name.isidentifier() and name.islower() else '"' + name.replace('"', '""') + '"'


def offsets_of(lengths: bytes) -> bytes:
    """Arrow's offsets of texts of ``lengths`` (native 32-bit ints): 0, then where each
    ends (compiled where built: ``compiled/columns.c``)."""
    if text_offsets is not None:
        return text_offsets(lengths)
    held = array(LENGTH, lengths)
    if any(length < 0 for length in held):
        raise ValueError("text offsets: a length below 0")
    offsets = array(LENGTH, [0])
    offsets.extend(accumulate(held))
    return offsets.tobytes()


#: Not a value (a column not in one value repeated).
_NOTHING = object()


class Gathered:
    """One column's values of the row group being gathered, in the cheapest form that
    holds them all: one value repeated, texts as each game's buffers (joined once, when
    the group is written), or else a list of values. (Whole numbers as an array of 64-bit
    ints cost as much: an array takes a value as slowly as Arrow does.)"""

    __slots__ = ("kind", "started", "count", "same", "data", "lengths", "values")

    def __init__(self, kind: Any) -> None:
        self.kind = kind
        self.started = False
        #: The rows held (but for a list of values: its length).
        self.count = 0
        #: The value of every row so far, while there is one (else ``_NOTHING``).
        self.same: Any = _NOTHING
        self.data: list[bytes] | None = None
        self.lengths: list[bytes] = []
        self.values: list[Any] | None = None

    def add(self, column: ColumnValues) -> None:
        if self.values is not None:
            self.values.extend(column)
        elif not self.started:
            self._start(column)
        elif (type(column) is Repeated and self.same is not _NOTHING
                and type(column.value) is type(self.same) and column.value == self.same):
            self.count += column.count
        elif self.data is not None and type(column) is Texts:
            self.data.append(column.data)
            self.lengths.append(column.lengths)
            self.count += len(column)
        else:  # forms that differ: every value as itself
            self.values = list(self._held())
            self.values.extend(column)
            self.same, self.data = _NOTHING, None

    def _start(self, column: ColumnValues) -> None:
        self.started = True
        self.count = len(column)
        if type(column) is Repeated:
            self.same = column.value
        elif type(column) is Texts:
            self.data = [column.data]
            self.lengths = [column.lengths]
        else:
            self.values = list(column)

    def _held(self) -> Iterable[Any]:
        if self.same is not _NOTHING:
            return repeat(self.same, self.count)
        assert self.data is not None
        return Texts(b"".join(self.data), b"".join(self.lengths))

    def array(self) -> Any:
        """The values as one Arrow array of the column's type."""
        if self.values is not None:
            return pa.array(self.values, self.kind)
        if self.same is not _NOTHING:
            return repeated_array(self.kind, self.same, self.count)
        assert self.data is not None
        return texts_array(self.kind, self.count, self.data, self.lengths)


def repeated_array(kind: Any, value: Any, count: int) -> Any:
    """An Arrow array of ``value`` ``count`` times. A text, or an empty list or map (a
    plain game's comment, glyphs, commands), is made from its buffers at once; any other
    value from a list of one object (twenty times quicker than ``pa.repeat``, and no
    compute kernel, whose registry costs half a second to load on first use)."""
    if value is None or not count:
        return pa.nulls(count, kind)
    if type(value) is str and kind == pa.string():
        text = value.encode("utf-8")
        if len(text) * count <= _LARGEST:
            offsets = (array(LENGTH, range(0, len(text) * (count + 1), len(text))).tobytes()
                       if text else bytes(array(LENGTH).itemsize * (count + 1)))
            return pa.Array.from_buffers(kind, count, [None, pa.py_buffer(offsets),
                                                       pa.py_buffer(text * count)])
    if type(value) in (tuple, list, dict) and not value and (
            pa.types.is_list(kind) or pa.types.is_map(kind)):
        entries = (pa.struct([kind.key_field, kind.item_field]) if pa.types.is_map(kind)
                   else kind.value_type)
        offsets = pa.py_buffer(bytes(array(LENGTH).itemsize * (count + 1)))
        return pa.Array.from_buffers(kind, count, [None, offsets],
                                     children=[pa.array([], entries)])
    return pa.array([value] * count, kind)


def texts_array(kind: Any, count: int, data: list[bytes], lengths: list[bytes]) -> Any:
    """An Arrow string array of ``count`` texts held as :class:`Texts` (their ``data`` and
    ``lengths``, chunk by chunk), their buffers taken whole."""
    joined = b"".join(data)
    if len(joined) > _LARGEST:  # (beyond 32-bit offsets: as strings, Arrow chunks them)
        return pa.array(list(Texts(joined, b"".join(lengths))), kind)
    offsets = offsets_of(b"".join(lengths))
    if array(LENGTH, offsets[-array(LENGTH).itemsize:])[0] != len(joined):
        raise ValueError("texts whose lengths do not cut their data")
    texts = pa.Array.from_buffers(kind, count, [None, pa.py_buffer(offsets),
                                                pa.py_buffer(joined)])
    # Arrow takes buffers on trust: lengths that do not cut the data, or bytes that are
    # no UTF-8 (a game's own Texts), would be written and fail only when read.
    texts.validate(full=True)  # (20 ns a row)
    return texts


class FieldsGathered:
    """The ``fields`` column of the row group being gathered: each game's chunks of
    :class:`Fields` (any other form: rows of no event read, null), made one struct
    array when the group is written."""

    __slots__ = ("kind", "chunks", "count")

    def __init__(self, kind: Any) -> None:
        self.kind = kind
        #: (rows, their fields; None: rows of no event read)
        self.chunks: list[tuple[int, Fields | None]] = []
        self.count = 0

    def add(self, column: ColumnValues) -> None:
        self.chunks.append((len(column), column if isinstance(column, Fields) else None))
        self.count += len(column)

    def array(self) -> Any:
        members = [self._member(self.kind.field(at).name, self.kind.field(at).type)
                   for at in range(self.kind.num_fields)]
        return pa.StructArray.from_arrays(members, fields=list(self.kind),
                                          mask=self._nulls(lambda fields: True))

    def _nulls(self, chosen: Callable[[Fields], bool]) -> Any:
        """The mask of the rows that are no event read of a chosen chunk (None: none)."""
        if all(fields is not None and fields.taken is None and chosen(fields)
               for _count, fields in self.chunks):
            return None
        rows: list[bool] = []
        for count, fields in self.chunks:
            if fields is None or not chosen(fields):
                rows.extend(repeat(True, count))
            elif fields.taken is None:
                rows.extend(repeat(False, count))
            else:
                rows.extend(not taken for taken in fields.taken)
        return pa.array(rows, pa.bool_())

    def _member(self, game: str, kind: Any) -> Any:
        """One game's struct: its rows' fields, null on every other game's row."""
        if not any(fields is not None and fields.game == game for _count, fields in self.chunks):
            return pa.nulls(self.count, kind)  # (a row group of other games: the usual case)
        nulls = self._nulls(lambda fields: fields.game == game)
        children = []
        for at in range(kind.num_fields):
            field = kind.field(at)
            held = [fields.values.get(field.name) if fields is not None and fields.game == game
                    else None for _count, fields in self.chunks]
            if field.type == pa.string() and all(type(texts) is Texts for texts in held):
                # (every row this game's, each chunk's values in one buffer: taken whole)
                children.append(texts_array(field.type, self.count,
                                            [texts.data for texts in held],  # type: ignore[union-attr]
                                            [texts.lengths for texts in held]))  # type: ignore[union-attr]
                continue
            values: list[str | None] = []
            for count, fields in self.chunks:
                if fields is not None and fields.game == game and field.name in fields.values:
                    values.extend(fields.values[field.name])
                else:
                    values.extend(repeat(None, count))
            if field.type != pa.string():  # (numbers made here: no compute kernel)
                values = [None if value is None else int(value)  # type: ignore[misc]
                          for value in values]
            children.append(pa.array(values, field.type))
        return pa.StructArray.from_arrays(children, fields=list(kind), mask=nulls)


def batch_of(schema: Any, rows: list[dict[str, Any]], table: str) -> Any:
    """One Arrow record batch of table ``table`` from games' rows
    (:func:`~notation.tables.rows.placed_rows`' shape), as a row group is made."""
    gathering = Gathering(schema)
    for game in rows:
        if table == "games":
            gathering.add({name: [value] for name, value in game["games"].items()})
        elif table in game:
            gathering.add(game[table])
    return pa.RecordBatch.from_arrays(gathering.arrays(), schema=schema)


class Gathering:
    """A row group's columns being gathered, game by game."""

    def __init__(self, schema: Any) -> None:
        self.schema = schema
        self.names = schema.names
        self.gathered = self._gathering()
        self.count = 0

    def _gathering(self) -> list[tuple[str, Gathered | FieldsGathered]]:
        return [(field.name, FieldsGathered(field.type) if field.name == "fields"
                 else Gathered(field.type)) for field in self.schema]

    def add(self, columns: Columns) -> None:
        for name, gathered in self.gathered:
            column = columns[name]
            if isinstance(gathered, FieldsGathered):
                gathered.add(column)
                continue
            values = gathered.values
            # the usual cases taken here, a call less a column: values kept one by one,
            # and the same object repeated again (the same object: the same value)
            if values is not None:
                values.extend(column)
            elif type(column) is Repeated and column.value is gathered.same:
                gathered.count += column.count
            else:
                gathered.add(column)
        self.count += len(columns[self.names[0]])

    def arrays(self) -> list[Any]:
        """Every column's values as one Arrow array; the gathering starts again."""
        arrays = [gathered.array() for _name, gathered in self.gathered]
        self.gathered = self._gathering()
        self.count = 0
        return arrays


class ParquetTable:
    """Rows gathered by column and written as a row group when there are enough."""

    def __init__(self, path: str, columns: tuple[Column, ...], fields: Any = None) -> None:
        self.schema = arrow_schema(columns, fields)
        self.writer = pq.ParquetWriter(
            path, self.schema, compression="zstd",
            use_dictionary=[c.name for c in columns if c.name not in DISTINCT],
            write_statistics=[c.name for c in columns if c.kind in ("int", "bool", "double")])
        self.gathering = Gathering(self.schema)

    def add(self, columns: Columns) -> None:
        self.gathering.add(columns)
        if self.gathering.count >= ROWS_PER_GROUP:
            self.flush()

    def flush(self) -> None:
        if self.gathering.count:
            arrays = self.gathering.arrays()
            self.writer.write_table(pa.Table.from_arrays(arrays, schema=self.schema))

    def close(self) -> None:
        try:
            self.flush()
        finally:
            self.writer.close()

    @staticmethod
    def layout(columns: tuple[Column, ...]) -> object:
        return arrow_schema(columns)

    @staticmethod
    def layout_of(path: str) -> object:
        return pq.read_schema(path).remove_metadata()
