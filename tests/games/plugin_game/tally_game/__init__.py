"""Tally, a notation plug-in: two players add 1 or 2 in turn; who reaches 10 wins."""
from notation.core.options import GameOption
from notation.core.plugins import Plugin

PLUGIN = Plugin("tally", (".tally",), "tally_game.game:Tally",
                (GameOption("goal", frozenset({"random"}), "the total that wins (default 10).",
                            kind="int", low=2, high=99),))
