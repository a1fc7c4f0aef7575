"""Places in a document's text as the protocol counts them, and the text kept as the
client has it: lines end at LF, CRLF or a lone CR only (not at the other characters
Python's ``splitlines`` breaks at: U+2028, form feed...), characters count UTF-16 units,
and a character past a line's end is the line's end (before its line break). Also the
games (the reader's pieces) that a span of lines touches."""
from __future__ import annotations

import re
from typing import Iterator

from notation.read.text import chunks, pieces

#: What ends a line, for the protocol as for the reader: LF, CRLF or a lone CR.
LINE_END = re.compile(r"\r\n|\r|\n")


def utf16_units(line_text: str, column: int) -> int:
    """A 1-based column in characters as the protocol's 0-based UTF-16 offset (a lone
    surrogate, which JSON may carry, is one unit)."""
    prefix = line_text[:column - 1]
    return len(prefix.encode("utf-16-le", "surrogatepass")) // 2


def column_of(line_text: str, units: int) -> int:
    """The protocol's 0-based UTF-16 offset on a line as a 1-based column in characters
    (past the line's end: just after its last character)."""
    counted = 0
    for index, char in enumerate(line_text):
        if counted >= units:
            return index + 1
        counted += 2 if ord(char) > 0xFFFF else 1
    return len(line_text) + 1


def pieces_touching(text: str, source: str, first_line: int, last_line: int
                    ) -> Iterator[tuple[int, int, str]]:
    """Each piece of ``text`` (:func:`~notation.read.text.pieces`: the one rule for where
    a game may begin) with a line from ``first_line`` to ``last_line``: its first and
    last lines (1-based; blank lines after it are not its) and its text."""
    for start, piece in pieces(chunks((text,), source), source):  # (CR ends lines)
        if start > last_line:
            return
        end = start + piece.rstrip("\n").count("\n")
        if end >= first_line:
            yield start, end, piece


def offset(text: str, line: int, character: int) -> int:
    """Where the protocol's position (0-based line, UTF-16 character) is in ``text``: a
    line past the last is the text's end, a character past the line's end the line's
    end."""
    start = 0
    if line > 0:
        found = 0
        for end in LINE_END.finditer(text):
            found += 1
            if found == line:
                start = end.end()
                break
        else:
            return len(text)
    stop = LINE_END.search(text, start)
    line_end = stop.start() if stop else len(text)
    return start + column_of(text[start:line_end], character) - 1


def changed(text: str, start: tuple[int, int] | None, end: tuple[int, int] | None,
            new_text: str) -> str:
    """``text`` with the span from ``start`` to ``end`` (line, character) replaced by
    ``new_text``; no span: the whole text replaced."""
    if start is None or end is None:
        return new_text
    first, last = offset(text, *start), offset(text, *end)
    if last < first:
        first, last = last, first
    return text[:first] + new_text + text[last:]


__all__ = ["LINE_END", "changed", "column_of", "offset", "pieces_touching", "utf16_units"]
