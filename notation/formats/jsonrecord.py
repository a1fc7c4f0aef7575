"""The JSON record format (``notation convert --to json``; read by every command)."""
from __future__ import annotations

from typing import Iterable, Iterator

from notation.core.ast import Record
from notation.core.formats import RecordFormat
from notation.core.game import AnyGame

from .json_read import read_records
from .json_write import dumps


class JSONRecords(RecordFormat):
    """One JSON document per game (``schemas/record.schema.json``), one a line."""

    name = "json"

    def records(self, text: Iterable[str], source: str,
                game: AnyGame | None = None) -> Iterator[Record]:
        return read_records(text, source, game)

    def write(self, record: Record) -> str:
        return dumps(record)


FORMAT = JSONRecords()
