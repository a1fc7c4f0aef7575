"""Parquet tables (the ``notation[data]`` extra: pyarrow), written a row group at a time
so memory stays flat on any archive."""
from __future__ import annotations

from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from .schema import Column

#: Rows held before they are written as one row group.
ROWS_PER_GROUP = 8192

_TYPES = {"text": pa.string(), "int": pa.int64(), "bool": pa.bool_(), "json": pa.string()}


def arrow_schema(columns: tuple[Column, ...]) -> Any:
    """The table's Arrow schema: JSON columns are strings holding JSON text."""
    return pa.schema([pa.field(c.name, _TYPES[c.kind]) for c in columns])


class ParquetTable:
    def __init__(self, path: str, columns: tuple[Column, ...]) -> None:
        self.schema = arrow_schema(columns)
        self.writer = pq.ParquetWriter(path, self.schema, compression="zstd")
        self.rows: list[dict[str, Any]] = []

    def add(self, row: dict[str, Any]) -> None:
        self.rows.append(row)
        if len(self.rows) >= ROWS_PER_GROUP:
            self.flush()

    def flush(self) -> None:
        if self.rows:
            self.writer.write_table(pa.Table.from_pylist(self.rows, schema=self.schema))
            self.rows = []

    def close(self) -> None:
        try:
            self.flush()
        finally:
            self.writer.close()
