"""What Tilewe adds to the commands (``convert --transform``, ``dedupe --symmetric``).

Light on purpose: the package's ``PLUGIN`` offers these before the game loads.
"""
from __future__ import annotations

from notation.core.options import GameOption

#: The board's seven symmetries other than the identity, as ``--transform`` names them.
TRANSFORM_NAMES = ("rot90", "rot180", "rot270", "flip-h", "flip-v", "flip-d", "flip-a")

OPTIONS = (
    GameOption("transform", frozenset({"convert"}),
               "the same game on a turned or mirrored board.", kind="choice",
               choices=TRANSFORM_NAMES),
    GameOption("symmetric", frozenset({"dedupe"}),
               "games equal up to one of the board's 8 symmetries are duplicates.",
               kind="flag"),
)
