"""A game's scanner: its grammar's terminals as one regular expression, in the order its
lexer tries them, with each event terminal's reader.

The grammar stays the one definition of the notation: the scanner is derived from it
(and kept between runs, so a well-formed file is read without loading Lark). Reading one
event (:func:`notation.core.events.parse_event`) and the fast path over whole games
(:mod:`notation.core.fastpath`) both scan with it, and :func:`scanned_tokens` makes it the
reader's second source of visits: a plain game's tokens as Lark's lexer would give them,
for :func:`~notation.read.visitor.visit_tokens` (the tests hold the two sources' visits
equal on random and mutated games of every game).
"""
from __future__ import annotations

import re
from functools import cached_property, lru_cache
from typing import Any, Callable, Iterator, NamedTuple

from notation.core.ast import Pos, Tag
from notation.core.errors import NotationError
from notation.core.limits import remembered

from notation.core.game import AnyGame
from .grammars import Terminal, terminal_pattern
from .grammars import terminals as terminals_of
from .visitor import CONTAINER, tag_parts

compiled_opening_tags: Callable[[str, int, type[Tag], type[Pos]],
                                tuple[list[Tag], int, int] | None] | None
try:  # the opening tag lines read in C (compiled/tags.c), where the install built it
    from .compiled.tags import opening_tags as compiled_opening_tags
except ImportError:  # pragma: no cover - a machine without a C compiler
    compiled_opening_tags = None
#: The TAG terminal the compiled reader reads (``grammars/record.lark``'s): a game whose
#: grammar writes its tags otherwise has them read in Python alone.
COMPILED_TAG = r'\[[ \t]*[A-Za-z][A-Za-z0-9_]*[ \t]+"[^"\\\n]*(?:\\.[^"\\\n]*)*+"[ \t]*\]'

_CONTAINER = CONTAINER | {"WS"}
_BLANKS = re.compile("[ \t]*")

#: A tag value longer than this is given to no token: Lark reads its tag hollowed
#: (:func:`notation.core.fastpath.hollowed`), the scanner steps aside.
LONG_VALUE = 1 << 16


class Scanner:
    """The compiled scanner of one game, derived from its grammar's terminals."""

    def __init__(self, game: AnyGame) -> None:
        # The game's grammar's terminals as Lark derives them (kept between runs, so a
        # well-formed file is read without loading Lark: see ``grammars.terminals``).
        every = terminals_of(game.grammar, game.grammar_package)
        #: Comments, as the game's grammar writes them: scanned and passed over (they say
        #: nothing a verdict needs), where every other container token steps aside.
        self.skipped = SKIPPED
        terminals = scanned_terminals(every)
        self.game = game
        self.directives = game.directives
        #: What stands between events and is no event: set-up lines and comments.
        self.between = self.directives | self.skipped
        #: Each event terminal's own reader (``Game.event_reader``), looked up once here:
        #: the token loop calls it straight, not through ``read_event``'s dispatch.
        self.readers = {t.name: game.event_reader(t.name) for t in terminals
                        if t.name not in game.directives and t.name not in self.skipped}
        by_name = {t.name: t for t in every}
        self._every = every
        self._blank = by_name["WS"].regexp
        self._tag = by_name["TAG"].regexp
        #: The groups that name whole terminals (the others name an event's parts).
        self.terminal_names = frozenset(t.name for t in terminals)
        #: The opening tag lines read in C, where they are written as the compiled reader
        #: reads them (``compiled/tags.c``; :func:`opening_tag_records`).
        tag = self._tag.replace("\t", r"\t").replace("\n", r"\n")  # (Lark's)
        self.compiled_tags = compiled_opening_tags if tag == COMPILED_TAG else None
        #: Each word of a body in the usual layout as its event, by its text
        #: (:meth:`_event_of`): an archive repeats the same few thousand words.
        self.event_of: Callable[[str], Any] = remembered(self._event_of, 16384)
        # A game of one event terminal (Tilewe): check the body and split it in C.
        self.single: str | None = None
        events = [t for t in terminals if t.name in self.readers]
        if len(events) == 1 and not game.directives:
            self._event = events[0].regexp
            self.single = events[0].name
        # The patterns below are compiled when first used (cached_property): a run that
        # the compiled readers serve uses few of them, and Python compiles a pattern in
        # Python (Tilewe's token pattern alone: a third of a millisecond).

    @cached_property
    def token(self) -> re.Pattern[str]:
        """One token: blanks, then one terminal (:func:`token_pattern`)."""
        return token_pattern(self._every)

    @cached_property
    def tail(self) -> re.Pattern[str]:
        """The blanks that may end a text."""
        return re.compile(f"(?:{self._blank})?")

    @cached_property
    def tag(self) -> re.Pattern[str]:
        return re.compile(self._tag)

    @cached_property
    def tag_line(self) -> re.Pattern[str]:
        """A line of blanks, or of one whole tag (group 1) between blanks: the opening
        tag lines are read a match a line (``opening_tags``; a tag holds no line break)."""
        return re.compile(rf"[ \t]*(?:({self._tag})[ \t]*)?(?=\n|\Z)")

    @cached_property
    def whole(self) -> re.Pattern[str]:
        """A body of the single event terminal's events between blanks (:attr:`single`
        games only)."""
        # possessive: the lexer never gives an event back either, and a plain
        # repeated group would keep a frame per event (200 bytes each)
        return re.compile(f"(?:(?:{self._blank})?(?:{self._event}))++(?:{self._blank})?")

    @cached_property
    def words(self) -> re.Pattern[str]:
        """Each event of such a body (group 1)."""
        return re.compile(f"(?:{self._blank})?({self._event})")

    @cached_property
    def number(self) -> re.Pattern[str]:
        """An event's number (``EVENT_NUMBER``)."""
        return terminal_pattern("container.lark", "EVENT_NUMBER")

    def _event_of(self, word: str) -> Any:
        """The event ``word`` is, as the token loop reads it: one token of an event
        terminal, the whole word (else :class:`NotationError`)."""
        m = self.token.match(word)
        kind = m.lastgroup if m is not None and m.end() == len(word) else None
        if kind is None or kind not in self.readers:
            raise NotationError(f"{word!r} is not one event")
        return self.readers[kind](word)

    def tokens(self, text: str, at: int = 0) -> Iterator[tuple[str, str, int]]:
        """Each token of ``text`` from ``at`` on, as (its terminal, its text, where it
        starts); then, unless only blanks are left, ``("", "", where the scan stopped)``:
        what no terminal here reads (a container token but a comment, a broken word)."""
        token = self.token.match  # (anchored: a search would try every later place)
        while (m := token(text, at)) is not None:
            at = m.end()
            index = m.lastindex or 0  # (always set: every alternative is a named group)
            yield m.lastgroup or "", m.group(index), m.start(index)
        tail = self.tail.match(text, at)
        if tail is None or tail.end() != len(text):
            yield "", "", at


#: The container terminals the scanner reads (the others step aside for Lark).
SKIPPED = frozenset({"COMMENT"})


def scanned_terminals(every: tuple[Terminal, ...]) -> list[Terminal]:
    """A grammar's terminals the scanner reads, in the order the contextual lexer tries
    them: the game's own, and comments."""
    return sorted((t for t in every if t.name not in _CONTAINER or t.name in SKIPPED),
                  key=Terminal.lexer_rank)


def token_pattern(every: tuple[Terminal, ...]) -> re.Pattern[str]:
    """One token of the grammar whose terminals are ``every``: blanks, then one of
    :func:`scanned_terminals`, each a named group (its fields are groups inside it)."""
    blank = next(t.regexp for t in every if t.name == "WS")
    alternatives = "|".join(f"(?P<{t.name}>{t.regexp})" for t in scanned_terminals(every))
    return re.compile(f"(?:{blank})?(?:{alternatives})")


@lru_cache(maxsize=None)
def scanner(game: AnyGame) -> Scanner:
    return Scanner(game)


class Scanned(NamedTuple):
    """A token as the scanner reads it, in the shape of Lark's: its terminal, its text,
    and where it starts (line and column from 1)."""

    type: str
    value: str
    line: int
    column: int


def scanned_tokens(text: str, game: AnyGame) -> list[Scanned] | None:
    """The tokens of a plain game, as Lark's lexer would read them, or None.

    Plain: tag lines (blank lines among them), then a body of the game's events and
    directives, with or without their numbers, and comments; at least one event; nothing
    else (no variation, annotation, lone number, broken tag or unreadable word: the
    full parse reads and reports those). Lark is not loaded.
    """
    scan = scanner(game)
    found = opening_tags(text, scan)
    if found is None:
        return None
    places, at, line = found
    tokens: list[Scanned] = []
    for row, start, first, end in places:
        if end - first > LONG_VALUE:
            return None
        tokens.append(Scanned("TAG", text[first:end], row + 1, first - start + 1))
    line += 1  # (the body's first line, from 1)
    line_start = at  # where the line being scanned starts
    counted = at  # line breaks are counted up to here (each part of the text once)
    readers = scan.readers
    events = 0
    for kind, value, begin in scan.tokens(text, at):
        if not kind:
            return None
        breaks = text.count("\n", counted, begin)
        if breaks:
            line += breaks
            line_start = text.rindex("\n", counted, begin) + 1
        tokens.append(Scanned(kind, value, line, begin - line_start + 1))
        events += kind in readers
        inner = value.count("\n")  # (a brace comment may run over lines)
        if inner:
            line += inner
            line_start = begin + value.rindex("\n") + 1
        counted = begin + len(value)
    return tokens if events else None


def opening_tags(text: str, scan: Scanner
                 ) -> tuple[list[tuple[int, int, int, int]], int, int] | None:
    """The tag lines that open ``text`` (blank lines among them), each as (its line from
    0, where the line starts, where its tag starts and ends), then where the first other
    line starts and its line from 0; None for a broken tag line among them. Positions in
    ``text``, never a line's copy (a tag may be 32 MB)."""
    places: list[tuple[int, int, int, int]] = []
    line, at, size = 0, 0, len(text)
    tag_line = scan.tag_line.match
    while at < size:
        m = tag_line(text, at)
        if m is None:  # neither blank nor one whole tag: the body, or a tag line broken
            if text[_after_blanks(text, at, size)] == "[":
                return None
            break
        if m.start(1) >= 0:
            places.append((line, at, m.start(1), m.end(1)))
        at = m.end() + 1
        line += 1
    return places, at, line


def opening_tag_records(text: str, first_line: int, scan: Scanner
                        ) -> tuple[list[Tag], int, int] | None:
    """The tags that open ``text``, each a :class:`Tag` at its place (``text``'s line 1
    is ``first_line``), where the first other line starts and its line from 0; None for a
    broken tag line among them. Read in C where it can (``compiled/tags.c``), else by
    :func:`opening_tags` and ``tag_parts`` (its definition: a test holds the two equal)."""
    if scan.compiled_tags is not None:
        found = scan.compiled_tags(text, first_line, Tag, Pos)
        if found is not None:
            return found
    return opening_tag_records_python(text, first_line, scan)


def opening_tag_records_python(text: str, first_line: int, scan: Scanner
                               ) -> tuple[list[Tag], int, int] | None:
    """:func:`opening_tag_records` in Python alone: the definition the compiled one is
    held to."""
    places = opening_tags(text, scan)
    if places is None:
        return None
    lines, at, line = places
    return [Tag(*tag_parts(text, first, end), Pos(first_line + row, first - start + 1))
            for row, start, first, end in lines], at, line


def _after_blanks(text: str, at: int, end: int) -> int:
    """Where the spaces and tabs from ``text[at]`` on end (at ``end`` at the latest)."""
    found = _BLANKS.match(text, at, end)
    return end if found is None else found.end()
