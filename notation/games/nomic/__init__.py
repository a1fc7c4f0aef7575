"""The exploration nomic: rounds, movement on a grid, rule changes, judgments.

Importing the package only announces the game (the ``notation.games`` entry
point names :data:`PLUGIN`); its code loads when a record of it is read.
"""
from notation.core.plugins import Plugin

from .options import OPTIONS

PLUGIN = Plugin("nomic", ('.nomic',), "notation.games.nomic.game:Nomic", OPTIONS)
