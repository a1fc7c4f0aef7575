"""notation: read, check, replay, convert and compare records of played games.

The one obvious entry point::

    import notation
    records = notation.load("game.tilewe")       # every game of the file
    for step in records[0].replay():              # ply, event, live state
        print(step.ply, step.event)
    outcome = records[0].run()                    # never raises
    outcome.valid, outcome.plies, outcome.error
"""
from __future__ import annotations

from . import games as _builtin_games  # noqa: F401  (registers the built-in games)
from .core import registry
from .core.ast import Comment, EventNode, Malformed, Record, RecordFile, Tag
from .core.diffing import CellChange, RecordDiff, diff_records, diff_states
from .core.errors import InputError, NotationError, Problem, RuleError, TagError
from .core.game import Game
from .core.parsing import load, parse
from .core.replay import Outcome, ReplayError, Step, run
from .core.writer import format_events, format_record

__version__ = "0.1.0"


def get_game(name: str) -> Game:
    """The registered game called ``name``; raises ``KeyError`` naming the known ones."""
    game = registry.get(name)
    if game is None:
        known = ", ".join(g.name for g in registry.games())
        raise KeyError(f"unknown game {name!r}; known games: {known}")
    return game


def diff(a: Record, b: Record, until: int | None = None) -> RecordDiff:
    """Compare two records of the same game (first differing event, differing state)."""
    if a.game is None or a.game != b.game:
        raise ValueError(f"cannot compare a {a.game!r} record with a {b.game!r} record")
    return diff_records(a, b, get_game(a.game), until)


def format(record: Record) -> str:  # noqa: A001 - mirrors the CLI's `fmt`
    """Canonical text of one record."""
    return format_record(record, get_game(record.game or ""))


__all__ = [
    "CellChange", "Comment", "EventNode", "Game", "InputError", "Malformed", "NotationError",
    "Outcome", "Problem", "Record", "RecordDiff", "RecordFile", "ReplayError", "RuleError",
    "Step", "Tag", "TagError", "diff", "diff_states", "format", "format_events",
    "format_record", "get_game", "load", "parse", "registry", "run",
]
