"""Tilewe (Blokus): pieces, moves, board and notation.

Importing the package only announces the game (the ``notation.games`` entry
point names :data:`PLUGIN`); its code loads when a record of it is read.
"""
from notation.core.plugins import Plugin

from .options import OPTIONS

PLUGIN = Plugin("tilewe", ('.tilewe',), "notation.games.tilewe.game:Tilewe", OPTIONS)
