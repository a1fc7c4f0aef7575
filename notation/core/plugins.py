"""How a game announces itself: a light declaration behind an entry point.

A package (built in or third party) adds one entry point to the
``notation.games`` group, named after the game, whose value is either a
:class:`Plugin` (cheap to import: the game itself loads on first use) or a
:class:`~notation.core.game.Game` instance::

    [project.entry-points."notation.games"]
    tilewe = "notation.games.tilewe:PLUGIN"

This module imports next to nothing, so announcing a game costs nothing.
"""
from __future__ import annotations

from typing import NamedTuple

from .options import GameOption

#: The entry-point group games are announced in.
GROUP = "notation.games"


class Plugin(NamedTuple):
    """A game known by name and extensions before its code is imported.

    ``game`` says where the :class:`~notation.core.game.Game` is, as
    ``"module:attribute"``; the attribute is a Game instance or a Game class
    taking no arguments. ``options`` are the game's command options (the same
    as its Game's ``options``), known here so that a command can offer them
    without importing the game.
    """

    name: str
    extensions: tuple[str, ...]
    game: str
    options: tuple[GameOption, ...] = ()
