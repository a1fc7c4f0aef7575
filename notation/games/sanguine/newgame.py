"""A new Sanguine game from options: ``notation.new("sanguine", rows=3, cols=5, ...)``.

Options (the game's tags in snake case, with defaults where ``notation random
sanguine`` has them):

* ``rows``, ``cols``: the board (default 5 x 7); ``hand_size``: H (default 3, or a
  third of the smaller deck when that is less);
* ``red_deck``, ``blue_deck``: a deck file's path (``str`` or ``os.PathLike``), the
  name of a deck installed with the package (``ember``, ``legion``, ``skirmish``,
  ``tide``; default ``legion``), deck text in the file format (a ``str`` with a line
  break), a :class:`~notation.games.sanguine.deck.Deck` or a list of its
  :class:`~notation.games.sanguine.deck.Card` values. Card names alone are not a
  deck: a name says nothing of a card's cost, value or influence. Every deck is
  checked as a deck file is;
* ``order``: ``"recorded"`` (default: any deal and any draw of the cards left is
  legal, so ``legal_moves`` lists them all) or ``"file"`` (they come in the deck's order);
* ``perspective``: ``"blue"`` writes place columns from Blue's side;
* ``seed``: shuffles the decks, so that the deals and draws are the game's and no
  player's choice. ``random.Random(seed)`` (a whole number, or a text; a text of
  digits is that number) shuffles Red's deck, then Blue's, and the game is played
  with ``[Order "file"]``: ``legal_moves`` offers the one deal and the one draw that
  come next. A seed with ``order="recorded"`` is refused.

The record a game starts from (and that ``Position.record`` writes) holds both decks
inline, as dealt from (shuffled, with a seed), so it stands alone as ``notation
random``'s records do and replays without any random-number generator; the
``[Seed]`` tag it carries is, as the rules say, information only.
"""
from __future__ import annotations

import os
import random
from collections.abc import Mapping
from typing import Any

from notation.core.ast import Directive, Tag
from notation.core.errors import Error, InputError
from notation.core.limits import is_whole
from notation.core.protocols import SetUp

from .deck import Card, Deck, DeckError, bundled_deck, load_deck, parse_deck

DEFAULT_ROWS, DEFAULT_COLS, DEFAULT_HAND, DEFAULT_DECK = 5, 7, 3, "legion"
#: Options that are a tag's value as given, and the tag each one is.
TAG_OPTIONS = {"rows": "Rows", "cols": "Cols", "hand_size": "HandSize", "order": "Order",
               "perspective": "Perspective"}
DECK_OPTIONS = ("red_deck", "blue_deck")
#: ``players`` is always 2 (its declaration refuses any other count before this is called).
OPTIONS = (*TAG_OPTIONS, *DECK_OPTIONS, "seed", "players")


def set_up(game: str, options: Mapping[str, Any]) -> SetUp:
    """What a new game starts from: its tags, then both decks inline."""
    for option in options:
        if option not in OPTIONS:
            raise Error(f"{game} has no option {option!r}; its options are "
                        f"{', '.join(sorted(OPTIONS))}")
    decks = [read_deck(options.get(option), option) for option in DECK_OPTIONS]
    seed = options.get("seed")
    order = options.get("order")
    if seed is not None:
        if order not in (None, "file"):
            raise Error(f"{game}: a seed fixes the order the cards come in (order 'file'); "
                        f"leave order out or give 'file', not {order!r}")
        order = "file"
        rng = random.Random(seed_value(seed))
        decks = [shuffled(deck, rng) for deck in decks]
    values: dict[str, Any] = {"Rows": options.get("rows", DEFAULT_ROWS),
                              "Cols": options.get("cols", DEFAULT_COLS),
                              "HandSize": options.get("hand_size", default_hand(decks)),
                              "RedDeck": "inline", "BlueDeck": "inline",
                              "Order": order or "recorded"}
    if "perspective" in options:
        values["Perspective"] = options["perspective"]
    if seed is not None:
        values["Seed"] = seed
    tags = [Tag("Game", "Sanguine"), *(Tag(key, str(value)) for key, value in values.items())]
    return SetUp(tags, [inline_block(side, deck.text()) for side, deck in enumerate(decks)])


def default_hand(decks: list[Deck]) -> int:
    """H when none is given: 3, or a third of the smaller deck when that is less (1 at least)."""
    return max(1, min(DEFAULT_HAND, min(len(deck) for deck in decks) // 3))


def read_deck(value: Any, option: str) -> Deck:
    """The deck an option gives, checked; :class:`Error` naming the option otherwise."""
    try:
        if value is None:
            return load_deck(bundled_deck(DEFAULT_DECK))
        if isinstance(value, os.PathLike):
            return load_deck(os.fspath(value))
        if isinstance(value, str):
            if "\n" in value:
                return parse_deck(value, f"<{option}>")
            return load_deck(bundled_deck(value))
        if isinstance(value, Deck):
            return parse_deck(value.text(), value.source)
        if isinstance(value, (list, tuple)) and all(isinstance(c, Card) for c in value):
            return parse_deck(Deck(f"<{option}>", list(value)).text(), f"<{option}>")
    except (InputError, DeckError) as exc:
        raise Error(f"sanguine: option {option}: {exc}") from None
    raise Error(f"sanguine: option {option}: a deck file's path, a bundled deck's name, deck "
                f"text, a Deck or a list of Cards, not {type(value).__name__}")


def seed_value(seed: Any) -> int | str:
    """The seed ``random.Random`` is given: a whole number, or a text (digits: a number)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise Error(f"sanguine: option seed: a whole number or a text, not "
                    f"{type(seed).__name__}")
    if isinstance(seed, str) and is_whole(seed):
        return int(seed)
    return seed


def shuffled(deck: Deck, rng: random.Random) -> Deck:
    """``deck`` in the order ``rng`` shuffles it into."""
    cards = list(deck.cards)
    rng.shuffle(cards)
    return Deck(deck.source, cards)


def inline_block(side: int, deck_text: str) -> Directive:
    """A ``deck R`` (or ``deck B``) block holding a deck's text, for ``[RedDeck "inline"]``."""
    return Directive("DECK_BLOCK", f"deck {'RB'[side]}\n{deck_text}enddeck")
