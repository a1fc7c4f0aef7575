"""notation: read, check, replay, convert and compare records of played games.

The one obvious entry point (python-chess's shapes)::

    import notation
    pos = notation.new("tilewe", players=4)       # a Position: push, pop, legal_moves
    pos.push("W5n-a1a1"); pos.pop()               # an illegal move: IllegalMoveError
    records = notation.load("game.tilewe")       # every game of the file
    for record in notation.read_games("big.tilewe"):   # one at a time, flat memory
        record.headers["Players"], record.events, notation.Position.from_record(record)
    for step in notation.replay(records[0]):      # ply, event, live state
        print(step.ply, step.event)
    outcome = notation.run(records[0])            # never raises
    outcome.valid, outcome.plies, outcome.error

Names are imported on first use (PEP 562), so ``import notation`` is cheap and
the command line starts without loading Lark or any game it does not need.
"""
from __future__ import annotations

import importlib

# Not ``typing``: the console script imports this package before it can handle
# Ctrl-C, so it stays as small as the interpreter allows (mypy reads this flag and
# so sees every public name below with its own type; at run time they load on first use).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType

    from notation.api import diff, get_game, new
    from notation.core.errors import WriteError
    from notation.save.records import write
    from notation.core import registry
    from notation.core.ast import Comment, EventNode, Malformed, MalformedKind, Tag
    from notation.core.diffing import CellChange, RecordDiff, diff_states
    from notation.core.errors import (Error, IllegalMoveError, InputError, InvalidEventError,
                                      MoveError, NotationError, Problem, ProblemKind,
                                      RuleError, TagError)
    from notation.core.game import Game
    from notation.core.outcome import Outcome
    from notation.core.events import parse_event
    from notation.core.position import LegalMoves, Position, Result, from_position
    from notation.read.reading import (load, parse, read_game, read_games, read_headers,
                                       read_verdicts)
    from notation.core.replay import ReplayError, Step, replay, run
    from notation.core.tree import ChildNode, GameNode, Node, RecordFile, TreeError
    from notation.read.visitor import BaseVisitor, Span
    from notation.core.writer import format_events, format_record

__version__ = "0.1.0"

#: Where each public name lives; imported on first use (the list above, for the checker).
_EXPORTS = {
    "notation.core.ast": ("Comment", "EventNode", "Malformed", "MalformedKind", "Tag"),
    "notation.core.diffing": ("CellChange", "RecordDiff", "diff_states"),
    "notation.core.errors": ("Error", "IllegalMoveError", "InputError", "InvalidEventError",
                             "MoveError", "NotationError", "Problem", "ProblemKind", "RuleError",
                             "TagError", "WriteError"),
    "notation.core.game": ("Game",),
    "notation.read.reading": ("load", "parse", "read_game", "read_games", "read_headers",
                              "read_verdicts"),
    "notation.read.visitor": ("BaseVisitor", "Span"),
    "notation.core.events": ("parse_event",),
    "notation.core.position": ("LegalMoves", "Position", "Result", "from_position"),
    "notation.core.outcome": ("Outcome",),
    "notation.core.replay": ("ReplayError", "Step", "run", "replay"),
    "notation.core.writer": ("format_events", "format_record"),
    "notation.core.tree": ("ChildNode", "GameNode", "Node", "RecordFile", "TreeError"),
    "notation.api": ("get_game", "diff", "new"),
    "notation.save.records": ("write",),
}
_LAZY = {name: module for module, names in _EXPORTS.items() for name in names}
_LAZY["registry"] = "notation.core.registry"  # a module, not a name in one


def __getattr__(name: str) -> ModuleType:
    """A public name's value, imported now (typed above); any other name is a registered
    game's events module (``notation.tilewe.Move``)."""
    try:
        module = _LAZY[name]
    except KeyError:
        return _game_events(name)
    imported = importlib.import_module(module)
    value = imported if name == "registry" else getattr(imported, name)
    globals()[name] = value
    return value  # type: ignore[no-any-return,unused-ignore]  # (typed above)


def _game_events(name: str) -> ModuleType:
    """``notation.tilewe``: a registered game's event types (``notation.tilewe.Move``)."""
    registry = importlib.import_module("notation.core.registry")
    game = registry.get(name) if not name.startswith("_") else None
    if game is None or not game.events_module:
        raise AttributeError(f"module 'notation' has no attribute {name!r}")
    return importlib.import_module(game.events_module)


def __dir__() -> list[str]:
    return sorted(list(globals()) + list(_LAZY))


__all__ = ["BaseVisitor", "CellChange", "ChildNode", "Comment", "Error", "EventNode", "Game", "GameNode",
           "IllegalMoveError", "InputError", "InvalidEventError", "LegalMoves", "Malformed", "MalformedKind", "MoveError",
           "Node", "NotationError", "Outcome", "Position", "Problem", "ProblemKind",
           "RecordDiff", "RecordFile", "ReplayError", "Result", "RuleError", "Step", "Tag",
           "TagError", "TreeError", "diff", "diff_states",
           "format_events", "format_record", "from_position", "get_game", "load", "new",
           "parse", "parse_event", "read_game", "read_games", "read_headers", "read_verdicts", "registry",
           "replay", "run", "Span", "write", "WriteError"]
