"""Sanguine cards and deck files (rules file, section 2).

The grammar (``sanguine_deck.lark``) turns a file into line tokens; this
module groups them into cards and checks them in the documented order, with
one precise message per problem.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from lark import Lark
from lark.exceptions import UnexpectedInput

from notation.core.errors import InputError
from notation.core.limits import MAX_DECK_BYTES, MAX_VALUE_DIGITS, is_whole, shorten
from notation.core.parsing import GRAMMAR_PACKAGE, decode, read_bytes, read_beside


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


class DeckError(ValueError):
    """Every problem of one deck file, each with its line."""

    def __init__(self, source: str, problems: list[DeckProblem]) -> None:
        super().__init__(f"{source}:{problems[0].line}: {problems[0].message}")
        self.source = source
        self.problems = problems


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark.open_from_package(GRAMMAR_PACKAGE, "sanguine_deck.lark", parser="lalr",
                                  cache=True)


#: Characters the deck format allows in names but records use themselves (; { } [ ]).
RECORD_SYNTAX = frozenset(";{}[]")

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


def _parse(text: str, source: str, first_line: int) -> Deck:
    try:
        tokens = [t for t in _parser().parse(text).children]
    except UnexpectedInput as exc:  # the grammar reads any text; this is a safety net
        raise DeckError(source, [DeckProblem(exc.line + first_line - 1,
                                             "this line cannot be read as part of a deck")]) from None
    problems: list[DeckProblem] = []
    cards: list[Card] = []
    offset = first_line - 1
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        line = tok.line + offset
        if tok.type != "HEADER":
            what = "a grid row" if tok.type == "ROW" else repr(tok.value.strip())
            problems.append(DeckProblem(line, f"expected a card header NAME COST VALUE, got {what}"))
            i += 1
            continue
        name, cost, value = tok.value.split()
        header_ok = True
        clash = sorted(set(name) & RECORD_SYNTAX)
        if clash:  # allowed by the deck format, but a record could never name the card
            problems.append(DeckProblem(line, f"card name {shorten(name)} holds "
                                              f"{' '.join(clash)}, which records use for "
                                              f"comments and tags; a record could not name "
                                              f"this card (rename it)"))
            header_ok = False
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
        j = i + 1
        while len(rows) < 5 and j < len(tokens):
            row = tokens[j]
            expected_line = tok.line + len(rows) + 1
            if row.line != expected_line:
                problems.append(DeckProblem(expected_line + offset,
                                            f"blank line inside card {name}: 5 grid rows expected"))
                rows = None  # type: ignore[assignment]
                break
            if row.type != "ROW":
                if row.type == "HEADER" and len(row.value.split()) == 3 and not rows:
                    break
                problems.append(DeckProblem(row.line + offset, f"grid row must be 5 characters "
                                            f"from X, I, C: {row.value.strip()!r}"))
                j += 1
                rows = None  # type: ignore[assignment]
                break
            rows.append(row.value.strip())
            j += 1
        if rows is None:
            i = j
            while i < len(tokens) and tokens[i].type != "HEADER":
                i += 1
            continue
        if len(rows) < 5:
            if j >= len(tokens) or tokens[j].line == tok.line + len(rows) + 1:
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


__all__ = ["Card", "Deck", "DeckError", "DeckProblem", "InputError", "draw_grid", "load_deck",
           "load_deck_beside", "parse_deck"]
