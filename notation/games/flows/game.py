"""Flows, as the core sees it: its spec and the modules of its parts (those a check of
records never uses load when first asked for)."""
from __future__ import annotations

from notation.core.game import Game

from . import SPEC, notation, play, routes, rules
from .events import Event
from .state import FlowsState

GAME: Game[FlowsState, Event] = Game(
    SPEC, rules=rules, notation=notation, pictures=".render", conversion=".convert",
    coordinates=".convert", scores=rules, report=".state", positions=".position",
    identity=".convert", fast_apply=play, random=".generate", chance=".chance",
    compiled=("routes",) if routes.COMPILED else ())

__all__ = ["GAME"]
