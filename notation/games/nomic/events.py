"""Events of the nomic exploration game's records (see the README)."""
from __future__ import annotations

import re
from typing import NamedTuple, Union

from notation.core.errors import NotationError
from notation.core.limits import whole

Coord = tuple[int, int]


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def unquote(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), text[1:-1])


def coord_text(c: Coord) -> str:
    return f"({c[0]},{c[1]})"


class Round(NamedTuple):
    number: int

    def __str__(self) -> str:
        return f"round {self.number}"


class Join(NamedTuple):
    name: str

    def __str__(self) -> str:
        return f"join {self.name}"


class Turn(NamedTuple):
    name: str

    def __str__(self) -> str:
        return f"turn {self.name}"


class Roll(NamedTuple):
    values: tuple[int, ...]

    def __str__(self) -> str:
        return "roll " + " ".join(map(str, self.values))


class Move(NamedTuple):
    """A path of compass steps, a destination, or both (they must agree)."""

    steps: str | None
    to: Coord | None

    def __str__(self) -> str:
        if self.to is None:
            return f"move {self.steps}"
        via = f" via {self.steps}" if self.steps else ""
        return f"move to {coord_text(self.to)}{via}"


class Reveal(NamedTuple):
    at: Coord
    resource: str

    def __str__(self) -> str:
        return f"reveal {coord_text(self.at)} {self.resource}"


class Propose(NamedTuple):
    kind: str  # enact, repeal or amend
    number: int
    text: str | None = None

    def __str__(self) -> str:
        tail = f" {quote(self.text)}" if self.text is not None else ""
        return f"propose {self.kind} {self.number}{tail}"


class Vote(NamedTuple):
    name: str
    yes: bool

    def __str__(self) -> str:
        return f"vote {self.name} {'yes' if self.yes else 'no'}"


class Outcome(NamedTuple):
    adopted: bool

    def __str__(self) -> str:
        return "adopted" if self.adopted else "failed"


class Invoke(NamedTuple):
    name: str
    question: str

    def __str__(self) -> str:
        return f"invoke {self.name} {quote(self.question)}"


class Judgment(NamedTuple):
    number: int
    judge: str
    ruling: str

    def __str__(self) -> str:
        return f"judgment {self.number} {self.judge} {quote(self.ruling)}"


class Note(NamedTuple):
    text: str

    def __str__(self) -> str:
        return f"note {quote(self.text)}"


class End(NamedTuple):
    def __str__(self) -> str:
        return "end"


Event = Union[Round, Join, Turn, Roll, Move, Reveal, Propose, Vote, Outcome, Invoke, Judgment,
              Note, End]
_COORD = re.compile(r"\(\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*\)")
_TEXT = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"')


def _coord(text: str) -> Coord:
    m = _COORD.search(text)
    return whole(m.group(1), "x", signed=True), whole(m.group(2), "y", signed=True)


def read(kind: str, text: str) -> Event:
    words = text.split()
    if kind == "BAD_LINE":
        raise NotationError(diagnose(text))
    if kind == "ROUND":
        return Round(whole(words[1], "round number", signed=True))
    if kind == "JOIN":
        return Join(words[1])
    if kind == "TURN":
        return Turn(words[1])
    if kind == "ROLL":
        return Roll(tuple(whole(w, "die value", signed=True) for w in words[1:]))
    if kind == "MOVE":
        if words[1] != "to" and not words[1].startswith("to("):
            return Move(words[1], None)
        via = re.search(r"\bvia\s+([NESW]+)", text)
        return Move(via.group(1) if via else None, _coord(text))
    if kind == "REVEAL":
        return Reveal(_coord(text), words[-1])
    if kind == "PROPOSE":
        m = _TEXT.search(text)
        return Propose(words[1], whole(words[2], "rule number", signed=True),
                       unquote(m.group()) if m else None)
    if kind == "VOTE":
        return Vote(words[1], words[2] == "yes")
    if kind == "OUTCOME":
        return Outcome(text == "adopted")
    if kind == "INVOKE":
        return Invoke(words[1], unquote(_TEXT.search(text).group()))
    if kind == "JUDGMENT":
        return Judgment(whole(words[1], "rule number", signed=True), words[2],
                        unquote(_TEXT.search(text).group()))
    if kind == "NOTE":
        return Note(unquote(_TEXT.search(text).group()))
    return End()


_FORMS = {
    "round": "round N", "join": "join NAME", "turn": "turn NAME", "roll": "roll D [D ...]",
    "move": "move STEPS (N/E/S/W letters), move to (X,Y) or move to (X,Y) via STEPS",
    "reveal": "reveal (X,Y) Wood|Metal|Water|Food",
    "propose": 'propose enact N "text", propose repeal N or propose amend N "text"',
    "vote": "vote NAME yes|no", "invoke": 'invoke NAME "question"',
    "judgment": 'judgment N JUDGE "ruling"', "note": 'note "text"',
}


def diagnose(text: str) -> str:
    word = text.split()[0] if text.split() else ""
    if word in _FORMS:
        return f"{text!r} is not a {word} line; expected {_FORMS[word]}"
    return (f"{text!r} is not an event (round, join, turn, roll, move, reveal, propose, vote, "
            f"adopted, failed, invoke, judgment, note, end)")
