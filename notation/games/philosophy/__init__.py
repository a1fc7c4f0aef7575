"""Philosophy: board, tiles, chain reactions, choices, joins and leaves."""
from notation.core.registry import register

from .engine import PhilosophyState
from .events import Choice, Join, Leave, Placement, Respect, RuleChange
from .game import Philosophy

GAME = register(Philosophy())

__all__ = ["Choice", "GAME", "Join", "Leave", "Philosophy", "PhilosophyState", "Placement",
           "Respect", "RuleChange"]
