"""The exploration nomic: rounds, movement on a grid, rule changes, judgments.

Importing the package only announces the game (the ``notation.games`` entry
point names :data:`PLUGIN`); its code loads when a record of it is read.

What the nomic adds to the commands (``random --players``). Declared here, with the
:data:`PLUGIN`, so that commands offer them before the game loads.
"""
from __future__ import annotations

from notation.core.options import GameOption
from notation.core.plugins import Plugin

#: The players of a new game given by number (``random nomic --players 3``,
#: ``notation.new("nomic", players=3)``), in turn order.
NAMES = ("Alice", "Bob", "Carol", "Dana", "Erin", "Frank", "Gwen", "Hugo")

OPTIONS = (
    GameOption("players", frozenset({"random"}), f"1 to {len(NAMES)}, named "
               f"{', '.join(NAMES[:3])}, ... (default 3).", kind="int", low=1, high=len(NAMES),
               metavar="N", default=3),
)

PLUGIN = Plugin("nomic", ('.nomic',), "notation.games.nomic.game:Nomic", OPTIONS)
