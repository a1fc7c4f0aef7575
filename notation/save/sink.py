"""Games copied out as one archive: each game's lines as written, a blank line between games.

The copy is itself a valid archive (comments kept). It goes to a text
callback (standard output, say) or to a file named by the user, which is
replaced all at once at the end (see :func:`notation.save.files.open_output`).
"""
from __future__ import annotations

from types import TracebackType
from typing import Callable, Iterator


from notation.core.protocols import RecordView
from .files import AtomicFile, DeviceFile, open_output


#: Characters of a game's text written at a time (:func:`game_pieces`).
PIECE = 1 << 20


def game_text(record: RecordView | str) -> str:
    """A game's own lines as written (a record, or its text), ending in one line break."""
    return (record if isinstance(record, str) else record.raw).rstrip("\n") + "\n"


def game_pieces(record: RecordView | str) -> Iterator[str]:
    """:func:`game_text` a piece of at most :data:`PIECE` characters at a time, sliced
    from the game's own text: a game of megabytes (a 32 MB tag value) is never copied
    whole on its way out (stripped, joined to its line break, encoded as it is written)."""
    text = record if isinstance(record, str) else record.raw
    end = len(text)
    while end and text[end - 1] == "\n":
        end -= 1
    if end == len(text) - 1 and end < PIECE:  # (already so: the text itself, uncopied)
        yield text
        return
    for start in range(0, end, PIECE):
        yield text[start:min(start + PIECE, end)]
    yield "\n"


class GameSink:
    """Where copied games go: ``target`` is a file path or a callback taking text.

    As a context manager it leaves nothing new behind unless :meth:`commit`
    was called: a file that was not there before is not made, one that was
    keeps its content. Every failure to write raises
    :class:`~notation.archive.errors.WriteError` (the file side already given up).
    """

    def __init__(self, target: str | Callable[[str], None], encoding: str = "utf-8") -> None:
        self.count = 0
        self.file: AtomicFile | DeviceFile | None = None
        self.echo: Callable[[str], None] | None = None
        if isinstance(target, str):
            self.file = open_output(target, encoding)
        else:
            self.echo = target

    def __enter__(self) -> GameSink:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.discard()  # after commit(): nothing left to remove

    def add(self, record: RecordView | str) -> None:
        """One more game, after a blank line if it is not the first (written a piece at a
        time: :func:`game_pieces`)."""
        if self.count:
            self._put("\n")
        self.count += 1
        for piece in game_pieces(record):
            self._put(piece)

    def write(self, text: str) -> None:
        """Text as it is (counted as one game)."""
        self.count += 1
        self._put(text)

    def _put(self, text: str) -> None:
        if self.file is not None:
            self.file.write(text)
        elif self.echo is not None:
            self.echo(text)

    def commit(self) -> None:
        """The output is complete: a file now holds it (a callback has had it all)."""
        file, self.file = self.file, None
        if file is not None:
            file.commit()

    def discard(self) -> None:
        """Give the output up: a file is left as it was before."""
        file, self.file = self.file, None
        if file is not None:
            file.discard()
