"""The Sanguine state: the board, decks, hands and turn, its copies and queries (no rules).

A cell is ``None`` (empty), ``(owner, count)`` for pawns, or ``(owner, card)``
for a card (a :class:`Card`). Decks are multisets of the cards left; with
``Order "file"`` the next card is also fixed by the file's order.

The decks' card lists and the cards by name are the game's fixed material:
no rule changes them, so copies share them; everything a rule changes (board,
decks left, hands, counters, flags) is copied.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from types import MappingProxyType
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Union

from notation.core.game import state_repr

from .deck import Card, Deck
from .events import SIDE_NAMES, Place

#: Pawns, as (owner, count), or a card, as (owner, card); None is an empty cell.
Cell = Optional[tuple[int, Union[int, Card]]]


def cell_token(cell: Cell, name: Callable[[str], str] = str) -> str:
    """A cell as the views write it: ``.``, ``r2`` (two red pawns), ``B:Surge`` (a card);
    ``name`` writes a card's name (the position notation escapes some characters)."""
    if cell is None:
        return "."
    owner, content = cell
    if isinstance(content, Card):
        return f"{'RB'[owner]}:{name(content.name)}"
    return f"{'rb'[owner]}{content}"


def escape_name(name: str) -> str:
    """A card name in the position notation: ``%`` and ``/`` (which separates rows)
    written ``%25`` and ``%2F``; every other character a name may hold stays."""
    return name.replace("%", "%25").replace("/", "%2F") if "%" in name or "/" in name else name


def names_field(names: list[str]) -> str:
    """A hand or deck in the position notation: ``[Forge,Lantern,Spark]``, ``[]``."""
    return "[" + ",".join(escape_name(name) for name in names) + "]"


def counter(counts: Mapping[str, int] = MappingProxyType({})) -> Counter[str]:
    """``Counter(counts)`` made in C: ``Counter.__init__`` adds ``counts`` one Python call
    at a time, and every game starts with four counters and every copy makes four."""
    made: Counter[str] = Counter.__new__(Counter)
    dict.update(made, counts)
    return made


#: A deck's fixed material by its card list (kept alive here, so its id is not reused):
#: many games of an archive play the same deck, read once (deck.parse_deck).
_MATERIAL: dict[int, tuple[list[Card], dict[str, int], dict[str, Card]]] = {}


def _material(cards: list[Card]) -> tuple[list[Card], dict[str, int], dict[str, Card]]:
    """``cards`` with its copies by name and its cards by name, made once per list."""
    found = _MATERIAL.get(id(cards))
    if found is None or found[0] is not cards:
        if len(_MATERIAL) >= 256:
            _MATERIAL.clear()
        counts: dict[str, int] = {}
        for card in cards:
            counts[card.name] = counts.get(card.name, 0) + 1
        found = _MATERIAL[id(cards)] = (cards, counts, {c.name: c for c in cards})
    return found


def deck_counts(cards: list[Card]) -> dict[str, int]:
    """How many copies of each name ``cards`` holds (shared: copy it before changing it)."""
    return _material(cards)[1]


def deck_names(cards: list[Card]) -> dict[str, Card]:
    """``cards`` by name, the last of a name winning (shared, as the decks' cards are)."""
    return _material(cards)[2]


#: The position notation's steps of a turn (``STEP``) and orders of the ``[Order]`` tag.
STEPS = ("deal", "draw", "act", "over", "result")
ORDERS = ("recorded", "file")


@dataclass(repr=False)
class SanguineState:
    rows: int
    cols: int
    hand_size: int
    decks: tuple[Deck, Deck]
    file_order: bool = False
    mirrored: bool = False       # [Perspective "blue"]: columns are written from Blue's side
    board: list[list[Cell]] = field(default_factory=list)
    left: list[Counter[str]] = field(default_factory=list)     # cards left in each deck
    taken: list[int] = field(default_factory=lambda: [0, 0])  # cards off each deck (file order)
    hands: list[Counter[str]] = field(default_factory=lambda: [counter(), counter()])
    dealt: list[bool] = field(default_factory=lambda: [False, False])
    to_move: int = 0
    turn: int = 1
    drawn: bool = False
    passes: int = 0
    over: bool = False
    result_written: bool = False
    #: Each side's cards by name (from ``decks`` unless given: a position read back
    #: names cards no longer in its decks).
    cards: list[dict[str, Card]] = field(default_factory=list, compare=False)
    #: A board read from the short position notation: no cards' values, hands or decks.
    partial: bool = False
    #: How many cards each deck holds: ``left``'s totals, kept as the rules take cards,
    #: since every turn asks whether a draw is due.
    remaining: list[int] = field(init=False, compare=False, default_factory=list)

    def __post_init__(self) -> None:
        if not self.board:
            home = self._home_row()
            self.board = [home[:] for _ in range(self.rows)]
        if not self.left:
            self.left = [counter(deck_counts(d.cards)) for d in self.decks]
        if not self.cards:
            self.cards = [deck_names(d.cards) for d in self.decks]
        self.remaining = [sum(counts.values()) for counts in self.left]

    def _home_row(self) -> list[Cell]:
        """A row at the start: one red pawn on the left edge, one blue pawn on the right."""
        row: list[Cell] = [None] * self.cols
        row[0], row[-1] = (0, 1), (1, 1)
        return row

    def __repr__(self) -> str:
        return state_repr("sanguine", self.position)

    def copy(self) -> SanguineState:
        other = SanguineState.__new__(SanguineState)
        other.__dict__.update(self.__dict__)
        other.board = [row[:] for row in self.board]
        other.left = [counter(c) for c in self.left]
        other.taken = self.taken[:]
        other.remaining = self.remaining[:]
        other.hands = [counter(h) for h in self.hands]
        other.dealt = self.dealt[:]
        return other

    def position(self) -> str:
        """The position of ``replay --json``, the full notation's first three fields: cells
        row by row (``/`` between rows, ``,`` between cells), who moves (``-`` once over),
        passes in a row. Read back in position.py."""
        rows = "/".join(",".join(cell_token(c, escape_name) for c in row) for row in self.board)
        return f"{rows} {'-' if self.over else SIDE_NAMES[self.to_move]} {self.passes}"

    def full_position(self) -> str:
        """The whole position notation (documented in position.py, which reads it back):
        :meth:`position`, then the turn, hands, decks and cards; a partial board has
        no more than its position."""
        if self.partial:
            return self.position()
        if self.over:
            step = "result" if self.result_written else "over"
        elif not all(self.dealt):
            step = "deal"
        else:
            step = "act" if self.drawn else "draw"
        fields = [self.position(), str(self.turn), step, str(self.hand_size),
                  ORDERS[self.file_order], SIDE_NAMES[self.mirrored]]
        for side in (0, 1):
            if self.file_order:
                deck = [card.name for card in self.decks[side].cards[self.taken[side]:]]
            else:
                deck = sorted(self.left[side].elements())
            cards = ",".join(f"{escape_name(c.name)}({c.cost},{c.value},{'/'.join(c.grid)})"
                             for c in self.cards[side].values())
            fields += [names_field(self.hand(side)), names_field(deck), f"[{cards}]"]
        return " ".join(fields)


    # -- scores --------------------------------------------------------------------
    def row_scores(self) -> list[tuple[int, int]]:
        """Each row's raw card values per player: (red, blue)."""
        out = []
        for row in self.board:
            score = [0, 0]
            for cell in row:
                if cell is not None and isinstance(cell[1], Card):
                    score[cell[0]] += cell[1].value
            out.append((score[0], score[1]))
        return out

    def totals(self) -> tuple[int, int]:
        """Each player's score: the rows each wins, counted at their values."""
        red = blue = 0
        for r, b in self.row_scores():
            if r > b:
                red += r
            elif b > r:
                blue += b
        return red, blue

    def winners(self) -> list[str]:
        red, blue = self.totals()
        return ["red"] if red > blue else ["blue"] if blue > red else ["red", "blue"]

    def result_text(self) -> str:
        """``RED-BLUE winner``, as the ``[Result]`` tag and the result line write it."""
        red, blue = self.totals()
        winner = "red" if red > blue else "blue" if blue > red else "tie"
        return f"{red}-{blue} {winner}"

    # -- whose turn, what may go where ---------------------------------------------------
    def mover(self) -> str | None:
        """Whose turn it is (``red``, ``blue``), None once the game is over (``to_move``
        of ``replay --json``: Red's, before the deals too)."""
        return None if self.over else SIDE_NAMES[self.to_move]

    def actor(self) -> str | None:
        """Who acts next: the mover, but before the first turn the first side still to be
        dealt (Red, unless only Blue's deal is left)."""
        if not self.over and not all(self.dealt):
            return SIDE_NAMES[self.dealt.index(False)]
        return self.mover()

    def deck_size(self, side: int) -> int:
        return self.remaining[side]

    def hand(self, side: int) -> list[str]:
        """The cards in ``side``'s hand, sorted by name."""
        return sorted(self.hands[side].elements())

    def placements(self, side: int) -> list[Place]:
        """Every card in ``side``'s hand on every cell it may go (in board columns)."""
        spots = [(r, c, cell[1]) for r, row in enumerate(self.board) for c, cell in enumerate(row)
                 if cell is not None and cell[0] == side and not isinstance(cell[1], Card)]
        out: list[Place] = []
        if not spots:  # the board is scanned once, not once a card
            return out
        cards = self.cards[side]
        for name in sorted(n for n, k in self.hands[side].items() if k > 0):
            cost = cards[name].cost
            out += [Place(side, name, r, c) for r, c, count in spots if count >= cost]
        return out

    def draw_due(self) -> bool:
        """The player to move starts the turn with a draw (their deck is not empty)."""
        return not self.over and not self.drawn and self.remaining[self.to_move] > 0

    # -- the state as data ---------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The ``state`` object of ``replay --json``."""
        def cell(c: Cell) -> dict[str, Any] | None:
            if c is None:
                return None
            owner, content = c
            if isinstance(content, Card):
                return {"owner": SIDE_NAMES[owner], "card": content.name}
            return {"owner": SIDE_NAMES[owner], "pawns": content}

        return {
            "board": [[cell(c) for c in row] for row in self.board],
            "hands": {SIDE_NAMES[s]: self.hand(s) for s in (0, 1)},
            "decks": {SIDE_NAMES[s]: self.deck_size(s) for s in (0, 1)},
            "row_scores": [list(rs) for rs in self.row_scores()],
            "to_move": self.mover(),
            "turn": self.turn,
            "passes": self.passes,
        }

    def result_json(self) -> dict[str, Any]:
        """The ``result`` object of ``replay --json``."""
        red, blue = self.totals()
        return {"over": self.over, "scores": [red, blue],
                "winners": self.winners() if self.over else []}

    def cells(self) -> dict[str, str]:
        """The state flattened to named parts, for diffing two states."""
        out = {f"({r},{c})": cell_token(cell) for r, row in enumerate(self.board)
               for c, cell in enumerate(row)}
        for s in (0, 1):
            out[f"{SIDE_NAMES[s]} hand"] = " ".join(self.hand(s))
            out[f"{SIDE_NAMES[s]} deck"] = str(self.deck_size(s))
        for r, (red, blue) in enumerate(self.row_scores()):
            out[f"row {r} scores"] = f"red {red} blue {blue}"
        red, blue = self.totals()
        out["totals"] = f"red {red} blue {blue}"
        out["to move"] = self.mover() or "nobody (game over)"
        return out
