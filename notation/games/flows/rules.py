"""The Flows rules as the core asks them: a record's start, the moves (:mod:`.play`'s),
the end and the result, and the seats.

A record starts once its notation is known: one in the quortextt app's notation
without ``[Seats]`` (the app's export) gets the one seating it replays under
(:mod:`.seats`); a record refused in the notation it names is tried in the others,
so the error can say which reads it.
"""
from __future__ import annotations

from typing import Any

from notation.core.protocols import RecordView
from notation.core.tree import GameNode
from notation.core.ast import Malformed, MalformedKind
from notation.core.errors import NotationError, TagError
from notation.read.other_readings import first_reading, retagged, tag_advice, tag_choices
from notation.core.protocols import Result

from .dialect import NOTATIONS, SEED
from .play import apply as apply, applier as applier, check as check
from .play import legal_moves as legal_moves, legal_placements as legal_placements
from .play import place as place, start_as_written
from .seats import fitting, plies_played, seats_text
from .state import FlowsState, Seating, mover_name, result_json

#: Tags that fix the seats or the view: with any of them, the seats are not searched.
SEATING_TAGS = ("Seats", "Position", "Perspective")


def start(record: RecordView, /) -> FlowsState:
    """The state before the first move, in the record's notation, seats found if needed."""
    state = start_as_written(record)
    tags = record.headers
    if state.notation.name != SEED and not any(key in tags for key in SEATING_TAGS):
        state.seating = only_seating(record, state)
    if "Position" not in tags:
        state.hint = Hint(record)
    return state


def only_seating(record: RecordView, state: FlowsState) -> Seating:
    """The one seating (player 1 at side 0) under which the record replays; TagError,
    naming them, when several do or none does."""
    events = record.events
    best, reached = fitting(state, events)
    if reached == len(events) and len(best) == 1:
        return best[0]
    named = ", ".join(f'"{seats_text(s)}"' for s in best[:6]) + (", ..." if len(best) > 6 else "")
    if reached == len(events):
        raise TagError("Seats", f"the record names no seats and replays legally under "
                                f"{len(best)} seatings with P1 at side 0: add the right one of "
                                f"{tag_choices('Seats', map(seats_text, best[:6]))}"
                                + (" (or another)" if len(best) > 6 else ""))
    raise TagError("Seats", f"the record names no seats and replays legally under no seating "
                            f"with P1 at side 0 (the best, {named}, stop after ply {reached})")


def with_dialect(record: GameNode, name: str) -> GameNode:
    """``record`` read in notation ``name``: its ``[Dialect]`` tag set (seed: removed)."""
    return retagged(record, "Dialect", None if name == SEED else name)


def replays(record: GameNode) -> bool:
    """Whether ``record``'s mainline replays legally to its end (seats searched if needed:
    under any of several seatings counts, the refusal then says which to choose)."""
    if any(isinstance(i, Malformed) and i.what == MalformedKind.EVENT for i in record.items):
        return False  # an unreadable event: no notation reads the record to its end
    events = record.events
    try:
        state = start_as_written(record)
    except (TagError, NotationError):
        return False
    if state.notation.name != SEED and not any(key in record.headers for key in SEATING_TAGS):
        return fitting(state, events)[1] == len(events)
    return plies_played(state, events) == len(events)


def readable_as(record: GameNode) -> str | None:
    """The other notation that reads ``record`` when the one it names does not, else None."""
    if replays(record):
        return None
    return first_reading(NOTATIONS, record.headers.get("Dialect", SEED),
                         lambda name: replays(with_dialect(record, name)))


class Hint:
    """What a refusal adds when another notation reads the record (worked out once, at the
    first refusal; a class, not a closure, so a state still pickles): the core's
    :mod:`~notation.read.other_readings`, as a record of another game is told its game."""

    __slots__ = ("record", "text")

    def __init__(self, record: RecordView) -> None:
        self.record = record
        self.text: str | None = None

    def __call__(self) -> str:
        if self.text is None:
            # (a record read from a file is a tree's root, which other readings rewrite)
            name = readable_as(self.record) if isinstance(self.record, GameNode) else None
            self.text = "" if name is None else (
                f"; the record replays in {NOTATIONS[name].title}: "
                + tag_advice("Dialect", self.record.headers.get("Dialect"), name, SEED))
        return self.text


# -- the end and the result ----------------------------------------------------------------


def is_over(state: FlowsState, /) -> bool:
    return state.over


copy = FlowsState.copy
to_move = mover_name


def result(state: FlowsState, /) -> Result:
    """``"*"`` while the game goes on, else how it ended and who won (``P2``): ``"flow P2"``,
    ``"tie P1 P2"``, ``"constraint P2 P4"`` (a team's members both listed)."""
    if not state.over:
        return Result(False, [], {"Result": "*"}, result_json(state))
    winners = [f"P{p + 1}" for p in state.winners]
    return Result(True, winners, {"Result": " ".join([state.win_type or "flow", *winners])},
                  result_json(state))


# -- seats and figures -----------------------------------------------------------------------


def seats(state: FlowsState, /) -> list[str]:
    return [f"P{seat}" for seat in range(1, state.seating.players + 1)]


def player_count(state: FlowsState, /) -> int:
    return state.seating.players


def facts(state: FlowsState, /) -> dict[str, Any]:
    """How a finished game ended, for ``stats``."""
    return {"ended by": state.win_type} if state.over else {}
