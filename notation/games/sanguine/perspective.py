"""Sanguine records from either side: ``[Perspective "blue"]`` writes place columns
from Blue's side of the board; converting mirrors them (``notation convert``)."""
from __future__ import annotations

from functools import partial

from notation.core.tree import GameNode
from notation.core.ast import Tag, map_events
from notation.core.errors import NotationError, TagError

from .events import Event, Place
from . import PERSPECTIVES
from .rules import int_tag


def convert(record: GameNode, target: str) -> GameNode:
    """``record`` written from ``target``'s side (``red`` or ``blue``): every variation
    too; numbers, annotations and comments kept."""
    if target not in PERSPECTIVES:
        raise NotationError("sanguine converts with --perspective red or --perspective blue")
    tags = record.headers
    current = tags.get("Perspective", "red")
    try:
        cols = int_tag(tags, "Cols")
    except TagError as exc:
        raise NotationError(f"{exc.message}; it is needed to mirror columns") from None
    items = record.items
    if current != target:
        items = map_events(items, partial(mirrored, cols))
    new_tags = [t for t in record.tags if not (isinstance(t, Tag) and t.key == "Perspective")]
    if target == "blue":
        new_tags.append(Tag("Perspective", "blue"))
    return record.rewritten(list(items), new_tags)


def mirrored(cols: int, event: Event) -> Event:
    """A place event with its column counted from the other side; any other event as it is."""
    return event.mirrored(cols) if isinstance(event, Place) else event
