"""Philosophy events as written (rules file sections 6, 8-10)."""
from __future__ import annotations

import re
from typing import NamedTuple, Union

from notation.core.errors import NotationError


class Join(NamedTuple):
    """``In+`` or ``In+:indigo`` (a name with spaces is quoted: ``In+:"Indiana Jones"``)."""

    player: str
    name: str | None = None

    def __str__(self) -> str:
        if self.name is None:
            return f"{self.player}+"
        if re.fullmatch(r'[^\s\[\]{};"]+', self.name):
            return f"{self.player}+:{self.name}"
        return f'{self.player}+:"' + self.name.replace("\\", "\\\\").replace('"', '\\"') + '"'


class Leave(NamedTuple):
    player: str

    def __str__(self) -> str:
        return f"{self.player}-"


class Placement(NamedTuple):
    """``Te:C7ReNe[We]``: who, where, which tile, its facing, and the choices made.

    ``closed`` says the brackets were closed (the writer claims the move is
    complete); ``options`` is the informational list of an incomplete move,
    ``dots`` the number of trailing conclusion dots.
    """

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


class Choice(NamedTuple):
    """A bare choice event: a space name, a direction code, or ``OO`` (off the board)."""

    option: str

    def __str__(self) -> str:
        return self.option


class Respect(NamedTuple):
    player: str

    def __str__(self) -> str:
        return f"R:{self.player}"


class RuleChange(NamedTuple):
    rule: str
    variable: str
    value: str

    def __str__(self) -> str:
        return f"rule:{self.rule}:{self.variable}:{self.value}"


Event = Union[Join, Leave, Placement, Choice, Respect, RuleChange]

_PLACEMENT = re.compile(
    r"([A-Z][a-z]):?([CNESW][A-Za-z0-9])([A-Z][a-z])(No|Ne|Ea|Se|So|Sw|We|Nw)"
    r"(?:(\[)((?:[A-Z][A-Za-z1-9]|OO)*)(\])?)?(?:\(((?:[A-Z][A-Za-z1-9]|OO)*)\))?(\.*)\Z")
_JOIN = re.compile(r'([A-Z][a-z])\+(?::(?:"((?:[^"\\\n]|\\.)*)"|(.+)))?\Z', re.S)


def _pairs(text: str) -> tuple[str, ...]:
    return tuple(text[i:i + 2] for i in range(0, len(text), 2))


def read(kind: str, text: str) -> Event:
    """Build an event from a grammar token (``kind`` is the terminal name)."""
    if kind == "PLACEMENT":
        m = _PLACEMENT.match(text)
        if not m:
            raise NotationError(f"{text!r} is not a placement such as Te:C7ReNe[We]")
        player, space, tile, facing, bracket, params, close, options, dots = m.groups()
        return Placement(player, space, tile, facing, _pairs(params or ""), bool(close),
                         None if options is None else _pairs(options), len(dots))
    if kind == "JOIN":
        m = _JOIN.match(text)
        if not m:
            raise NotationError(f"{text!r} is not a join such as In+ or In+:indigo")
        name = m.group(2)
        if name is not None:
            name = re.sub(r"\\(.)", r"\1", name)
        return Join(m.group(1), name if name is not None else m.group(3))
    if kind == "LEAVE":
        return Leave(text[:2])
    if kind == "CHOICE":
        return Choice(text)
    if kind == "RESPECT":
        return Respect(text[2:])
    if kind == "RULE":
        _, rule, variable, value = text.split(":")
        return RuleChange(rule, variable, value)
    raise NotationError(f"{text!r}: unexpected token {kind}")  # pragma: no cover


def diagnose(text: str) -> str:
    if re.fullmatch(r"[A-Z][a-z]:?\S*", text):
        m = re.match(r"[A-Z][a-z]:?([A-Za-z0-9]{2})?([A-Za-z]{2})?([A-Za-z]{2})?", text)
        facing = m.group(3) if m else None
        if facing and facing not in ("No", "Ne", "Ea", "Se", "So", "Sw", "We", "Nw"):
            return f"unknown direction {facing!r} in {text!r} (No Ne Ea Se So Sw We Nw)"
        return (f"{text!r} is not a placement: expected Xx:SpaceTileFacing, then optional "
                f"[choices] or (options) and conclusion dots, e.g. Te:C7ReNe[We]")
    if text.startswith("rule:"):
        return (f"{text!r} is not a rule change: expected rule:join|leave:"
                f"permitted|where|effect:value")
    if text.startswith("R:"):
        return f"{text!r}: the respect token goes to a player code such as R:In"
    return (f"{text!r} is not a Philosophy event (placement Te:C7ReNe, choice We/C4/OO, "
            f"join In+, leave In-, respect R:In, rule change rule:join:permitted:between_turns)")
