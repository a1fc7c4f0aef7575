"""The full parse's inline transformer: a game's tokens, visited, to a GameNode.

Lark calls :class:`RecordBuilder` as it parses (see :func:`.parsing.parser_for`); it
hands each game's tokens as visits to a :class:`RecordBuilding`, where every problem of the text becomes a :class:`~notation.core.ast.Malformed` item
at its own line and column, never an exception that loses the rest of the file
(past the most a game lists, ``MAX_PROBLEMS``, they are counted in an
:class:`~notation.core.ast.Unlisted` item instead).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Mapping

from lark import Token, Transformer

from notation.core.tree import GameNode
from notation.core.ast import (GLYPH_OF, UNLISTED_MESSAGE, Comment, Directive, EventNode, Malformed,
                  MalformedKind, Pos, Tag, Unlisted, Variation)
from notation.core.errors import NotationError, shorten
from notation.core.game import AnyGame
from notation.core.limits import MAX_PROBLEMS
from .visitor import BaseVisitor, Span, visit_tokens


def token_pos(tok: Token) -> Pos:
    """Where a token starts (the contextual lexer always says; the types allow None)."""
    return Pos(tok.line or 0, tok.column or 0)


class RecordBuilder(Transformer[Token, Any]):
    """Inline transformer: each game's flat token list, visited (:func:`.visitor.visit_tokens`)
    by a :class:`RecordBuilding` unless the reader set another ``visitor`` class.

    One callback per game (not per token) keeps the per-event cost down.
    """

    def __init__(self, game: AnyGame | None) -> None:
        super().__init__(visit_tokens=False)
        self.rules = game
        #: What visits each game (a class taking the game and the first token's place);
        #: the reader sets it for ``read_game(..., Visitor=...)`` and puts it back.
        self.visitor: Callable[[AnyGame | None, Pos], BaseVisitor[Any]] = RecordBuilding
        #: Long tag values the reader kept from Lark, by line (:func:`.fastpath.hollowed`).
        self.long_values: Mapping[int, str] | None = None
        #: Lines before the text parsed, in its file (given to every span).
        self.lines = 0

    def tag(self, children: list[Token]) -> Token:
        return children[0]  # (visited in its game's turn)

    def _record(self, children: list[Token]) -> Any:
        visitor = self.visitor(self.rules, token_pos(children[0]))
        directives = self.rules.directives if self.rules is not None else frozenset()
        visit_tokens(children, visitor, directives, self.long_values, self.lines)
        return visitor.result()

    bare = game = last_game = _record

    def start(self, children: list[Any]) -> list[Any]:
        if self.visitor is not RecordBuilding:
            return children  # (a user's visitor's results, one a game)
        # A "game" without events is tags or comments that belong to the next
        # game (a comment between tags, a file's leading comment): merge them, unless
        # the next one gives a tag again (a game of its own: one that ended before its
        # first event, as a forfeit does, says so in a comment).
        merged: list[GameNode] = []
        carry: GameNode | None = None
        for record in children:
            if carry is not None:
                if not belongs_to_next(carry, record):
                    merged.append(carry)
                else:
                    record.tags[:0] = carry.tags
                    record.items[:0] = carry.items
                    record.pos = carry.pos
                carry = None
            if record is not children[-1] and all(isinstance(i, Comment) for i in record.items):
                carry = record
            else:
                merged.append(record)
        return merged


def belongs_to_next(carry: GameNode, record: GameNode) -> bool:
    """Whether the comments (and tags) of an event-less ``carry`` open ``record``: yes,
    unless the carry has a comment and both give a tag of one name (then ``carry`` is a
    game of its own: one that ended before its first event, as a forfeit may). Tags
    alone always open the next game, as the grammar reads them."""
    if not carry.items:
        return True
    given = {tag.key for tag in carry.tags if isinstance(tag, Tag)}
    return not any(isinstance(tag, Tag) and tag.key in given for tag in record.tags)


class RecordBuilding(BaseVisitor[GameNode]):
    """The visitor that makes a :class:`GameNode` of a game: its tags and its items in file
    order, each event read as the game's value, every problem a :class:`Malformed` item at
    its place (the first :data:`MAX_PROBLEMS` built, the rest counted)."""

    def __init__(self, game: AnyGame | None, pos: Pos = Pos(1, 1)) -> None:
        self.game = game
        self.read = game.read_event if game is not None else _no_event
        self.pos = pos
        self.tags: list[Tag | Malformed] = []
        self.top: list[Any] = []
        self.items = self.top
        self.opened: list[tuple[Variation, list[Any]]] = []  # open variations, and around
        self.number: int | None = None
        self.listed = _Problems().listed

    def visit_tag(self, name: str, value: str, span: Span) -> None:
        self.tags.append(Tag(name, value, Pos(span.line, span.column)))

    def visit_number(self, number: int, span: Span) -> None:
        self.number = number

    def visit_event(self, text: str, span: Span) -> None:
        items, num, pos = self.items, self.number, Pos(span.line, span.column)
        self.number = None
        try:
            items.append(EventNode(self.read(span.kind, text), num, pos, text))
        except NotationError as exc:
            if self.listed(items, MalformedKind.EVENT, pos):
                items.append(Malformed(text, str(exc), MalformedKind.EVENT, num, pos))
        except Exception as exc:  # a bug of ours: this event's problem, not the file's
            if self.listed(items, MalformedKind.EVENT, pos):
                items.append(Malformed(text, _internal(exc), MalformedKind.EVENT, num, pos))

    def visit_directive(self, text: str, span: Span) -> None:
        self.items.append(Directive(span.kind, text, Pos(span.line, span.column)))

    def visit_comment(self, text: str, span: Span, brace: bool, marker: str) -> None:
        pos = Pos(span.line, span.column)
        self.items.append(Comment(text, True, pos) if brace else Comment(text, False, pos,
                                                                          marker))

    def visit_nag(self, nag: int, span: Span) -> None:
        """Attach it to the event before (comments and other annotations may stand
        between, as in PGN); after no event it is a problem of the record."""
        items = self.items
        for index in range(len(items) - 1, -1, -1):
            item = items[index]
            if isinstance(item, EventNode):
                if nag not in item.nags:
                    items[index] = replace(item, nags=item.nags + (nag,))
                return
            if not isinstance(item, Comment) and not (isinstance(item, Malformed)
                                                      and item.what == MalformedKind.ANNOTATION):
                break
        pos = Pos(span.line, span.column)
        text = GLYPH_OF[nag] if span.kind.endswith("GLYPH") else f"${nag}"
        if self.listed(items, MalformedKind.ANNOTATION, pos):
            items.append(Malformed(text, f"annotation {text} follows no event (a glyph or $N "
                                   f"comes right after the event it marks)",
                                   MalformedKind.ANNOTATION, None, pos))

    def begin_variation(self, span: Span) -> None:
        variation = Variation([], Pos(span.line, span.column), closed=False)
        self.items.append(variation)
        self.opened.append((variation, self.items))
        self.items = variation.items

    def end_variation(self, span: Span) -> None:
        variation, self.items = self.opened.pop()
        variation.closed = span.line > 0  # (line 0: the game ended first)

    def visit_error(self, text: str, message: str, what: MalformedKind, span: Span,
                    number: int | None = None) -> None:
        pos = Pos(span.line, span.column)
        if what == MalformedKind.TAG:
            if self.listed(self.tags, what, pos):
                self.tags.append(Malformed(text, message, what, None, pos))
            return
        if what == MalformedKind.EVENT:
            self.number = None
        if self.listed(self.items, what, pos):
            if what == MalformedKind.EVENT and not message:
                message = _diagnose(self.game, text)
            self.items.append(Malformed(text, message, what, number, pos))

    def result(self) -> GameNode:
        return GameNode(self.game.name if self.game else None, self.tags, self.top, pos=self.pos)


class _Problems:
    """One game's problems as the builder meets them: the first ``MAX_PROBLEMS`` built,
    the rest only counted, in :class:`Unlisted` runs among the items (a stray ``)`` a
    million times is one item, not a million, and no message is worked out for it)."""

    __slots__ = ("built",)

    def __init__(self) -> None:
        self.built = 0

    def listed(self, items: list[Any], kind: MalformedKind, pos: Pos) -> bool:
        """Whether the caller is to build the problem (of ``kind``, at ``pos``) and add it
        to ``items``; past the cap it is counted there instead, and this says False."""
        if self.built < MAX_PROBLEMS:
            self.built += 1
            return True
        last = items[-1] if items else None
        if type(last) is Unlisted and last.what == kind:
            last.count += 1
        else:
            items.append(Unlisted("", UNLISTED_MESSAGE, kind, None, pos))
        return False


def _no_event(kind: str, text: str) -> Any:
    """The reader of a record of no known game (the bare container has no event terminal)."""
    raise NotationError(f"no game to read {shorten(text)!r} as an event")


def _internal(exc: Exception) -> str:
    return f"internal error while reading this event: {exc.__class__.__name__}: {shorten(str(exc))}"


def _diagnose(game: AnyGame | None, text: str) -> str:
    if game is None:
        return ""
    try:
        return game.diagnose(text)
    except Exception as exc:  # a bug in an explanation must not lose the file
        return _internal(exc)


