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
from notation.read.grammars import GRAMMAR_PACKAGE, load
from notation.read.text import check_game


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
    # (cached as every grammar: building it costs half a second, 0.9 s with interegular)
    return load(GRAMMAR_PACKAGE, "json_record.lark", transformer=builder, cache=True), builder


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


#: What the cutter looks at: a line opening a record document (``{"format":``; while a
#: piece is open, a new one starts there), a string (skipped whole; one never spans lines
#: in JSON; an unclosed one runs to its line's end) or a bracket. Runs of anything else,
#: blank lines too, are skipped by the regex engine, not a line at a time.
_MARKS = re.compile(r'(?P<opening>^\{[ \t]*"format"[ \t]*:)|"(?:[^"\\\n]|\\.)*+(?:"|$)|[\[\]{}]',
                    re.MULTILINE)
_FIRST_MARK = re.compile(r"\S")


#: Half a surrogate pair, which ``json`` decodes from a lone ``\ud800`` escape.
_SURROGATE = re.compile("[\ud800-\udfff]")


def pieces(chunks: Iterable[str], source: str = "<string>",
           blanks: bool = False) -> Iterator[Piece]:
    """Cut text (chunks of whole lines) into pieces of whole lines that close what they
    open: a piece ends with the first line at whose end its brackets are closed (or more
    closed than opened). A line opening a record document (``{"format":``) while a piece
    is still open starts a new one, so a document left unclosed (JSON Lines) costs that
    document alone; blank lines between pieces belong to none. Only lines with a mark
    (:data:`_MARKS`) are looked at one by one. A piece past
    :data:`~notation.core.limits.MAX_GAME_CHARS` is refused (``InputError`` naming
    ``source``) before it is held whole, as a native game is.

    ``blanks``: a piece takes the blank lines before it too, so the pieces join into the
    file again (batches read elsewhere); blank lines at the file's end are left out."""
    held: list[str] = []  # the open piece's text from earlier chunks (or, with
    size = depth = first = 0  # ``blanks``, the blank lines since the last piece)
    lines = 0  # the lines of the chunks before this one
    for chunk in chunks:
        at = 0  # where the open piece's text (or the blank lines before it) starts here
        counted, line = 0, lines  # line - lines == chunk.count("\n", 0, counted)
        is_open = bool(held) and depth > 0
        start = 0  # the next line to look at
        while start < len(chunk):
            if is_open:  # the next line with a mark: lines without one change nothing
                mark = _MARKS.search(chunk, start)
                if mark is None:
                    break
                start = chunk.rfind("\n", 0, mark.start()) + 1
            else:  # the next piece begins at the next line that is not blank
                mark = _FIRST_MARK.search(chunk, start)
                if mark is None:
                    break
                start = chunk.rfind("\n", 0, mark.start()) + 1
                if not blanks:
                    held, size, at = [], 0, start
                if not held:
                    line += chunk.count("\n", counted, at)
                    counted, first = at, line + 1
                depth, is_open = 0, True
            end = chunk.find("\n", start)
            end = len(chunk) if end < 0 else end + 1
            for mark in _MARKS.finditer(chunk, start, end):
                bracket = mark.group()[0]
                if mark.group("opening") is not None and depth > 0 and (held or start > at):
                    check_game(size + start - at, first, source)
                    yield Piece("".join(held) + chunk[at:start], first)
                    held, size = [], 0
                    line += chunk.count("\n", counted, start)
                    counted, first, depth, at = start, line + 1, 0, start
                if bracket in "[{":
                    depth += 1
                elif bracket in "]}":
                    depth -= 1
            start = end
            if depth <= 0:
                check_game(size + end - at, first, source)
                yield Piece("".join(held) + chunk[at:end], first)
                held, size, depth, is_open, at = [], 0, 0, False, end
        if is_open or (blanks and at < len(chunk)):
            if not is_open and not held:  # blank lines before the next piece
                line += chunk.count("\n", counted, at)
                first = line + 1
            size += len(chunk) - at
            check_game(size, first, source)
            held.append(chunk[at:])
        lines += chunk.count("\n")
    if held and depth > 0 or held and not blanks:
        yield Piece("".join(held), first)


def describe(value: Value) -> str:
    """A value's kind, for a message saying what was found instead."""
    if isinstance(value, Text):
        return f"the string {shorten(value.value)!r}"
    if isinstance(value, Number):
        return f"the number {shorten(value.text)}"
    if isinstance(value, Literal):
        return json.dumps(value.value)
    return "an array" if isinstance(value, Array) else "an object"
