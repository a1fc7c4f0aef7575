"""Writing a Philosophy record's choices the other way (``convert --choices``): folded
into their placement's brackets (``inline``) or as bare events after it (``separate``).

The record is replayed as it is rewritten, so each placement learns which of
the choices after it are its own and whether its brackets end up closed.
"""
from __future__ import annotations

from notation.core.ast import EventNode, Item, Record
from notation.core.errors import NotationError, RuleError, TagError

from .events import Choice, Placement
from .rules import apply, start
from .state import PhilosophyState

#: The two ways of writing choices.


def convert_choices(record: Record, choices: str) -> Record:
    """``choices="inline"`` folds bare choices into brackets; ``"separate"`` splits them."""
    try:
        state = start(record)
    except TagError as exc:
        raise NotationError(exc.message) from None
    items: list[Item] = []
    open_placement: int | None = None  # index in items of the placement taking choices
    deferred: list[Item] = []          # events between a placement and its choices
    ply = 0
    for item in record.items:
        if not isinstance(item, EventNode):
            (deferred if open_placement is not None else items).append(item)
            continue
        event = item.event
        ply += 1
        # A choice can carry no dots: a placement whose dots count lines made by its
        # bracket choices stays as it is ("separate where possible").
        before = (state.copy() if choices == "separate" and isinstance(event, Placement)
                  and event.dots else None)
        try:
            apply(state, event)
        except RuleError as exc:
            raise NotationError(f"cannot convert past ply {ply} ({item.text}): "
                                f"{exc.message}") from None
        if isinstance(event, Placement):
            items.extend(deferred)
            deferred = []
            if choices == "separate":
                bare = event._replace(params=(), closed=False,
                                      options=None if event.params else event.options)
                if before is not None:  # count the lines its bare form makes (dots unchecked)
                    apply(before, bare._replace(dots=0))
                if before is None or len(before.conclusions()) == event.dots:
                    items.append(EventNode(bare, None, item.pos, str(bare)))
                    items.extend(EventNode(Choice(p), None, item.pos, p)
                                 for p in event.params)
                else:
                    items.append(item)
                open_placement = None
            else:
                items.append(item)
                open_placement = len(items) - 1
            _close(items, open_placement, state)
            continue
        if isinstance(event, Choice) and choices == "inline" and open_placement is not None:
            node = _placement_node(items, open_placement)
            placement = node.event._replace(params=node.event.params + (event.option,))
            items[open_placement] = EventNode(placement, None, node.pos, str(placement))
            _close(items, open_placement, state)
            continue
        if open_placement is not None and not isinstance(event, Choice):
            deferred.append(item)
        else:
            items.append(item)
    items.extend(deferred)
    return Record(record.game, list(record.tags), items, record.index, record.source,
                  record.pos)


def _placement_node(items: list[Item], index: int) -> EventNode:
    node = items[index]
    assert isinstance(node, EventNode) and isinstance(node.event, Placement)
    return node


def _close(items: list[Item], index: int | None, state: PhilosophyState) -> None:
    """Brackets closed once no choice is open; options listed while one is."""
    if index is None:
        return
    node = _placement_node(items, index)
    placement: Placement = node.event
    waiting = state.pending if state.mover == placement.player else None  # its choice still open
    placement = placement._replace(
        closed=waiting is None and bool(placement.params),
        options=None if waiting is None else waiting.options,
        dots=len(state.conclusions()) if waiting is None and placement.dots else placement.dots)
    items[index] = EventNode(placement, None, node.pos, str(placement))
