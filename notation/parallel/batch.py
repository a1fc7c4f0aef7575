"""Archives cut into batches of whole games, checked anywhere (worker processes, Dask).

The reader's pieces (see :mod:`notation.read.reading`) are grouped into
batches of about ``target`` bytes (the first ones smaller: :data:`FIRST`). A batch never ends after a piece that may
hand comments or tags on to the next game (a piece holding ``{`` or nothing
but comments), so each batch reads exactly as it would in one pass. A batch
knows its file and number; the games in it are numbered from 1, and the
runner (:mod:`notation.parallel.runs`) gives them their places in the file once the
batches before are counted.
"""
from __future__ import annotations

import os
from dataclasses import field
from typing import IO, Any, Iterable, Iterator


from notation.core.errors import InputError
from notation.core.hand_dataclass import hand_dataclass
from notation.core.tree import GameNode
from notation.core.formats import RecordFormat
from notation.read.reading import claimed, records_of, records_of_pieces
from notation.read.text import label_of, may_carry, open_record_file, pieces, source_chunks

TARGET = 256 << 10
#: The first batch's size: each next one twice the last, up to the target. A run's first
#: lines wait for its first batch, and a worker's start for the text it is given: small
#: first batches bring both forward (a 256 KiB first batch put ``replay --json``'s first
#: line 0.4 s after the one-process run's) at the cost of a few more batches.
FIRST = 8 << 10


@hand_dataclass(slots=True)
class Batch:
    """Whole games of one file: ``(first line, text)`` pieces; of a file in another format
    (Pentobi's, ``format``), that format's pieces, the first from ``column`` of its line."""

    source: str
    number: int
    game: str | None
    pieces: list[tuple[int, str]] = field(default_factory=list)
    size: int = 0  # characters of its text
    format: str | None = None  # the format a file is in, if not the games' own notation
    column: int = 1  # where on its line the first piece starts (a format's may start within)
    #: Bytes of the input read for it (compressed bytes for a compressed file; for
    #: progress against the file's size), or None where the input cannot tell.
    read: int | None = None

    def __init__(self, source: str, number: int, game: str | None,
                 pieces: list[tuple[int, str]] | None = None, size: int = 0,
                 format: str | None = None, column: int = 1, read: int | None = None) -> None:
        self.source = source
        self.number = number
        self.game = game
        self.pieces = [] if pieces is None else pieces
        self.size = size
        self.format = format
        self.column = column
        self.read = read

    @property
    def progress(self) -> int:
        """How far it moves a progress line measured in input bytes."""
        return self.size if self.read is None else self.read


def batches(source: str | os.PathLike[str] | IO[bytes], game: str | None = None,
            encoding: str = "utf-8", name: str | None = None,
            target: int = TARGET) -> Iterator[Batch]:
    """Batches of whole games from a path or an open file, read as a stream."""
    label = label_of(source, name)
    if not isinstance(source, (str, os.PathLike)):
        yield from _batches(source, label, game, encoding, target)
        return
    with open_record_file(source, label) as handle:
        yield from _batches(handle, label, game, encoding, target)


def _batches(handle: IO[bytes], label: str, game: str | None, encoding: str,
             target: int) -> Iterator[Batch]:
    counted = 0  # input bytes given to the batches before

    def taken(batch: Batch) -> Batch:
        nonlocal counted
        at = _position(handle)
        if at is not None:
            batch.read, counted = max(at - counted, 0), max(at, counted)
        return batch

    other, text_chunks = claimed(source_chunks(handle, encoding, label), label)
    name = other.name if other is not None else None
    batch = Batch(label, 1, game, format=name)
    wanted = min(FIRST, target)
    try:
        for first_line, column, text in _cut(other, text_chunks, label):
            if not batch.pieces:
                batch.column = column
            batch.pieces.append((first_line, text))
            batch.size += len(text)
            # (a format's pieces are games of their own; a game of the notation may take
            # the comments of the one before: see may_carry)
            if batch.size >= wanted and (other is not None or not may_carry(text)):
                text = ""  # the batch holds its pieces alone: it lets each go as it is read
                yield taken(batch)  # given before the next is read
                batch = Batch(label, batch.number + 1, game, format=name)
                wanted = min(2 * wanted, target)
    except InputError:  # (the games read before it are the input's, as in one pass)
        if batch.pieces:
            yield taken(batch)
        raise
    if batch.pieces:
        yield taken(batch)


def _cut(other: RecordFormat[Any] | None, text_chunks: Iterable[str],
         label: str) -> Iterable[tuple[int, int, str]]:
    """``(line, column, text)`` pieces of a file's text: the notation's pieces, or those
    of the format that claimed the file (the whole text, for a format that cannot cut)."""
    if other is None:
        return ((line, 1, text) for line, text in pieces(text_chunks, label))
    cut = other.pieces(text_chunks, label)
    return cut if cut is not None else ((1, 1, "".join(text_chunks)),)


def _position(handle: IO[bytes]) -> int | None:
    """Where a file's reading stands (a pipe cannot say)."""
    try:
        return handle.tell()
    except (OSError, ValueError):
        return None


def batch_records(batch: Batch, checked: bool = True,
                  headers: bool = False) -> Iterator[GameNode]:
    """The records of a batch, numbered from 1 within it (``checked``: valid ones already
    replayed, without their events; ``headers``: plain ones with their tags only).

    The batch is read once: each piece leaves it as it is read, so that a worker holds
    no piece it is done with (a piece may hold a 32 MB line) beside what it sends home.
    The notation's pieces are read each at its own line (no blank line between games is
    in one); a format's, as the text they make together."""
    if batch.format is None:
        yield from records_of_pieces(_taken(batch.pieces), batch.source, batch.game,
                                     checked=checked, headers=headers)
        return
    start = batch.pieces[0][0] if batch.pieces else 1
    yield from records_of((text for _, text in _taken(batch.pieces)), batch.source,
                          batch.game, checked=checked, headers=headers, start_line=start,
                          start_column=batch.column, format=batch.format)


def _taken(pieces: list[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    """The pieces in order, each removed from the list as it is given."""
    pieces.reverse()
    while pieces:
        yield pieces.pop()

