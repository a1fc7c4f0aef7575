"""The Sanguine position notation, ``CELLS TO-MOVE PASSES`` (``r1,.,b1/r1,.,b1 red 0``).

The state writes itself (:meth:`SanguineState.position`, which its ``repr``
shows); this module reads a position back.
"""
from __future__ import annotations

import re

from notation.core.errors import NotationError
from notation.core.limits import is_whole

from .deck import Card, Deck
from .state import SanguineState

#: One cell: empty, 1-3 red or blue pawns, or a red or blue card by name.
CELL = re.compile(r"\.|[rb][1-3]|[RB]:[^\s,/]+")


def write_position(state: SanguineState) -> str:
    """The position of ``state`` (written by the state itself, so that its repr shows it)."""
    return state.position()


def read_position(text: str) -> SanguineState:
    """A board without decks (card values unknown): enough to diff cells."""
    fields = text.split()
    if len(fields) != 3 or fields[1] not in ("red", "blue", "-") or not is_whole(fields[2]):
        raise NotationError("a Sanguine position is CELLS TO-MOVE PASSES, e.g. "
                            "'r1,.,b1/r1,.,b1 red 0'")
    rows = [r.split(",") for r in fields[0].split("/")]
    cols = len(rows[0])
    if any(len(r) != cols for r in rows) or cols < 3 or cols % 2 == 0:
        raise NotationError("every row needs the same odd number (3 or more) of cells")
    state = SanguineState(len(rows), cols, 1, (Deck("-", []), Deck("-", [])))
    for r, row in enumerate(rows):
        for c, token in enumerate(row):
            if not CELL.fullmatch(token):
                raise NotationError(f"cell ({r},{c}) {token!r} is not ., r1-r3, b1-b3, R:NAME "
                                    f"or B:NAME")
            if token == ".":
                state.board[r][c] = None
            elif ":" in token:
                state.board[r][c] = ("RB".index(token[0]), Card(token[2:], 1, 0, ()))
            else:
                state.board[r][c] = ("rb".index(token[0]), int(token[1]))
    state.over = fields[1] == "-"
    state.to_move = 0 if fields[1] != "blue" else 1
    state.passes = int(fields[2])
    state.dealt = [True, True]
    return state
