"""The Sanguine rules engine (rules file, sections 1 and 7).

Cells are ``None`` (empty), ``(owner, count)`` for pawns, or ``(owner, card)``
for a card (``card`` a :class:`Card`). Decks are multisets of the cards left;
with ``Order "file"`` the next card is also fixed by the file's order.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from notation.core.game import state_repr, state_svg
from notation.core.errors import RuleError, shorten

from .deck import Card, Deck
from .events import SIDE_NAMES, Deal, Draw, Event, Place, Result

MAX_PAWNS = 3


def _cut(result: str) -> str:
    """A result ``RED-BLUE winner`` for a message: a score of many digits is cut short
    (its length said), so the message keeps its end."""
    scores, winner = result.split(" ")
    red, blue = scores.split("-")
    return f"{shorten(red)}-{shorten(blue)} {winner}"


@dataclass
class SanguineState:

    __repr__ = state_repr("sanguine")
    _repr_svg_ = state_svg("sanguine")
    rows: int
    cols: int
    hand_size: int
    decks: tuple[Deck, Deck]
    file_order: bool = False
    mirrored: bool = False       # [Perspective "blue"]: columns are written from Blue's side
    board: list[list] = field(default_factory=list)
    left: list[Counter] = field(default_factory=list)     # cards left in each deck
    taken: list[int] = field(default_factory=lambda: [0, 0])  # cards off each deck (file order)
    hands: list[Counter] = field(default_factory=lambda: [Counter(), Counter()])
    dealt: list[bool] = field(default_factory=lambda: [False, False])
    to_move: int = 0
    turn: int = 1
    drawn: bool = False
    passes: int = 0
    over: bool = False
    result_written: bool = False

    def __post_init__(self) -> None:
        if not self.board:
            self.board = [[(0, 1)] + [None] * (self.cols - 2) + [(1, 1)] for _ in range(self.rows)]
        if not self.left:
            self.left = [Counter(c.name for c in d.cards) for d in self.decks]
        self.cards = [d.by_name() for d in self.decks]

    def copy(self) -> "SanguineState":
        other = SanguineState.__new__(SanguineState)
        other.__dict__.update(self.__dict__)
        other.board = [row[:] for row in self.board]
        other.left = [Counter(c) for c in self.left]
        other.taken = self.taken[:]
        other.hands = [Counter(h) for h in self.hands]
        other.dealt = self.dealt[:]
        return other

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
        red, blue = self.totals()
        winner = "red" if red > blue else "blue" if blue > red else "tie"
        return f"{red}-{blue} {winner}"

    # -- moves -------------------------------------------------------------------------
    def placements(self, side: int) -> list[Place]:
        """Every card in ``side``'s hand on every cell it may go (in board columns)."""
        out = []
        for name in sorted(n for n, k in self.hands[side].items() if k > 0):
            card = self.cards[side][name]
            for r, row in enumerate(self.board):
                for c, cell in enumerate(row):
                    if (cell is not None and cell[0] == side and not isinstance(cell[1], Card)
                            and cell[1] >= card.cost):
                        out.append(Place(side, name, r, c))
        return out

    def draw_due(self) -> bool:
        return not self.over and not self.drawn and sum(self.left[self.to_move].values()) > 0

    # -- applying events ---------------------------------------------------------------
    def apply(self, event: Event) -> None:
        """Apply one event or raise RuleError; every check comes before any change."""
        if isinstance(event, Result):
            self._result(event)
            return
        if self.over:
            raise RuleError("the game has ended (two consecutive passes); only a result line "
                            "may follow", "game end")
        if isinstance(event, Deal):
            self._deal(event)
            return
        if not all(self.dealt):
            missing = " and ".join(SIDE_NAMES[s] for s in (0, 1) if not self.dealt[s])
            raise RuleError(f"both players are dealt before the first turn ({missing} not yet)",
                            "deal first")
        side = event.side
        if side != self.to_move:
            raise RuleError(f"out of turn: it is {SIDE_NAMES[self.to_move]}'s turn, line is for "
                            f"{SIDE_NAMES[side]}", "turn order")
        if isinstance(event, Draw):
            self._draw(side, event.card)
            return
        if self.draw_due():
            raise RuleError(f"{SIDE_NAMES[side]} must draw first (deck has "
                            f"{sum(self.left[side].values())} cards)", "draw every turn")
        if isinstance(event, Place):
            self._place(event)
        else:
            self.passes += 1
            if self.passes == 2:
                self.over = True
                return
        self.to_move ^= 1
        self.turn += 1
        self.drawn = False

    def _check_left(self, side: int, name: str, already: int = 0) -> None:
        """``name`` is in ``side``'s deck with a copy left beyond ``already`` taken ones."""
        who = SIDE_NAMES[side]
        if name not in self.cards[side]:
            raise RuleError(f"{who}'s deck has no card named {name}", "cards from the deck")
        if self.left[side][name] <= already:
            raise RuleError(f"{who} deck has no {name} left (all copies already out)",
                            "cards from the deck")

    def _take(self, side: int, name: str) -> None:
        """Take one card off ``side``'s deck, checking availability and file order."""
        who = SIDE_NAMES[side]
        self._check_left(side, name)
        if self.file_order:
            expected = self.decks[side].cards[self.taken[side]].name
            if name != expected:
                raise RuleError(f'Order "file": {who}\'s next card is {expected}, record says '
                                f"{name}", "file order")
        self.left[side][name] -= 1
        self.taken[side] += 1
        self.hands[side][name] += 1

    def _deal(self, event: Deal) -> None:
        who = SIDE_NAMES[event.side]
        if self.turn > 1 or self.drawn:
            raise RuleError("deals come before the first turn", "deal first")
        if self.dealt[event.side]:
            raise RuleError(f"{who} has already been dealt", "one deal each")
        if len(event.cards) != self.hand_size:
            raise RuleError(f"{who} must be dealt exactly {self.hand_size} cards, got "
                            f"{len(event.cards)}", "hand size")
        if self.file_order:
            first = Counter(c.name for c in self.decks[event.side].cards[:self.hand_size])
            if Counter(event.cards) != first:
                raise RuleError(f'Order "file": {who}\'s deal is the first {self.hand_size} cards '
                                f"of the file ({' '.join(sorted(first.elements()))})", "file order")
            for card in self.decks[event.side].cards[:self.hand_size]:  # in file order
                self._take(event.side, card.name)
        else:  # every card is checked before any is taken: a bad deal changes nothing
            wanted: Counter = Counter()
            for name in event.cards:
                self._check_left(event.side, name, wanted[name])
                wanted[name] += 1
            for name in event.cards:
                self._take(event.side, name)
        self.dealt[event.side] = True

    def _draw(self, side: int, name: str) -> None:
        who = SIDE_NAMES[side]
        if self.drawn:
            raise RuleError(f"{who} has already drawn this turn", "one draw a turn")
        if not sum(self.left[side].values()):
            raise RuleError(f"{who}'s deck is empty; no draw line allowed this turn",
                            "draw every turn")
        self._take(side, name)
        self.drawn = True

    def _place(self, event: Place) -> None:
        side, who = event.side, SIDE_NAMES[event.side]
        if self.hands[side][event.card] <= 0:
            held = " ".join(sorted(self.hands[side].elements()))
            raise RuleError(f"card not in hand: {who} holds {held or 'nothing'}, not "
                            f"{event.card}", "card in hand")
        r = event.row
        c = self.cols - 1 - event.col if self.mirrored else event.col
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise RuleError(f"position ({event.row},{event.col}) is outside the {self.rows}x"
                            f"{self.cols} board (rows 0-{self.rows - 1}, columns 0-{self.cols - 1})",
                            "on the board")
        card = self.cards[side][event.card]
        cell = self.board[r][c]
        where = f"({event.row},{event.col})"
        if cell is None:
            raise RuleError(f"illegal placement: {where} is empty", "own pawns")
        owner, content = cell
        if isinstance(content, Card):
            raise RuleError(f"illegal placement: {where} already holds a {SIDE_NAMES[owner]} card "
                            f"({content.name})", "own pawns")
        if owner != side:
            raise RuleError(f"illegal placement: {where} holds {SIDE_NAMES[owner]} pawns; {who} "
                            f"may only place on its own pawns", "own pawns")
        if content < card.cost:
            raise RuleError(f"illegal placement: {event.card} costs {card.cost} but {where} holds "
                            f"{content} {who} pawn{'s' * (content != 1)}", "cost")
        self.hands[side][event.card] -= 1
        self.board[r][c] = (side, card)
        for dr, dc in card.influences:
            tr, tc = r + dr, c + (-dc if side == 1 else dc)
            if not (0 <= tr < self.rows and 0 <= tc < self.cols):
                continue
            target = self.board[tr][tc]
            if target is None:
                self.board[tr][tc] = (side, 1)
            elif not isinstance(target[1], Card):
                count = target[1]
                self.board[tr][tc] = (side, min(MAX_PAWNS, count + 1) if target[0] == side else count)
        self.passes = 0

    def _result(self, event: Result) -> None:
        if not self.over:
            raise RuleError("a result line comes only after the game is over", "result")
        if self.result_written:
            raise RuleError("the result is already written", "result")
        computed = self.result_text()
        if str(event) != f"result {computed}":
            said = f"{event.red}-{event.blue} {event.winner}"
            raise RuleError(f"result says {_cut(said)}, computed {_cut(computed)}", "result")
        self.result_written = True
