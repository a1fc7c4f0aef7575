"""Sanguine record events (see the README for the notation)."""
from __future__ import annotations

import re
from typing import NamedTuple, Union

from notation.core.errors import NotationError

SIDES = {"R": 0, "B": 1}
SIDE_NAMES = ("red", "blue")


class Deal(NamedTuple):
    side: int
    cards: tuple[str, ...]

    def __str__(self) -> str:
        return f"{'RB'[self.side]} deal {' '.join(self.cards)}"


class Draw(NamedTuple):
    side: int
    card: str

    def __str__(self) -> str:
        return f"{'RB'[self.side]} draw {self.card}"


class Place(NamedTuple):
    side: int
    card: str
    row: int
    col: int

    def __str__(self) -> str:
        return f"{'RB'[self.side]} place {self.card} ({self.row},{self.col})"


class Pass(NamedTuple):
    side: int

    def __str__(self) -> str:
        return f"{'RB'[self.side]} pass"


class Result(NamedTuple):
    red: int
    blue: int
    winner: str  # red, blue or tie

    def __str__(self) -> str:
        return f"result {self.red}-{self.blue} {self.winner}"


Event = Union[Deal, Draw, Place, Pass, Result]
_PLACE = re.compile(r"([RB])\s+place\s+(\S+?)\s*\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)\Z")
_RESULT = re.compile(r"result\s+(\d+)-(\d+)\s+(red|blue|tie)\Z")


def read(kind: str, text: str) -> Event:
    if kind == "BAD_LINE":
        raise NotationError(diagnose(text))
    if kind == "PLACE":
        side, card, row, col = _PLACE.match(text).groups()
        return Place(SIDES[side], card, int(row), int(col))
    if kind == "RESULT":
        red, blue, winner = _RESULT.match(text).groups()
        return Result(int(red), int(blue), winner)
    words = text.split()
    side = SIDES[words[0]]
    if kind == "DEAL":
        return Deal(side, tuple(words[2:]))
    if kind == "DRAW":
        return Draw(side, words[2])
    return Pass(side)


def diagnose(text: str) -> str:
    words = text.split()
    verb = words[1] if len(words) > 1 else ""
    forms = {"deal": "R deal NAME NAME ...", "draw": "R draw NAME",
             "place": "R place NAME (ROW,COL)", "pass": "R pass"}
    if verb in forms:
        return f"{text!r} is not a {verb} line; expected {forms[verb]}"
    if text.startswith("result"):
        return f"{text!r} is not a result line; expected result RED-BLUE red|blue|tie"
    return (f"{text!r} is not a Sanguine event: expected R or B followed by deal, draw, place "
            f"or pass, or a result line")
