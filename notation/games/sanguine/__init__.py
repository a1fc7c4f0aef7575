"""Sanguine (PawnsBoard): decks, cards, influence, row scoring.

Importing the package only announces the game (the ``notation.games`` entry
point names :data:`PLUGIN`); its code loads when a record of it is read.

What Sanguine adds to the commands (``random --red-deck``, ``replay --view``...).
Declared here, with the :data:`PLUGIN`, so that commands offer them before the game
loads.
"""
from __future__ import annotations

from notation.core.options import GameOption
from notation.core.plugins import Plugin

#: The decks installed with the package (``notation.samples``), by name.
BUNDLED_DECKS = ("ember", "legion", "skirmish", "tide")
#: The two sides a board or a record may be seen from.
PERSPECTIVES = ("red", "blue")
#: The text pictures of a state.
VIEWS = ("basic", "full")

OPTIONS = (
    GameOption("players", frozenset({"random"}), "2: Red and Blue, always.", kind="int",
               low=2, high=2, metavar="N"),
    GameOption("perspective", frozenset({"render", "convert"}), "red or blue.",
               complete=PERSPECTIVES),
    GameOption("view", frozenset({"replay"}), "the basic view or the full state (default).",
               kind="choice", choices=VIEWS),
    # named as ``notation.new`` takes them (the tags [RedDeck] and [BlueDeck] in snake
    # case); ``--red`` and ``--blue``, their first spellings, still read
    GameOption("red_deck", frozenset({"random"}), "Red's deck file, or a bundled deck: "
               f"{', '.join(BUNDLED_DECKS)} (default: legion).", metavar="DECK",
               aliases=("red",)),
    GameOption("blue_deck", frozenset({"random"}), "Blue's deck file or bundled deck "
               "(default: legion).", metavar="DECK", aliases=("blue",)),
    GameOption("rows", frozenset({"random"}), "board rows (default 5).", kind="int",
               low=1, high=50),
    GameOption("cols", frozenset({"random"}), "board columns, odd (default 7).", kind="int",
               low=3, high=51),
    GameOption("hand_size", frozenset({"random"}), "starting hand size.", kind="int", low=1),
)

PLUGIN = Plugin("sanguine", ('.sanguine', '.sgr'), "notation.games.sanguine.game:Sanguine", OPTIONS)
