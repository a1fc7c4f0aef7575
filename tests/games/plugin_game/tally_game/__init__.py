"""Tally, a notation plug-in: two players add 1 or 2 in turn; who reaches the goal wins.

The entry point names :data:`SPEC`, all notation knows of the game before its code
loads; ``tally_game.game`` puts the game together from its two required parts.
"""
from notation.core.plugins import GameOption, GameSpec

#: The tags a record of Tally reads, and what they mean (``notation games``).
TAGS = {"Game": '"tally"', "Goal": "the total that wins (default 10)",
        "Result": '"*" while the game goes on, else "A" or "B"'}

SPEC = GameSpec(
    "tally", "Tally, a counting game for two (a third-party plug-in)", (".tally",),
    "tally.lark", "tally_game.game:GAME", TAGS,
    (GameOption("goal", frozenset({"random"}), "the total that wins (default 10).",
                kind="int", low=2, high=99),),
    grammar_package="tally_game", winners=("A", "B"))
