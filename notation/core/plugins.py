"""How a game announces itself: a light declaration behind an entry point, and the
options it adds to some commands (:class:`GameOption`).

A package (built in or third party) adds one entry point to the
``notation.games`` group, named after the game, whose value is its
:class:`GameSpec` (cheap to import: the game itself loads on first use) or a
:class:`~notation.core.game.Game`::

    [project.entry-points."notation.games"]
    tilewe = "notation.games.tilewe:SPEC"

A game declares its options (Flows' ``--tile`` for ``legal``, Sanguine's deal options for
``random``) in its spec; the command line offers every registered game's options
generically and hands the values given to the game, by ``name``. An option of ``random``
is one of the game's set-ups: its name is a tag's in snake case (``corners`` for
``[Corners]``), and ``notation.new`` takes it too; both check a value by the one
declaration (:func:`refusal`).

This module imports next to nothing, so announcing a game costs nothing. It also
reads the installed packages' entry points without ``importlib.metadata``: importing
that library (it brings the ``email`` package) cost more CPU than reading the few
``entry_points.txt`` files of a usual environment, so the folders of ``sys.path`` are
read the way it reads them (the same order, the first distribution of a name wins, the
same text format). Where it would read what is not a plain folder (a zip archive or an
``.egg`` on the path, another finder of distributions, a metadata folder whose name it
would have to look inside to know), it is asked itself; tests hold both answers equal.
"""
from __future__ import annotations

import importlib
import os
import re
import sys
from dataclasses import field
from importlib.machinery import PathFinder
from typing import Any, Callable, Iterable, Mapping, NamedTuple

from .errors import Error, NotationError
from .hand_dataclass import hand_dataclass

# -- a game's options ----------------------------------------------------------------------
@hand_dataclass(frozen=True, slots=True)
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

    def __init__(self, name: str, commands: frozenset[str], help: str, kind: str = "text",
                 choices: tuple[str, ...] = (), low: int | None = None,
                 high: int | None = None, metavar: str | None = None,
                 complete: tuple[str, ...] = (), default: Any = None,
                 aliases: tuple[str, ...] = ()) -> None:
        setting = object.__setattr__
        setting(self, "name", name)
        setting(self, "commands", commands)
        setting(self, "help", help)
        setting(self, "kind", kind)
        setting(self, "choices", choices)
        setting(self, "low", low)
        setting(self, "high", high)
        setting(self, "metavar", metavar)
        setting(self, "complete", complete)
        setting(self, "default", default)
        setting(self, "aliases", aliases)

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


# -- its announcement ---------------------------------------------------------------------

#: The entry-point group games are announced in.
GROUP = "notation.games"


class GameSpec(NamedTuple):
    """Everything about a game known before its code loads: the value of its entry point
    and the one place its metadata is declared (the loaded game reads it from here).

    ``game`` says where the :class:`~notation.core.game.Game` is, as
    ``"module:attribute"``. ``tags`` maps each tag the game reads to its meaning;
    ``directives`` are grammar terminals kept in the record, not events; ``winners``
    is every word a result may name a winner by (None: the game cannot say);
    ``file_tags`` the tags whose value names a file beside the record (Sanguine's decks).
    """

    name: str
    title: str
    extensions: tuple[str, ...]
    grammar: str
    game: str
    tags: Mapping[str, str]
    options: tuple[GameOption, ...] = ()
    grammar_package: str = "notation.grammars"
    directives: frozenset[str] = frozenset()
    events_module: str = ""
    setup_positions: bool = False
    event_per_line: bool = False
    numbered: bool = True
    dialects: tuple[str, ...] = ()
    winners: tuple[str, ...] | None = None
    file_tags: frozenset[str] = frozenset()


# -- entry points of the installed packages, read without importlib.metadata ----------

#: ``module[:attribute][ [extras]]``, as ``importlib.metadata`` reads an entry point's value.
_VALUE = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$")
_SEPARATORS = re.compile(r"[-_.]+")
_INFO_ENDINGS = (".dist-info", ".egg-info")


class EntryPoint(NamedTuple):
    """One announcement: ``name = value`` in ``group``."""

    name: str
    value: str
    group: str

    def load(self) -> object:
        """The object the value names (its module imported)."""
        match = _VALUE.match(self.value)
        if match is None:
            raise ValueError(f"entry point {self.name!r}: cannot read {self.value!r}")
        found: object = importlib.import_module(match.group("module"))
        for attribute in filter(None, (match.group("attr") or "").split(".")):
            found = getattr(found, attribute)
        return found


class NotPlain(Error):
    """Something only ``importlib.metadata`` itself knows how to read (never leaves here)."""


def entry_points(group: str) -> list[EntryPoint]:
    """Every entry point of ``group``, in ``importlib.metadata.entry_points``'s order."""
    try:
        return _scanned(group)
    except NotPlain:
        # Deliberately lazy: the library costs more start-up than the commands' own work.
        import importlib.metadata
        return [EntryPoint(point.name, point.value, group)
                for point in importlib.metadata.entry_points(group=group)]


def _scanned(group: str) -> list[EntryPoint]:
    if any(hasattr(finder, "find_distributions") for finder in sys.meta_path
           if finder is not PathFinder):
        raise NotPlain()
    seen: set[str] = set()
    found: list[EntryPoint] = []
    for entry in sys.path:
        for name, folder in _distributions(entry):
            if name not in seen:
                seen.add(name)
                found += _announced(folder, group)
    return found


def _distributions(entry: str) -> list[tuple[str, str]]:
    """``(normalised name, metadata folder)`` of one ``sys.path`` entry, grouped by name
    in the order of their first appearance (as ``importlib.metadata``'s lookup is)."""
    root = entry or "."
    if os.path.basename(entry).lower().endswith(".egg"):
        raise NotPlain()
    try:
        children = os.listdir(root)
    except NotADirectoryError:
        raise NotPlain() from None
    except OSError:
        return []
    by_name: dict[str, list[str]] = {}
    for child in children:
        if not child.lower().endswith(_INFO_ENDINGS):
            continue
        if not child.endswith(_INFO_ENDINGS):
            raise NotPlain()  # (``X.DIST-INFO``: its name would be read from its metadata)
        name = _SEPARATORS.sub("-", child.rpartition(".")[0].partition("-")[0])
        if not name:
            raise NotPlain()  # (no name in the folder's: read from its metadata)
        name = name.lower().replace("-", "_")
        by_name.setdefault(name, []).append(os.path.join(entry, child))
    return [(name, folder) for name, folders in by_name.items() for folder in folders]


def _announced(folder: str, group: str) -> list[EntryPoint]:
    """The entry points of ``group`` in one metadata folder's ``entry_points.txt``."""
    try:
        with open(os.path.join(folder, "entry_points.txt"), encoding="utf-8") as handle:
            text = handle.read()
    except OSError:
        return []
    points: list[EntryPoint] = []
    section: str | None = None
    for line in map(str.strip, text.splitlines()):
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line.strip("[]")
        elif section is not None:
            if "=" not in line:
                raise NotPlain()  # (the library refuses the whole environment: let it say so)
            name, _, value = line.partition("=")
            if section == group:
                points.append(EntryPoint(name.strip(), value.strip(), group))
    return points
