"""Sanguine boards as text for people: the basic view (pawns, cards, row scores) and
the full state (turn, hands, decks, every cell, scores)."""
from __future__ import annotations

from notation.core.errors import NotationError

from .deck import Card
from . import VIEWS
from .state import SanguineState, cell_token


def basic_view(state: SanguineState) -> str:
    """A row a line: Red's row score, the cells (``_`` empty, pawn counts, ``R``/``B``
    cards), Blue's row score."""
    lines = []
    for row, (red, blue) in zip(state.board, state.row_scores()):
        cells = "".join("_" if c is None else ("RB"[c[0]] if isinstance(c[1], Card) else str(c[1]))
                        for c in row)
        lines.append(f"{red} {cells} {blue}")
    return "\n".join(lines)


def full_view(state: SanguineState) -> str:
    """Everything the state holds, a part a line (the default view of ``replay``)."""
    lines = [f"game sanguine {state.rows}x{state.cols} hand-size {state.hand_size}",
             f"turn {state.turn} to-move {state.mover() or '-'} passes {state.passes} "
             f"status {'over' if state.over else 'playing'}"]
    for side, label in ((0, "red "), (1, "blue")):
        lines.append(f"{label} deck {state.deck_size(side)} hand "
                     f"{' '.join(state.hand(side))}".rstrip())
    for r, (row, (red, blue)) in enumerate(zip(state.board, state.row_scores())):
        cells = " ".join(cell_token(c) for c in row)
        lines.append(f"row {r}: {cells} | red {red} blue {blue}")
    red, blue = state.totals()
    lines.append(f"score red {red} blue {blue}")
    if state.over:
        lines.append(f"result {state.result_text()}")
    return "\n".join(lines)


def render(state: SanguineState, view: str = "full") -> str:
    """The ``view`` asked for: ``basic`` or ``full``."""
    if view not in VIEWS:
        raise NotationError("sanguine boards take --view basic or --view full")
    return basic_view(state) if view == "basic" else full_view(state)
