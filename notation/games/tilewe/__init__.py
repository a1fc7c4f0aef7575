"""Tilewe: pieces, moves, board and notation."""
from notation.core.registry import register

from .board import COLORS, Board
from .game import Tilewe
from .moves import Move, parse_square, square_name

GAME = register(Tilewe())

__all__ = ["Board", "COLORS", "GAME", "Move", "Tilewe", "parse_square", "square_name"]
