"""Perspectives: every player writes (and may see) the board from a side of their own.

A view is a side 0-5; ``P2`` names the side its player sits at, ``mover``
each mover's own side (None).
"""
from __future__ import annotations

import re
from typing import Any

from notation.core.errors import NotationError

from .state import FlowsState, Seating

_PERSPECTIVE = re.compile(r"(?:P([1-6])|side:([0-5]))\Z")


def parse_perspective(value: str, seating: Seating) -> int | None:
    """``P2`` or ``side:3`` -> a side; ``mover`` (or empty) -> None."""
    if value in ("", "mover"):
        return None
    m = _PERSPECTIVE.match(value)
    if not m:
        raise NotationError(f"perspective {value!r} is not P1..P6, side:0..side:5 or mover")
    if m.group(2) is not None:
        return int(m.group(2))
    player = int(m.group(1))
    if player > seating.players:
        raise NotationError(f"perspective {value!r}: the game has {seating.players} players")
    return seating.seats[player - 1]


def picture_side(state: FlowsState, options: dict[str, Any]) -> int:
    """The side a picture is drawn from: ``perspective`` (P2, side:3), else the record's
    view, else P1's; NotationError for any other option."""
    perspective = options.pop("perspective", None)
    if options:
        raise NotationError(f"flows boards take only a perspective ({', '.join(options)})")
    side = parse_perspective(perspective, state.seating) if perspective else None
    if side is None:
        side = state.view if state.view is not None else state.seating.seats[0]
    return side
