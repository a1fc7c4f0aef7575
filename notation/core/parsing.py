"""Reading record files into the AST.

One LALR parser per game, built once on first use from the game's grammar
file (which imports ``record.lark``), with an inline transformer so the parse
produces :class:`~notation.core.ast.Record` objects directly. Whole files are
parsed in one call.
"""
from __future__ import annotations

import codecs
import re
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import LarkError, UnexpectedInput

from . import registry
from .ast import Comment, Directive, EventNode, Malformed, Pos, Record, RecordFile, Tag
from .errors import InputError, NotationError
from .game import Game

GRAMMAR_PACKAGE = "notation.grammars"
_TAG = re.compile(r'\[[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]+"((?:[^"\\\r\n]|\\.)*)"[ \t]*\]\Z')
_UNESCAPE = re.compile(r"\\(.)")
_GAME_TAG = re.compile(r'\[[ \t]*Game[ \t]+"([^"\r\n]*)"[ \t]*\]')


#: Container terminals; every other terminal of a game grammar is an event.
_CONTAINER = frozenset({"TAG", "BAD_TAG", "MOVENUM", "COMMENT", "UNCLOSED", "BAD"})


class RecordBuilder(Transformer):
    """Inline transformer: each game's flat token list straight to a Record.

    One callback per game (not per token) keeps the per-event cost down.
    """

    def __init__(self, game: Game | None) -> None:
        super().__init__(visit_tokens=False)
        self.rules = game

    def tag(self, children: list[Token]) -> Tag | Malformed:
        tok = children[0]
        pos = Pos(tok.line, tok.column)
        m = _TAG.match(tok.value)
        if tok.type != "TAG" or not m:
            return Malformed(tok.value, f"malformed tag {tok.value!r}; expected [Key \"Value\"]",
                             "tag", None, pos)
        return Tag(m.group(1), _UNESCAPE.sub(r"\1", m.group(2)), pos)

    def _record(self, children: list[Any]) -> Record:
        game = self.rules
        read = game.read_event if game is not None else None
        directives = game.directives if game is not None else frozenset()
        tags: list[Any] = []
        items: list[Any] = []
        number: Token | None = None  # a lone "N." waiting for its event
        for tok in children:
            if not isinstance(tok, Token):
                tags.append(tok)
                continue
            kind = tok.type
            takes_number = kind == "BAD" or (kind not in _CONTAINER and kind not in directives)
            if number is not None and not takes_number:  # a number must precede an event
                items.append(_dangling(number))
                number = None
            if kind == "MOVENUM":
                number = tok
                continue
            if kind == "BAD":
                message = game.diagnose(tok.value) if game is not None else ""
                items.append(Malformed(tok.value, message, "event",
                                       int(number.value[:-1]) if number else None,
                                       Pos(tok.line, tok.column)))
                number = None
                continue
            if kind in _CONTAINER:
                items.append(_comment(tok))
                continue
            if kind in directives:
                items.append(Directive(kind, tok.value.rstrip(), Pos(tok.line, tok.column)))
                continue
            text = tok.value
            column = tok.column
            num = None
            if number is not None:
                num = int(number.value[:-1])
                number = None
            if text[0].isdigit():  # "12. F5e-a2d4": the number is part of the token
                dot = text.index(".")
                num = int(text[:dot])
                start = dot + 1
                while text[start] in " \t":
                    start += 1
                column += start
                text = text[start:]
            pos = Pos(tok.line, column)
            try:
                items.append(EventNode(read(kind, text), num, pos, text))
            except NotationError as exc:
                items.append(Malformed(text, str(exc), "event", num, pos))
        if number is not None:
            items.append(_dangling(number))
        first = children[0]
        start = first.pos if not isinstance(first, Token) else Pos(first.line, first.column)
        return Record(game.name if game else None, tags, items, pos=start)

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


def _comment(tok: Token) -> Comment | Malformed:
    pos = Pos(tok.line, tok.column)
    text = tok.value
    if tok.type == "UNCLOSED":
        return Malformed(text.split("\n", 1)[0], "comment opened with '{' is never closed",
                         "comment", None, pos)
    if text[0] in ";#":
        return Comment(text[1:].rstrip("\r"), False, pos, text[0])
    return Comment(text[1:-1], True, pos)


def _dangling(number: Token) -> Malformed:
    return Malformed(number.value, f"event number {number.value} is not followed by an event",
                     "number", int(number.value[:-1]), Pos(number.line, number.column))


# -- parsers ---------------------------------------------------------------------

@lru_cache(maxsize=None)
def parser_for(game: Game | None, strict: bool = False) -> Lark:
    """The LALR parser of ``game`` (None: the bare container), built once."""
    name = game.grammar if game is not None else "record.lark"
    return Lark.open_from_package(
        GRAMMAR_PACKAGE, name, parser="lalr", lexer="contextual",
        transformer=RecordBuilder(game), strict=strict, maybe_placeholders=False,
        cache=not strict)


def grammar_text(name: str) -> str:
    """The text of a grammar file shipped in the package."""
    return resources.files(GRAMMAR_PACKAGE).joinpath(name).read_text(encoding="utf-8")


# -- files -------------------------------------------------------------------------

def decode(data: bytes, source: str, encoding: str = "utf-8") -> str:
    """Bytes to text; a UTF-8 BOM is dropped. Undecodable bytes raise InputError."""
    try:
        codec = codecs.lookup(encoding)
    except LookupError:
        raise InputError(source, f"unknown encoding {encoding!r}") from None
    if codec.name == "utf-8":
        encoding = "utf-8-sig"
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        bad = data[exc.start:exc.start + 1].hex()
        raise InputError(source, f"byte 0x{bad} at offset {exc.start} is not valid "
                                 f"{codec.name}; pass --encoding to read another encoding") from None


def read_file(path: str | Path, encoding: str = "utf-8") -> str:
    source = str(path)
    try:
        data = Path(path).read_bytes()
    except IsADirectoryError:
        raise InputError(source, "is a directory") from None
    except OSError as exc:
        raise InputError(source, f"cannot read: {exc.strerror or exc}") from None
    return decode(data, source, encoding)


def choose_game(text: str, source: str, game: str | Game | None = None) -> Game | None:
    """The game a file holds: its first ``[Game]`` tag, else ``game``, else the extension.

    Returns None when nothing names a known game; the records then say why.
    """
    m = _GAME_TAG.search(text)
    if m:
        named = registry.get(_UNESCAPE.sub(r"\1", m.group(1)))
        if named is not None:
            return named
        return None
    if isinstance(game, Game):
        return game
    if game:
        return registry.get(game)
    return registry.by_extension(source)


def parse(text: str, game: str | Game | None = None, source: str = "<string>") -> RecordFile:
    """Parse a whole record file's text. Never raises for bad content.

    ``game`` is used for records without a ``[Game]`` tag (after the file's
    first ``[Game]`` tag, before the file extension).
    """
    chosen = choose_game(text, source, game)
    try:
        records = parser_for(chosen).parse(text)
    except UnexpectedInput as exc:  # pragma: no cover - the grammar accepts any text
        record = Record(chosen.name if chosen else None, source=source,
                        pos=Pos(exc.line, exc.column))
        record.game_problem = f"cannot read the file here: {exc.__class__.__name__}"
        records = [record]
    except LarkError as exc:  # pragma: no cover
        raise InputError(source, f"parser failure: {exc}") from None
    fallback = game.name if isinstance(game, Game) else game
    for index, record in enumerate(records, 1):
        record.index = index
        record.source = source
        _check_game(record, chosen, fallback, source)
    return RecordFile(source, records)


def _check_game(record: Record, chosen: Game | None, fallback: str | None, source: str) -> None:
    named = record.tag_dict.get("Game")
    if chosen is None:
        known = ", ".join(g.name for g in registry.games())
        if named is not None:
            record.game_problem = f"unknown game {named!r}; known games: {known}"
        elif fallback:
            record.game_problem = f"unknown game {fallback!r}; known games: {known}"
        else:
            record.game_problem = (f"cannot tell which game this is: add a [Game \"...\"] tag, "
                                   f"pass --game, or use a known extension ({known})")
        return
    if named is not None and registry.get(named) is not chosen:
        record.game = None
        record.game_problem = (f"this file is read as {chosen.name} (its first [Game] tag); "
                               f"a {named!r} game must go in a file of its own")


def load(path: str | Path, game: str | Game | None = None, encoding: str = "utf-8") -> RecordFile:
    """Read and parse a record file. Raises :class:`InputError` if it cannot be read."""
    return parse(read_file(path, encoding), game=game, source=str(path))
