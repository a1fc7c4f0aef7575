"""The JSON record format (``notation convert --to json``; read by every command)."""
from __future__ import annotations

from typing import Iterable, Iterator


from notation.core.tree import GameNode
from notation.core.formats import RecordFormat
from notation.core.game import AnyGame

from .json_read import read_records
from .json_write import dumps
from .jsontext import pieces


class JSONRecords(RecordFormat[GameNode]):
    """One JSON document per game (``schemas/record.schema.json``), one a line."""

    name = "json"

    def records(self, text: Iterable[str], source: str,
                game: AnyGame | None = None) -> Iterator[GameNode]:
        return read_records(text, source, game)

    def pieces(self, text: Iterable[str], source: str) -> Iterator[tuple[int, int, str]]:
        """Documents with the blank lines before them, which join into the file again: a
        batch of them reads with the file's line numbers."""
        return ((piece.first_line, 1, piece.text) for piece in pieces(text, source, True))

    def write(self, record: GameNode) -> str:
        return dumps(record)


FORMAT = JSONRecords()
