"""Philosophy events as written (rules file sections 6, 8-10).

Each event's shape is its terminal in ``philosophy.lark``; the readers here take a
token apart with that terminal's named groups and never spell the shape again.
Every event type reads one event strictly (``Placement.parse("Te:C7ReNe[We]")``),
writes it back with ``str()`` and shows it as written (``Choice('We')``). Events of
different types never compare equal, though some hold the same fields (``In-``, ``R:In``).
"""
from __future__ import annotations

import re
from typing import Callable, Union

from notation.core.errors import NotationError
from notation.read.grammars import terminal_pattern
from notation.core.events import EventTuple
from notation.core.limits import remembered

from .geometry import DIR_INDEX, DIRECTIONS

GRAMMAR = "philosophy.lark"
GAME = "philosophy"
_PLACEMENT = terminal_pattern(GRAMMAR, "PLACEMENT")
_JOIN = terminal_pattern(GRAMMAR, "JOIN")
_LEAVE = terminal_pattern(GRAMMAR, "LEAVE")
_RESPECT = terminal_pattern(GRAMMAR, "RESPECT")
_RULE = terminal_pattern(GRAMMAR, "RULE")
_ESCAPED = re.compile(r"\\(.)")


def written_name(name: str) -> str:
    """A display name as a join writes it: bare when it reads back so, else quoted."""
    m = _JOIN.fullmatch(f"Xx+:{name}")
    if m is not None and m["name"] == name:
        return name
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


class Join(EventTuple, game=GAME,
           spelling="{player}+{'' if name is None else ':' + written_name(name)}"):
    """``In+`` or ``In+:indigo`` (a name with spaces is quoted: ``In+:"Indiana Jones"``)."""

    __slots__ = ()
    player: str
    name: str | None = None


class Leave(EventTuple, game=GAME, spelling="{player}-"):
    """``In-``: a player leaves (or concedes)."""

    __slots__ = ()
    player: str


class Placement(EventTuple, game=GAME):
    """``Te:C7ReNe[We]``: who, where, which tile, its facing, and the choices made.

    ``closed`` says the brackets were closed (the writer claims the move is
    complete); ``options`` is the informational list of an incomplete move,
    ``dots`` the number of trailing conclusion dots.
    """

    __slots__ = ()
    player: str
    space: str
    tile: str
    facing: str
    params: tuple[str, ...] = ()
    closed: bool = False
    options: tuple[str, ...] | None = None
    dots: int = 0

    def __str__(self) -> str:
        text = f"{self.player}:{self.space}{self.tile}{self.facing}"
        if self.params:
            text += "[" + "".join(self.params) + ("]" if self.closed else "")
        if self.options is not None:
            text += "(" + "".join(self.options) + ")"
        return text + "." * self.dots


class Choice(EventTuple, game=GAME, spelling="{option}"):
    """A bare choice event: a space name, a direction code, or ``OO`` (off the board)."""

    __slots__ = ()
    option: str


class Respect(EventTuple, game=GAME, spelling="R:{player}"):
    """``R:In``: the respect token passes to a player."""

    __slots__ = ()
    player: str


class RuleChange(EventTuple, game=GAME, spelling="rule:{rule}:{variable}:{value}"):
    """``rule:join:permitted:between_turns``: a rule variant takes a new value."""

    __slots__ = ()
    rule: str
    variable: str
    value: str


Event = Union[Join, Leave, Placement, Choice, Respect, RuleChange]


def _pairs(text: str) -> tuple[str, ...]:
    return tuple(text[i:i + 2] for i in range(0, len(text), 2))


def _match(pattern: re.Pattern[str], text: str, example: str) -> re.Match[str]:
    m = pattern.fullmatch(text)
    if m is None:
        raise NotationError(f"{text!r} is not {example}")
    return m


def read_placement_text(text: str) -> Placement:
    """The placement written as ``text``, taken apart by the PLACEMENT terminal."""
    m = _PLACEMENT.fullmatch(text)  # not through _match: this is the reader's busiest line
    if m is None:
        raise NotationError(f"{text!r} is not a placement such as Te:C7ReNe[We]")
    player, space, tile, facing, params, closed, options, dots = m.group(
        "player", "space", "tile", "facing", "params", "closed", "options", "dots")
    return Placement(player, space, tile, facing, _pairs(params) if params else (),
                     closed is not None, None if options is None else _pairs(options), len(dots))


#: The placement written as a text, remembering those already read: an archive repeats
#: the same few thousand (a placement is immutable, so one object serves every game).
read_placement: Callable[[str], Placement] = remembered(read_placement_text, 8192)


def read_choice(text: str) -> Choice:
    return Choice(text)  # the CHOICE terminal's whole text is the option


def read_join(text: str) -> Join:
    m = _match(_JOIN, text, "a join such as In+ or In+:indigo")
    quoted = m["quoted"]
    return Join(m["joiner"], m["name"] if quoted is None else _ESCAPED.sub(r"\1", quoted))


def read_leave(text: str) -> Leave:
    return Leave(_match(_LEAVE, text, "a leave such as In-")["leaver"])


def read_respect(text: str) -> Respect:
    return Respect(_match(_RESPECT, text, "a respect pass such as R:In")["holder"])


def read_rule_change(text: str) -> RuleChange:
    m = _match(_RULE, text, "a rule change such as rule:join:permitted:between_turns")
    return RuleChange(m["rule"], m["variable"], m["value"])


#: The reader of each event terminal of the grammar.
READERS: dict[str, Callable[[str], Event]] = {
    "PLACEMENT": read_placement,
    "CHOICE": read_choice,
    "JOIN": read_join,
    "LEAVE": read_leave,
    "RESPECT": read_respect,
    "RULE": read_rule_change,
}


def read(kind: str, text: str) -> Event:
    """Build an event from a grammar token (``kind`` is the terminal name)."""
    reader = READERS.get(kind)
    if reader is None:
        raise NotationError(f"{text!r}: unexpected token {kind}")
    return reader(text)


def glyph_blank(event: Event, /) -> bool:
    """Whether ``fmt`` writes a blank before an event's glyph: a joiner's unquoted name
    would take a glyph in (``In+:indigo!``)."""
    return isinstance(event, Join) and not str(event).endswith(('"', "+"))


_LOOKS_PLACED = re.compile(r"[A-Z][a-z]:?\S*")
_PIECES = re.compile(r"[A-Z][a-z]:?([A-Za-z0-9]{2})?([A-Za-z]{2})?([A-Za-z]{2})?")


def diagnose(text: str) -> str:
    """Why ``text``, which no event terminal took, is not an event: the nearest form's hint."""
    if _LOOKS_PLACED.fullmatch(text):
        m = _PIECES.match(text)
        facing = m.group(3) if m else None
        if facing and facing not in DIR_INDEX:
            return f"unknown direction {facing!r} in {text!r} ({' '.join(DIRECTIONS)})"
        return (f"{text!r} is not a placement: expected Xx:SpaceTileFacing, then optional "
                f"[choices] or (options) and conclusion dots, e.g. Te:C7ReNe[We]")
    if text.startswith("rule:"):
        return (f"{text!r} is not a rule change: expected rule:join|leave:"
                f"permitted|where|effect:value")
    if text.startswith("R:"):
        return f"{text!r}: the respect token goes to a player code such as R:In"
    return (f"{text!r} is not a Philosophy event (placement Te:C7ReNe, choice We/C4/OO, "
            f"join In+, leave In-, respect R:In, rule change rule:join:permitted:between_turns)")
