"""Sanguine, as the core sees it: its spec and the modules of its parts. The parts a
check of records never uses are named by module and load when first asked for
(render.py, records.py, and notation.py's position reader)."""
from __future__ import annotations

from notation.core.game import Game

from . import SPEC, events, notation, rules
from .events import Event
from .state import SanguineState

GAME: Game[SanguineState, Event] = Game(
    SPEC, rules=rules, notation=notation, pictures=".render", conversion=".records",
    scores=rules, report=".render", positions=notation, layout=events, fast_apply=rules,
    setup=".records", random=".records", chance=".chance")

__all__ = ["GAME"]
