"""Programs that play the games: the text protocol they speak (GTP's shape,
:mod:`.protocol`), the bots of ``notation engine`` (:mod:`.bots`, :mod:`.session`), and
:func:`popen`, which drives a bot from Python as python-chess's ``chess.engine`` does."""
from __future__ import annotations

from .client import Engine, EngineError, popen

__all__ = ["Engine", "EngineError", "popen"]
