"""Tilewe, as the core sees it: its spec and the modules of its parts.

The rules (and seats, and the fast path's applier) are ``rules.py``; the notation
``notation.py`` (moves ``events.py``, positions ``position.py``); pictures and the diffed
parts ``render.py``; the board's symmetries, ``convert --transform`` and what makes a
start one ``symmetry.py``; export's columns ``columns.py``; random games
``random_games.py``. Those a check of records never uses load when first asked for.
"""
from __future__ import annotations

from notation.core.game import Game

from . import SPEC, notation, rules
from .events import Move
from .state import COMPILED, Board

GAME: Game[Board, Move] = Game(
    SPEC, rules=rules, notation=notation, pictures=".render", symmetries=".symmetry",
    conversion=".symmetry", scores=rules, report=".render", identity=".symmetry",
    columns=".columns", fast_apply=rules, random=".random_games", actors=".actors",
    compiled=(("position text",) if COMPILED else ()) + (("rules",) if rules.COMPILED else ()))

__all__ = ["GAME"]
