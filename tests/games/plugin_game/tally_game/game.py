"""Tally as notation sees it: its spec and its two parts (no pictures, no report)."""
from __future__ import annotations

from notation.core.composed import ComposedGame

from . import SPEC, notation, rules
from .rules import Total

GAME: ComposedGame[Total, int] = ComposedGame(SPEC, rules=rules, notation=notation)
