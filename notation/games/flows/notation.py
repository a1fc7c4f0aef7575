"""How Flows is written: one reader per event terminal, and positions (with their view)."""
from __future__ import annotations

from typing import get_args

from .events import READERS as readers, Event, diagnose
from .position import read_position
from .state import full_position as write_position

#: The classes of Flows' events.
event_types: tuple[type, ...] = get_args(Event)
format_event = str

__all__ = ["readers", "event_types", "format_event", "diagnose", "read_position",
           "write_position"]
