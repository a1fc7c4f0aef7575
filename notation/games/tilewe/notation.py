"""How Tilewe is written: the reader of its one event terminal (``MOVE``), positions (TPN)."""
from __future__ import annotations

from .events import Move, diagnose, read_move
from .position import read as read_position
from .state import Board

readers = {"MOVE": read_move}
#: The class of Tilewe's events.
event_types: tuple[type, ...] = (Move,)
format_event = str
write_position = Board.position

__all__ = ["readers", "event_types", "format_event", "diagnose", "read_position",
           "write_position"]
