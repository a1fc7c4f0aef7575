"""The game registry: names and file extensions to :class:`Game` objects.

The core knows no game by name. Games are found through the entry-point
group ``notation.games`` (see :mod:`notation.core.plugins`), the built-in
five exactly as a third-party package's, and each is imported only when a
record of it is read, so a command that meets one game does not load the
other four. :func:`register` adds a game at run time (tests, notebooks).
"""
from __future__ import annotations

import importlib

from notation.read.compression import plain_name
from .errors import Error, InputError
from .game import AnyGame, Game
from .plugins import GROUP, EntryPoint, GameOption, GameSpec, entry_points

_GAMES: dict[str, AnyGame] = {}
_PENDING: dict[str, GameSpec] = {}
#: Entry points listed but not loaded yet, by name: a game's spec is imported only when
#: a lookup needs it (a record of that game, or a question about every game).
_UNREAD: dict[str, EntryPoint] = {}
_DISCOVERED = False


def register(game: AnyGame) -> AnyGame:
    """Make ``game`` known by its name and extensions (it replaces one of that name)."""
    _GAMES[game.name] = game
    _PENDING.pop(game.name, None)
    _UNREAD.pop(game.name, None)
    return game


def announce(plugin: GameSpec) -> None:
    """Make a game known that is imported on first lookup."""
    if plugin.name not in _GAMES:
        _PENDING[plugin.name] = plugin
        _UNREAD.pop(plugin.name, None)


def _as_game(found: object, where: str) -> AnyGame:
    if not isinstance(found, Game):
        raise InputError(where, f"the game plug-in is not a notation Game: {found!r}")
    return found


def _discover() -> None:
    """List the entry points once (a game registered by hand wins over one of its name;
    the first of two plug-ins of one name wins); none is loaded yet."""
    global _DISCOVERED
    if _DISCOVERED:
        return
    _DISCOVERED = True
    for point in entry_points(group=GROUP):
        if point.name not in _GAMES and point.name not in _PENDING:
            _UNREAD.setdefault(point.name, point)


def _read(name: str) -> None:
    """Load the entry point called ``name``: it announces a GameSpec or registers a Game."""
    point = _UNREAD.pop(name, None)
    if point is None:
        return
    found = point.load()
    if isinstance(found, GameSpec):
        announce(found)
    else:
        register(_as_game(found, point.value))


def _read_all() -> None:
    _discover()
    for name in list(_UNREAD):
        _read(name)


def _load(name: str) -> None:
    _read(name)
    plugin = _PENDING.pop(name, None)
    if plugin is not None:
        module, _, attribute = plugin.game.partition(":")
        register(_as_game(getattr(importlib.import_module(module), attribute), plugin.game))


def games() -> list[AnyGame]:
    """Every registered game, by name."""
    _read_all()
    for name in list(_PENDING):
        _load(name)
    return [_GAMES[name] for name in sorted(_GAMES)]


def names() -> list[str]:
    """Every game name, without importing any game (only their specs)."""
    _read_all()
    return sorted(set(_GAMES) | set(_PENDING))


def grammars() -> dict[str, tuple[str, str]]:
    """Every game's grammar (its file and package), by game name, without importing any
    game's code (a loaded game's, or its spec's)."""
    _read_all()
    found = {name: (spec.grammar, spec.grammar_package) for name, spec in _PENDING.items()}
    found.update((name, (game.grammar, game.grammar_package)) for name, game in _GAMES.items())
    return dict(sorted(found.items()))


def get(name: str) -> AnyGame | None:
    """The game registered as ``name`` (case-insensitive), or None."""
    found = _GAMES.get(name)
    if found is not None:  # (a game loaded, by its own name: no plug-in can be it now)
        return found
    _discover()
    key = name.strip().lower()
    _load(key)
    if key not in _GAMES and key not in _PENDING and _UNREAD:  # (named unlike its entry point)
        _read_all()
        _load(key)
    return _GAMES.get(key)


class UnknownGame(Error, KeyError):
    """A game name nobody registered (a ``KeyError`` too: a lookup by name that failed)."""

    def __str__(self) -> str:  # a KeyError's own str() would quote the message
        return str(self.args[0])


def require(name: str) -> AnyGame:
    """The game registered as ``name``; :class:`UnknownGame` naming the known ones."""
    game = get(name)
    if game is None:
        raise UnknownGame(f"unknown game {name!r}; known games: {', '.join(names())}")
    return game


def by_extension(path: str) -> AnyGame | None:
    """The game whose extension ``path`` ends with, or None; a compression ending does not
    count (``x.tilewe.gz`` is a Tilewe record). The game named like the ending is asked
    first, so a file of one game loads no other game's spec."""
    _discover()
    lowered = plain_name(path).lower()
    _read(lowered.rpartition(".")[2])
    if not _matching(lowered):
        _read_all()
    for plugin in list(_PENDING.values()):
        if lowered.endswith(plugin.extensions):
            _load(plugin.name)
    for game in _GAMES.values():
        if lowered.endswith(game.extensions):
            return game
    return None


def _matching(lowered: str) -> bool:
    return (any(lowered.endswith(game.extensions) for game in _GAMES.values())
            or any(lowered.endswith(plugin.extensions) for plugin in _PENDING.values()))


def extensions() -> tuple[str, ...]:
    """Every known record extension, without importing any game."""
    _read_all()
    found = [ext for game in _GAMES.values() for ext in game.extensions]
    found += [ext for plugin in _PENDING.values() for ext in plugin.extensions]
    return tuple(dict.fromkeys(found))


def options(command: str) -> list[tuple[str, GameOption]]:
    """``(game name, option)`` for every game option offered by ``command``, by game name,
    without importing any game that is not loaded yet."""
    _read_all()
    declared = {name: game.options for name, game in _GAMES.items()}
    declared.update((name, plugin.options) for name, plugin in _PENDING.items())
    return [(name, option) for name in sorted(declared) for option in declared[name]
            if command in option.commands]
