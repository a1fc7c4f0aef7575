"""Bounds on what a record can make the toolkit do, and reading numbers within them.

A record is untrusted input. Numbers in it are read here so that no game has
to remember that ``int()`` accepts Unicode digits (``²``), refuses 4,301 digits
or more, and is quadratic in the length below that.
"""
from __future__ import annotations

from .errors import QUOTE_CHARS, NotationError, shorten  # noqa: F401  (shorten: re-exported)

#: No number in any of the notations needs more digits than this, but for Sanguine's
#: card values (and the scores summed from them).
MAX_DIGITS = 9
#: A Sanguine card value is any positive integer (rules 1.1); this many digits keep
#: reading one cheap (``int()`` is quadratic in the length) and its sums far below the
#: 4,300 digits past which Python will not write an int as text.
MAX_VALUE_DIGITS = 1000
#: The largest deck file read (a 400-card deck is about 12 KB).
MAX_DECK_BYTES = 1 << 20
#: Variations nested deeper than this are refused: no analysis needs more, and every
#: walk over a tree (replay, fmt, the reader) recurses once per level.
MAX_VARIATION_DEPTH = 64
#: The most problems one game lists. A game past them is broken beyond what another
#: line of its list would help with, and the list must not grow with the input: a stray
#: ``)`` repeated a million times was a million lines of output (400 MB) and an object
#: each. The reader counts the rest without building them; one last problem says how
#: many more there were (:mod:`notation.core.listing`).
MAX_PROBLEMS = 100
#: The most text one game may hold, in characters (decompressed and decoded): a game is
#: read whole, so past this its input is refused rather than held (a small ``.gz`` of
#: blank lines, or one endless line, would fill memory). No record comes near: a 32 MB
#: tag value or comment is read.
MAX_GAME_CHARS = 64 << 20

_DIGITS = frozenset("0123456789")


def is_whole(text: str, signed: bool = False, digits: int = MAX_DIGITS) -> bool:
    """True when ``text`` is at most ``digits`` ASCII digits (with one leading ``-`` if
    ``signed``)."""
    body = text[1:] if signed and text.startswith("-") else text
    return bool(body) and len(body) <= digits and _DIGITS.issuperset(body)


def whole(text: str, what: str = "number", signed: bool = False,
          digits: int = MAX_DIGITS) -> int:
    """``text`` as an int; :class:`NotationError` unless it is an ASCII whole number of
    at most ``digits`` digits."""
    if is_whole(text, signed, digits):
        return int(text)
    body = text[1:] if signed and text.startswith("-") else text
    if body and _DIGITS.issuperset(body):
        raise NotationError(f"{what} {shorten(text)} is too large (at most {digits:,} digits)")
    raise NotationError(f"{what} {shorten(text)!r} is not a whole number")


def printable(text: str, newlines: bool = True) -> str:
    """``text`` with control characters written as escapes (``\\x1b``), for terminals.

    Tabs and (unless ``newlines`` is false) line breaks stay; everything else
    below space, DEL and the C1 range would let a record move the cursor, ring
    the bell or retitle the window of whoever reads its error messages.
    """
    if text.isprintable():
        return text
    keep = "\n\t" if newlines else "\t"
    out = []
    for ch in text:
        code = ord(ch)
        if ch in keep or not (code < 32 or 127 <= code < 0xA0 or ch in _UNSAFE):
            out.append(ch)
        elif code < 0x100:
            out.append(f"\\x{code:02x}")
        else:
            out.append(f"\\u{code:04x}")
    return "".join(out)


#: Bidirectional overrides and line separators: they reorder or break what a terminal shows.
_UNSAFE = frozenset("\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
