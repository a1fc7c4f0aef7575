"""Sanguine for people: text boards (text.py) and SVG pictures (svg.py), each loaded when
first drawn (a check draws nothing), and the state as ``replay --json`` and ``diff`` see it."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from notation.core.errors import NotationError

from . import SIDE_NAMES
from .state import SanguineState

if TYPE_CHECKING:  # (start-up: pictures load when drawn)
    from notation.render.svg import Drawing

state_json = SanguineState.to_json
cells = SanguineState.cells


def render(state: SanguineState, /, color: bool = False, **options: Any) -> str:
    """The full state, or with ``view="basic"`` the board and row scores alone."""
    view = options.pop("view", "full")
    if options:
        raise NotationError("sanguine boards take --view basic or --view full")
    from .text import render as board  # (start-up: a check draws nothing)

    return board(state, view)


def drawing(state: SanguineState, /, **options: Any) -> Drawing:
    """The board as Red sees it, or mirrored with ``perspective="blue"``."""
    seen_by = str(options.pop("perspective", None) or "red").lower()
    if options or seen_by not in SIDE_NAMES:
        raise NotationError("sanguine pictures take --perspective red or blue")
    from .svg import draw  # (start-up: pictures load when drawn)

    return draw(state, SIDE_NAMES.index(seen_by))
