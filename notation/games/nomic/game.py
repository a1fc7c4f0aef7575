"""The exploration nomic, as the core sees it: its spec and the modules of its parts
(those a check of records never uses load when first asked for)."""
from __future__ import annotations

from notation.core.game import Game

from . import SPEC, notation, rules
from .events import Event
from .state import NomicState

GAME: Game[NomicState, Event] = Game(
    SPEC, rules=rules, notation=notation, pictures=".render", scores=rules, report=".render",
    positions=".position", setup=".generate", random=".generate", chance=".chance",
    actors=".actors")

__all__ = ["GAME"]
