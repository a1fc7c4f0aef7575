"""The exploration nomic, as the core sees it: its spec and the modules of its parts."""
from __future__ import annotations

from notation.core.composed import ComposedGame

from . import SPEC, generate, notation, position, render, rules
from .events import Event
from .state import NomicState

GAME: ComposedGame[NomicState, Event] = ComposedGame(
    SPEC, rules=rules, notation=notation, pictures=render, scores=rules, report=render,
    positions=position, setup=generate, random=generate)

__all__ = ["GAME"]
