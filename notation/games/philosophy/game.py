"""Philosophy, as the core sees it: its spec and the modules of its parts.

Events are in events.py, the state in state.py, the rules in rules.py, the
position notation in position.py, pictures in render.py (text.py and svg.py);
those a check of records never uses load when first asked for.
"""
from __future__ import annotations

from notation.core.game import Game

from . import SPEC, events, notation, rules
from .events import Event
from .rules import JOINING as JOINING
from .state import PhilosophyState

GAME: Game[PhilosophyState, Event] = Game(
    SPEC, rules=rules, notation=notation, pictures=".render", conversion=".convert",
    scores=".report", report=".report", positions=".position", layout=events,
    setup=".generate", random=".generate", actors=".actors", fast_apply=rules)

__all__ = ["GAME", "JOINING"]
