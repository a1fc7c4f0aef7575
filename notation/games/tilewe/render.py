"""Tilewe for people: the text board, the SVG board, and the parts a diff compares."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from notation.core.errors import NotationError

from . import text
from .state import Board

if TYPE_CHECKING:  # (start-up: pictures load when drawn)
    from notation.render.svg import Drawing

cells = Board.cells
state_json = Board.as_json


def render(board: Board, /, color: bool = False, **options: Any) -> str:
    """The text board (``text.py``); the game has no view options: any given is refused."""
    if options:
        raise NotationError(f"tilewe boards take no view options ({', '.join(options)})")
    return text.render(board, color)


def drawing(board: Board, /, **options: Any) -> Drawing:
    """The board drawn (``svg.py``); the game has no view options: any given is refused."""
    if options:
        raise NotationError(f"tilewe pictures take no view options ({', '.join(options)})")
    from .svg import draw  # (start-up: pictures load when drawn)

    return draw(board)
