"""A game's scanner: its grammar's terminals as one regular expression, in the order its
lexer tries them, with each event terminal's reader.

The grammar stays the one definition of the notation: the scanner is derived from it
(and kept between runs, so a well-formed file is read without loading Lark). Reading one
event (:func:`notation.core.events.parse_event`) and the fast path over whole games
(:mod:`notation.core.fastpath`) both scan with it.
"""
from __future__ import annotations

import re
from functools import lru_cache

from notation.core.game import AnyGame
from .grammars import terminal_pattern
from .grammars import terminals as terminals_of
from .visitor import CONTAINER

_CONTAINER = CONTAINER | {"WS"}


class Scanner:
    """The compiled scanner of one game, derived from its grammar's terminals."""

    def __init__(self, game: AnyGame) -> None:
        # The game's grammar's terminals as Lark derives them (kept between runs, so a
        # well-formed file is read without loading Lark: see ``grammars.terminals``).
        every = terminals_of(game.grammar, game.grammar_package)
        #: Comments, as the game's grammar writes them: scanned and passed over (they say
        #: nothing a verdict needs), where every other container token steps aside.
        self.skipped = frozenset({"COMMENT"})
        terminals = [t for t in every if t.name not in _CONTAINER or t.name in self.skipped]
        # The contextual lexer tries terminals in this order; so does the scanner.
        terminals.sort(key=lambda t: (-t.priority, -t.max_width, -t.length, t.name))
        self.game = game
        self.directives = game.directives
        #: Each event terminal's own reader (``Game.event_reader``), looked up once here:
        #: the token loop calls it straight, not through ``read_event``'s dispatch.
        self.readers = {t.name: game.event_reader(t.name) for t in terminals
                        if t.name not in game.directives and t.name not in self.skipped}
        by_name = {t.name: t for t in every}
        blank = by_name["WS"].regexp
        alternatives = "|".join(f"(?P<{t.name}>{t.regexp})" for t in terminals)
        #: The groups that name whole terminals (the others name an event's parts).
        self.terminal_names = frozenset(t.name for t in terminals)
        self.token = re.compile(f"(?:{blank})?(?:{alternatives})")
        self.tail = re.compile(f"(?:{blank})?")
        self.tag = re.compile(by_name["TAG"].regexp)
        # A game of one event terminal (Tilewe): check the body and split it in C.
        self.single: str | None = None
        events = [t for t in terminals if t.name in self.readers]
        if len(events) == 1 and not game.directives:
            event = events[0].regexp
            self.single = events[0].name
            # possessive: the lexer never gives an event back either, and a plain
            # repeated group would keep a frame per event (200 bytes each)
            self.whole = re.compile(f"(?:(?:{blank})?(?:{event}))++(?:{blank})?")
            self.words = re.compile(f"(?:{blank})?({event})")
            self.number = terminal_pattern("container.lark", "EVENT_NUMBER")


@lru_cache(maxsize=None)
def scanner(game: AnyGame) -> Scanner:
    return Scanner(game)
