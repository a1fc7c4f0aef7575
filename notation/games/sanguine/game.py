"""Sanguine, as the core sees it: its spec and the modules of its parts. The parts a
check of records never uses load their modules when first asked (records.py, render.py,
and notation.py's position reader)."""
from __future__ import annotations

from notation.core.composed import ComposedGame

from . import SPEC, events, notation, records, render, rules
from .events import Event
from .state import SanguineState

GAME: ComposedGame[SanguineState, Event] = ComposedGame(
    SPEC, rules=rules, notation=notation, pictures=render, conversion=records, scores=rules,
    report=render, positions=notation, layout=events, fast_apply=rules, setup=records,
    random=records)

__all__ = ["GAME"]
