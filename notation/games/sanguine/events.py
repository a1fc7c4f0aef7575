"""Sanguine record events: the values, their canonical text, and reading them.

An event's shape is its terminal in ``sanguine.lark`` and nowhere else: the
readers here match the text with that terminal, compiled from the grammar, and
take it apart by the terminal's named groups. Each event type reads one line of
its own kind (``Draw.parse("R draw Spark")``), writes it with ``str()`` and shows
it as the notation (``Draw('R draw Spark')``).
"""
from __future__ import annotations

import re
from typing import Callable, NoReturn, Union

from notation.core.errors import NotationError, shorten
from notation.read.grammars import terminal_pattern
from notation.core.limits import MAX_DIGITS, MAX_VALUE_DIGITS, remembered, whole
from notation.core.events import EventTuple

from . import SIDE_NAMES as SIDE_NAMES

GAME = "sanguine"
GRAMMAR = "sanguine.lark"
SIDES = {"R": 0, "B": 1}
#: A score is a sum of at most Rows x Cols card values (each of 9 digits at most).
SCORE_DIGITS = MAX_VALUE_DIGITS + 2 * MAX_DIGITS


class Deal(EventTuple, game=GAME, spelling="{'RB'[side]} deal {' '.join(cards)}"):
    __slots__ = ()
    side: int
    cards: tuple[str, ...]


class Draw(EventTuple, game=GAME, spelling="{'RB'[side]} draw {card}"):
    __slots__ = ()
    side: int
    card: str


class Place(EventTuple, game=GAME, spelling="{'RB'[side]} place {card} ({row},{col})"):
    __slots__ = ()
    side: int
    card: str
    row: int
    col: int

    def mirrored(self, cols: int) -> Place:
        """The same placement, its column counted from the other side of the board."""
        return self._replace(col=cols - 1 - self.col)


class Pass(EventTuple, game=GAME, spelling="{'RB'[side]} pass"):
    __slots__ = ()
    side: int


class Result(EventTuple, game=GAME, spelling="result {red}-{blue} {winner}"):
    __slots__ = ()
    red: int
    blue: int
    winner: str  # red, blue or tie


Event = Union[Deal, Draw, Place, Pass, Result]
Match = Callable[[str], "re.Match[str] | None"]


def _whole_match(terminal: str) -> Match:
    """The grammar's terminal ``terminal``, matching a whole event text."""
    return terminal_pattern(GRAMMAR, terminal).fullmatch


_DEAL = _whole_match("DEAL")
_DRAW = _whole_match("DRAW")
_PLACE = _whole_match("PLACE")
_PASS = _whole_match("PASS")
_RESULT = _whole_match("RESULT")


def read_deal(text: str) -> Deal:
    m = _DEAL(text)
    if m is None:
        refuse(text)
    return Deal(SIDES[m["deal_side"]], tuple(text[m.end("deal_verb"):].split()))


def read_draw(text: str) -> Draw:
    m = _DRAW(text)
    if m is None:
        refuse(text)
    return Draw(SIDES[m["draw_side"]], text[m.end("draw_verb"):].strip())


def read_place(text: str) -> Place:
    m = _PLACE(text)
    if m is None:
        refuse(text)
    return Place(SIDES[m["place_side"]], text[m.end("place_verb"):m.start("place_at")].strip(),
                 whole(m["row"], "row", signed=True), whole(m["col"], "column", signed=True))


def read_pass(text: str) -> Pass:
    m = _PASS(text)
    if m is None:
        refuse(text)
    return Pass(SIDES[m["pass_side"]])


def read_result(text: str) -> Result:
    m = _RESULT(text)
    if m is None:
        refuse(text)
    return Result(whole(m["red"], "red score", digits=SCORE_DIGITS),
                  whole(m["blue"], "blue score", digits=SCORE_DIGITS), m["winner"])


def refuse(text: str) -> NoReturn:
    """A line that is not the event it should be (``BAD_LINE``, or a reader's wrong text)."""
    raise NotationError(diagnose(text))


#: How many event texts each reader remembers: an archive writes the same few hundred
#: draws, placements and passes again and again.
REMEMBERED = 4096

Reader = Callable[[str], Event]


#: A reader for each event terminal of the grammar. Deals and results are
#: rarely written twice: they are read afresh each time.
READERS: dict[str, Reader] = {
    "DEAL": read_deal, "DRAW": remembered(read_draw, REMEMBERED),
    "PLACE": remembered(read_place, REMEMBERED), "PASS": remembered(read_pass, REMEMBERED),
    "RESULT": read_result, "BAD_LINE": refuse,
}


def fills_line(event: Event, /) -> bool:
    """A deal's names run to the end of its line (rules 4.6): nothing but a ``#``
    comment may follow it there (``fmt`` writes its annotations on the lines after)."""
    return isinstance(event, Deal)


#: What each verb's line looks like, for messages.
FORMS = {"deal": "R deal NAME NAME ...", "draw": "R draw NAME",
         "place": "R place NAME (ROW,COL)", "pass": "R pass"}


def diagnose(text: str) -> str:
    """Why ``text``, which starts like an event, is not one (the grammar's ``BAD_LINE``)."""
    words = text.split()
    verb = words[1] if len(words) > 1 else ""
    quoted = repr(shorten(text))
    # Another event after the first on the same line (rules 4.1: one event per line).
    later = [i for i, w in enumerate(words[2:], 2)
             if (w in SIDES and i + 1 < len(words) and words[i + 1] in FORMS)
             or (verb == "pass" and w in FORMS) or w == "result"]
    if verb in FORMS and later:
        return (f"{quoted} holds more than one event; write one event per line "
                f"(expected {FORMS[verb]})")
    if verb in FORMS:
        return f"{quoted} is not a {verb} line; expected {FORMS[verb]}"
    if text.startswith("result"):
        return f"{quoted} is not a result line; expected result RED-BLUE red|blue|tie"
    return (f"{quoted} is not a Sanguine event: expected R or B followed by deal, draw, place "
            f"or pass, or a result line")
