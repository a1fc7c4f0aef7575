"""Random complete Flows games, for ``notation random``: draws and uniform placements.

A move is made at about the cost of checking one (see :func:`random_move`), so
generating a game costs about what validating it costs.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from notation.core.errors import RuleError
from notation.core.protocols import RecordView

from . import rules
from .events import Event, Unplaceable
from .geometry import N_HEXES
from .play import apply, legal_placements, place
from .state import DEFAULT_SEATS, FlowsState

if TYPE_CHECKING:  # (start-up: ``random`` only names the type of an argument)
    import random

#: Random candidates a generated move tries before it lists every legal placement instead.
TRIES = 12


def random_tags(tags: dict[str, str], /) -> dict[str, str]:
    """A random game's set-up tags (players checked by the option), with the usual seats of
    its players unless ``[Seats]`` is there."""
    if "Seats" not in tags:
        tags["Seats"] = " ".join(map(str, DEFAULT_SEATS[int(tags["Players"])]))
    return tags


def random_events(rng: random.Random, record: RecordView, /) -> list[Event]:
    """Play the record's start to its end: draw from the bag, then play :func:`random_move`."""
    state = rules.start(record)
    events: list[Event] = []
    while state.to_move is not None:
        bag = [t for t in range(4) for _ in range(state.in_bag(t))]
        events.append(random_move(rng, state, rng.choice(bag)))
    return events


def random_move(rng: random.Random, state: FlowsState, tile: int) -> Event:
    """Play and return a move of the mover with ``tile`` drawn: a placement chosen
    uniformly among the legal (hex, rotation) pairs, or the tile that fits nowhere.

    The pairs are not listed: a uniform (empty hex, rotation) is tried until one
    is legal (rejection sampling, nearly always at once, so a move costs about
    what checking it costs); only after :data:`TRIES` refusals are they all
    listed and one chosen, or none found. Either way each legal pair is equally
    likely.
    """
    mover = state.to_move
    if mover is None:
        raise RuleError("the game is over", "game end")
    side = state.side_for(mover)
    empty = [h for h in range(N_HEXES) if state.tiles[h] is None]
    for _ in range(TRIES):
        h, rotation = rng.choice(empty), rng.randrange(6)
        try:
            place(state, mover, h, tile, rotation)
        except RuleError:
            continue
        return state.notation.spell(mover + 1, tile, h, rotation, side)
    placements = legal_placements(state, tile)
    event: Event = (state.notation.spell(mover + 1, tile, *rng.choice(placements), side)
                    if placements
                    else Unplaceable(mover + 1, tile))
    apply(state, event)
    return event
