"""Random Tilewe games (the RandomGames part): the move search that makes them
(``generate.py``) loads only when one is asked for.

A module of its own because ``generate.py`` plays its moves by the rules: the rules
importing it, even inside a function, would close a circle.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from notation.core.protocols import RecordView

from . import rules
from .events import Move

if TYPE_CHECKING:  # (start-up: ``random`` only names the type of an argument)
    import random


def random_events(rng: random.Random, record: RecordView, /) -> list[Move]:
    """Random legal moves from the record's start until nobody can move (``generate.py``)."""
    # (start-up: only random games need the move search's tables)
    from .generate import random_events as play_randomly

    return play_randomly(rng, rules.start(record))
