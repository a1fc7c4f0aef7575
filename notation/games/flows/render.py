"""Flows for people: the board as text and as SVG, from one side's point of view."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import text
from .state import FlowsState
from .views import picture_side

if TYPE_CHECKING:  # (start-up: pictures load when drawn)
    from notation.render.svg import Drawing


def render(state: FlowsState, /, color: bool = False, **options: Any) -> str:
    """The board from ``perspective`` (P2, side:3; default: the record's view, else P1's)."""
    return text.render(state, picture_side(state, options), color)


def drawing(state: FlowsState, /, **options: Any) -> Drawing:
    """The board from ``perspective`` (as :func:`render`): the picture turns, and its
    labels are that view's."""
    from .svg import draw  # (start-up: pictures load when drawn)

    return draw(state, picture_side(state, options))
