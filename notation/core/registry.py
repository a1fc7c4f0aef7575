"""The game registry: names and file extensions to :class:`Game` objects.

Games register themselves; the core knows none by name. Built-in games are
announced in ``notation.games`` by module, name and extensions, and each is
imported only when a record of it is read, so a command that meets one game
does not load the other four.
"""
from __future__ import annotations

import importlib
from typing import Iterable, NamedTuple

from .game import Game

_GAMES: dict[str, Game] = {}


class Announced(NamedTuple):
    """A game known by name before its module is imported."""

    module: str
    name: str
    extensions: tuple[str, ...]


_PENDING: dict[str, Announced] = {}
_BUILTINS_READ = False


def register(game: Game) -> Game:
    """Make ``game`` known by its name and extensions."""
    _GAMES[game.name] = game
    _PENDING.pop(game.name, None)
    return game


def register_lazy(games: Iterable[Announced]) -> None:
    """Games whose modules call :func:`register` when imported, loaded on first lookup."""
    for announced in games:
        if announced.name not in _GAMES:
            _PENDING[announced.name] = announced


def _builtins() -> None:
    global _BUILTINS_READ
    if not _BUILTINS_READ:
        _BUILTINS_READ = True
        importlib.import_module("notation.games")


def _load(name: str) -> None:
    announced = _PENDING.pop(name, None)
    if announced is not None:
        importlib.import_module(announced.module)


def games() -> list[Game]:
    """Every registered game, by name."""
    _builtins()
    for name in list(_PENDING):
        _load(name)
    return [_GAMES[name] for name in sorted(_GAMES)]


def names() -> list[str]:
    """Every game name, without importing any game."""
    _builtins()
    return sorted(set(_GAMES) | set(_PENDING))


def get(name: str) -> Game | None:
    """The game registered as ``name`` (case-insensitive), or None."""
    _builtins()
    key = name.strip().lower()
    _load(key)
    return _GAMES.get(key)


def by_extension(path: str) -> Game | None:
    """The game whose extension ``path`` ends with, or None."""
    _builtins()
    lowered = path.lower()
    for announced in list(_PENDING.values()):
        if lowered.endswith(announced.extensions):
            _load(announced.name)
    for game in _GAMES.values():
        if lowered.endswith(game.extensions):
            return game
    return None


def extensions() -> tuple[str, ...]:
    """Every known record extension, without importing any game."""
    _builtins()
    found = [ext for game in _GAMES.values() for ext in game.extensions]
    found += [ext for announced in _PENDING.values() for ext in announced.extensions]
    return tuple(dict.fromkeys(found))
