"""Flows (Quortex): hex geometry, perspectives, rules engine and notation."""
from notation.core.registry import register

from .board import FlowsBoard, Seating
from .game import Flows, FlowsState
from .moves import Placement, Unplaceable

GAME = register(Flows())

__all__ = ["Flows", "FlowsBoard", "FlowsState", "GAME", "Placement", "Seating", "Unplaceable"]
