"""Sanguine (PawnsBoard): decks, cards, influence, row scoring.

Importing the package only announces the game (the ``notation.games`` entry
point names :data:`PLUGIN`); its code loads when a record of it is read.
"""
from notation.core.plugins import Plugin

from .options import OPTIONS

PLUGIN = Plugin("sanguine", ('.sanguine', '.sgr'), "notation.games.sanguine.game:Sanguine", OPTIONS)
