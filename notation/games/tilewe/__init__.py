"""Tilewe (Blokus): pieces, moves, board and notation.

Importing the package only announces the game (the ``notation.games`` entry
point names :data:`SPEC`, all that is said of it before its code loads); the code
loads when a record of it is read.

What Tilewe adds to the commands (``convert --transform``, ``dedupe --symmetric``, and
``random``'s set-ups: ``--players``, Blokus's ``--corners``, ``--owners``,
``--scoring``) is declared here, in the :data:`SPEC`, so that commands offer them
before the game loads.
"""
from __future__ import annotations

from notation.core.formats import FormatPlugin
from notation.core.plugins import GameOption, GameSpec

#: The colours in seat order: how moves, results and ``select --winner`` name them.
COLORS = ("blue", "yellow", "red", "green")

#: The board's seven symmetries other than the identity, as ``--transform`` names them.
TRANSFORM_NAMES = ("rot90", "rot180", "rot270", "flip-h", "flip-v", "flip-d", "flip-a")

#: How many may play: ``random --players``, ``notation.new(players=)`` and the rules'
#: check of a record's ``[Players]`` tag all read this one declaration.
PLAYERS = GameOption("players", frozenset({"random"}), "1 to 4 (default 4).", kind="int",
                     low=1, high=4, metavar="N", default=4)

OPTIONS = (
    PLAYERS,
    GameOption("corners", frozenset({"random", "referee"}), "fixed: each colour's first piece covers its "
               "own corner, as in Blokus (default: any).", kind="choice",
               choices=("any", "fixed")),
    GameOption("owners", frozenset({"random", "referee"}), 'who holds each colour: "1 2 1 2" (Blokus '
               'Two-Player), "1 2 3 shared" (Three-Player).', metavar="OWNERS"),
    GameOption("scoring", frozenset({"random", "referee"}), "blokus: +15 for all pieces placed, +5 for "
               "the monomino last (default: tiles).", kind="choice",
               choices=("tiles", "blokus")),
    GameOption("transform", frozenset({"convert"}),
               "the same game on a turned or mirrored board.", kind="choice",
               choices=TRANSFORM_NAMES),
    GameOption("symmetric", frozenset({"dedupe"}),
               "games equal up to one of the board's 8 symmetries are duplicates.",
               kind="flag"),
)

SPEC = GameSpec(
    "tilewe", "Tilewe, the Blokus-like tile game (1-4 players), moves like F5e-a2d4",
    (".tilewe",), "tilewe.lark", "notation.games.tilewe.game:GAME",
    {"Game": '"tilewe"',
     "Players": "number of players, 1 to 4 (default 4); colours blue, yellow, red, green",
     "Position": "a set-up position in TPN to start from (the players are its hands)",
     "Result": '"*" while the game goes on, else the winners\' colours ("blue", "blue red")',
     "Scores": 'every colour\'s score (tiles placed, or Blokus points under [Scoring]) at '
               'the record\'s end, e.g. "66 56 53 60"',
     "Corners": '"fixed": each colour\'s first piece covers its own corner (blue a20, '
                'yellow t20, red t1, green a1); "any" (default): any free corner',
     "Owners": 'the player holding each colour, e.g. "1 2 1 2", "shared" for a colour the '
               'players take in turn (Blokus Three-Player); default each its own',
     "Scoring": '"blokus": tiles +15 for all pieces placed, +5 more for the monomino last; '
                '"tiles" (default)'},
    OPTIONS, events_module="notation.games.tilewe.events", setup_positions=True,
    winners=COLORS)

#: Pentobi's Blokus SGF (``.blksgf``, :mod:`.pentobi`), announced here. A file of Pentobi's
#: opens ``(;GM[Blokus...`` (``FF`` may come first); the other variants' names too, so
#: that they are refused by name rather than read as Tilewe.
BLKSGF = FormatPlugin(
    "blksgf", (".blksgf",),
    r"\(\s*;\s*(?:FF\[4\]\s*)?GM\[(?:Blokus|Nexos|Callisto|GembloQ)",
    "notation.games.tilewe.pentobi.format:FORMAT",
    "Pentobi's Blokus SGF (classic board: Blokus, Two-Player, Three-Player)")
