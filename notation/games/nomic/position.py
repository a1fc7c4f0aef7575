"""The exploration nomic's compact position notation, read back into a state.

``round 2 turn Bob; Alice@(2,0) Bob@(-1,3); (2,1)Wood (-1,3)Food; next 203``:
the label of the round and turn, each player and where they stand, the spaces
revealed and what they hold, the next free rule number. ``NomicState.position``
writes it (next to the state, so that a state's ``repr`` can show it).
"""
from __future__ import annotations

import re

from notation.core.errors import NotationError

from .events import Coord, is_name
from .state import RESOURCES, NomicState

#: The position's own numbers: a coordinate written without blanks, at most 9 digits each.
_AT = r"\((-?[0-9]{1,9}),(-?[0-9]{1,9})\)"
_PLAYER = re.compile(rf"([^@]*)@{_AT}")
_SPACE = re.compile(rf"{_AT}(.*)")
_NEXT = re.compile(r"next ([0-9]{1,9})")


def _coord(m: re.Match[str], first: int) -> Coord:
    return int(m[first]), int(m[first + 1])


def read(text: str) -> NomicState:
    """The state a position string describes; :class:`NotationError` if it is none."""
    parts = [p.strip() for p in text.split(";")]
    if len(parts) != 4:
        raise NotationError("a nomic position is 'LABEL; PLAYERS; REVEALED; next N'")
    label, players, revealed, after = parts
    state = NomicState()
    for item in players.split():
        m = _PLAYER.fullmatch(item)
        if m is None or not is_name(m[1]):
            raise NotationError(f"{item!r} is not NAME@(X,Y)")
        state.players[m[1]] = _coord(m, 2)
    if revealed != "-":
        for item in revealed.split():
            m = _SPACE.fullmatch(item)
            if m is None or m[3] not in RESOURCES:
                raise NotationError(f"{item!r} is not (X,Y)Resource")
            state.revealed[_coord(m, 1)] = m[3]
    m = _NEXT.fullmatch(after)
    if m is None:
        raise NotationError(f"{after!r} is not 'next N'")
    state.counter, state.label = int(m[1]), label
    return state
