"""Options a game adds to some commands.

A game declares them (Flows' ``--tile`` for ``legal``, Sanguine's deal
options for ``random``); the command line offers every registered game's
options generically and hands the values given to the game, by ``name``.
An option of ``random`` is one of the game's set-ups: its name is a tag's in
snake case (``corners`` for ``[Corners]``), and ``notation.new`` takes it too;
both check a value by the one declaration (:func:`refusal`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

from .errors import NotationError


@dataclass(frozen=True, slots=True)
class GameOption:
    """One ``--flag`` a game adds to the commands named in ``commands``.

    ``kind`` is ``"int"`` (within ``low``..``high``), ``"choice"`` (one of
    ``choices``), ``"flag"`` (no value) or ``"text"``. The value reaches the
    game as the keyword ``name`` of the method the command calls.
    """

    name: str
    commands: frozenset[str]
    help: str
    kind: str = "text"
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    metavar: str | None = None
    #: The values a shell may complete (``P1``..``P6`` for Flows' ``--perspective``).
    complete: tuple[str, ...] = field(default=())
    #: What a random game takes when the option is not given (written into its record:
    #: Tilewe's four players); None: the game's own default, unwritten.
    default: Any = None
    #: Other names it is also given by, spellings kept from before (Sanguine's ``red`` for
    #: ``red_deck``, ``--red`` on the command line): :func:`under_names` reads them as
    #: ``name``, the one the game reads.
    aliases: tuple[str, ...] = ()

    @property
    def flag(self) -> str:
        """The option as typed: ``--hand-size`` for ``hand_size``."""
        return _flag(self.name)

    @property
    def flags(self) -> tuple[str, ...]:
        """Every way the command line takes it: :attr:`flag`, then its aliases'."""
        return (self.flag, *map(_flag, self.aliases))

    @property
    def allowed(self) -> str:
        """The values it takes, in words: ``1 to 4``, ``2``, ``at least 1``, ``any or fixed``."""
        if self.kind == "choice":
            return " or ".join((", ".join(self.choices[:-1]), self.choices[-1])) \
                if len(self.choices) > 1 else "".join(self.choices)
        if self.kind == "int":
            if self.low is not None and self.low == self.high:
                return str(self.low)
            if self.low is not None and self.high is not None:
                return f"{self.low} to {self.high}"
            if self.low is not None:
                return f"at least {self.low}"
            if self.high is not None:
                return f"at most {self.high}"
            return "a whole number"
        return "a flag" if self.kind == "flag" else "any text"

    def takes(self, value: Any) -> bool:
        """Whether ``value`` is one of the option's values (text is any; a number may come
        as its digits, as a tag's value does)."""
        if self.kind == "choice":
            return str(value) in self.choices
        if self.kind == "int":
            number = whole_number(value)
            return number is not None and (self.low is None or number >= self.low) \
                and (self.high is None or number <= self.high)
        return True


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


_NUMBER = re.compile(r"\s*-?\d{1,9}\s*")


def whole_number(value: Any) -> int | None:
    """A whole number given as one, or as its digits; None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    return int(value) if isinstance(value, str) and _NUMBER.fullmatch(value) else None


def _tag_text(option: GameOption, value: Any) -> bool:
    """Text that is no number, given for a number option: the tag's own value (nomic's
    players by name), which the game judges when it starts."""
    return option.kind == "int" and isinstance(value, str) and not _NUMBER.fullmatch(value)


def setup_options(declared: Iterable[GameOption]) -> dict[str, GameOption]:
    """A game's set-up options (those ``random`` offers, ``notation.new`` takes), by name."""
    return {option.name: option for option in declared if "random" in option.commands}


def refusal(game: str, option: GameOption, value: Any,
            spell: Callable[[GameOption], str] = lambda option: option.name + "=") -> str | None:
    """Why ``value`` is not one ``game`` takes for ``option``, naming those it takes
    (``--players 9: tilewe takes 1 to 4``), or None. ``spell``: how the option
    is written where it was given (``--players `` on the command line, ``players=`` in
    Python)."""
    if option.takes(value):
        return None
    name = spell(option)
    shown = repr(value) if name.endswith("=") else str(value)
    return f"{name}{shown}: {game} takes {option.allowed}"


def under_names(game: str, declared: Iterable[GameOption],
                values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` with each one given by an alias of an option under the option's name;
    :class:`NotationError` for an option given by two of its names."""
    names = {alias: option.name for option in declared for alias in option.aliases}
    named: dict[str, Any] = {}
    for given, value in values.items():
        name = names.get(given, given)
        if name in named:
            raise NotationError(f"{game}: {given} is another name of {name}: give one of them")
        named[name] = value
    return named


def check_setup(game: str, declared: Iterable[GameOption], values: Mapping[str, Any],
                spell: Callable[[GameOption], str] = lambda option: option.name + "=") -> None:
    """Every value of a set-up option ``game`` declares, checked by its declaration;
    :class:`NotationError` for the first it does not take (values of other names are
    tags' own: the game judges them when it starts)."""
    known = setup_options(declared)
    for name, value in values.items():
        option = known.get(name)
        if option is None or value is None or _tag_text(option, value):
            continue
        why = refusal(game, option, value, spell)
        if why is not None:
            raise NotationError(why)
