"""What Philosophy adds to the commands (``convert --choices``, ``random --players``).

Light on purpose: the package's ``PLUGIN`` offers these before the game loads.
"""
from __future__ import annotations

from notation.core.options import GameOption

#: How ``convert --choices`` writes the choices of a placement.
CHOICE_FORMS = ("inline", "separate")

OPTIONS = (
    GameOption("players", frozenset({"random"}), "2 to 4 (default 2).", kind="int", low=2,
               high=4, metavar="N", default=2),
    GameOption("choices", frozenset({"convert"}), "choices in brackets, or as separate events.",
               kind="choice", choices=CHOICE_FORMS),
)
