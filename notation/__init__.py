"""notation: read, check, replay, convert and compare records of played games.

The one obvious entry point::

    import notation
    records = notation.load("game.tilewe")       # every game of the file
    for step in records[0].replay():              # ply, event, live state
        print(step.ply, step.event)
    outcome = records[0].run()                    # never raises
    outcome.valid, outcome.plies, outcome.error

Names are imported on first use (PEP 562), so ``import notation`` is cheap and
the command line starts without loading Lark or any game it does not need.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_LAZY = {
    "registry": ("notation.core", "registry"),
    "Comment": ("notation.core.ast", None), "EventNode": ("notation.core.ast", None),
    "Malformed": ("notation.core.ast", None), "Record": ("notation.core.ast", None),
    "RecordFile": ("notation.core.ast", None), "Tag": ("notation.core.ast", None),
    "CellChange": ("notation.core.diffing", None), "RecordDiff": ("notation.core.diffing", None),
    "diff_records": ("notation.core.diffing", None), "diff_states": ("notation.core.diffing", None),
    "InputError": ("notation.core.errors", None), "NotationError": ("notation.core.errors", None),
    "Problem": ("notation.core.errors", None), "RuleError": ("notation.core.errors", None),
    "TagError": ("notation.core.errors", None),
    "Game": ("notation.core.game", None),
    "load": ("notation.core.parsing", None), "parse": ("notation.core.parsing", None),
    "Outcome": ("notation.core.replay", None), "ReplayError": ("notation.core.replay", None),
    "Step": ("notation.core.replay", None), "run": ("notation.core.replay", None),
    "format_events": ("notation.core.writer", None), "format_record": ("notation.core.writer", None),
    "get_game": ("notation.api", None), "diff": ("notation.api", None),
    "format": ("notation.api", None),
}

if TYPE_CHECKING:  # pragma: no cover
    from .api import diff, format, get_game  # noqa: F401
    from .core import registry  # noqa: F401
    from .core.ast import Comment, EventNode, Malformed, Record, RecordFile, Tag  # noqa: F401
    from .core.diffing import CellChange, RecordDiff, diff_records, diff_states  # noqa: F401
    from .core.errors import InputError, NotationError, Problem, RuleError, TagError  # noqa: F401
    from .core.game import Game  # noqa: F401
    from .core.parsing import load, parse  # noqa: F401
    from .core.replay import Outcome, ReplayError, Step, run  # noqa: F401
    from .core.writer import format_events, format_record  # noqa: F401


def __getattr__(name: str) -> Any:
    try:
        module, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'notation' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), attr or name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(list(globals()) + list(_LAZY))


__all__ = sorted(_LAZY)
