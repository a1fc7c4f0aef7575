"""The exploration nomic: rounds, movement on a grid, rule changes, judgments."""
from notation.core.registry import register

from .engine import NomicState
from .game import Nomic

GAME = register(Nomic())

__all__ = ["GAME", "Nomic", "NomicState"]
