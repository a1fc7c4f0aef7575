"""Parquet tables (the ``notation[data]`` extra: pyarrow), written a row group at a time
so memory stays flat on any archive.

Arrow allocates from mimalloc (see :func:`_flat_pool`), and only the number and truth
columns keep statistics (min and max, what a query skips row groups by): the file's
footer, held until the file is closed, does not grow by the long texts' extremes.
"""
from __future__ import annotations

import os
from typing import Any

# mimalloc commits an arena's memory as it is used, not all of it at once: 10 MB less at
# the peak of a long export, no time lost. mimalloc reads it once, when Arrow's library
# loads, so it counts only if pyarrow is first imported here (as in `notation export`);
# processes started later inherit it (and any other mimalloc reads it too).
os.environ.setdefault("MIMALLOC_ARENA_EAGER_COMMIT", "0")

import pyarrow as pa  # noqa: E402  (after mimalloc's option)
import pyarrow.parquet as pq  # noqa: E402

from .schema import Column

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

_TYPES = {"text": pa.string(), "int": pa.int64(), "bool": pa.bool_(), "json": pa.string()}


def arrow_schema(columns: tuple[Column, ...]) -> Any:
    """The table's Arrow schema: JSON columns are strings holding JSON text."""
    return pa.schema([pa.field(c.name, _TYPES[c.kind]) for c in columns])


class ParquetTable:
    """Rows gathered by column and written as a row group when there are enough."""

    def __init__(self, path: str, columns: tuple[Column, ...]) -> None:
        self.schema = arrow_schema(columns)
        self.writer = pq.ParquetWriter(
            path, self.schema, compression="zstd",
            use_dictionary=[c.name for c in columns if c.name not in DISTINCT],
            write_statistics=[c.name for c in columns if c.kind in ("int", "bool")])
        self.names = [c.name for c in columns]
        self.columns: dict[str, list[Any]] = {name: [] for name in self.names}
        self.count = 0

    def add(self, columns: dict[str, list[Any]]) -> None:
        for name in self.names:
            self.columns[name].extend(columns[name])
        self.count += len(columns[self.names[0]])
        if self.count >= ROWS_PER_GROUP:
            self.flush()

    def flush(self) -> None:
        if self.count:
            self.writer.write_table(pa.Table.from_pydict(self.columns, schema=self.schema))
            self.columns = {name: [] for name in self.names}
            self.count = 0

    def close(self) -> None:
        try:
            self.flush()
        finally:
            self.writer.close()
