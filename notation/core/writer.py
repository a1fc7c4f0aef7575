"""Canonical text of records: what ``notation fmt`` and ``notation random`` write.

Tags one per line (``Game`` first), a blank line, then the body with every
event numbered and written in its game's canonical spelling, comments kept
where they were, lines wrapped before 80 columns.
"""
from __future__ import annotations

from typing import Any, Iterable, Iterator

from . import registry
from .ast import GLYPH_OF, Comment, Directive, EventNode, Item, Malformed, Tag, Variation
from .errors import Error, NotationError, shorten
from .game import AnyGame, Game
from .limits import MAX_VARIATION_DEPTH
from .protocols import RecordView
from notation.read.text import starts_tag_line

WIDTH = 79


#: A tag value longer than this is escaped and written a piece at a time
#: (:func:`format_pieces`).
PIECE = 1 << 20


def escaped(value: str) -> str:
    """A tag value's text as written between its quotes: ``\\``, ``"`` and line breaks
    escaped, character by character (so a value may be escaped a piece at a time)."""
    text = value.replace("\\", "\\\\").replace('"', '\\"')
    return text.replace("\r", "\\r").replace("\n", "\\n")


def quote(value: str) -> str:
    """A tag value in quotes; ``\\``, ``"`` and line breaks escaped so it reads back."""
    return '"' + escaped(value) + '"'


def tag_pairs(given: Iterable[Tag | Malformed], game: AnyGame | None) -> list[tuple[str, str]]:
    """The tags a record is written with, as (key, value), ``[Game]`` first (a record to
    write has no broken tag)."""
    tags = [t for t in given if isinstance(t, Tag)]
    pairs = []
    if game is not None and not any(t.key == "Game" for t in tags):
        pairs.append(("Game", game.name))
    ordered = sorted(tags, key=lambda t: t.key != "Game")  # stable: Game first
    return pairs + [(t.key, t.value) for t in ordered]


def format_tags(given: Iterable[Tag | Malformed], game: AnyGame | None) -> list[str]:
    """The tag lines of a record, ``[Game]`` first (a record to write has no broken tag)."""
    return [f"[{key} {quote(value)}]" for key, value in tag_pairs(given, game)]


def nesting_depth(items: list[Item]) -> int:
    """How deep variations nest in ``items`` (0: none), without recursion."""
    deepest, lines = 0, [(items, 0)]
    while lines:
        line, depth = lines.pop()
        deepest = max(deepest, depth)
        lines += [(item.items, depth + 1) for item in line if isinstance(item, Variation)]
    return deepest


def check_nesting(items: list[Item]) -> None:
    """:class:`NotationError` for variations nested deeper than the readers read
    (:data:`~notation.core.limits.MAX_VARIATION_DEPTH`): every writer checks it, so that
    nothing is written that cannot be read back."""
    if nesting_depth(items) > MAX_VARIATION_DEPTH:
        raise NotationError(f"variations nested deeper than {MAX_VARIATION_DEPTH} levels "
                            f"(a reader reads no deeper)")


def format_record(record: RecordView, game: AnyGame | None = None) -> str:
    """Canonical text of one record (which must have no malformed items); ``game``:
    the record's own by default. Variations nested deeper than the reader reads
    (:data:`~notation.core.limits.MAX_VARIATION_DEPTH`) raise :class:`NotationError`:
    nothing is written that cannot be read back."""
    return "".join(format_pieces(record, game))


def format_pieces(record: RecordView, game: AnyGame | None = None) -> Iterator[str]:
    """:func:`format_record`'s text in pieces, for a writer that takes them one by one: a
    tag value over :data:`PIECE` characters is escaped and given a piece at a time (a 32
    MB value is never copied whole: quoted, into its line, into the record's text). What
    may refuse the record is done before this returns: the pieces are text alone."""
    if game is None:
        game = registry.get(record.game or "")
        if game is None:
            raise Error(f"cannot write a record of no known game ({record.game!r})")
    check_nesting(record.items)
    return _pieces(tag_pairs(record.tags, game), _body_lines(record.items, game))


def _pieces(pairs: list[tuple[str, str]], body: list[str]) -> Iterator[str]:
    """Tag lines, a blank line, the body: the short parts of it joined as one piece."""
    text: list[str] = []
    for key, value in pairs:
        if len(value) <= PIECE:
            text.append(f"[{key} {quote(value)}]\n")
            continue
        text.append(f'[{key} "')
        yield "".join(text)
        text.clear()
        for start in range(0, len(value), PIECE):
            yield escaped(value[start:start + PIECE])
        text.append('"]\n')
    text.append("\n".join(([""] if pairs else []) + body) + "\n")
    yield "".join(text)


def _body_lines(items: list[Item], game: AnyGame) -> list[str]:
    """The lines of a record's body: its events numbered, comments, variations."""
    words: list[str] = []
    body: list[str] = []

    def flush() -> None:
        line = ""
        for word in words:
            if line and len(line) + 1 + len(word) > WIDTH:
                body.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        if line:
            body.append(line)
        words.clear()

    opening = [""]  # "(" (or more) to write in front of the next word, PGN's way
    filled = [False]  # the last word was an event that runs to its line's end

    def add(word: str) -> None:
        if filled[0] and not word.startswith("#"):  # only a "#" comment may follow it
            flush()
        filled[0] = False
        words.append(opening[0] + word)
        opening[0] = ""

    def write(items: list[Item], ply: int) -> None:
        """One line of play whose events count on from ``ply``, its variations in place."""
        for item in items:
            if isinstance(item, EventNode):
                ply += 1
                if game.event_per_line:
                    flush()
                text = game.format_event(item.event)
                text = f"{ply}. {text}" if game.numbered else text
                notes = (annotation_text(item.nags, game.glyph_blank(item.event))
                         if item.nags else "")
                if not game.fills_line(item.event):
                    add(text + notes)
                    continue
                add(text)
                filled[0] = True  # its annotations (and comments but "#") on the next line
                if notes:
                    add(notes.lstrip())
            elif isinstance(item, Variation):  # the alternative to the event just written
                if game.event_per_line:  # "(" and ")" on lines of their own
                    flush()
                    body.append("(")
                    write(item.items, ply - 1)
                    flush()
                    body.append(")")
                    continue
                opening[0] += "("
                written = len(words), len(body)
                write(item.items, ply - 1)
                if opening[0]:  # an empty variation
                    add(")")
                elif (len(words), len(body)) != written and words:
                    words[-1] += ")"
                else:  # the variation ended with a line comment: ")" starts the next line
                    words.append(")")
            elif isinstance(item, Comment):
                for comment in writable_comments(item):
                    if comment.brace:
                        add("{" + comment.text + "}")
                    else:
                        add(comment.marker + comment.text)
                        flush()
            elif isinstance(item, Directive):  # on a line of its own
                flush()
                body.append(item.text)
            elif isinstance(item, Malformed):  # pragma: no cover - callers refuse these
                raise ValueError(f"cannot format a malformed item: {item.text!r}")

    write(items, 0)
    flush()
    return body


def writable_comments(comment: Comment) -> list[Comment]:
    """A comment as a record can hold it: a brace comment whose text holds a ``}``, or a
    line that would start a tag, is written as line comments, one a line (read from
    another format: Pentobi's ``C[a } b]``); a line comment holds one line.

    A carriage return is refused (:class:`NotationError`): a record's reader reads every
    CR as a line end, so no comment it reads holds one, and one written would come back
    another comment, or end it and start a tag line."""
    if "\r" in comment.text:
        raise NotationError(f"the comment {shorten(comment.text)!r} cannot be written: it "
                            f"holds a carriage return (\\r), which a record reads as a "
                            f"line end")
    lines = comment.text.split("\n")
    if comment.brace and "}" not in comment.text and not any(
            starts_tag_line(line) for line in lines[1:]):
        return [comment]
    if not comment.brace and len(lines) == 1:
        return [comment]
    marker = comment.marker if not comment.brace else ";"
    return [Comment(line, False, comment.pos, marker) for line in lines if line.strip()]


def annotation_text(nags: tuple[int, ...], blank: bool) -> str:
    """An event's annotations as written after it: the first of ``!``, ``?``, ``!!``, ``??``,
    ``!?``, ``?!`` as its glyph (attached, or after a blank where the game needs one), the
    others as `` $N``, in the order they were given."""
    glyph = next((n for n in nags if n in GLYPH_OF), None)
    text = "" if glyph is None else (" " if blank else "") + GLYPH_OF[glyph]
    return text + "".join(f" ${n}" for n in nags if n != glyph)


def format_events(game: AnyGame, tags: dict[str, str], events: list[Any]) -> str:
    """Canonical text of a record given as tags and event values."""
    pairs = tag_pairs([Tag(k, v) for k, v in tags.items()], game)
    return "".join(_pieces(pairs, _body_lines([EventNode(e) for e in events], game)))
