"""JSON text read with every value's line and column, a few documents at a time.

``json.loads`` says where JSON is broken but not where a well-formed value stands, and
a record's problems (an event that is not one) must name their place in the file. So
the text is parsed with a small Lark grammar (``grammars/json_record.lark``) whose
values keep their positions; strings are decoded by ``json`` itself. A file is cut
into pieces of whole lines that close every bracket they open, so a file of a million
games is read one game (one line, in JSON Lines) at a time.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Iterator, Union

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from notation.core.ast import Pos
from notation.core.errors import shorten
from notation.core.grammars import GRAMMAR_PACKAGE, load


@dataclass(slots=True)
class Text:
    value: str
    pos: Pos


@dataclass(slots=True)
class Number:
    """A number as written: read by whoever needs it, within its own bounds."""

    text: str
    pos: Pos


@dataclass(slots=True)
class Literal:
    value: bool | None
    pos: Pos


@dataclass(slots=True)
class Array:
    items: list[Value]
    pos: Pos


@dataclass(slots=True)
class Member:
    key: str
    pos: Pos  # the key's
    value: Value


@dataclass(slots=True)
class Object:
    """An object's members in the order written (a key may come twice: the reader says so)."""

    members: list[Member]
    pos: Pos
    end: int  # offset just past its "}" in the piece

    def get(self, key: str) -> Value | None:
        return next((m.value for m in self.members if m.key == key), None)


Value = Union[Text, Number, Literal, Array, Object]


@dataclass(slots=True)
class Piece:
    """Whole lines of a file holding one or more documents (or broken JSON)."""

    text: str
    first_line: int


@dataclass(slots=True)
class Broken:
    """Text that is not JSON: why, and where in the file."""

    message: str
    pos: Pos


def _pos(token: Token, shift: int) -> Pos:
    return Pos((token.line or 1) + shift, token.column or 1)


class _Builder(Transformer[Token, list[Value]]):
    """Values from the parser's reductions (run inline: no recursion, however deep)."""

    def __init__(self) -> None:
        super().__init__()
        self.shift = 0  # the piece's first line, less one
        #: The first string holding half a surrogate pair (``"\\ud800"``): no text can hold
        #: it (it cannot be written out again), so its piece is not JSON we read.
        self.lone: Pos | None = None

    def start(self, children: list[Value]) -> list[Value]:
        return children

    def object(self, children: list[Token | Member]) -> Object:
        first, last = children[0], children[-1]
        assert isinstance(first, Token) and isinstance(last, Token)
        members = [c for c in children if isinstance(c, Member)]
        return Object(members, _pos(first, self.shift), last.end_pos or 0)

    def member(self, children: list[Token | Value]) -> Member:
        key, value = children
        assert isinstance(key, Token) and not isinstance(value, Token)
        return Member(json.loads(key.value), _pos(key, self.shift), value)

    def array(self, children: list[Token | Value]) -> Array:
        first = children[0]
        assert isinstance(first, Token)
        return Array([c for c in children if not isinstance(c, Token)], _pos(first, self.shift))

    def string(self, children: list[Token]) -> Text:
        value = json.loads(children[0].value)
        pos = _pos(children[0], self.shift)
        if self.lone is None and _SURROGATE.search(value):
            self.lone = pos
        return Text(value, pos)

    def number(self, children: list[Token]) -> Number:
        return Number(children[0].value, _pos(children[0], self.shift))

    def literal(self, children: list[Token]) -> Literal:
        word = children[0].value
        return Literal({"true": True, "false": False}.get(word), _pos(children[0], self.shift))


@lru_cache(maxsize=1)
def _parser() -> tuple[Lark, _Builder]:
    builder = _Builder()
    return load(GRAMMAR_PACKAGE, "json_record.lark", transformer=builder), builder


def parse_piece(piece: Piece) -> list[Value] | Broken:
    """The documents of a piece, or why it is not JSON and where (the file's place)."""
    lark, builder = _parser()
    builder.shift, builder.lone = piece.first_line - 1, None
    try:
        found = lark.parse(piece.text)
    except UnexpectedInput as exc:
        line = exc.line if exc.line and exc.line > 0 else 1
        column = exc.column if exc.column and exc.column > 0 else 1
        return Broken(_why(exc), Pos(line + piece.first_line - 1, column))
    if builder.lone is not None:
        return Broken("not JSON we read: a string holds half a surrogate pair (a \\uD800-"
                      "\\uDFFF escape without its other half)", builder.lone)
    return found  # type: ignore[return-value]  # (the inline builder makes it a list)


def _why(exc: UnexpectedInput) -> str:
    if isinstance(exc, UnexpectedCharacters):
        text = exc.char if exc.char != '"' else "a string (a bad escape or a control character?)"
        return f"not JSON: unexpected {text if text.startswith('a ') else repr(text)}"
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken)
                                           and exc.token.type == "$END"):
        return "not JSON: the text ends before the document is complete"
    if isinstance(exc, UnexpectedToken):
        return f"not JSON: unexpected {shorten(str(exc.token.value))!r}"
    return "not JSON"  # pragma: no cover - Lark raises only the kinds above


#: What changes the nesting on a line: a string (skipped whole; one never spans lines in
#: JSON) or a bracket. An unclosed string runs to the line's end.
_NESTING = re.compile(r'"(?:[^"\\\n]|\\.)*+(?:"|$)|[\[\]{}]')


#: Half a surrogate pair, which ``json`` decodes from a lone ``\\ud800`` escape.
_SURROGATE = re.compile("[\ud800-\udfff]")
#: A line that opens a record document: while a piece is still open, a new one starts here.
_OPENING = re.compile(r'\{[ \t]*"format"[ \t]*:')


def _lines(chunk: str) -> list[str]:
    """A chunk's lines, each with its "\\n": only "\\n" ends a line, as in the parser (not
    U+2028 or a form feed inside a string, which ``str.splitlines`` would cut at)."""
    parts = chunk.split("\n")
    return [part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def pieces(chunks: Iterable[str]) -> Iterator[Piece]:
    """Cut text (chunks of whole lines) into pieces that close what they open. A line
    opening a record document (``{"format":``) while a piece is still open starts a new
    one, so a document left unclosed (JSON Lines) costs that document alone."""
    lines: list[str] = []
    first = depth = 0
    number = 0
    for chunk in chunks:
        for line in _lines(chunk):
            number += 1
            if lines and depth > 0 and _OPENING.match(line):
                yield Piece("".join(lines), first)
                lines, depth = [], 0
            if not lines:
                if not line.strip():
                    continue
                first = number
            lines.append(line)
            for m in _NESTING.finditer(line.rstrip("\r\n")):
                bracket = m.group()
                if bracket in "[{":
                    depth += 1
                elif bracket in "]}":
                    depth -= 1
            if depth <= 0:
                yield Piece("".join(lines), first)
                lines, depth = [], 0
    if lines:
        yield Piece("".join(lines), first)


def describe(value: Value) -> str:
    """A value's kind, for a message saying what was found instead."""
    if isinstance(value, Text):
        return f"the string {shorten(value.value)!r}"
    if isinstance(value, Number):
        return f"the number {shorten(value.text)}"
    if isinstance(value, Literal):
        return json.dumps(value.value)
    return "an array" if isinstance(value, Array) else "an object"
