"""Sanguine (PawnsBoard): decks, cards, influence, row scoring.

Importing the package only announces the game (the ``notation.games`` entry
point names :data:`SPEC`, all that is said of it before its code loads); its code
loads when a record of it is read.

What Sanguine adds to the commands (``random --red-deck``, ``replay --view``...).
Declared here, with the :data:`SPEC`, so that commands offer them before the game
loads.
"""
from __future__ import annotations

from notation.core.plugins import GameOption, GameSpec

#: The decks installed with the package (``notation.samples``), by name.
BUNDLED_DECKS = ("ember", "legion", "skirmish", "tide")
#: The two sides, Red's first: the words of results, moves and pictures.
SIDE_NAMES = ("red", "blue")
#: The two sides a board or a record may be seen from.
PERSPECTIVES = SIDE_NAMES
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
    GameOption("red_deck", frozenset({"random", "referee"}), "Red's deck file, or a bundled deck: "
               f"{', '.join(BUNDLED_DECKS)} (default: legion).", metavar="DECK",
               aliases=("red",)),
    GameOption("blue_deck", frozenset({"random", "referee"}), "Blue's deck file or bundled deck "
               "(default: legion).", metavar="DECK", aliases=("blue",)),
    GameOption("rows", frozenset({"random", "referee"}), "board rows (default 5).", kind="int",
               low=1, high=50),
    GameOption("cols", frozenset({"random", "referee"}), "board columns, odd (default 7).", kind="int",
               low=3, high=51),
    GameOption("hand_size", frozenset({"random", "referee"}), "starting hand size.", kind="int", low=1),
)

SPEC = GameSpec(
    "sanguine",
    "Sanguine (PawnsBoard), a two-player card game on a grid, events like R place Spark (1,0)",
    (".sanguine", ".sgr"), "sanguine.lark", "notation.games.sanguine.game:GAME",
    {"Game": '"Sanguine"',
     "Rows": "board rows, at least 1 (required)",
     "Cols": "board columns, odd and at least 3 (required)",
     "HandSize": "starting hand H, 1 <= H and 3H <= each deck's size (required)",
     "RedDeck": 'deck file path relative to the record, or "inline" (then a deck R block)',
     "BlueDeck": 'likewise for Blue ("inline": a deck B block)',
     "Order": '"recorded" (default): deals and draws are any cards left; "file": file order',
     "Perspective": '"blue": place columns are written from Blue\'s side (mirrored)',
     "Result": '"*" or "RED-BLUE red|blue|tie"; when the game is over it must match'},
    OPTIONS, events_module="notation.games.sanguine.events",
    directives=frozenset({"DECK_BLOCK"}), event_per_line=True, numbered=False,
    winners=SIDE_NAMES, file_tags=frozenset({"RedDeck", "BlueDeck"}))
