"""Reading as a stream of visits (python-chess's ``BaseVisitor``): one game's text becomes
calls on a visitor, ``begin_game`` to ``end_game``, and the visitor's ``result()``.

The reader cuts the text into games and Lark's LALR parser tokenizes each one by the
game's grammar; :func:`visit_tokens` turns those tokens into visits, with every place as
a :class:`Span`. The record a command reads is one visitor's result
(:class:`~notation.read.record_builder.RecordBuilding`); a user's visitor sees the same
visits (``notation.read_game(handle, Visitor=...)``) and keeps only what it needs.

The container's token kinds and the text of a quoted tag value are here too: what both
readers share, the full parse (:mod:`.record_builder`) and the fast scanner
(:mod:`.fastpath`), apart from Lark so the fast one starts without it.
"""
from __future__ import annotations

import re
from typing import Any, Generic, Iterable, Mapping, NamedTuple, TypeVar

from notation.core.ast import GLYPHS, MAX_NAG, MalformedKind
from notation.core.errors import shorten
from notation.core.limits import MAX_VARIATION_DEPTH, is_whole

ResultT = TypeVar("ResultT")


class Span(NamedTuple):
    """Where a visited piece of text is: its first and last-but-one line and column, all
    1-based (``end_column`` is the column just past it), and ``kind``, the grammar
    terminal that read it (an event's kind: ``MOVE``, ``PLACEMENT``, ...)."""

    line: int
    column: int
    end_line: int
    end_column: int
    kind: str = ""


def span_of(text: str, line: int, column: int, kind: str = "") -> Span:
    """The span of ``text`` written from ``line``, ``column``."""
    breaks = text.count("\n")
    if not breaks:
        return Span(line, column, line, column + len(text), kind)
    return Span(line, column, line + breaks, len(text) - text.rindex("\n"), kind)


class BaseVisitor(Generic[ResultT]):
    """What a reading of one game calls, in the order of the text; every method but
    :meth:`result` does nothing here, so a visitor overrides only what it needs.

    Events are given as written (``visit_event("F5e-a2d4", span)``): reading them as the
    game's values is the visitor's choice (``notation.parse_event``), as is replaying them.
    """

    def begin_game(self) -> None:
        """A game starts."""

    def visit_tag(self, name: str, value: str, span: Span) -> None:
        """A tag, ``[Name "value"]`` (the value unescaped)."""

    def visit_number(self, number: int, span: Span) -> None:
        """An event number (``12.``) written before the next event."""

    def visit_event(self, text: str, span: Span) -> None:
        """One event as written (``span.kind``: the grammar's name for its kind)."""

    def visit_directive(self, text: str, span: Span) -> None:
        """A game's set-up line that is not an event (Flows' ``Game: 2-player, ...``)."""

    def visit_comment(self, text: str, span: Span, brace: bool, marker: str) -> None:
        """A comment's text: ``{ text }`` (``brace``) or ``; text`` (``marker`` ``;``
        or ``#``) to the line's end."""

    def visit_nag(self, nag: int, span: Span) -> None:
        """A glyph (``!`` is 1, ``?`` 2, ...) or ``$N`` after an event."""

    def begin_variation(self, span: Span) -> None:
        """``(``: an alternative to the event just before."""

    def end_variation(self, span: Span) -> None:
        """``)``, or the game's end for a variation never closed (then ``span`` is empty)."""

    def visit_error(self, text: str, message: str, what: MalformedKind, span: Span,
                    number: int | None = None) -> None:
        """Text that does not read as the record's syntax (``what``: an event, tag, number,
        comment, variation or annotation); ``number``: the event number before it."""

    def end_game(self) -> None:
        """The game's text is over."""

    def result(self) -> ResultT:
        """What the visitor made of the game (:func:`notation.read_game` returns it)."""
        raise NotImplementedError(f"{type(self).__name__} says what it made in result()")


def _event_number(digits: str) -> int:
    """An event number's value; -1 when it is too long to be one."""
    return int(digits) if is_whole(digits) else -1


def _too_large(written: str) -> str:
    return f"event number {shorten(written)} is too large (at most 9 digits)"


def visit_tokens(tokens: Iterable[Any], visitor: BaseVisitor[Any],
                 directives: frozenset[str] = frozenset(),
                 long_values: Mapping[int, str] | None = None, lines: int = 0) -> None:
    """One game's tokens (Lark's, of the game's grammar) as visits, ``begin_game`` to
    ``end_game``. ``directives``: the game's set-up terminals; ``long_values``: tag values
    the reader kept from Lark (by line), given in their tags' place; ``lines``: added to
    every line (the tokens' text starts that far into its file).

    The reader's bounds hold here: a ``(`` nested past :data:`MAX_VARIATION_DEPTH` is one
    error, its text skipped to its matching ``)``; a number too long to be one is an error.
    """
    visitor.begin_game()
    depth = 0
    skipped = 0  # parentheses open in a variation nested too deep, skipped whole
    number: Any = None  # a lone "N." waiting for its event
    for tok in tokens:
        kind = tok.type
        if skipped:
            skipped += (kind in VARIATION_STARTS) - (kind in VARIATION_ENDS)
            continue
        line, column = (tok.line or 0) + lines, tok.column or 0
        takes_number = kind == "BAD" or (kind not in CONTAINER and kind not in directives)
        if number is not None and not takes_number:  # a number must precede an event
            _dangling(visitor, number, lines)
            number = None
        if kind == "MOVENUM":
            number = tok
            continue
        text = tok.value
        if kind == "TAG":
            name, value = tag_parts(text)  # (the TAG terminal fixed its shape)
            if long_values is not None and line - lines in long_values:
                value = long_values[line - lines]
            visitor.visit_tag(name, value, Span(line, column, line, column + len(text)))
            continue
        if kind == "BAD_TAG":
            visitor.visit_error(text, f"malformed tag {shorten(text)!r}; expected "
                                      f"[Key \"Value\"]", MalformedKind.TAG,
                                span_of(text, line, column))
            continue
        if kind == "BAD":
            num = _event_number(number.value[:-1]) if number is not None else None
            message = _too_large(number.value) if number is not None and num == -1 else ""
            visitor.visit_error(text, message, MalformedKind.EVENT,
                                span_of(text, line, column), None if num == -1 else num)
            number = None
            continue
        if kind in VARIATION_STARTS:
            span = Span(line, column, line, column + 1)
            if depth >= MAX_VARIATION_DEPTH:  # one problem; its text up to its ")" is not
                skipped = 1                   # read (it could not be kept)
                visitor.visit_error("(", f"variations nested deeper than "
                                         f"{MAX_VARIATION_DEPTH} levels",
                                    MalformedKind.VARIATION, span)
                continue
            depth += 1
            visitor.begin_variation(span)
            continue
        if kind in VARIATION_ENDS:
            span = Span(line, column, line, column + 1)
            if not depth:
                visitor.visit_error(")", "')' closes no variation", MalformedKind.VARIATION,
                                    span)
                continue
            depth -= 1
            visitor.end_variation(span)
            continue
        if kind in ANNOTATIONS:
            _annotation(visitor, text, Span(line, column, line, column + len(text), kind))
            continue
        if kind in CONTAINER:
            _comment(visitor, kind, text, line, column)
            continue
        if kind in directives:
            visitor.visit_directive(text.rstrip(), span_of(text.rstrip(), line, column, kind))
            continue
        written = ""  # the "N." as written
        if number is not None:
            written = number.value
            number_line = (number.line or 0) + lines
            number_span = Span(number_line, number.column or 0, number_line,
                               (number.column or 0) + len(written))
            number = None
        if text[0] in _ASCII_DIGITS:  # "12. F5e-a2d4": the number is part of the token
            dot = text.index(".")
            written = text[:dot + 1]
            number_span = Span(line, column, line, column + dot + 1)
            start = dot + 1
            while text[start] in " \t":
                start += 1
            column += start
            text = text[start:]
        span = span_of(text, line, column, kind)
        if written:
            num = _event_number(written[:-1])
            if num == -1:
                visitor.visit_error(text, _too_large(written), MalformedKind.EVENT, span)
                continue
            visitor.visit_number(num, number_span)
        visitor.visit_event(text, span)
    if number is not None:
        _dangling(visitor, number, lines)
    while depth:  # (never closed: the game's end closes it)
        depth -= 1
        visitor.end_variation(Span(0, 0, 0, 0))
    visitor.end_game()


_ASCII_DIGITS = frozenset("0123456789")


def _dangling(visitor: BaseVisitor[Any], number: Any, lines: int) -> None:
    written = number.value
    value = _event_number(written[:-1])
    line = (number.line or 0) + lines
    visitor.visit_error(shorten(written), f"event number {shorten(written)} is not followed "
                        f"by an event", MalformedKind.NUMBER,
                        Span(line, number.column or 0, line, (number.column or 0) + len(written)),
                        value if value >= 0 else None)


def _annotation(visitor: BaseVisitor[Any], text: str, span: Span) -> None:
    if text[0] == "$":
        value = _event_number(text[1:])
        if not 0 <= value <= MAX_NAG:
            visitor.visit_error(shorten(text), f"annotation {shorten(text)} is out of range "
                                f"($0 to ${MAX_NAG})", MalformedKind.ANNOTATION, span)
            return
    else:
        value = GLYPHS[text]
    visitor.visit_nag(value, span)


def _comment(visitor: BaseVisitor[Any], kind: str, text: str, line: int, column: int) -> None:
    if kind == "UNCLOSED":
        lines = text.rstrip("\n").count("\n") + 1  # blank lines at its end are not "skipped"
        visitor.visit_error(text.split("\n", 1)[0], f"comment opened with '{{' is never "
                            f"closed; {lines} line{'s' * (lines != 1)} skipped, from here to "
                            f"the next tag line or the end", MalformedKind.COMMENT,
                            span_of(text, line, column))
    elif text[0] in ";#":
        visitor.visit_comment(text[1:].rstrip("\r"), span_of(text, line, column), False,
                              text[0])
    else:
        visitor.visit_comment(text[1:-1], span_of(text, line, column), True, "{")


# -- the container's token kinds ------------------------------------------------------

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
