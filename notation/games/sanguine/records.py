"""Whole Sanguine records made or rewritten: a new game (newgame.py), a random one
(generate.py), one written from the other side (perspective.py). Each of those modules
loads when first used: a check of records needs none of them."""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from notation.core.ast import Record
from notation.core.errors import NotationError

from . import SPEC

if TYPE_CHECKING:  # (start-up: ``random`` only names the type of an argument)
    import random


def new_record(options: Mapping[str, Any], /) -> Record:
    """The record a new game starts from: decks are more than a tag's value, and a seed
    shuffles them (newgame.py)."""
    from .newgame import new_record as made  # (start-up: only new games need it)

    return made(SPEC.name, options)


def random_record(rng: random.Random, options: Mapping[str, Any], /) -> Record:
    """A complete random game, both decks inline (generate.py)."""
    from .generate import random_record as made  # (start-up: only random games need it)

    return made(SPEC.name, rng, options)


def convert(record: Record, /, **options: Any) -> Record:
    """``perspective="blue"`` writes place columns from Blue's side; ``"red"`` back."""
    target = options.pop("perspective", None)
    if options or not isinstance(target, str):
        raise NotationError("sanguine converts with --perspective red or --perspective blue")
    from .perspective import convert as seen_from  # (start-up: only conversions need it)

    return seen_from(record, target)
