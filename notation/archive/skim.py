"""Reading an archive for ``select --tag KEY=VALUE``, passing over the games that
cannot match without reading their tags.

Looking for a value's text in a game costs far less than reading the game's tags,
and most games of a big archive fail a tag filter. A *simple* piece of text (one
:func:`notation.read.text.pieces` gives) has no ``{`` and no backslash; its first
lines are blank or hold one ``TAG`` each, and the rest holds no ``[`` and a line that
is neither blank nor a comment. It reads as exactly one game, which takes nothing
from the piece before it and hands nothing on. When such a piece
follows another simple piece and lacks the quoted text of a wanted value, its game
fails the filter whatever its tags, so a stand-in (a record with no tags) takes its
place: as many records in the same order, with the same verdicts. Every other
piece is read by :func:`notation.read.reading.records_of_pieces`, as it would have been.
"""
from __future__ import annotations

import itertools
import re
from functools import lru_cache
from typing import Iterable, Iterator

from notation.core.tree import GameNode
from notation.core import formats

from notation.core.fastpath import PLAIN_LINE
from notation.core.game import AnyGame
from notation.read.grammars import terminal_pattern
from notation.read.other_readings import OtherGames
from notation.read.reading import records_of, records_of_pieces
from notation.read.text import pieces

from .filters import Filters


def needles(filters: Filters) -> tuple[str, ...]:
    """The quoted values a game's text must hold to pass the filters' ``KEY=VALUE`` tests
    (empty: no game can be passed over). A value with a quote, a backslash or a line
    break is written escaped, so it is not looked for."""
    if not filters.headers_only:
        return ()
    found = []
    for test in filters.tag_tests:
        value = test.value
        if value is not None and not any(c in value for c in '"\\\n\r'):
            found.append(f'"{value}"')
    return tuple(found)


@lru_cache(maxsize=None)
def header_lines() -> re.Pattern[str]:
    """Lines each blank or one tag (``record.lark``'s ``TAG``) between spaces and tabs."""
    tag = terminal_pattern("record.lark", "TAG")
    return re.compile(f"(?:[ \\t]*(?:(?:{tag.pattern})[ \\t]*)?\\n)*+", tag.flags)


def is_simple(text: str) -> bool:
    """Whether a piece reads as one game that neither takes nor hands on a game of
    comments only (see the module's docstring)."""
    if "{" in text or "\\" in text:
        return False
    head = header_lines().match(text)  # (it always matches, if only nothing)
    start = head.end() if head is not None else 0
    return text.find("[", start) < 0 and PLAIN_LINE.search(text, start) is not None


def lacks(text: str, wanted: tuple[str, ...]) -> bool:
    """Whether the text lacks one of the wanted quoted values."""
    for needle in wanted:
        if needle not in text:
            return True
    return False


class _Skimmer:
    """A file's pieces, one ahead, and the last one read in full (which may hand a game
    of comments on to the one ahead)."""

    def __init__(self, cuts: Iterator[tuple[int, str]], wanted: tuple[str, ...]) -> None:
        self.cuts, self.wanted = cuts, wanted
        self.ahead = next(cuts, None)
        self.last: str | None = None  # None: the last piece was passed over, or none came

    def passes_over(self) -> bool:
        """Whether the piece ahead is one game that cannot match."""
        assert self.ahead is not None
        text = self.ahead[1]
        if not (lacks(text, self.wanted) and is_simple(text)):
            return False
        return self.last is None or is_simple(self.last)

    def skip(self) -> None:
        """Pass over the piece ahead."""
        self.ahead, self.last = next(self.cuts, None), None

    def run(self) -> Iterator[tuple[int, str]]:
        """The pieces to read in full, from the one ahead to the next that may be passed
        over."""
        while self.ahead is not None:
            piece = self.ahead
            self.last = piece[1]
            self.ahead = next(self.cuts, None)
            yield piece
            if self.ahead is not None and self.passes_over():
                return


def skimmed_records(text_chunks: Iterable[str], source: str,
                    game: str | AnyGame | None, wanted: tuple[str, ...]) -> Iterator[GameNode]:
    """The records ``records_of(text_chunks, source, game, headers=True)`` gives, but for
    a stand-in in place of each game passed over: a record with no tags, no text and
    index 0, the same object for each (making one per game took a fifth of the time)."""
    chunks = iter(text_chunks)
    opening = next(chunks, "")
    text_chunks = itertools.chain((opening,), chunks)
    # A format's signature is looked for in the opening; the first piece read in full is
    # looked at again, which says the same only if the opening holds a whole signature.
    head = opening.lstrip("\ufeff \t\r\n")
    if (not wanted or len(head) < formats.HEAD
            or formats.claiming(source, opening) is not None):
        yield from records_of(text_chunks, source, game, headers=True)
        return
    skimmer = _Skimmer(pieces(text_chunks, source), wanted)
    stand_in = GameNode(None, source=source, index=0)
    others = OtherGames()  # one check for the file, over the runs read in full
    index = 0
    while skimmer.ahead is not None:
        if skimmer.passes_over():
            index += 1
            skimmer.skip()
            yield stand_in
            continue
        for record in records_of_pieces(skimmer.run(), source, game, headers=True,
                                        others=others):
            index += 1
            record.index = index
            yield record


__all__ = ["is_simple", "lacks", "needles", "skimmed_records"]
