"""Philosophy: board, tiles, chain reactions, choices, joins and leaves.

Importing the package only announces the game (the ``notation.games`` entry
point names :data:`PLUGIN`); its code loads when a record of it is read.
"""
from notation.core.plugins import Plugin

from .options import OPTIONS

PLUGIN = Plugin("philosophy", ('.philosophy', '.phil'), "notation.games.philosophy.game:Philosophy", OPTIONS)
