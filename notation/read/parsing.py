"""Syntax: a piece of text to records, by the game's grammar.

One LALR parser per game, built once on first use from the game's grammar
file (which imports ``record.lark``), with an inline transformer
(:mod:`.record_builder`) so the parse produces
:class:`~notation.core.ast.GameNode` objects directly. The reader
(:mod:`notation.read.reading`) hands it one piece at a time.

Text is untrusted: line ends are normalised to LF first (CRLF and a lone CR
both end a line), numbers are read within :mod:`~notation.core.limits`, and
an unexpected failure while reading one event becomes a problem of that
event, never an exception that loses the rest of the file.

Importing this module does not import Lark: the parser (and Lark) load on
the first record that needs the full parse.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Mapping

from notation.core.tree import GameNode
from notation.core import registry
from . import grammars

from notation.core.errors import shorten
from notation.core.game import AnyGame
from .grammars import GRAMMAR_PACKAGE
from .scanner import scanned_tokens
# The fast scanner and the reader find the container's token kinds here, as they always have.
from .visitor import ANNOTATIONS as ANNOTATIONS
from .visitor import CONTAINER as CONTAINER
from .visitor import VARIATION_ENDS as VARIATION_ENDS
from .visitor import VARIATION_STARTS as VARIATION_STARTS
from .visitor import unescape as unescape
from .visitor import visit_tokens
from notation.core.ast import Pos

if TYPE_CHECKING:
    from lark import Lark

    from .record_builder import RecordBuilder
    from .visitor import BaseVisitor

    #: What makes a game's visitor: a class taking the game and the game's first place.
    VisitorFactory = Callable[[AnyGame | None, Pos], BaseVisitor[Any]]


# -- parsers ---------------------------------------------------------------------

@lru_cache(maxsize=None)
def parser_for(game: AnyGame | None, strict: bool = False) -> Lark:
    """The LALR parser of ``game`` (None: the bare container), built once."""
    package, name = ((game.grammar_package, game.grammar) if game is not None
                     else (GRAMMAR_PACKAGE, "record.lark"))
    return grammars.load(package, name, transformer=builder_for(game, strict), strict=strict,
                         cache=not strict)


@lru_cache(maxsize=None)
def builder_for(game: AnyGame | None, strict: bool = False) -> RecordBuilder:
    """The inline transformer of :func:`parser_for`'s parser (one a parser)."""
    # Deliberately lazy: the transformer subclasses Lark's, and Lark is the slow path's.
    from .record_builder import RecordBuilder
    return RecordBuilder(game)


def scan_games(game: AnyGame | None, text: str, visitor: VisitorFactory | None = None,
               lines: int = 0) -> list[Any] | None:
    """:func:`parse_games` of a plain game (:func:`.scanner.scanned_tokens`), its visits
    made from the scanner's tokens without Lark; None for any other text (parse it)."""
    if game is None:
        return None
    tokens = scanned_tokens(text, game)
    if tokens is None:
        return None
    if visitor is None:
        from .record_builder import RecordBuilding
        visitor = RecordBuilding
    made = visitor(game, Pos(tokens[0].line, tokens[0].column))
    visit_tokens(tokens, made, game.directives, lines=lines)
    return [made.result()]


def parse_games(game: AnyGame | None, text: str, visitor: VisitorFactory | None = None,
                long_values: Mapping[int, str] | None = None, lines: int = 0) -> list[Any]:
    """Each game of ``text`` (a piece of whole games) as ``visitor`` made it (by default a
    :class:`~notation.core.tree.GameNode`); ``long_values``: tag values kept from Lark, by
    line; ``lines``: how far into its file the text starts (a user's visitor sees file
    lines). Lark's errors pass through (the reader says what they mean)."""
    from .record_builder import RecordBuilding
    builder = builder_for(game, False)  # (the one parser_for(game) calls)
    builder.visitor, builder.long_values, builder.lines = (visitor or RecordBuilding,
                                                           long_values, lines)
    try:
        found: list[Any] = parser_for(game).parse(text)  # type: ignore[assignment]
        return found  # (the inline transformer makes the tree a list of results)
    finally:
        builder.visitor, builder.long_values, builder.lines = RecordBuilding, None, 0


def note_game_problem(record: GameNode, chosen: AnyGame | None, fallback: str | None) -> None:
    """Note on the record why its game is unknown (or not the one its piece is read as)."""
    named = record.headers.get("Game")
    if chosen is None:
        known = ", ".join(registry.names())
        if named is not None:
            record.game_problem = f"unknown game {shorten(named)!r}; known games: {known}"
        elif fallback:
            record.game_problem = f"unknown game {shorten(fallback)!r}; known games: {known}"
        else:
            record.game_problem = (f"cannot tell which game this is: add a [Game \"...\"] tag, "
                                   f"pass --game, or use a known extension ({known})")
        return
    if named is not None and registry.get(named) is not chosen:
        record.game = None
        record.game_problem = (f"this game is read as {chosen.name} (the first [Game] tag "
                               f"before it); put a blank line and its tags on lines of their "
                               f"own to start a {named!r} game")
