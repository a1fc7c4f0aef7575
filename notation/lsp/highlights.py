"""What an editor colours in a record: each word of the text as one of :data:`KINDS`,
found by the game's grammar terminals (every one of them, the container's too, in the
order the lexer tries them), and inside an event its parts by the terminal's named groups
(the mover, the coordinates).

Highlighting is lenient: where no terminal reads the text (a half-typed word), the word
is left uncoloured and the scan goes on after it. Linear in the text: one anchored match
per token or unread word.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator, NamedTuple

from notation.core.fields import Layout, terminal_layout
from notation.core.game import AnyGame
from notation.read.grammars import Terminal
from notation.read.grammars import terminals as terminals_of
from notation.read.reading import choose_game
from notation.read.text import chunks, pieces

#: The kinds of word, in the order the server's legend lists them.
KINDS = ("event", "mover", "coordinate", "glyph", "comment", "tag", "number")

#: An event's parts (its terminal's named groups, as :mod:`notation.core.fields` names
#: them) that are who moves, and where.
MOVERS = frozenset({"player", "side", "drawer", "joiner", "leaver", "holder"})
COORDINATES = frozenset({"contact", "target", "label", "space", "row", "col"})

#: The container's terminals, by kind (the rest are the game's: events, directives).
_CONTAINER_KINDS = {"COMMENT": "comment", "UNCLOSED": "comment", "GLYPH": "glyph",
                    "NAG": "glyph", "TAG": "tag", "MOVENUM": "number"}
_UNCOLOURED = frozenset({"WS", "BAD", "BAD_TAG", "BAD_LINE", "VARIATION_START",
                         "VARIATION_END"})
#: The number written before an event (``12.``), which the event's terminal takes in.
_NUMBER = re.compile(r"[0-9]+\.*[ \t]*")
_WORD_END = re.compile(r"\s|\Z")


class Word(NamedTuple):
    """One coloured span on one line: 1-based line and column, length in characters."""

    line: int
    column: int
    length: int
    kind: str


@dataclass(frozen=True)
class Highlighter:
    """One game's terminals as one pattern, and which of them are which kind."""

    pattern: re.Pattern[str]
    kinds: dict[str, str]
    layout: Layout

    def spans(self, text: str) -> Iterator[tuple[int, int, str]]:
        """(start, end, kind) offsets of ``text``'s coloured spans, in order."""
        match, at, size = self.pattern.match, 0, len(text)
        while at < size:
            found = match(text, at)
            if found is None or found.end() == at:
                if text[at].isspace():
                    at += 1
                else:  # unread: skip the word
                    ended = _WORD_END.search(text, at + 1)
                    at = ended.start() if ended else size
                continue
            at = found.end()
            name = found.lastgroup or ""
            kind = self.kinds.get(name)
            if kind is None:
                continue
            start, end = found.span(name)
            if kind != "event":
                yield start, end, kind
                continue
            numbered = _NUMBER.match(text, start, end)
            if numbered is not None and numbered.end() < end and text[start].isdigit():
                yield start, numbered.end(), "number"
                start = numbered.end()
            parts = sorted((found.start(index), found.end(index), field)
                           for index, field in self.layout.get(name, ())
                           if found.start(index) >= 0 and found.end(index) > found.start(index)
                           and (field in MOVERS or field in COORDINATES))
            for part_start, part_end, field in parts:
                if part_start < start:
                    continue
                if part_start > start:
                    yield start, part_start, "event"
                yield part_start, part_end, "mover" if field in MOVERS else "coordinate"
                start = part_end
            if start < end:
                yield start, end, "event"


@lru_cache(maxsize=None)
def highlighter(game: AnyGame) -> Highlighter:
    every = terminals_of(game.grammar, game.grammar_package)
    # the order the lexer tries them in (as the scanner's, with the container's too)
    ordered = sorted(every, key=Terminal.lexer_rank)
    pattern = re.compile("|".join(f"(?P<{t.name}>{t.regexp})" for t in ordered))
    names = {t.name for t in ordered}
    kinds = {}
    for name in names:
        if name in _CONTAINER_KINDS:
            kinds[name] = _CONTAINER_KINDS[name]
        elif name in game.directives:
            kinds[name] = "tag"
        elif name not in _UNCOLOURED:
            kinds[name] = "event"
    return Highlighter(pattern, kinds, terminal_layout(pattern, names))


def words(text: str, source: str, game: str | AnyGame | None = None) -> list[Word]:
    """Every coloured word of a document, in order, split at line ends (a brace comment
    over three lines is three words)."""
    found: list[Word] = []
    for first_line, piece in pieces(chunks((text,), source), source):
        chosen = choose_game(piece, source, game)
        if chosen is None:
            continue
        line, line_start, counted = first_line, 0, 0
        for start, end, kind in highlighter(chosen).spans(piece):
            breaks = piece.count("\n", counted, start)
            if breaks:
                line += breaks
                line_start = piece.rindex("\n", counted, start) + 1
            counted = start
            while True:  # one word a line
                newline = piece.find("\n", start, end)
                stop = end if newline < 0 else newline
                if stop > start:
                    found.append(Word(line, start - line_start + 1, stop - start, kind))
                if newline < 0:
                    break
                line, line_start, start = line + 1, newline + 1, newline + 1
                counted = start
    return found


__all__ = ["COORDINATES", "Highlighter", "KINDS", "MOVERS", "Word", "highlighter", "words"]
