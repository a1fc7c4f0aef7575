"""Who plays Philosophy's events for a referee: the players join first (the referee
plays the joins, one a seat, before any placement); after that each event is the
seat's to move, and a join or a rule change is never a seat's (the rules' own)."""
from __future__ import annotations

from .events import Event, Join, RuleChange
from .legal import legal_joins
from .rules import to_move
from .state import PhilosophyState


def opening(state: PhilosophyState, players: int, /) -> list[Event]:
    """The joins of the first ``players`` codes the game offers, in its order."""
    joins = legal_joins(state)
    if not 1 <= players <= len(joins):
        raise ValueError(f"Philosophy seats 1 to {len(joins)} players here, not {players}")
    return list(joins[:players])


def actor(state: PhilosophyState, event: Event, /) -> str | None:
    """None for a join or a rule change; else the seat to move."""
    return None if isinstance(event, (Join, RuleChange)) else to_move(state)


__all__ = ["actor", "opening"]
