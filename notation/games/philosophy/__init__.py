"""Philosophy: board, tiles, chain reactions, choices, joins and leaves.

Importing the package only announces the game (the ``notation.games`` entry
point names :data:`SPEC`, all that is said of it before its code loads); the code
loads when a record of it is read.
"""
from __future__ import annotations

from notation.core.plugins import GameOption, GameSpec

#: How ``convert --choices`` writes the choices of a placement.
CHOICE_FORMS = ("inline", "separate")

#: What Philosophy adds to the commands (``convert --choices``, ``random --players``).
OPTIONS = (
    GameOption("players", frozenset({"random"}), "2 to 4 (default 2).", kind="int", low=2,
               high=4, metavar="N", default=2),
    GameOption("choices", frozenset({"convert"}), "choices in brackets, or as separate events.",
               kind="choice", choices=CHOICE_FORMS),
)

#: The player codes the reference uses (Indigo, Teal, Amber, Sage): every word a result
#: may name a winner by.
PLAYER_CODES = ("In", "Te", "Am", "Sa")

SPEC = GameSpec(
    "philosophy",
    "Philosophy, tiles that push and turn (2-4 players), events like Te:C7ReNe[We]",
    (".philosophy", ".phil"), "philosophy.lark", "notation.games.philosophy.game:GAME",
    {"Game": '"philosophy"',
     "ColorXx": "display name of the player with code Xx, e.g. [ColorIn \"Indiana Jones\"]",
     "JoinPermitted": '"Only Before Any Placement" (default) or "Between Turns"',
     "JoinWhere": '"Immediately Next" (default) or "After A Full Turn"',
     "LeavePermitted": '"Only Before Any Placement" (default), "Never" or "Anytime"',
     "LeaveEffect": '"Ends Game" (default), "Rollback Placement" or "Remove Their Tiles"',
     "Position": "a set-up board in the board-state notation (players still join)",
     "Players": "informational (written by notation random); the joins decide who plays",
     "Result": '"*" while the game goes on, else the winner\'s code ("Sa"), or "none" when '
               'a leave ended it without one'},
    OPTIONS, events_module="notation.games.philosophy.events", setup_positions=True,
    winners=PLAYER_CODES)
