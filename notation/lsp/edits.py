"""A document's text kept as the client has it, each change applied as the protocol
defines it: lines end at LF, CRLF or a lone CR only (not at the other characters Python's
``splitlines`` breaks at: U+2028, form feed...), characters count UTF-16 units, and a
character past a line's end is the line's end (before its line break)."""
from __future__ import annotations

import re

#: What ends a line, for the protocol as for the reader: LF, CRLF or a lone CR.
LINE_END = re.compile(r"\r\n|\r|\n")


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
    units = 0
    at = start
    while at < line_end and units < character:
        units += 2 if ord(text[at]) > 0xFFFF else 1
        at += 1
    return at


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


__all__ = ["LINE_END", "changed", "offset"]
