"""Philosophy for people: a text board and an SVG picture of a position."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import text
from .legal import no_options
from .state import PhilosophyState

if TYPE_CHECKING:  # (start-up: pictures load when drawn)
    from notation.render.svg import Drawing


def render(state: PhilosophyState, /, color: bool = False, **options: Any) -> str:
    no_options("boards take no view options", options)
    return text.render(state, color)


def drawing(state: PhilosophyState, /, **options: Any) -> Drawing:
    no_options("pictures take no view options", options)
    from .svg import draw  # (start-up: pictures load when drawn)

    return draw(state)
