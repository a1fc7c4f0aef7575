"""How a game announces itself: a light declaration behind an entry point.

A package (built in or third party) adds one entry point to the
``notation.games`` group, named after the game, whose value is its
:class:`GameSpec` (cheap to import: the game itself loads on first use) or a
:class:`~notation.core.game.Game`::

    [project.entry-points."notation.games"]
    tilewe = "notation.games.tilewe:SPEC"

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
from importlib.machinery import PathFinder
from typing import Mapping, NamedTuple

from .errors import Error
from .options import GameOption

#: The entry-point group games are announced in.
GROUP = "notation.games"


class GameSpec(NamedTuple):
    """Everything about a game known before its code loads: the value of its entry point
    and the one place its metadata is declared (the loaded game reads it from here).

    ``game`` says where the :class:`~notation.core.game.Game` is, as
    ``"module:attribute"``. ``tags`` maps each tag the game reads to its meaning;
    ``directives`` are grammar terminals kept in the record, not events; ``winners``
    is every word a result may name a winner by (None: the game cannot say).
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
