"""The exploration nomic: rounds, movement on a grid, rule changes, judgments.

Importing the package only announces the game (the ``notation.games`` entry
point names :data:`SPEC`, all that is said of it before its code loads); the code
loads when a record of it is read.
"""
from __future__ import annotations

from notation.core.plugins import GameOption, GameSpec

#: The players of a new game given by number (``random nomic --players 3``,
#: ``notation.new("nomic", players=3)``), in turn order.
NAMES = ("Alice", "Bob", "Carol", "Dana", "Erin", "Frank", "Gwen", "Hugo")

OPTIONS = (
    GameOption("players", frozenset({"random"}), f"1 to {len(NAMES)}, named "
               f"{', '.join(NAMES[:3])}, ... (default 3).", kind="int", low=1, high=len(NAMES),
               metavar="N", default=3),
)

#: The one rule set the records are played under.
RULESET = "Havvy 101-115"

SPEC = GameSpec(
    "nomic", "The exploration nomic (Havvy's rules 101-115): rounds, moves, votes, judgments",
    (".nomic",), "nomic.lark", "notation.games.nomic.game:GAME",
    {"Game": '"Nomic"',
     "Players": "names of the players who joined before the game began, space-separated",
     "Ruleset": f'"{RULESET}" (the default and only one known)',
     "Result": '"*": the Initial Set has no end condition, so no game has a result'},
    OPTIONS, events_module="notation.games.nomic.events", event_per_line=True, numbered=False,
    winners=())
