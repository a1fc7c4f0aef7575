"""Flows (Quortex): hex geometry, perspectives, rules and notation.

Importing the package only announces the game (the ``notation.games`` entry
point names :data:`PLUGIN`); its code loads when a record of it is read.
"""
from notation.core.plugins import Plugin

from .options import OPTIONS

PLUGIN = Plugin("flows", ('.flows',), "notation.games.flows.game:Flows", OPTIONS)
