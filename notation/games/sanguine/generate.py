"""Random Sanguine games (``notation random sanguine``): both decks inline, so that a
record stands alone; the decks are files or the bundled ones."""
from __future__ import annotations

import os
import random
from collections.abc import Mapping
from importlib import resources
from typing import Any

from notation.core.ast import Directive, EventNode, Item, Record, Tag
from notation.core.errors import InputError, NotationError, TagError

from . import rules
from .deck import DeckError, load_deck
from .events import Deal, Draw, Event, Pass, Result
from .options import BUNDLED_DECKS



def bundled_deck(name: str) -> str:
    """A deck file's path: ``name`` itself when it is a file, else the bundled deck of that
    name (``legion``), so ``notation random sanguine`` works wherever the package is."""
    if os.path.exists(name) or name not in BUNDLED_DECKS:
        return name
    return str(resources.files("notation.samples") / "sanguine" / "decks" / f"{name}.deck")


def random_record(name: str, rng: random.Random, options: Mapping[str, Any]) -> Record:
    """A complete random game of the game called ``name``: random deals and draws, then
    a random placement (or, one time in ten or when none is possible, a pass) each turn.

    ``options``: ``red`` and ``blue`` (decks), ``rows``, ``cols``, ``hand_size``.
    """
    rows: int = options.get("rows") or 5
    cols: int = options.get("cols") or 7
    try:
        decks = [load_deck(bundled_deck(options.get(side) or "legion")) for side in ("red", "blue")]
    except (InputError, DeckError) as exc:
        raise NotationError(str(exc)) from None
    hand: int = options.get("hand_size") or max(1, min(3, min(len(d) for d in decks) // 3))
    tags = {"Game": "Sanguine", "Rows": str(rows), "Cols": str(cols), "HandSize": str(hand),
            "RedDeck": "inline", "BlueDeck": "inline", "Order": "recorded"}
    items: list[Item] = [Directive("DECK_BLOCK", f"deck {'RB'[s]}\n{decks[s].text()}enddeck")
                         for s in (0, 1)]
    record = Record(name, [Tag(k, v) for k, v in tags.items()], items)
    try:
        state = rules.start(record)
    except TagError as exc:
        raise NotationError(exc.message) from None
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
    record.items += [EventNode(e) for e in events]
    return record
