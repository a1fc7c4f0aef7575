"""Parquet tables (the ``notation[data]`` extra: pyarrow), written a row group at a time
so memory stays flat on any archive.

Arrow's own allocator keeps what it freed for later, and the file's footer grows with
each row group: so Arrow allocates from the system (what a row group used is given
back) and a row group holds 32,768 rows (few enough to hold, many enough that the
footer of a 200 MB archive stays small).
"""
from __future__ import annotations

from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from .schema import Column

#: Rows held before they are written as one row group.
ROWS_PER_GROUP = 1 << 15

pa.set_memory_pool(pa.system_memory_pool())

_TYPES = {"text": pa.string(), "int": pa.int64(), "bool": pa.bool_(), "json": pa.string()}


def arrow_schema(columns: tuple[Column, ...]) -> Any:
    """The table's Arrow schema: JSON columns are strings holding JSON text."""
    return pa.schema([pa.field(c.name, _TYPES[c.kind]) for c in columns])


class ParquetTable:
    """Rows gathered by column and written as a row group when there are enough."""

    def __init__(self, path: str, columns: tuple[Column, ...]) -> None:
        self.schema = arrow_schema(columns)
        self.writer = pq.ParquetWriter(path, self.schema, compression="zstd")
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
