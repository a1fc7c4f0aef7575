"""The seats of a record that names none: the app's export carries no seats.

Seatings that differ only by turning the whole board give the same game, so
player 1 stays at side 0 and the others take every arrangement the game
allows; a seating fits when the record's mainline replays legally under it.
"""
from __future__ import annotations

from itertools import permutations
from typing import Any, Sequence

from notation.core.errors import RuleError

from .play import play
from .state import FlowsState, Seating


def candidates(players: int) -> list[Seating]:
    """Every seating of ``players`` with player 1 at side 0, in the order of their seats."""
    found = []
    for others in permutations(range(1, 6), players - 1):
        try:
            found.append(Seating.make(players, (0, *others)))
        except ValueError:  # not a seating of the game (4 and 5 players sit in pairs)
            continue
    return found


def plies_played(state: FlowsState, events: Sequence[Any]) -> int:
    """How many of ``events`` replay legally from (a copy of) ``state``."""
    state = state.copy()
    state.hint = None
    for ply, event in enumerate(events):
        try:
            play(state, event)
        except RuleError:
            return ply
    return len(events)


def fitting(state: FlowsState, events: Sequence[Any]) -> tuple[list[Seating], int]:
    """The seatings under which all of ``events`` replay from ``state``'s board; when none
    does, those that get furthest. The second value is how far those get."""
    best: list[Seating] = []
    furthest = -1
    for seating in candidates(state.seating.players):
        trial = state.copy()
        trial.seating = seating
        reached = plies_played(trial, events)
        if reached > furthest:
            best, furthest = [seating], reached
        elif reached == furthest:
            best.append(seating)
    return best, furthest


def seats_text(seating: Seating) -> str:
    """A seating as ``[Seats]`` writes it: ``0 2``."""
    return " ".join(map(str, seating.seats))
