"""Bounds on what a record can make the toolkit do, and reading numbers within them.

A record is untrusted input. Numbers in it are read here so that no game has
to remember that ``int()`` accepts Unicode digits (``²``), refuses 4,301 digits
or more, and is quadratic in the length below that.

A game's problems are listed here too, up to :data:`MAX_PROBLEMS` (:class:`Listing`):
past the cap a problem is only counted, for hostile text (a stray ``)`` a million
times) must cost neither a million objects nor a million lines of output. What is
listed ends with one problem that says how many more there were, at the first of
them; the first problem of the mainline, which decides where the replay stops, is
kept whether listed or not.

Readers that remember what they read (:func:`remembered`) keep at most so many values:
an archive repeats the same few thousand words, but a hostile one need not.
"""
from __future__ import annotations

from typing import Callable, TypeVar

from .errors import (QUOTE_CHARS, NotationError, Problem, ProblemKind,  # noqa: F401
                     shorten)  # (shorten: re-exported)

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
#: many more there were (:class:`Listing`, below).
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


# -- problems listed up to the cap ----------------------------------------------------

class Listing:
    """Problems in the order found: the first :data:`MAX_PROBLEMS` kept, the rest counted.

    ``until``: problems after that ply are not the caller's (``run(until=N)``) and are
    neither kept nor counted.
    """

    __slots__ = ("kept", "more", "next", "internal", "first", "until")

    def __init__(self, until: int | None = None) -> None:
        self.kept: list[Problem] = []
        self.more = 0                     # problems counted, not kept
        self.next: Problem | None = None  # the first of them
        self.internal = False             # one of them a bug of ours
        #: The mainline's first problem (the least ply, the first found of it): where
        #: the replay stops, kept or not.
        self.first: Problem | None = None
        self.until = until

    def add(self, problem: Problem, count: int = 1) -> None:
        """One problem found, or ``count`` in a row of which ``problem`` is the first."""
        if self.until is not None and problem.ply > self.until:
            return
        if not problem.variation and (self.first is None or problem.ply < self.first.ply):
            self.first = problem
        if len(self.kept) < MAX_PROBLEMS:
            self.kept.append(problem)
            count -= 1
        if count:
            self.next = self.next or problem
            self.more += count
            self.internal |= problem.kind == ProblemKind.INTERNAL

    def absorb(self, other: Listing) -> None:
        """Add what ``other`` found after what this found: its kept problems one by one,
        then the ones it only counted."""
        for problem in other.kept:
            self.add(problem)
        if other.more:
            assert other.next is not None  # (counted ones have their first)
            self.internal |= other.internal
            self.add(other.next, other.more)

    def listed(self) -> list[Problem]:
        """The problems to report: at most :data:`MAX_PROBLEMS` (the kept ones in their
        order now, however many the caller added to them), then one that says how many
        more there were, where the first of them is."""
        shown, rest = self.kept[:MAX_PROBLEMS], self.kept[MAX_PROBLEMS:]
        more = len(rest) + self.more
        if not more:
            return shown
        first = rest[0] if rest else self.next
        assert first is not None  # (counted ones have their first)
        internal = self.internal or any(p.kind == ProblemKind.INTERNAL for p in rest)
        return shown + [Problem(ProblemKind.INTERNAL if internal else first.kind, first.line,
                                first.column, first.ply, None,
                                f"... and {more:,} more problem{'s' * (more != 1)} (a game "
                                f"lists its first {MAX_PROBLEMS})", "", first.variation)]


#: What a remembering reader makes.
Read = TypeVar("Read")


class Remembered(dict[str, Read]):
    """The values ``read`` made, by their text, at most ``kept`` of them (emptied when
    full: flat memory whatever the archive). Its ``__getitem__`` is the reader: a text
    read before costs one dict look-up in C, with no Python frame."""

    def __init__(self, read: Callable[[str], Read], kept: int) -> None:
        super().__init__()
        self.read = read
        self.kept = kept

    def __missing__(self, text: str) -> Read:
        value = self.read(text)
        if len(self) >= self.kept:
            self.clear()
        self[text] = value
        return value


def remembered(read: Callable[[str], Read], kept: int) -> Callable[[str], Read]:
    """``read``, remembering at most ``kept`` of the values it made (:class:`Remembered`)."""
    return Remembered(read, kept).__getitem__
