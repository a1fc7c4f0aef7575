"""Flows (Quortex): hex geometry, perspectives, rules and notation.

Importing the package only announces the game (the ``notation.games`` entry
point names :data:`PLUGIN`); its code loads when a record of it is read.

What Flows adds to the commands (``--perspective``, ``legal --tile``, ``random
--players`` and ``--seats``). Declared here, with the :data:`PLUGIN`, so that commands
offer them before the game loads.
"""
from __future__ import annotations

from notation.core.options import GameOption
from notation.core.plugins import Plugin

#: The notations a ``[Dialect]`` tag, ``--dialect`` and ``convert --to`` name
#: (``dialect.NOTATIONS``; a test holds the two equal).
DIALECTS = ("seed", "quortextt", "quortextt-v1")

#: How many may play: ``random --players``, ``notation.new(players=)`` and the rules'
#: check of a record's ``[Players]`` tag all read this one declaration.
PLAYERS = GameOption("players", frozenset({"random"}), "2 to 6 (default 2).", kind="int",
                     low=2, high=6, metavar="N", default=2)

OPTIONS = (
    PLAYERS,
    GameOption("seats", frozenset({"random"}), 'each player\'s side in turn order, e.g. '
               '"0 1" (default: the usual seats).', metavar="SIDES"),
    GameOption("perspective", frozenset({"replay", "render", "convert"}),
               "P1..P6 or side:K (convert: also mover).",
               complete=tuple(f"P{n}" for n in range(1, 7))
               + tuple(f"side:{n}" for n in range(6)) + ("mover",)),
    GameOption("tile", frozenset({"legal"}),
               "the drawn tile type (default: each in the bag).", kind="int", low=0, high=3),
)

PLUGIN = Plugin("flows", ('.flows',), "notation.games.flows.game:Flows", OPTIONS)
