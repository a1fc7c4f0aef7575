"""Whole Sanguine records made or rewritten: a new game (newgame.py), a random one
(generate.py), one written from the other side (perspective.py). Each of those modules
loads when first used: a check of records needs none of them."""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any


from notation.core.tree import GameNode
from notation.core.errors import NotationError
from notation.core.protocols import RecordView, SetUp

from . import SPEC

if TYPE_CHECKING:  # (start-up: ``random`` only names the type of an argument)
    import random


def set_up(options: Mapping[str, Any], /) -> SetUp:
    """What a new game starts from: decks are more than a tag's value, and a seed
    shuffles them (newgame.py)."""
    from .newgame import set_up as made  # (start-up: only new games need it)

    return made(SPEC.name, options)


def random_setup(rng: random.Random, options: Mapping[str, Any], /) -> SetUp:
    """A random game's start, both decks inline (generate.py)."""
    from .generate import random_setup as made  # (start-up: only random games need it)

    return made(SPEC.name, rng, options)


def random_events(rng: random.Random, record: RecordView, /) -> list[Any]:
    """Random deals, draws, placements and passes, and the result (generate.py)."""
    from .generate import random_events as made  # (start-up: only random games need it)

    return made(rng, record)


def convert(record: GameNode, /, **options: Any) -> GameNode:
    """``perspective="blue"`` writes place columns from Blue's side; ``"red"`` back."""
    target = options.pop("perspective", None)
    if options or not isinstance(target, str):
        raise NotationError("sanguine converts with --perspective red or --perspective blue")
    from .perspective import convert as seen_from  # (start-up: only conversions need it)

    return seen_from(record, target)
