"""The container's token kinds, and the text of a quoted tag value.

What both readers share, the full parse (:mod:`.record_builder`) and the fast
scanner (:mod:`.fastpath`), kept apart from Lark so the fast one starts
without it.
"""
from __future__ import annotations

import re

_UNESCAPE = re.compile(r"\\(.)")
_ESCAPES = {"n": "\n", "r": "\r", "t": "\t"}


def unescape(value: str) -> str:
    """A quoted tag value's text: ``\\n``, ``\\r``, ``\\t`` are line breaks and a tab,
    any other ``\\X`` is ``X``."""
    if "\\" not in value:
        return value
    return _UNESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(1)), value)


def tag_parts(text: str, start: int = 0, end: int = -1) -> tuple[str, str]:
    """The key and the value's text of the ``TAG`` token ``text[start:end]`` (``end`` -1:
    the text's end; the terminal's shape, ``[ Key "value" ]`` with blanks). The value is
    sliced from ``text`` once: a 32 MB value is not copied again for each step."""
    end = len(text) if end < 0 else end
    opening = text.index('"', start, end)  # the key holds no quote
    closing = text.rindex('"', opening + 1, end)  # only blanks and "]" after it
    return text[start + 1:opening].strip(" \t"), unescape(text[opening + 1:closing])


#: Container terminals; every other terminal of a game grammar is an event.
#: A variation's parentheses; a grammar that imports ``_item`` without naming them gets
#: them under Lark's prefixed names (a game written before variations were).
VARIATION_STARTS = frozenset({"VARIATION_START", "record__VARIATION_START"})
VARIATION_ENDS = frozenset({"VARIATION_END", "record__VARIATION_END"})
#: Move annotations: a glyph (``!?``) and ``$N``.
ANNOTATIONS = frozenset({"GLYPH", "NAG", "record__GLYPH", "record__NAG"})
#: Every terminal of the container: the rest of a game's terminals are its events.
CONTAINER = frozenset({"TAG", "BAD_TAG", "MOVENUM", "COMMENT", "UNCLOSED", "BAD"}
                      | VARIATION_STARTS | VARIATION_ENDS | ANNOTATIONS)
