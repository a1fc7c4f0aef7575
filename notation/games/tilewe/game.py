"""Tilewe, as the core sees it: its spec and the modules of its parts.

The rules (and seats, and the fast path's applier) are ``rules.py``; the notation
``notation.py`` (moves ``events.py``, positions ``position.py``); pictures and the diffed
parts ``render.py``; the board's symmetries, ``convert --transform`` and what makes a
start one ``symmetry.py``; export's columns ``columns.py``; random games
``random_games.py``.
"""
from __future__ import annotations

from notation.core.composed import ComposedGame

from . import SPEC, columns, notation, random_games, render, rules, symmetry
from .events import Move
from .state import COMPILED, Board

GAME: ComposedGame[Board, Move] = ComposedGame(
    SPEC, rules=rules, notation=notation, pictures=render, symmetries=symmetry,
    conversion=symmetry, scores=rules, report=render, identity=symmetry, columns=columns,
    fast_apply=rules, random=random_games, compiled=("position text",) if COMPILED else ())

__all__ = ["GAME"]
