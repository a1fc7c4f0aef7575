"""Archives cut into batches of whole games, checked anywhere (worker processes, Dask).

The reader's pieces (see :mod:`notation.core.reading`) are grouped into
batches of about ``target`` bytes. A batch never ends after a piece that may
hand comments or tags on to the next game (a piece holding ``{`` or nothing
but comments), so each batch reads exactly as it would in one pass. A batch
knows its file and number; the games in it are numbered from 1, and the
runner (:mod:`notation.runner`) gives them their places in the file once the
batches before are counted.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import IO, Iterator

from .ast import Record
from .reading import records_of
from .text import Cutter, label_of, lines, open_record_file, pieces, source_chunks

TARGET = 256 << 10


@dataclass(slots=True)
class Batch:
    """Whole games of one file: ``(first line, text)`` pieces."""

    source: str
    number: int
    game: str | None
    pieces: list[tuple[int, str]] = field(default_factory=list)
    size: int = 0  # characters of its text
    #: Bytes of the input read for it (compressed bytes for a compressed file; for
    #: progress against the file's size), or None where the input cannot tell.
    read: int | None = None

    @property
    def progress(self) -> int:
        """How far it moves a progress line measured in input bytes."""
        return self.size if self.read is None else self.read


def _may_carry(text: str) -> bool:
    """Whether a piece may end in a game of tags and comments only (merged into the next)."""
    cutter = Cutter()
    for line in lines((text,)):
        cutter.feed(line)
    return cutter.may_carry


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
    batch = Batch(label, 1, game)
    counted = 0  # input bytes given to the batches before

    def taken(batch: Batch) -> Batch:
        nonlocal counted
        at = _position(handle)
        if at is not None:
            batch.read, counted = max(at - counted, 0), max(at, counted)
        return batch

    for first_line, text in pieces(source_chunks(handle, encoding, label)):
        if batch.size >= target and not _may_carry(batch.pieces[-1][1]):
            yield taken(batch)
            batch = Batch(label, batch.number + 1, game)
        batch.pieces.append((first_line, text))
        batch.size += len(text)
    if batch.pieces:
        yield taken(batch)


def _position(handle: IO[bytes]) -> int | None:
    """Where a file's reading stands (a pipe cannot say)."""
    try:
        return handle.tell()
    except (OSError, ValueError):
        return None


def batch_records(batch: Batch, checked: bool = True,
                  headers: bool = False) -> Iterator[Record]:
    """The records of a batch, numbered from 1 within it (``checked``: valid ones already
    replayed, without their events; ``headers``: plain ones with their tags only)."""
    start = batch.pieces[0][0] if batch.pieces else 1
    texts = (text for _first, text in batch.pieces)
    yield from records_of(texts, batch.source, batch.game, checked=checked,
                          headers=headers, start_line=start)

