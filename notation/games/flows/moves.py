"""Flows events as written: ``P{n}{row}{col}T{type}{orientation}`` and ``P{n}T{type}``.

Events keep the text's own terms (player, label, orientation name): what a
label means depends on the seat it is read from, which only the record's
tags know, so the replay (not the parser) turns them into internal hexes.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from notation.core.errors import NotationError
from notation.core.limits import is_whole, shorten

from .geometry import ORIENTATIONS


class Placement(NamedTuple):
    """Player ``player`` (1-based) puts a ``tile`` on ``label``, facing ``orientation``."""

    player: int
    label: str
    tile: int
    orientation: str

    def __str__(self) -> str:
        return f"P{self.player}{self.label}T{self.tile}{self.orientation}"


class Unplaceable(NamedTuple):
    """Player ``player`` drew ``tile`` and it fits nowhere (a constraint win)."""

    player: int
    tile: int

    def __str__(self) -> str:
        return f"P{self.player}T{self.tile}"


_PLACEMENT = re.compile(r"P([1-6])([A-G][1-7])T([0-3])(NE|NW|SE|SW|N|S)\Z")
_UNPLACEABLE = re.compile(r"P([1-6])T([0-3])\Z")
# Possessive runs: no character can be matched two ways, so a failed match is linear.
_LOOSE = re.compile(r"P([0-9]*+)([A-Za-z]?[0-9]*+)T([0-9]*+)([A-Za-z]*+)(.*)\Z", re.S)


def read(text: str) -> Placement | Unplaceable:
    m = _PLACEMENT.match(text)
    if m:
        return Placement(int(m.group(1)), m.group(2), int(m.group(3)), m.group(4))
    m = _UNPLACEABLE.match(text)
    if m:
        return Unplaceable(int(m.group(1)), int(m.group(2)))
    raise NotationError(diagnose(text))


def diagnose(text: str) -> str:
    m = _LOOSE.match(text)
    text = shorten(text)
    if not m or m.group(5):
        return (f"{text!r} is not a Flows move; expected P{{player}}{{row}}{{col}}T{{type}}"
                f"{{orientation}} such as P1A2T0N, or P{{player}}T{{type}} for a tile that fits nowhere")
    player, label, tile, orientation, _ = m.groups()
    if not (is_whole(player) and 1 <= int(player) <= 6):
        return f"player {shorten(player)!r} in {text!r} is not 1 to 6"
    if label and not re.fullmatch(r"[A-G][1-7]", label):
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
