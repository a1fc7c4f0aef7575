"""Byte ranges of whole games, so that workers elsewhere read their own part of a file.

The client scans a file once (lines only, nothing is parsed) and notes where
batches of games begin: byte offset and line number, by the same rule as the
streaming reader (:class:`~notation.core.reading.Cutter`). A worker that can
see the file (a local cluster, or a cluster on shared storage) reads its range
and checks those games; their line numbers are the file's.
"""
from __future__ import annotations

import codecs
import io
import os
from dataclasses import dataclass
from typing import Any, Iterator

from notation.core.batch import TARGET, check_game
from notation.core.errors import InputError
from notation.core.reading import Cutter, _blocks, chunks, open_record_file, records_of


@dataclass(frozen=True, slots=True)
class Span:
    """Bytes ``start`` to ``end`` of ``source``: whole games from line ``first_line``."""

    source: str
    number: int
    start: int
    end: int
    first_line: int
    game: str | None = None
    encoding: str = "utf-8"


def spans(path: str | os.PathLike[str], game: str | None = None, encoding: str = "utf-8",
          target: int = TARGET) -> Iterator[Span]:
    """The spans of one file, each about ``target`` bytes, in file order."""
    from notation.core.parsing import check_regular
    source = os.fspath(path)
    check_regular(source)  # before anything is read, as every reader does
    try:
        ascii_like = "\n[".encode(encoding) == b"\n["
    except (LookupError, UnicodeError):
        ascii_like = False
    if not ascii_like:  # lines cannot be found in the bytes: the file is one span
        size = os.stat(source).st_size
        yield Span(source, 1, 0, size, 1, game, encoding)
        return
    number, start, first_line, offset, line_no = 1, 0, 1, 0, 0
    cutter = Cutter()
    with open_record_file(source) as handle:
        for raw in handle:
            line_no += 1
            text = raw.decode(encoding, "replace")
            if line_no == 1 and text.startswith("\ufeff"):
                text = text[1:]
            carry = cutter.may_carry
            if cutter.feed(text) and offset - start >= target and not carry:
                yield Span(source, number, start, offset, first_line, game, encoding)
                number, start, first_line = number + 1, offset, line_no
            offset += len(raw)
    if offset > start or number == 1:
        yield Span(source, number, start, offset, first_line, game, encoding)


def check_span(span: Span) -> list[dict[str, Any]]:
    """Every game of a span checked, as ``validate --json`` shows it (indexes from 1)."""
    try:
        with open(span.source, "rb") as handle:
            handle.seek(span.start)
            data = handle.read(span.end - span.start)
    except OSError as exc:
        return [{"file": span.source, "input_error": f"{span.source}: error: cannot read: "
                                                      f"{exc.strerror or exc}"}]
    encoding = span.encoding
    if span.start and codecs.lookup(encoding).name == "utf-8":
        encoding = "utf-8"  # a byte-order mark can only open the file
    out: list[dict[str, Any]] = []
    try:
        text = chunks(_blocks(io.BytesIO(data), span.source, encoding, base=span.start))
        for record in records_of(text, span.source, span.game, checked=True,
                                 start_line=span.first_line):
            out.append(check_game(record))
    except InputError as exc:
        out.append({"file": span.source, "input_error": str(exc)})
    return out
