"""The exploration nomic for people: a text map, an SVG map, and the parts a diff compares."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import text
from .legal import no_options
from .state import NomicState

if TYPE_CHECKING:  # (start-up: pictures load when drawn)
    from notation.render.svg import Drawing

cells = text.cells
state_json = NomicState.as_json


def render(state: NomicState, /, color: bool = False, **options: Any) -> str:
    no_options("maps take no view options", options)
    return text.render(state)


def drawing(state: NomicState, /, **options: Any) -> Drawing:
    no_options("maps take no view options", options)
    from .svg import draw  # (start-up: pictures load when drawn)

    return draw(state)
