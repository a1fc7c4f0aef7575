"""How the exploration nomic is written: one reader per event terminal, positions."""
from __future__ import annotations

from typing import get_args

from .events import READERS as readers, Event, diagnose
from .position import read as read_position
from .state import NomicState

#: The classes of the nomic's events.
event_types: tuple[type, ...] = get_args(Event)
format_event = str
write_position = NomicState.position

__all__ = ["readers", "event_types", "format_event", "diagnose", "read_position",
           "write_position"]
