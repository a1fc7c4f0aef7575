"""Random Sanguine games (``notation random sanguine``): both decks inline, so that a
record stands alone; the decks are files or the bundled ones."""
from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from notation.core.ast import Item, Tag
from notation.core.errors import InputError, NotationError, TagError
from notation.core.plugins import check_setup, under_names
from notation.core.protocols import RecordView, SetUp

from . import rules
from .deck import Deck, DeckError, bundled_deck, load_deck
from .events import Deal, Draw, Event, Pass, Result
from .newgame import (DECK_OPTIONS, DEFAULT_COLS, DEFAULT_DECK, DEFAULT_ROWS, default_hand,
                      inline_block)
from . import OPTIONS

if TYPE_CHECKING:  # (start-up: ``random`` only names the type of an argument)
    import random


#: Decks read for random games, by the path named and the file's size and time: a run of
#: many games reads and writes each deck once, and sees a file that changed.
_READ: dict[tuple[str, int, int], tuple[Deck, str]] = {}


def deck_of(name: str) -> tuple[Deck, str]:
    """The deck a ``--red-deck``/``--blue-deck`` option names, and its text."""
    path = bundled_deck(name)
    try:
        facts = os.stat(path)
    except OSError:  # load_deck says why it cannot be read
        deck = load_deck(path)
        return deck, deck.text()
    key = (path, facts.st_size, facts.st_mtime_ns)
    found = _READ.get(key)
    if found is None:
        deck = load_deck(path)
        found = _READ[key] = (deck, deck.text())
        if len(_READ) > 16:
            _READ.pop(next(iter(_READ)))
    return found


def random_setup(name: str, rng: random.Random, options: Mapping[str, Any]) -> SetUp:
    """What a random game of the game called ``name`` starts from: its tags and both
    decks inline (``rng`` is not drawn from: the deal is an event).

    ``options``: ``red_deck`` and ``blue_deck`` (decks; ``red`` and ``blue`` too), ``rows``,
    ``cols``, ``hand_size``, each checked by its declaration
    (:data:`~notation.games.sanguine.OPTIONS`).
    """
    options = under_names(name, OPTIONS, options)  # (``red``: ``red_deck``)
    check_setup(name, OPTIONS, options)
    rows: int = options.get("rows") or DEFAULT_ROWS
    cols: int = options.get("cols") or DEFAULT_COLS
    try:
        decks = [deck_of(options.get(side) or DEFAULT_DECK) for side in DECK_OPTIONS]
    except (InputError, DeckError) as exc:
        raise NotationError(str(exc)) from None
    hand: int = options.get("hand_size") or default_hand([deck for deck, _ in decks])
    tags = {"Game": "Sanguine", "Rows": str(rows), "Cols": str(cols), "HandSize": str(hand),
            "RedDeck": "inline", "BlueDeck": "inline", "Order": "recorded"}
    items: list[Item] = [inline_block(side, text) for side, (_, text) in enumerate(decks)]
    return SetUp([Tag(k, v) for k, v in tags.items()], items)


def random_events(rng: random.Random, record: RecordView) -> list[Event]:
    """Random deals and draws, then a random placement (or, one time in ten or when none
    is possible, a pass) each turn, and the result."""
    try:
        state = rules.start(record)
    except TagError as exc:
        raise NotationError(exc.message) from None
    hand = state.hand_size
    events: list[Event] = []

    def play(event: Event) -> None:
        rules.apply(state, event)
        events.append(event)

    for side in (0, 1):
        pool = list(state.left[side].elements())
        rng.shuffle(pool)
        play(Deal(side, tuple(pool[:hand])))
    while not state.over:
        side = state.to_move
        if state.draw_due():
            play(Draw(side, rng.choice(sorted(state.left[side].elements()))))
        moves = state.placements(side)
        play(rng.choice(moves) if moves and rng.random() < 0.9 else Pass(side))
    red, blue = state.totals()
    play(Result(red, blue, state.result_text().split()[1]))
    return events
