"""Sanguine record events (see the README for the notation)."""
from __future__ import annotations

from typing import NamedTuple, Union

from notation.core.errors import NotationError
from notation.core.limits import MAX_DIGITS, MAX_VALUE_DIGITS, shorten, whole

SIDES = {"R": 0, "B": 1}
SIDE_NAMES = ("red", "blue")
#: A score is a sum of at most Rows x Cols card values (each of 9 digits at most).
SCORE_DIGITS = MAX_VALUE_DIGITS + 2 * MAX_DIGITS


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


def read(kind: str, text: str) -> Event:
    """Take apart the text of one grammar terminal (its shape is the grammar's)."""
    if kind == "BAD_LINE":
        raise NotationError(diagnose(text))
    if kind == "PLACE":  # R place NAME (ROW,COL)
        head, coords = text.split("(", 1)
        side, _, card = head.split()
        row, col = coords.rstrip(") \t").split(",")
        return Place(SIDES[side], card, whole(row.strip(), "row", signed=True),
                     whole(col.strip(), "column", signed=True))
    if kind == "RESULT":  # result RED - BLUE WINNER, blanks anywhere between the tokens
        scores, winner = text[len("result"):].rsplit(None, 1)
        red, blue = scores.split("-")
        return Result(whole(red.strip(), "red score", digits=SCORE_DIGITS),
                      whole(blue.strip(), "blue score", digits=SCORE_DIGITS), winner)
    words = text.split()
    side = SIDES[words[0]]
    if kind == "DEAL":
        return Deal(side, tuple(words[2:]))
    if kind == "DRAW":
        return Draw(side, words[2])
    return Pass(side)


_VERBS = ("deal", "draw", "place", "pass")


def diagnose(text: str) -> str:
    words = text.split()
    verb = words[1] if len(words) > 1 else ""
    quoted = repr(shorten(text))
    forms = {"deal": "R deal NAME NAME ...", "draw": "R draw NAME",
             "place": "R place NAME (ROW,COL)", "pass": "R pass"}
    # Another event after the first on the same line (rules 4.1: one event per line).
    later = [i for i, w in enumerate(words[2:], 2)
             if (w in SIDES and i + 1 < len(words) and words[i + 1] in _VERBS)
             or (verb == "pass" and w in _VERBS) or w == "result"]
    if verb in forms and later:
        return (f"{quoted} holds more than one event; write one event per line "
                f"(expected {forms[verb]})")
    if verb in forms:
        return f"{quoted} is not a {verb} line; expected {forms[verb]}"
    if text.startswith("result"):
        return f"{quoted} is not a result line; expected result RED-BLUE red|blue|tie"
    return (f"{quoted} is not a Sanguine event: expected R or B followed by deal, draw, place "
            f"or pass, or a result line")
