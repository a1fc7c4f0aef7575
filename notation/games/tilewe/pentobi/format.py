"""Pentobi's Blokus SGF as a :class:`~notation.core.formats.RecordFormat`."""
from __future__ import annotations

from collections.abc import Iterable, Iterator


from notation.core.tree import GameNode
from notation.core.formats import RecordFormat
from notation.core.game import AnyGame

from . import reader, sgf, writer


class BlokusSgf(RecordFormat[GameNode]):
    """Reads every game tree of a file as a Tilewe record; writes one back."""

    name = "blksgf"
    one_game_a_file = ("Pentobi reads one game a file (the first), and pentobi-thumbnailer "
                       "refuses a file of several")

    def records(self, text: Iterable[str], source: str,
                game: AnyGame | None = None) -> Iterator[GameNode]:
        return reader.records(text, source)

    def pieces(self, text: Iterable[str], source: str) -> Iterator[tuple[int, int, str]]:
        return ((piece.line, piece.column, piece.text) for piece in sgf.cut(text, source))

    def write(self, record: GameNode) -> str:
        return writer.write(record)


FORMAT = BlokusSgf()
