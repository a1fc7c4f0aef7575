"""Who plays the nomic game's events for a referee: a vote is its voter's, a ruling its
judge's, an invocation its invoker's; the turn order (``round``, ``turn``, ``end``), a
vote's outcome and a join are the rules' own, which the referee plays; the rest is the
current player's."""
from __future__ import annotations

from .events import End, Event, Invoke, Join, Judgment, Outcome, Round, Turn, Vote
from .state import NomicState


def actor(state: NomicState, event: Event, /) -> str | None:
    if isinstance(event, (Round, Turn, End, Outcome, Join)):
        return None
    if isinstance(event, (Vote, Invoke)):
        return event.name
    if isinstance(event, Judgment):
        return event.judge
    return state.current


__all__ = ["actor"]
