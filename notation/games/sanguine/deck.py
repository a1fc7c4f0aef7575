"""Sanguine cards and deck files (rules file, section 2).

The grammar (``sanguine_deck.lark``) turns a file into line tokens; this
module groups them into cards and checks them in the documented order, with
one precise message per problem.
"""
from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from importlib import resources
from typing import NamedTuple

from notation.core.errors import Error, InputError, shorten
from notation.read.grammars import grammar, terminal_pattern
from notation.core.limits import MAX_DECK_BYTES, MAX_VALUE_DIGITS, is_whole
from notation.read.text import decode, read_beside, read_bytes

from . import BUNDLED_DECKS

GRAMMAR = "sanguine_deck.lark"
#: The terminal Lark makes of the grammar's ``%ignore`` (blanks but a line break).
IGNORED = "__IGNORE_0"


@dataclass(frozen=True)
class Card:
    """A card as Red sees it; ``grid`` is its five rows of X, I and C."""

    name: str
    cost: int
    value: int
    grid: tuple[str, ...]
    line: int = field(default=0, compare=False)

    @property
    def influences(self) -> tuple[tuple[int, int], ...]:
        """Influenced offsets ``(dr, dc)`` from the card, as Red plays it."""
        return tuple((i - 2, j - 2) for i, row in enumerate(self.grid)
                     for j, ch in enumerate(row) if ch == "I")

    @functools.cached_property
    def reaches(self) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
        """:attr:`influences` as each side plays the card (Blue's columns mirrored), worked
        out once a card: every placement of it asks (the card is an immutable value)."""
        red = self.influences
        return red, tuple((dr, -dc) for dr, dc in red)

    def text(self) -> str:
        return "\n".join([f"{self.name} {self.cost} {self.value}", *self.grid])


@dataclass
class DeckProblem:
    line: int
    message: str


@dataclass
class Deck:
    source: str
    cards: list[Card]

    def __len__(self) -> int:
        return len(self.cards)

    def by_name(self) -> dict[str, Card]:
        return {c.name: c for c in self.cards}

    def text(self) -> str:
        return "\n".join(c.text() for c in self.cards) + "\n"


class DeckError(Error, ValueError):
    """Every problem of one deck file, each with its line."""

    def __init__(self, source: str, problems: list[DeckProblem]) -> None:
        super().__init__(f"{source}:{problems[0].line}: {problems[0].message}")
        self.source = source
        self.problems = problems


_VALID: dict[str, list[Card]] = {}  # deck text -> its cards, for decks that passed


def parse_deck(text: str, source: str = "<deck>", first_line: int = 1) -> Deck:
    """Read a deck; raise :class:`DeckError` listing every problem found.

    A deck that passed is remembered by its text: a file of many games with
    the same inline decks reads each deck once. (Cards are immutable, and
    their line numbers only matter in error messages, which a valid deck has
    none of.)
    """
    cards = _VALID.get(text)
    if cards is not None:
        return Deck(source, cards)
    deck = _parse(text, source, first_line)
    if len(_VALID) >= 256:
        _VALID.clear()
    _VALID[text] = deck.cards
    return deck


class Line(NamedTuple):
    """One line of a deck file as the grammar sees it (``HEADER``, ``ROW`` or ``JUNK``)."""

    kind: str
    text: str
    number: int  # in the text read (the deck file's own lines are offset from these)


def scanned_lines(text: str) -> list[Line]:
    """The file's line tokens, scanned with the grammar's own terminals (no parser to
    build or import: a record's decks are read at every start). Held equal to
    :func:`grammar_lines` by the tests; the grammar reads any text, so does this."""
    row, header, junk, ignored = (terminal_pattern(GRAMMAR, name).match
                                  for name in ("ROW", "HEADER", "JUNK", IGNORED))
    found: list[Line] = []
    at, number, end = 0, 1, len(text)
    while at <= end:
        stop = text.find("\n", at)
        stop = end if stop < 0 else stop
        blanks = ignored(text, at, stop)
        start = blanks.end() if blanks is not None else at
        if start < stop:
            for kind, match in (("ROW", row), ("HEADER", header), ("JUNK", junk)):
                token = match(text, start)
                if token is not None:
                    found.append(Line(kind, token.group(), number))
                    break
        at, number = stop + 1, number + 1
    return found


def grammar_lines(text: str, source: str = "<deck>", first_line: int = 1) -> list[Line]:
    """The file's line tokens as the grammar's parser reads them: the definition
    :func:`scanned_lines` is held to."""
    from lark import Token, UnexpectedInput
    try:
        tree = grammar(GRAMMAR).parse(text)
    except UnexpectedInput as exc:  # the grammar reads any text; this is a safety net
        raise DeckError(source, [DeckProblem(exc.line + first_line - 1,
                                             "this line cannot be read as part of a deck")]) from None
    return [Line(t.type, t.value, t.line or 0) for t in tree.children if isinstance(t, Token)]


def _parse(text: str, source: str, first_line: int) -> Deck:
    tokens = scanned_lines(text)
    header = terminal_pattern(GRAMMAR, "HEADER").fullmatch
    problems: list[DeckProblem] = []
    cards: list[Card] = []
    offset = first_line - 1
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        line = tok.number + offset
        head = header(tok.text) if tok.kind == "HEADER" else None
        if head is None:
            what = "a grid row" if tok.kind == "ROW" else repr(tok.text.strip())
            problems.append(DeckProblem(line, f"expected a card header NAME COST VALUE, got {what}"))
            i += 1
            continue
        # The name is the grammar's CARD, the terminal records name cards with too: any
        # name a deck can hold can be dealt, drawn and placed.
        name = tok.text[:head.start("cost")].rstrip(" \t")
        cost, value = head["cost"], head["value"]
        header_ok = True
        if cost not in ("1", "2", "3"):
            problems.append(DeckProblem(line, f"cost must be 1, 2 or 3, got {cost}"))
            header_ok = False
        if not (is_whole(value, digits=MAX_VALUE_DIGITS) and value[0] != "0"):
            too_long = len(value) > MAX_VALUE_DIGITS
            limit = f" and at most {MAX_VALUE_DIGITS:,} digits" if too_long else ""
            problems.append(DeckProblem(line, f"value must be a whole number of at least "
                                              f"1{limit}, got {shorten(value)}"))
            header_ok = False
        rows: list[str] = []
        broken = False  # a blank or bad line inside the card: skip to the next header
        j = i + 1
        while len(rows) < 5 and j < len(tokens):
            row = tokens[j]
            expected_line = tok.number + len(rows) + 1
            if row.number != expected_line:
                problems.append(DeckProblem(expected_line + offset,
                                            f"blank line inside card {name}: 5 grid rows expected"))
                broken = True
                break
            if row.kind != "ROW":
                if row.kind == "HEADER" and not rows:
                    break
                problems.append(DeckProblem(row.number + offset, f"grid row must be 5 characters "
                                            f"from X, I, C: {row.text.strip()!r}"))
                j += 1
                broken = True
                break
            rows.append(row.text.strip())
            j += 1
        if broken:
            i = j
            while i < len(tokens) and tokens[i].kind != "HEADER":
                i += 1
            continue
        if len(rows) < 5:
            if j >= len(tokens) or tokens[j].number == tok.number + len(rows) + 1:
                problems.append(DeckProblem(line, f"card {name} has {len(rows)} grid rows; "
                                            f"5 expected (the file ends inside the card)"
                                            if j >= len(tokens) else
                                            f"card {name} has {len(rows)} grid rows; 5 expected"))
            i = j
            continue
        grid = tuple(rows)
        if "".join(grid).count("C") != 1 or grid[2][2] != "C":
            problems.append(DeckProblem(line, f"card {name}: the grid must contain exactly one C, "
                                        f"at the centre"))
        elif header_ok:
            cards.append(Card(name, int(cost), int(value), grid, line))
        i = j
    problems += _consistency(cards)
    if problems:
        problems.sort(key=lambda p: p.line)
        raise DeckError(source, problems)
    return Deck(source, cards)


def _consistency(cards: list[Card]) -> list[DeckProblem]:
    problems = []
    first: dict[str, Card] = {}
    for card in cards:
        seen = first.setdefault(card.name, card)
        if seen != card:
            problems.append(DeckProblem(card.line, f"card name {card.name} has two different "
                                        f"definitions (lines {seen.line} and {card.line})"))
    counts: dict[Card, list[int]] = {}
    for card in cards:
        counts.setdefault(card, []).append(card.line)
    for card, lines in counts.items():
        if len(lines) > 2:
            problems.append(DeckProblem(lines[2], f"card {card.name} (cost {card.cost}, value "
                                        f"{shorten(str(card.value))}) appears {len(lines)} "
                                        f"times (lines "
                                        f"{', '.join(map(str, lines))}); a deck may hold at most "
                                        f"2 copies"))
    return problems


def load_deck(path: str) -> Deck:
    """Read and check a deck file; InputError if unreadable, DeckError if invalid."""
    return parse_deck(decode(read_bytes(path, MAX_DECK_BYTES), path), path)


def bundled_deck(name: str) -> str:
    """A deck file's path: ``name`` itself when it is a file, else the bundled deck of that
    name (``legion``), so ``notation random sanguine`` works wherever the package is."""
    if name not in BUNDLED_DECKS or os.path.exists(name):
        return name
    return bundled_path(name)


@functools.cache
def bundled_path(name: str) -> str:
    """Where the package keeps the bundled deck ``name`` (found once: it does not move)."""
    return str(resources.files("notation.samples") / "sanguine" / "decks" / f"{name}.deck")


def load_deck_beside(record_source: str, relative: str) -> Deck:
    """The deck file a record names, read only from inside the record's folder."""
    path, data = read_beside(record_source, relative, MAX_DECK_BYTES)
    return parse_deck(decode(data, path), path)


def draw_grid(card: Card, mirrored: bool = False) -> str:
    """The influence grid as people read it: ``#`` the card, ``*`` influenced."""
    rows = []
    for row in card.grid:
        cells = row[::-1] if mirrored else row
        rows.append(" ".join({"X": ".", "I": "*", "C": "#"}[ch] for ch in cells))
    return "\n".join(rows)


__all__ = ["Card", "Deck", "DeckError", "DeckProblem", "InputError", "bundled_deck", "draw_grid",
           "load_deck", "load_deck_beside", "parse_deck"]
