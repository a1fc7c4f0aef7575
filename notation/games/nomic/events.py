"""Events of the nomic exploration game's records (see the README).

``str(event)`` writes an event's canonical text and ``repr`` shows it as
written (``Vote('vote Bob yes')``); ``Vote.parse("vote Bob yes")`` reads one
event strictly. Reading takes a token apart with its own terminal of
``nomic.lark``, compiled: the grammar is the one place where an event's shape
is written.
"""
from __future__ import annotations

from re import Match
from typing import Callable, NoReturn, TypeAlias

from notation.core.errors import NotationError
from notation.read.grammars import terminal_pattern
from notation.core.limits import whole
from notation.core.events import EventTuple

GRAMMAR = "nomic.lark"
GAME = "nomic"
Coord = tuple[int, int]


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def unescape(inner: str) -> str:
    """A quoted text's content (the grammar's _TEXT group): ``\\n`` is a line break,
    any other ``\\X`` is ``X``."""
    if "\\" not in inner:
        return inner
    parts: list[str] = []
    at = 0
    while (escape := inner.find("\\", at)) >= 0:
        letter = inner[escape + 1]
        parts += (inner[at:escape], "\n" if letter == "n" else letter)
        at = escape + 2
    parts.append(inner[at:])
    return "".join(parts)


def coord_text(c: Coord) -> str:
    return f"({c[0]},{c[1]})"


class Round(EventTuple, game=GAME, spelling="round {number}"):
    __slots__ = ()
    number: int


class Join(EventTuple, game=GAME, spelling="join {name}"):
    __slots__ = ()
    name: str


class Turn(EventTuple, game=GAME, spelling="turn {name}"):
    __slots__ = ()
    name: str


class Roll(EventTuple, game=GAME, spelling="roll {' '.join(map(str, values))}"):
    __slots__ = ()
    values: tuple[int, ...]


class Move(EventTuple, game=GAME):
    """A path of compass steps, a destination, or both (they must agree)."""

    __slots__ = ()
    steps: str | None
    to: Coord | None

    def __str__(self) -> str:
        if self.to is None:
            return f"move {self.steps}"
        via = f" via {self.steps}" if self.steps else ""
        return f"move to {coord_text(self.to)}{via}"


class Reveal(EventTuple, game=GAME, spelling="reveal {coord_text(at)} {resource}"):
    __slots__ = ()
    at: Coord
    resource: str


class Propose(EventTuple, game=GAME,
              spelling="propose {kind} {number}{'' if text is None else ' ' + quote(text)}"):
    __slots__ = ()
    kind: str  # enact, repeal or amend
    number: int
    text: str | None = None


class Vote(EventTuple, game=GAME, spelling="vote {name} {'yes' if yes else 'no'}"):
    __slots__ = ()
    name: str
    yes: bool


class Outcome(EventTuple, game=GAME, spelling="{'adopted' if adopted else 'failed'}"):
    __slots__ = ()
    adopted: bool


class Invoke(EventTuple, game=GAME, spelling="invoke {name} {quote(question)}"):
    __slots__ = ()
    name: str
    question: str


class Judgment(EventTuple, game=GAME, spelling="judgment {number} {judge} {quote(ruling)}"):
    __slots__ = ()
    number: int
    judge: str
    ruling: str


class Note(EventTuple, game=GAME, spelling="note {quote(text)}"):
    __slots__ = ()
    text: str


class End(EventTuple, game=GAME, spelling="end"):
    __slots__ = ()


Event: TypeAlias = (Round | Join | Turn | Roll | Move | Reveal | Propose | Vote | Outcome | Invoke
                    | Judgment | Note | End)


# -- reading: each terminal's groups, in the order nomic.lark writes them ---------------------

Reader: TypeAlias = Callable[[str], Event]
Matcher: TypeAlias = Callable[[str], Match[str] | None]


def _refuse(text: str) -> NoReturn:
    raise NotationError(diagnose(text))


def _round(match: Matcher) -> Reader:
    def read_round(text: str) -> Event:
        return Round(whole((match(text) or _refuse(text))[1], "round number", signed=True))
    return read_round


def _join(match: Matcher) -> Reader:
    def read_join(text: str) -> Event:
        return Join((match(text) or _refuse(text))[1])
    return read_join


def _turn(match: Matcher) -> Reader:
    def read_turn(text: str) -> Event:
        return Turn((match(text) or _refuse(text))[1])
    return read_turn


def _roll(match: Matcher) -> Reader:
    def read_roll(text: str) -> Event:
        match(text) or _refuse(text)
        # A repeated group keeps only its last die: the dice are the words after "roll".
        return Roll(tuple([whole(die, "die value", signed=True) for die in text.split()[1:]]))
    return read_roll


def _move(match: Matcher) -> Reader:
    def read_move(text: str) -> Event:
        x, y, via, steps = (match(text) or _refuse(text)).groups()
        if x is None:
            return Move(steps, None)
        return Move(via, (whole(x, "x", signed=True), whole(y, "y", signed=True)))
    return read_move


def _reveal(match: Matcher) -> Reader:
    def read_reveal(text: str) -> Event:
        x, y, resource = (match(text) or _refuse(text)).groups()
        return Reveal((whole(x, "x", signed=True), whole(y, "y", signed=True)), resource)
    return read_reveal


def _propose(match: Matcher) -> Reader:
    def read_propose(text: str) -> Event:
        kind, number, quoted, repeal, repealed = (match(text) or _refuse(text)).groups()
        if kind is None:
            return Propose(repeal, whole(repealed, "rule number", signed=True))
        return Propose(kind, whole(number, "rule number", signed=True), unescape(quoted))
    return read_propose


def _vote(match: Matcher) -> Reader:
    def read_vote(text: str) -> Event:
        name, vote = (match(text) or _refuse(text)).groups()
        return Vote(name, vote == "yes")
    return read_vote


def _outcome(match: Matcher) -> Reader:
    def read_outcome(text: str) -> Event:
        return Outcome((match(text) or _refuse(text))[1] == "adopted")
    return read_outcome


def _invoke(match: Matcher) -> Reader:
    def read_invoke(text: str) -> Event:
        name, question = (match(text) or _refuse(text)).groups()
        return Invoke(name, unescape(question))
    return read_invoke


def _judgment(match: Matcher) -> Reader:
    def read_judgment(text: str) -> Event:
        number, judge, ruling = (match(text) or _refuse(text)).groups()
        return Judgment(whole(number, "rule number", signed=True), judge, unescape(ruling))
    return read_judgment


def _note(match: Matcher) -> Reader:
    def read_note(text: str) -> Event:
        return Note(unescape((match(text) or _refuse(text))[1]))
    return read_note


def _end(match: Matcher) -> Reader:
    def read_end(text: str) -> Event:
        match(text) or _refuse(text)
        return End()
    return read_end


#: For each event terminal, how its reader is made from the terminal's compiled pattern.
MAKERS: dict[str, Callable[[Matcher], Reader]] = {
    "ROUND": _round, "JOIN": _join, "TURN": _turn, "ROLL": _roll, "MOVE": _move,
    "REVEAL": _reveal, "PROPOSE": _propose, "VOTE": _vote, "OUTCOME": _outcome,
    "INVOKE": _invoke, "JUDGMENT": _judgment, "NOTE": _note, "END_EVENT": _end,
}


class Readers(dict[str, Reader]):
    """The reader of each terminal's tokens, by terminal name. A reader is made when its
    terminal is first asked for, so loading the game does not load the grammar; BAD_LINE
    (an event word opening a line that is no event) reads as its diagnosis."""

    def __missing__(self, kind: str) -> Reader:
        found: Reader = _refuse if kind == "BAD_LINE" else MAKERS[kind](
            terminal_pattern(GRAMMAR, kind).match)
        self[kind] = found
        return found


#: ``READERS[kind](text)``: the event a token of terminal ``kind`` denotes, or
#: :class:`NotationError`.
READERS = Readers()


def read(kind: str, text: str) -> Event:
    """The event a token of terminal ``kind`` denotes; :class:`NotationError` if none."""
    return READERS[kind](text)


def is_name(text: str) -> bool:
    """Whether ``text`` is a player name: what a ``join`` event takes."""
    return terminal_pattern(GRAMMAR, "JOIN").fullmatch("join " + text) is not None


# -- diagnosis --------------------------------------------------------------------------------

#: Every event word, in the order messages list them, with the form its line takes (None:
#: the word alone is the event, so a line that begins with it is never a BAD_LINE).
FORMS: dict[str, str | None] = {
    "round": "round N", "join": "join NAME", "turn": "turn NAME", "roll": "roll D [D ...]",
    "move": "move STEPS (N/E/S/W letters), move to (X,Y) or move to (X,Y) via STEPS",
    "reveal": "reveal (X,Y) Wood|Metal|Water|Food",
    "propose": 'propose enact N "text", propose repeal N or propose amend N "text"',
    "vote": "vote NAME yes|no", "adopted": None, "failed": None,
    "invoke": 'invoke NAME "question"', "judgment": 'judgment N JUDGE "ruling"',
    "note": 'note "text"', "end": None,
}


def diagnose(text: str) -> str:
    """Why ``text`` is no event: the form a line of its first word takes, else every word."""
    words = text.split()
    word = words[0] if words else ""
    form = FORMS.get(word)
    if form is not None:
        return f"{text!r} is not a {word} line; expected {form}"
    return f"{text!r} is not an event ({', '.join(FORMS)})"
