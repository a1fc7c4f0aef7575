"""The game registry: names and file extensions to :class:`Game` objects.

Games register themselves; the core knows none by name. Built-in games are
listed as module paths in ``notation.games`` and imported on first use, so
starting the CLI does not load every game.
"""
from __future__ import annotations

import importlib
from typing import Iterable

from .game import Game

_GAMES: dict[str, Game] = {}
_PENDING: list[str] = []


def register(game: Game) -> Game:
    """Make ``game`` known by its name and extensions."""
    _GAMES[game.name] = game
    return game


def register_lazy(modules: Iterable[str]) -> None:
    """Modules that call :func:`register` when imported, loaded on first lookup."""
    _PENDING.extend(modules)


def _load_pending() -> None:
    while _PENDING:
        importlib.import_module(_PENDING.pop(0))


def games() -> list[Game]:
    """Every registered game, by name."""
    _load_pending()
    return [_GAMES[name] for name in sorted(_GAMES)]


def get(name: str) -> Game | None:
    """The game registered as ``name`` (case-insensitive), or None."""
    _load_pending()
    return _GAMES.get(name.strip().lower())


def by_extension(path: str) -> Game | None:
    """The game whose extension ``path`` ends with, or None."""
    lowered = path.lower()
    for game in games():
        if any(lowered.endswith(ext) for ext in game.extensions):
            return game
    return None


def extensions() -> tuple[str, ...]:
    return tuple(ext for game in games() for ext in game.extensions)
