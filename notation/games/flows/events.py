"""Flows events as written: ``P{n}{row}{col}T{type}{orientation}`` and ``P{n}T{type}``.

Events keep the text's own terms (player, label, orientation name): what a
label means depends on the seat it is read from, which only the record's
tags know, so the replay (not the reader) turns them into internal hexes.
Their shapes are the grammar's terminals; the readers take a token apart by
the terminal's named groups. ``Placement.parse("P1A2T0N")`` reads one event
strictly, ``str()`` writes it back and ``repr()`` shows it as written.
"""
from __future__ import annotations

import re
from typing import Callable

from notation.core.errors import NotationError, shorten
from notation.read.grammars import terminal_pattern
from notation.core.limits import is_whole, remembered
from notation.core.events import EventTuple

from .geometry import ORIENTATIONS, is_label

GRAMMAR = "flows.lark"
GAME = "flows"


class Placement(EventTuple, game=GAME, spelling="P{player}{label}T{tile}{orientation}"):
    """Player ``player`` (1-based) puts a ``tile`` on ``label``, facing ``orientation``."""

    __slots__ = ()
    player: int
    label: str
    tile: int
    orientation: str


class Unplaceable(EventTuple, game=GAME, spelling="P{player}T{tile}"):
    """Player ``player`` drew ``tile`` and it fits nowhere (a constraint win)."""

    __slots__ = ()
    player: int
    tile: int


class Draw(EventTuple, game=GAME, spelling="T{tile}"):
    """Chance hands the mover a ``tile`` from the bag. Played, never written: a record's
    placement names the tile it drew (``P1A2T0N``), so the replay of a record draws it
    with the placement; :meth:`Position.sample_chance` plays it ahead, for a bot to place
    the tile it was dealt. No grammar reads it (no record holds one); ``Position.read``
    takes its text (``T2``) where a draw is due."""

    __slots__ = ()
    written = False
    tile: int


Event = Placement | Unplaceable | Draw

_PLACEMENT = terminal_pattern(GRAMMAR, "PLACEMENT")
_UNPLACEABLE = terminal_pattern(GRAMMAR, "UNPLACEABLE")
# Group numbers looked up once: indexing a match by number is the cheapest read.
_PLAYER, _LABEL, _TILE, _ORIENTATION = (
    _PLACEMENT.groupindex[name] for name in ("player", "label", "tile", "orientation"))
_DRAWER, _DRAWN = (_UNPLACEABLE.groupindex[name] for name in ("drawer", "drawn"))
# Diagnosis only: the parts of anything that looks like a move, so a message can name the
# wrong one. Possessive runs: no character can be matched two ways, so a failure is linear.
_LOOSE = re.compile(r"P([0-9]*+)([A-Za-z]?[0-9]*+)T([0-9]*+)([A-Za-z]*+)(.*)\Z", re.S)


def parse_placement(text: str) -> Event:
    """:func:`read_placement` without its memory."""
    m = _PLACEMENT.fullmatch(text)
    # A token may begin with its event number; an event's own text may not.
    if m is None or m.start(_PLAYER) != 1:
        return read(text)
    return Placement(int(m[_PLAYER]), m[_LABEL], int(m[_TILE]), m[_ORIENTATION])


#: The placement a text writes (the hot path), remembering those already read: the
#: terminal allows 7,056 texts, all of which are kept, and an event is immutable, so one
#: read serves every game that writes it. Any other text reads as :func:`read`.
read_placement: Callable[[str], Event] = remembered(parse_placement, 8192)


def read_unplaceable(text: str) -> Event:
    """The tile that fits nowhere ``text`` writes; any other text as :func:`read`."""
    m = _UNPLACEABLE.fullmatch(text)
    if m is None or m.start(_DRAWER) != 1:
        return read(text)
    return Unplaceable(int(m[_DRAWER]), int(m[_DRAWN]))


def read(text: str) -> Event:
    """The event ``text`` writes, whichever its kind; NotationError saying what is wrong."""
    m = _PLACEMENT.fullmatch(text)
    if m is not None and m.start(_PLAYER) == 1:
        return Placement(int(m[_PLAYER]), m[_LABEL], int(m[_TILE]), m[_ORIENTATION])
    m = _UNPLACEABLE.fullmatch(text)
    if m is not None and m.start(_DRAWER) == 1:
        return Unplaceable(int(m[_DRAWER]), int(m[_DRAWN]))
    raise NotationError(diagnose(text))


#: The reader of each event terminal.
READERS: dict[str, Callable[[str], Event]] = {
    "PLACEMENT": read_placement, "UNPLACEABLE": read_unplaceable}


def diagnose(text: str) -> str:
    """Why ``text`` is not a Flows move, naming its first wrong part."""
    m = _LOOSE.match(text)
    text = shorten(text)
    if not m or m.group(5):
        return (f"{text!r} is not a Flows move; expected P{{player}}{{row}}{{col}}T{{type}}"
                f"{{orientation}} such as P1A2T0N, or P{{player}}T{{type}} for a tile that fits nowhere")
    player, label, tile, orientation, _ = m.groups()
    if not (is_whole(player) and 1 <= int(player) <= 6):
        return f"player {shorten(player)!r} in {text!r} is not 1 to 6"
    if label and not is_label(label):
        return f"hex {shorten(label)!r} in {text!r} is not a row A-G and a number 1-7"
    if not (is_whole(tile) and int(tile) <= 3):
        return f"tile type {shorten(tile)!r} in {text!r} is not 0 to 3"
    if not label:
        return f"{text!r}: a tile that fits nowhere is written without an orientation (P1T2)"
    if not orientation:
        return f"missing orientation in {text!r} (expected N, NE, SE, S, SW or NW after T{tile})"
    if orientation not in ORIENTATIONS:
        return (f"unknown orientation {orientation!r} in {text!r} "
                f"(expected N, NE, SE, S, SW or NW)")
    return f"{text!r} is not a Flows move"  # pragma: no cover
