"""Flows' chance: the tile the mover draws from the bag before placing it, each type with
the share of the bag it holds (10 of each at the start, less those on the board).

A record never writes the draw (its placement names the tile), so a record's replay
never stops at one; a bot playing through :class:`~notation.core.position.Position`
meets it before every move, as :class:`~.events.Draw`."""
from __future__ import annotations

from .events import Draw, Event
from .state import FlowsState


def chance_due(state: FlowsState, /) -> bool:
    """A player is to move and holds no tile yet."""
    return state.to_move is not None and state.drawn is None


def chance_outcomes(state: FlowsState, /) -> list[tuple[Event, float]]:
    """Each type still in the bag with its share of it; [] once a tile is held."""
    if not chance_due(state):
        return []
    left = [state.in_bag(tile) for tile in range(4)]
    total = sum(left)
    return [(Draw(tile), count / total) for tile, count in enumerate(left) if count]


def chance_event(event: Event, /) -> bool:
    """Whether ``event`` is chance's (a draw), not a player's."""
    return isinstance(event, Draw)


def carries_chance(event: Event, /) -> bool:
    """A placement (or a tile that fits nowhere) names the tile it drew."""
    return not isinstance(event, Draw)


__all__ = ["carries_chance", "chance_due", "chance_event", "chance_outcomes"]
