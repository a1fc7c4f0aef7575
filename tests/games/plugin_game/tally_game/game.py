"""Tally as notation sees it: its spec and its two parts (no pictures, no report)."""
from __future__ import annotations

from notation.core.game import Game

from . import SPEC, notation, rules
from .rules import Total

GAME: Game[Total, int] = Game(SPEC, rules=rules, notation=notation)
