"""What Philosophy adds to the commands (``convert --choices``).

Light on purpose: the package's ``PLUGIN`` offers these before the game loads.
"""
from __future__ import annotations

from notation.core.options import GameOption

#: How ``convert --choices`` writes the choices of a placement.
CHOICE_FORMS = ("inline", "separate")

OPTIONS = (
    GameOption("choices", frozenset({"convert"}), "choices in brackets, or as separate events.",
               kind="choice", choices=CHOICE_FORMS),
)
