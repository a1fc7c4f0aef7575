"""Reading the board-state notation (section 11), ``C3:SaSlNo/N5:InPuNo``, into a state.

Writing it is :meth:`PhilosophyState.position`, next to the state it describes.
"""
from __future__ import annotations

import re

from notation.core.errors import NotationError

from .geometry import CELL, DIR_INDEX, RANK
from .state import PhilosophyState
from .tiles import TILES

#: One item: a space, then the tile on it (owner, tile type, facing).
_ITEM = re.compile(r"(?P<space>[A-Z][A-Za-z0-9]):(?P<owner>[A-Z][a-z])(?P<tile>[A-Z][a-z])"
                   r"(?P<facing>[A-Z][a-z])")


def read_position(text: str) -> PhilosophyState:
    """A board-state string; players and hands follow from the tiles on it."""
    state = PhilosophyState()
    last = -1
    for item in filter(None, text.strip().split("/")):
        m = _ITEM.fullmatch(item)
        if m is None or m["space"] not in CELL or m["facing"] not in DIR_INDEX:
            raise NotationError(f"{item!r} is not SPACE:XxTtDd such as C3:SaSlNo")
        space, owner, tile, facing = m.group("space", "owner", "tile", "facing")
        if tile not in TILES or facing not in TILES[tile].facings:
            raise NotationError(f"{item!r}: no {tile} tile faces {facing}")
        rank = RANK[space]
        if rank <= last:
            raise NotationError(f"{item!r} is out of order (C1..C9, NW, N1..N6, NE, E1..E6,"
                                f" SE, S1..S6, SW, W1..W6)")
        last = rank
        hand = state.hands.setdefault(owner, set(TILES))
        if tile not in hand:
            raise NotationError(f"{owner} has only one {tile}")
        hand.discard(tile)
        state.board[space] = (owner, tile, facing)
        if owner not in state.order:
            state.order.append(owner)
    return state
