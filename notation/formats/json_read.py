"""JSON documents to records: every part checked, each problem one line at the file's
place of the value it is about (a wrong shape, an unknown game, an event that is not
one); the events are then replayed like those of any record."""
from __future__ import annotations

import re
from typing import Iterable, Iterator

from notation.core.tree import GameNode
from notation.core import registry
from notation.core.ast import (MAX_NAG, Comment, Directive, EventNode, Item, Malformed,
                               MalformedKind, Pos, Tag)
from notation.core.ast import Variation as VariationItem
from notation.core.errors import Error, NotationError, shorten
from notation.read.scanner import scanner
from notation.core.game import AnyGame
from notation.core.limits import MAX_VARIATION_DEPTH, whole
from notation.read.parsing import parser_for
from notation.core.events import parse_event
from notation.read.text import starts_tag_line

from . import FORMAT_NAME, VERSION
from .jsontext import Array, Broken, Number, Object, Text, Value, describe, parse_piece, pieces

#: The members of a record and of each kind of item (the first of an item's is its kind).
RECORD_KEYS = ("format", "version", "game", "tags", "moves")
ITEM_KEYS = {"event": ("event", "nags"), "comment": ("comment", "line", "commands"),
             "variation": ("variation",), "directive": ("directive",)}
#: A tag's name, as the native reader takes it.
TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
ITEM_SHAPES = ('{"event": ...}, {"comment": ...}, {"variation": [...]} '
               'or {"directive": ...}')


class Refused(Error):
    """A document that cannot be a record at all: why, and the place of the value."""

    def __init__(self, message: str, pos: Pos) -> None:
        super().__init__(message)
        self.message, self.pos = message, pos


def read_records(chunks: Iterable[str], source: str,
                 named: AnyGame | None) -> Iterator[GameNode]:
    """The records of a file's text, one piece (a document, in JSON Lines) at a time;
    ``named``: the game ``--game`` named, for documents that name none."""
    for piece in pieces(chunks, source):
        found = parse_piece(piece)
        if isinstance(found, Broken):
            yield refused(Refused(found.message, found.pos), source, piece.text,
                          piece.first_line, piece.text)
            continue
        start = 0
        for value in found:
            end = value.end if isinstance(value, Object) else len(piece.text)
            raw = piece.text[start:end].strip() + "\n"
            start = end
            try:
                record = record_of(value, named, source)
            except Refused as why:
                record = refused(why, source, piece.text, piece.first_line, raw)
            record.text, record.first_line, record.raw = piece.text, piece.first_line, raw
            yield record


def refused(why: Refused, source: str, text: str, first_line: int, raw: str) -> GameNode:
    record = GameNode(None, source=source, pos=why.pos, text=text, first_line=first_line, raw=raw)
    record.game_problem = why.message
    return record


def members(value: Object, known: tuple[str, ...], what: str) -> dict[str, Value]:
    """An object's members by key; :class:`Refused` for a key given twice or unknown."""
    found: dict[str, Value] = {}
    for member in value.members:
        if member.key in found:
            raise Refused(f"{what}: key {shorten(member.key)!r} given twice", member.pos)
        if member.key not in known:
            raise Refused(f"{what}: unknown key {shorten(member.key)!r} (known: "
                          f"{', '.join(known)})", member.pos)
        found[member.key] = member.value
    return found


def record_of(value: Value, named: AnyGame | None, source: str) -> GameNode:
    """One document's record; :class:`Refused` when it cannot be one."""
    if not isinstance(value, Object):
        raise Refused(f"a JSON record is an object {{...}}, not {describe(value)}", value.pos)
    parts = members(value, RECORD_KEYS, "record")
    form = parts.get("format")
    if not (isinstance(form, Text) and form.value == FORMAT_NAME):
        raise Refused(f'not a notation record: "format" must be "{FORMAT_NAME}"',
                      value.pos if form is None else form.pos)
    version = parts.get("version")
    if not (isinstance(version, Number) and version.text == str(VERSION)):
        got = "missing" if version is None else describe(version)
        raise Refused(f'"version" must be {VERSION} (the version this reader knows), not {got}',
                      value.pos if version is None else version.pos)
    game = game_of(parts.get("game"), named, value.pos)
    tags = tags_of(parts.get("tags"), game)
    moves = parts.get("moves")
    items: list[Item]
    if moves is None:
        items = []
    elif isinstance(moves, Array):
        items = items_of(moves, game, 0)
    else:
        items = [Malformed(describe(moves), f'"moves" is a list of items, not '
                           f'{describe(moves)}', MalformedKind.EVENT, None, moves.pos)]
    return GameNode(game.name, tags, items, source=source, pos=value.pos)


def game_of(value: Value | None, named: AnyGame | None, where: Pos) -> AnyGame:
    if value is None:
        if named is not None:
            return named
        raise Refused(f'no "game" in the record, and no --game (known games: '
                      f'{", ".join(registry.names())})', where)
    if not isinstance(value, Text):
        raise Refused(f'"game" is a game\'s name, not {describe(value)}', value.pos)
    game = registry.get(value.value)
    if game is None:
        raise Refused(f"unknown game {shorten(value.value)!r}; known games: "
                      f"{', '.join(registry.names())}", value.pos)
    return game


def tags_of(value: Value | None, game: AnyGame) -> list[Tag | Malformed]:
    if value is None:
        return []
    if not isinstance(value, Array):
        return [bad_tag(f'"tags" is a list of ["Name", "value"] pairs, not {describe(value)}',
                        value.pos)]
    return [tag_of(item, game) for item in value.items]


def bad_tag(message: str, pos: Pos) -> Malformed:
    return Malformed("", message, MalformedKind.TAG, None, pos)


def tag_of(value: Value, game: AnyGame) -> Tag | Malformed:
    pair = value.items if isinstance(value, Array) else []
    if len(pair) != 2 or not all(isinstance(part, Text) for part in pair):
        return bad_tag(f'a tag is a ["Name", "value"] pair of strings, not {describe(value)}'
                       if not isinstance(value, Array) else
                       'a tag is a ["Name", "value"] pair of strings', value.pos)
    key, text = pair
    assert isinstance(key, Text) and isinstance(text, Text)
    if TAG_NAME.fullmatch(key.value) is None:
        return bad_tag(f"tag name {shorten(key.value)!r} is not a name (a letter, then "
                       f"letters, digits or _)", key.pos)
    if key.value == "Game" and registry.get(text.value) is not game:
        return bad_tag(f'tag [Game {shorten(text.value)!r}] is not the record\'s "game" '
                       f'({game.name})', text.pos)
    return Tag(key.value, text.value, key.pos)


def items_of(value: Array, game: AnyGame, depth: int) -> list[Item]:
    """A line of play's items (``depth``: the variations around it)."""
    items: list[Item] = []
    for entry in value.items:
        try:
            items.extend(item_of(entry, game, depth))
        except Refused as why:
            items.append(Malformed(describe(entry), why.message, MalformedKind.EVENT, None,
                                   why.pos))
    return items


def item_of(value: Value, game: AnyGame, depth: int) -> list[Item]:
    """One item (and the problems of an event's annotations, after it)."""
    kinds = [m.key for m in value.members if m.key in ITEM_KEYS] if isinstance(
        value, Object) else []
    if not isinstance(value, Object) or len(kinds) != 1:
        raise Refused(f"an item of a line of play is one of {ITEM_SHAPES}, not "
                      f"{describe(value)}", value.pos)
    kind = kinds[0]
    parts = members(value, ITEM_KEYS[kind], kind)
    if kind == "event":
        return event_of(parts, game)
    if kind == "comment":
        return [comment_of(parts, game)]
    if kind == "variation":
        inner = parts["variation"]
        if not isinstance(inner, Array):
            raise Refused(f'"variation" is a list of items, not {describe(inner)}', inner.pos)
        if depth >= MAX_VARIATION_DEPTH:
            return [Malformed("(", f"variations nested deeper than {MAX_VARIATION_DEPTH} "
                              f"levels", MalformedKind.VARIATION, None, value.pos)]
        return [VariationItem(items_of(inner, game, depth + 1), value.pos)]
    return [directive_of(parts["directive"], game)]


def event_of(parts: dict[str, Value], game: AnyGame) -> list[Item]:
    text = parts["event"]
    if not isinstance(text, Text):
        raise Refused(f"an event is its text in {game.name}'s notation, not "
                      f"{describe(text)}", text.pos)
    try:
        event = parse_event(game, text.value)
    except NotationError as exc:
        return [Malformed(shorten(text.value), str(exc), MalformedKind.EVENT, None, text.pos)]
    nags: list[int] = []
    problems: list[Item] = []
    found = parts.get("nags")
    for nag in found.items if isinstance(found, Array) else [found] if found else []:
        number = nag_of(nag)
        if isinstance(number, Malformed):
            problems.append(number)
        else:
            nags.append(number)
    return [EventNode(event, None, text.pos, text.value, tuple(nags)), *problems]


def nag_of(value: Value) -> int | Malformed:
    """An annotation, ``$N``'s N."""
    try:
        if not isinstance(value, Number):
            raise NotationError(f"an annotation is a number (1 for !, 2 for ?, ...), not "
                                f"{describe(value)}")
        number = whole(value.text, "annotation")
        if number > MAX_NAG:
            raise NotationError(f"annotation {number} is out of range (0 to {MAX_NAG})")
        return number
    except NotationError as exc:
        return Malformed(describe(value), str(exc), MalformedKind.ANNOTATION, None, value.pos)


def comment_of(parts: dict[str, Value], game: AnyGame) -> Comment | Malformed:
    text, marker = parts["comment"], parts.get("line")
    try:
        if not isinstance(text, Text):
            raise Refused(f"a comment is a string, not {describe(text)}", text.pos)
        if "\r" in text.value:  # read as a line end: no record's comment holds one
            raise Refused("a comment cannot hold a carriage return (\\r): a record reads "
                          "one as a line end", text.pos)
        if marker is None:
            if "}" in text.value:
                raise Refused("a brace comment cannot hold '}'", text.pos)
            if any(starts_tag_line(line) for line in text.value.split("\n")[1:]):
                raise Refused("a brace comment cannot hold a line that starts a tag "
                              "([Key \"...), where a record would read a new game", text.pos)
            return Comment(text.value, True, text.pos)
        if not (isinstance(marker, Text) and marker.value in markers(game)):
            raise Refused(f'"line" is the character that opens a line comment in '
                          f'{game.name} ({" or ".join(markers(game))})', marker.pos)
        if "\n" in text.value:
            raise Refused("a line comment cannot hold a line break", text.pos)
        return Comment(text.value, False, text.pos, marker.value)
    except Refused as why:
        return Malformed(describe(text), why.message, MalformedKind.COMMENT, None, why.pos)


def markers(game: AnyGame) -> list[str]:
    """The characters that open a line comment in ``game``'s grammar."""
    comment = next(t for t in parser_for(game).terminals if t.name == "COMMENT")
    pattern = re.compile(comment.pattern.to_regexp())
    return [c for c in ";#" if pattern.fullmatch(c + "x")]


def directive_of(value: Value, game: AnyGame) -> Item:
    """A set-up line (Flows' ``Game:`` line, a Sanguine deck), of the game's own kinds."""
    if isinstance(value, Text):
        m = scanner(game).token.fullmatch(value.value)
        if m is not None and m.lastgroup in game.directives:
            return Directive(m.lastgroup, value.value.rstrip(), value.pos)
    return Malformed(describe(value), f"not a set-up line of {game.name}"
                     + (" (it has none)" if not game.directives else ""),
                     MalformedKind.EVENT, None, value.pos)
