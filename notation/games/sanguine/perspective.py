"""Sanguine records from either side: ``[Perspective "blue"]`` writes place columns
from Blue's side of the board; converting mirrors them (``notation convert``)."""
from __future__ import annotations

from notation.core.ast import EventNode, Item, Record, Tag
from notation.core.errors import NotationError, TagError

from .events import Place
from .options import PERSPECTIVES
from .rules import int_tag


def convert(record: Record, target: str) -> Record:
    """``record`` written from ``target``'s side (``red`` or ``blue``); comments kept."""
    if target not in PERSPECTIVES:
        raise NotationError("sanguine converts with --perspective red or --perspective blue")
    tags = record.tag_dict
    current = tags.get("Perspective", "red")
    try:
        cols = int_tag(tags, "Cols")
    except TagError as exc:
        raise NotationError(f"{exc.message}; it is needed to mirror columns") from None
    items: list[Item] = []
    for item in record.items:
        if isinstance(item, EventNode) and isinstance(item.event, Place) and current != target:
            new = item.event.mirrored(cols)
            item = EventNode(new, item.number, item.pos, str(new))
        items.append(item)
    new_tags = [t for t in record.tags if not (isinstance(t, Tag) and t.key == "Perspective")]
    if target == "blue":
        new_tags.append(Tag("Perspective", "blue"))
    return Record(record.game, new_tags, items, record.index, record.source, record.pos)
