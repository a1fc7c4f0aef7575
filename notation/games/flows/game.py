"""Flows, as the core sees it: its spec and the modules of its parts."""
from __future__ import annotations

from notation.core.composed import ComposedGame

from . import SPEC, convert, generate, notation, play, position, render, rules, state
from .events import Event
from .state import FlowsState

GAME: ComposedGame[FlowsState, Event] = ComposedGame(
    SPEC, rules=rules, notation=notation, pictures=render, conversion=convert,
    coordinates=convert, scores=rules, report=state, positions=position, identity=convert,
    fast_apply=play, random=generate)

__all__ = ["GAME"]
