"""Rewriting a record's moves, or one coordinate, into another side's view; and so what
stays the same in every view (a record's moves, its start) and what a view changes."""
from __future__ import annotations

import re
from functools import partial
from typing import Any, Mapping

from notation.core.tree import GameNode
from notation.core.ast import Tag, map_events
from notation.core.errors import NotationError, TagError

from .dialect import NOTATIONS, SEED, Notation, notation_named
from .events import Event, Placement
from .geometry import HEXES, hex_of, is_label, label_of, parse_internal
from .position import parse_seats
from .rules import readable_as, start, with_dialect
from .state import FlowsState, Seating, write_position
from .views import parse_perspective

# A coordinate as ``notation coords`` takes it: a view, then a label (``P2A4``, ``side:3:A4``).
_COORDINATE = re.compile(r"(?:P([1-6])|side:([0-5]):?)(..)")


def convert(record: GameNode, /, **options: Any) -> GameNode:
    """Every move, in every variation too, rewritten into one view (``perspective``: P2,
    side:3 or mover) and/or one notation (``to``: seed or flows, quortextt); replaying the
    result gives the same states, and numbers, annotations and comments stay where they
    were. An untagged record that only another notation reads (the app's export) is
    read in that one when a notation is asked for."""
    target = options.pop("perspective", None)
    to_dialect = options.pop("to", None)
    if to_dialect == "flows":  # the game's own name: its canonical notation, the seed's
        to_dialect = SEED
    if (target is None and to_dialect is None) or options:
        raise NotationError("flows converts with --perspective P1..P6, side:K or mover, "
                            f"and/or --to {'|'.join(NOTATIONS)}")
    source = record
    if to_dialect is not None and "Dialect" not in record.headers:
        found = readable_as(record)
        if found is not None:
            source = with_dialect(record, found)
    try:
        state = start(source)
    except TagError as exc:
        raise NotationError(exc.message) from None
    to_notation = state.notation if to_dialect is None else notation_named(to_dialect)
    to_side = state.view if target is None else parse_perspective(target, state.seating)
    items = map_events(record.items, partial(respelled, state, to_side, to_notation))
    dropped = ("Dialect",) if target is None else ("Dialect", "Perspective")
    tags = [t for t in source.tags if not (isinstance(t, Tag) and t.key in dropped)]
    if to_notation.name != SEED:
        tags.append(Tag("Dialect", to_notation.name))
    known = source.headers
    if (to_notation is not state.notation and "Seats" not in known
            and "Position" not in known):  # the seats a notation's reader would have to guess
        tags.append(Tag("Seats", " ".join(map(str, state.seating.seats))))
    if target is not None and "Position" in known:  # a set-up position names its view
        state.view = to_side
        tags = [Tag("Position", write_position(state, view=True)) if isinstance(t, Tag)
                and t.key == "Position" else t for t in tags]
    if target is not None and to_side is not None:
        tags.append(Tag("Perspective", target))
    return record.rewritten(items, tags)


def respelled(state: FlowsState, to_side: int | None, to_notation: Notation,
              event: Event) -> Event:
    """One event in the view of side ``to_side`` (None: its mover's own) and in
    ``to_notation``, as the record starting in ``state`` reads it (a view never changes
    during a game)."""
    if not isinstance(event, Placement):
        return event
    seating = state.seating
    player = event.player - 1
    if player >= seating.players:
        raise NotationError(f"there is no P{event.player} to convert")
    h, rotation = state.notation.locate(event, state.side_for(player))
    return to_notation.spell(event.player, event.tile, h, rotation,
                             seating.seats[player] if to_side is None else to_side)


def convert_coordinate(text: str, to: str, options: Mapping[str, Any], /) -> str:
    """``P2A4`` -> ``P1G4`` (``to="P1"``), ``6,3`` (``to="internal"``), ``side:K:..``."""
    players = options.get("players")
    seats = parse_seats(options["seats"]) if options.get("seats") else None
    seating = Seating.make(players or (len(seats) if seats else 2), seats)
    m = _COORDINATE.fullmatch(text.strip())
    if m and is_label(m.group(3)):
        side = (int(m.group(2)) if m.group(2) is not None
                else parse_perspective(f"P{m.group(1)}", seating))
        h = hex_of(m.group(3), 0 if side is None else side)
    else:
        h = parse_internal(text)
    if to == "internal":
        return f"{HEXES[h][0]},{HEXES[h][1]}"
    to_side = parse_perspective(to, seating)
    if to_side is None:
        raise NotationError("--to needs P1..P6, side:K or internal")
    prefix = to if to.startswith("P") else f"{to}:"
    return f"{prefix}{label_of(h, to_side)}"


# -- what every view shares ------------------------------------------------------------------


def event_keys(record: GameNode, /) -> list[str]:
    """Moves compared in side 0's view and the seed's notation, so a converted record
    equals its original (a move that cannot be read: compared as written)."""
    try:
        mainline = record.without_variations()
        spelling = {"to": "seed"} if "Dialect" in record.headers else {}
        return [str(e) for e in convert(mainline, perspective="side:0", **spelling).events]
    except NotationError:
        return [str(e) for e in record.events]


def setup_identity(state: FlowsState, symmetric: bool = False, /) -> str:
    """The position without the view: a game written in another view is the same game
    (the board has no symmetries, so ``symmetric`` changes nothing)."""
    return write_position(state)


def notation_identity(state: FlowsState, /) -> str:
    """The dialect, and the side every move is written from (``mover``: each its own)."""
    view = "mover" if state.view is None else f"side:{state.view}"
    return f"{state.notation.name} {view}"
