"""What the nomic adds to the commands (``random --players``).

Light on purpose: the package's ``PLUGIN`` offers these before the game loads.
"""
from __future__ import annotations

from notation.core.options import GameOption

#: The players of a new game given by number (``random nomic --players 3``,
#: ``notation.new("nomic", players=3)``), in turn order.
NAMES = ("Alice", "Bob", "Carol", "Dana", "Erin", "Frank", "Gwen", "Hugo")

OPTIONS = (
    GameOption("players", frozenset({"random"}), f"1 to {len(NAMES)}, named "
               f"{', '.join(NAMES[:3])}, ... (default 3).", kind="int", low=1, high=len(NAMES),
               metavar="N", default=3),
)
