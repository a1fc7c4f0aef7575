"""The full parse's inline transformer: a game's tokens straight to a Record.

Lark calls :class:`RecordBuilder` as it parses (see :func:`.parsing.parser_for`);
every problem of the text becomes a :class:`~notation.core.ast.Malformed` item
at its own line and column, never an exception that loses the rest of the file
(past the most a game lists, ``MAX_PROBLEMS``, they are counted in an
:class:`~notation.core.ast.Unlisted` item instead).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from lark import Token, Transformer

from .ast import (GLYPHS, MAX_NAG, UNLISTED_MESSAGE, Comment, Directive, EventNode, Malformed,
                  MalformedKind, Pos, Record, Tag, Unlisted, Variation)
from .errors import NotationError, shorten
from .game import AnyGame
from .limits import MAX_PROBLEMS, MAX_VARIATION_DEPTH, is_whole
from .tokens import ANNOTATIONS, CONTAINER, VARIATION_ENDS, VARIATION_STARTS, tag_parts


def token_pos(tok: Token) -> Pos:
    """Where a token starts (the contextual lexer always says; the types allow None)."""
    return Pos(tok.line or 0, tok.column or 0)


class RecordBuilder(Transformer[Token, Any]):
    """Inline transformer: each game's flat token list straight to a Record.

    One callback per game (not per token) keeps the per-event cost down.
    """

    def __init__(self, game: AnyGame | None) -> None:
        super().__init__(visit_tokens=False)
        self.rules = game

    def tag(self, children: list[Token]) -> Tag | Malformed:
        tok = children[0]
        pos = token_pos(tok)
        if tok.type != "TAG":
            return Malformed(tok.value, f"malformed tag {shorten(tok.value)!r}; expected "
                                        f"[Key \"Value\"]", MalformedKind.TAG, None, pos)
        key, value = tag_parts(tok.value)  # (the TAG terminal fixed its shape)
        return Tag(key, value, pos)

    def _record(self, children: list[Any]) -> Record:
        game = self.rules
        read = game.read_event if game is not None else _no_event
        directives = game.directives if game is not None else frozenset()
        tags: list[Any] = []
        items: list[Any] = []
        top = items
        opened: list[tuple[Variation, list[Any]]] = []  # open variations, the list around each
        number: Token | None = None  # a lone "N." waiting for its event
        listed = _Problems().listed
        skipped = 0  # parentheses open in a variation nested too deep, skipped whole
        for tok in children:
            if not isinstance(tok, Token):
                if not isinstance(tok, Malformed) or listed(tags, MalformedKind.TAG, tok.pos):
                    tags.append(tok)
                continue
            kind = tok.type
            if skipped:
                skipped += (kind in VARIATION_STARTS) - (kind in VARIATION_ENDS)
                continue
            takes_number = kind == "BAD" or (kind not in CONTAINER and kind not in directives)
            if number is not None and not takes_number:  # a number must precede an event
                if listed(items, MalformedKind.NUMBER, token_pos(number)):
                    items.append(_dangling(number))
                number = None
            if kind == "MOVENUM":
                number = tok
                continue
            if kind == "BAD":
                if listed(items, MalformedKind.EVENT, token_pos(tok)):
                    num = _event_number(number.value[:-1]) if number is not None else None
                    message = (_too_large(number.value) if number is not None and num == -1
                               else _diagnose(game, tok.value))
                    items.append(Malformed(tok.value, message, MalformedKind.EVENT,
                                           None if num == -1 else num, token_pos(tok)))
                number = None
                continue
            if kind in VARIATION_STARTS:
                if len(opened) >= MAX_VARIATION_DEPTH:  # one problem; its text up to its ")"
                    skipped = 1                         # is not read (it could not be kept)
                    if listed(items, MalformedKind.VARIATION, token_pos(tok)):
                        items.append(Malformed("(", f"variations nested deeper than "
                                               f"{MAX_VARIATION_DEPTH} levels",
                                               MalformedKind.VARIATION, None, token_pos(tok)))
                    continue
                variation = Variation([], token_pos(tok), closed=False)
                items.append(variation)
                opened.append((variation, items))
                items = variation.items
                continue
            if kind in ANNOTATIONS:
                problem = _annotate(items, tok)
                if problem is not None and listed(items, MalformedKind.ANNOTATION, problem.pos):
                    items.append(problem)
                continue
            if kind in VARIATION_ENDS:
                if not opened:
                    if listed(items, MalformedKind.VARIATION, token_pos(tok)):
                        items.append(Malformed(")", "')' closes no variation",
                                               MalformedKind.VARIATION, None, token_pos(tok)))
                    continue
                variation, items = opened.pop()
                variation.closed = True
                continue
            if kind in CONTAINER:
                comment = _comment(tok)
                if isinstance(comment, Comment) or listed(items, MalformedKind.COMMENT,
                                                          comment.pos):
                    items.append(comment)
                continue
            if kind in directives:
                items.append(Directive(kind, tok.value.rstrip(), token_pos(tok)))
                continue
            text = tok.value
            column = tok.column or 0
            num = None
            written = ""  # the "N." as written
            if number is not None:
                written = number.value
                number = None
            if text[0] in _ASCII_DIGITS:  # "12. F5e-a2d4": the number is part of the token
                dot = text.index(".")
                written = text[:dot + 1]
                start = dot + 1
                while text[start] in " \t":
                    start += 1
                column += start
                text = text[start:]
            pos = Pos(tok.line or 0, column)
            if written:
                num = _event_number(written[:-1])
                if num == -1:
                    if listed(items, MalformedKind.EVENT, pos):
                        items.append(Malformed(text, _too_large(written), MalformedKind.EVENT,
                                               None, pos))
                    continue
            try:
                items.append(EventNode(read(kind, text), num, pos, text))
            except NotationError as exc:
                if listed(items, MalformedKind.EVENT, pos):
                    items.append(Malformed(text, str(exc), MalformedKind.EVENT, num, pos))
            except Exception as exc:  # a bug of ours: this event's problem, not the file's
                if listed(items, MalformedKind.EVENT, pos):
                    items.append(Malformed(text, _internal(exc), MalformedKind.EVENT, num, pos))
        if number is not None and listed(items, MalformedKind.NUMBER, token_pos(number)):
            items.append(_dangling(number))
        first = children[0]
        start = first.pos if not isinstance(first, Token) else token_pos(first)
        return Record(game.name if game else None, tags, top, pos=start)

    bare = game = last_game = _record

    def start(self, children: list[Record]) -> list[Record]:
        # A "game" without events is tags or comments that belong to the next
        # game (a comment between tags, a file's leading comment): merge them.
        merged: list[Record] = []
        carry: Record | None = None
        for record in children:
            if carry is not None:
                record.tags[:0] = carry.tags
                record.items[:0] = carry.items
                record.pos = carry.pos
                carry = None
            if record is not children[-1] and all(isinstance(i, Comment) for i in record.items):
                carry = record
            else:
                merged.append(record)
        return merged


_ASCII_DIGITS = frozenset("0123456789")


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


def _event_number(digits: str) -> int:
    """An event number's value; -1 when it is too long to be one."""
    return int(digits) if is_whole(digits) else -1


def _too_large(written: str) -> str:
    return f"event number {shorten(written)} is too large (at most 9 digits)"


def _internal(exc: Exception) -> str:
    return f"internal error while reading this event: {exc.__class__.__name__}: {shorten(str(exc))}"


def _diagnose(game: AnyGame | None, text: str) -> str:
    if game is None:
        return ""
    try:
        return game.diagnose(text)
    except Exception as exc:  # a bug in an explanation must not lose the file
        return _internal(exc)


def _comment(tok: Token) -> Comment | Malformed:
    pos = token_pos(tok)
    text = tok.value
    if tok.type == "UNCLOSED":
        lines = text.rstrip("\n").count("\n") + 1  # blank lines at its end are not "skipped"
        return Malformed(text.split("\n", 1)[0], f"comment opened with '{{' is never closed; "
                         f"{lines} line{'s' * (lines != 1)} skipped, from here to the next "
                         f"tag line or the end", MalformedKind.COMMENT, None, pos)
    if text[0] in ";#":
        return Comment(text[1:].rstrip("\r"), False, pos, text[0])
    return Comment(text[1:-1], True, pos)


def _annotate(items: list[Any], tok: Token) -> Malformed | None:
    """Attach a glyph or ``$N`` to the event before it (comments and other annotations may
    stand between, as in PGN); what follows no event, or is out of range, is a problem of
    the record."""
    text = tok.value
    if text[0] == "$":
        value = _event_number(text[1:])
        if not 0 <= value <= MAX_NAG:
            return Malformed(shorten(text), f"annotation {shorten(text)} is out of range "
                             f"($0 to ${MAX_NAG})", MalformedKind.ANNOTATION, None,
                             token_pos(tok))
    else:
        value = GLYPHS[text]
    for index in range(len(items) - 1, -1, -1):
        item = items[index]
        if isinstance(item, EventNode):
            if value not in item.nags:
                items[index] = replace(item, nags=item.nags + (value,))
            return None
        if not isinstance(item, Comment) and not (isinstance(item, Malformed)
                                                  and item.what == MalformedKind.ANNOTATION):
            break
    return Malformed(text, f"annotation {text} follows no event (a glyph or $N comes right "
                     f"after the event it marks)", MalformedKind.ANNOTATION, None, token_pos(tok))


def _dangling(number: Token) -> Malformed:
    value = _event_number(number.value[:-1])
    return Malformed(shorten(number.value), f"event number {shorten(number.value)} is not "
                     f"followed by an event", MalformedKind.NUMBER, value if value >= 0 else None,
                     token_pos(number))
