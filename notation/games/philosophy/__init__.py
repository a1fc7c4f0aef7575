"""Philosophy: board, tiles, chain reactions, choices, joins and leaves.

Importing the package only announces the game (the ``notation.games`` entry
point names :data:`PLUGIN`); its code loads when a record of it is read.

What Philosophy adds to the commands (``convert --choices``, ``random --players``).
Declared here, with the :data:`PLUGIN`, so that commands offer them before the game
loads.
"""
from __future__ import annotations

from notation.core.options import GameOption
from notation.core.plugins import Plugin

#: How ``convert --choices`` writes the choices of a placement.
CHOICE_FORMS = ("inline", "separate")

OPTIONS = (
    GameOption("players", frozenset({"random"}), "2 to 4 (default 2).", kind="int", low=2,
               high=4, metavar="N", default=2),
    GameOption("choices", frozenset({"convert"}), "choices in brackets, or as separate events.",
               kind="choice", choices=CHOICE_FORMS),
)

PLUGIN = Plugin("philosophy", ('.philosophy', '.phil'), "notation.games.philosophy.game:Philosophy", OPTIONS)
