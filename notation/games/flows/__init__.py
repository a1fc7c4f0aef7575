"""Flows (Quortex): hex geometry, perspectives, rules and notation.

Importing the package only announces the game (the ``notation.games`` entry
point names :data:`SPEC`, all that is said of it before its code loads); the code
loads when a record of it is read.

What Flows adds to the commands (``--perspective``, ``legal --tile``, ``random
--players`` and ``--seats``) is declared here, in the :data:`SPEC`, so that commands
offer them before the game loads.
"""
from __future__ import annotations

from notation.core.plugins import GameOption, GameSpec

#: The notations a ``[Dialect]`` tag, ``--dialect`` and ``convert --to`` name
#: (``dialect.NOTATIONS``; a test holds the two equal).
DIALECTS = ("seed", "quortextt", "quortextt-v1")

#: How many may play: ``random --players``, ``notation.new(players=)`` and the rules'
#: check of a record's ``[Players]`` tag all read this one declaration.
PLAYERS = GameOption("players", frozenset({"random"}), "2 to 6 (default 2).", kind="int",
                     low=2, high=6, metavar="N", default=2)

OPTIONS = (
    PLAYERS,
    GameOption("seats", frozenset({"random", "referee"}), 'each player\'s side in turn order, e.g. '
               '"0 1" (default: the usual seats).', metavar="SIDES"),
    GameOption("perspective", frozenset({"replay", "render", "convert"}),
               "P1..P6 or side:K (convert: also mover).",
               complete=tuple(f"P{n}" for n in range(1, 7))
               + tuple(f"side:{n}" for n in range(6)) + ("mover",)),
    GameOption("tile", frozenset({"legal"}),
               "the drawn tile type (default: each in the bag).", kind="int", low=0, high=3),
)

SPEC = GameSpec(
    "flows", "Flows (Quortex), hex tiles and flows (2-6 players), moves like P1A2T0N",
    (".flows",), "flows.lark", "notation.games.flows.game:GAME",
    {"Game": '"flows"',
     "Players": "2 to 6 (default: the seed header 'Game: N-player', else the seats, else 2)",
     "Seats": "each player's side in turn order, e.g. \"0 3\" (defaults: 2p 0 3, 3p 0 2 4, "
              "4p 0 1 3 4, 5p 0 1 2 3 4, 6p 0 1 2 3 4 5)",
     "Perspective": "P1..P6 or side:K: every move is written in that view (default: each "
                    "move in its mover's own view)",
     "Position": "a set-up position to start from (its seats decide the players)",
     "Dialect": '"quortextt": placements in the quortextt app\'s notation (its export: '
                'the seats are found); "quortextt-v1" its earlier one; default "seed"',
     "Result": '"*" while the game goes on, else how it ended and the winners: "flow P2", '
               '"tie P1 P2", "constraint P2 P4"'},
    OPTIONS, directives=frozenset({"SEED_HEADER", "ABRIDGED"}),
    events_module="notation.games.flows.events", setup_positions=True, dialects=DIALECTS,
    winners=tuple(f"P{seat}" for seat in range(1, 7)))
