"""How Sanguine is written: one reader per event terminal, and positions (the position
notation's reader, position.py, loads when a position is first read: a check reads none)."""
from __future__ import annotations

from typing import get_args

from .events import READERS as readers, Event, diagnose
from .state import SanguineState

#: The classes of Sanguine's events.
event_types: tuple[type, ...] = get_args(Event)
format_event = str
#: The whole position (position.py documents it); ``replay --json``'s is its board part.
write_position = SanguineState.full_position
compact_position = SanguineState.position


def read_position(text: str, /) -> SanguineState:
    """The state a position describes; NotationError saying what is wrong with it."""
    from .position import read_position as read  # (start-up: a check reads no position)

    return read(text)


def timeless_position(full_position: str, /) -> str:
    """A full position without its TURN field (a counter)."""
    from .position import timeless

    return timeless(full_position)


__all__ = ["readers", "event_types", "format_event", "diagnose", "read_position",
           "write_position", "compact_position", "timeless_position"]
