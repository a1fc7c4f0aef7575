"""Tilewe (Blokus): pieces, moves, board and notation.

Importing the package only announces the game (the ``notation.games`` entry
point names :data:`PLUGIN`); its code loads when a record of it is read.

What Tilewe adds to the commands (``convert --transform``, ``dedupe --symmetric``, and
``random``'s set-ups: ``--players``, Blokus's ``--corners``, ``--owners``,
``--scoring``). Declared here, with the :data:`PLUGIN`, so that commands offer them
before the game loads.
"""
from __future__ import annotations

from notation.core.formats import FormatPlugin
from notation.core.options import GameOption
from notation.core.plugins import Plugin

#: The board's seven symmetries other than the identity, as ``--transform`` names them.
TRANSFORM_NAMES = ("rot90", "rot180", "rot270", "flip-h", "flip-v", "flip-d", "flip-a")

#: How many may play: ``random --players``, ``notation.new(players=)`` and the rules'
#: check of a record's ``[Players]`` tag all read this one declaration.
PLAYERS = GameOption("players", frozenset({"random"}), "1 to 4 (default 4).", kind="int",
                     low=1, high=4, metavar="N", default=4)

OPTIONS = (
    PLAYERS,
    GameOption("corners", frozenset({"random"}), "fixed: each colour's first piece covers its "
               "own corner, as in Blokus (default: any).", kind="choice",
               choices=("any", "fixed")),
    GameOption("owners", frozenset({"random"}), 'who holds each colour: "1 2 1 2" (Blokus '
               'Two-Player), "1 2 3 shared" (Three-Player).', metavar="OWNERS"),
    GameOption("scoring", frozenset({"random"}), "blokus: +15 for all pieces placed, +5 for "
               "the monomino last (default: tiles).", kind="choice",
               choices=("tiles", "blokus")),
    GameOption("transform", frozenset({"convert"}),
               "the same game on a turned or mirrored board.", kind="choice",
               choices=TRANSFORM_NAMES),
    GameOption("symmetric", frozenset({"dedupe"}),
               "games equal up to one of the board's 8 symmetries are duplicates.",
               kind="flag"),
)

PLUGIN = Plugin("tilewe", ('.tilewe',), "notation.games.tilewe.game:Tilewe", OPTIONS)

#: Pentobi's Blokus SGF (``.blksgf``, :mod:`.pentobi`), announced here. A file of Pentobi's
#: opens ``(;GM[Blokus...`` (``FF`` may come first); the other variants' names too, so
#: that they are refused by name rather than read as Tilewe.
BLKSGF = FormatPlugin(
    "blksgf", (".blksgf",),
    r"\(\s*;\s*(?:FF\[4\]\s*)?GM\[(?:Blokus|Nexos|Callisto|GembloQ)",
    "notation.games.tilewe.pentobi.format:FORMAT",
    "Pentobi's Blokus SGF (classic board: Blokus, Two-Player, Three-Player)")
