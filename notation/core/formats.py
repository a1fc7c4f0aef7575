"""Record formats other than the games' own notation: files another program writes
(Pentobi's Blokus SGF) or a published interchange form (JSON records).

A format reads a file into ordinary :class:`~notation.core.ast.GameNode` objects (tags,
items with the file's line and column numbers, variations, comments, annotations), so
every command works on it as on a native record, and writes a record back
(``notation convert --to NAME``). A file is the format's when its name ends with one of
the format's extensions or its first characters are the format's own (``(;GM[Blokus]``),
so a renamed file is still recognised.

Formats are plug-ins, announced the way games are, under the entry-point group
``notation.formats``; the announcement (:class:`FormatPlugin`) is cheap, the format's code
is imported when a file of it comes::

    [project.entry-points."notation.formats"]
    blksgf = "notation.games.tilewe:BLKSGF"
"""
from __future__ import annotations

import importlib
import re
from abc import ABC, abstractmethod
from .plugins import entry_points
from typing import Any, Generic, Iterable, Iterator, NamedTuple, TypeVar


from notation.read.compression import MAGIC_BYTES, decompressed, plain_name
from .errors import Error, InputError, NotationError
from .game import AnyGame
from .protocols import RecordView

#: The records a format reads and writes: the tree's (:class:`~notation.core.tree.GameNode`),
#: which sits above this registry (a format's module names it: ``RecordFormat[GameNode]``).
RecordT = TypeVar("RecordT", bound=RecordView)

#: The entry-point group formats are announced in.
GROUP = "notation.formats"
#: How much of a file's start :meth:`FormatPlugin.claims` looks at.
HEAD = 4096


class FormatPlugin(NamedTuple):
    """A format known by name, extensions and the look of its first characters before its
    code is imported. ``signature``: a regular expression matched at the start of a file
    (after blanks and a byte-order mark); ``format``: ``"module:attribute"`` of the
    :class:`RecordFormat` instance."""

    name: str
    extensions: tuple[str, ...]
    signature: str
    format: str
    title: str = ""

    def claims(self, source: str, head: str) -> bool:
        """Whether a file named ``source`` starting with ``head`` (decompressed) is of this
        format; a compression ending (``x.blksgf.gz``) does not hide the format's."""
        if plain_name(source).lower().endswith(self.extensions):
            return True
        return re.match(self.signature, head.lstrip("\ufeff \t\r\n")[:HEAD]) is not None


#: The JSON records the project itself publishes (:mod:`notation.formats`), announced here
#: (the ``json`` entry point): a run, which reads this module anyway, knows them without
#: importing that package.
JSON_RECORDS = FormatPlugin(
    "json", (".notation.json", ".notation.jsonl"),
    r'\{[ \t\r\n]*"format"[ \t\r\n]*:[ \t\r\n]*"notation-record"',
    "notation.formats.jsonrecord:FORMAT", "JSON records (schemas/record.schema.json)")


class CannotWrite(NotationError):
    """A valid record a format cannot hold (Pentobi's files: two colours only, say): a
    problem of that record, said with the reason; nothing of its file is written."""


class RecordFormat(ABC, Generic[RecordT]):
    """Reading and writing records in one format."""

    name: str = ""
    #: Why a file of this format should hold one game, where its programs read no more
    #: (``convert --to`` warns of several, and ``--split`` writes one file a game); "" when
    #: a file holds any number.
    one_game_a_file: str = ""

    @abstractmethod
    def records(self, text: Iterable[str], source: str,
                game: AnyGame | None = None) -> Iterator[RecordT]:
        """The records of a file's text (``text``: its chunks, whole lines each), with the
        file's line and column numbers. Bad content never raises: it is in the records
        (a ``game_problem``, or ``Malformed`` items); ``game``: the one ``--game`` named."""

    def pieces(self, text: Iterable[str],
               source: str) -> Iterator[tuple[int, int, str]] | None:
        """The file's text cut between its games, as ``(line, column, text)`` pieces for
        batches read elsewhere (:meth:`records` reads a run of them as it reads a file;
        ``source`` names the file in errors); None for a format that cannot cut (its
        file is one batch)."""
        return None

    def write(self, record: RecordT) -> str:
        """A valid record in this format (the file's text for it, ending in a newline);
        :class:`NotationError` saying why for a record the format cannot hold."""
        raise NotationError(f"{self.name} files cannot be written")


_PLUGINS: dict[str, FormatPlugin] = {}
_LOADED: dict[str, RecordFormat[Any]] = {}
_FOUND = False


def announce(plugin: FormatPlugin) -> None:
    """Make a format known (what an entry point does; tests and embedders may call it)."""
    _PLUGINS[plugin.name] = plugin
    _LOADED.pop(plugin.name, None)


def withdraw(name: str) -> None:
    """Forget a format (an announcement undone)."""
    _PLUGINS.pop(name, None)
    _LOADED.pop(name, None)


def _discover() -> None:
    global _FOUND
    if _FOUND:
        return
    _FOUND = True
    for point in entry_points(group=GROUP):
        found = point.load()
        if not isinstance(found, FormatPlugin):
            raise Error(f"entry point {point.name} of {GROUP} is not a FormatPlugin")
        _PLUGINS.setdefault(found.name, found)


def plugins() -> list[FormatPlugin]:
    """Every announced format, by name."""
    _discover()
    return [_PLUGINS[name] for name in sorted(_PLUGINS)]


def extensions() -> tuple[str, ...]:
    """Every format's file extensions (a folder given to a command is searched for them)."""
    return tuple(ext for plugin in plugins() for ext in plugin.extensions)


def get(name: str) -> RecordFormat[Any] | None:
    """The format called ``name``, loaded; None when there is none."""
    _discover()
    plugin = _PLUGINS.get(name)
    if plugin is None:
        return None
    if name not in _LOADED:
        module, _, attribute = plugin.format.partition(":")
        found = getattr(importlib.import_module(module), attribute)
        if not isinstance(found, RecordFormat):
            raise Error(f"format {name}: {plugin.format} is not a RecordFormat")
        _LOADED[name] = found
    return _LOADED[name]


def claiming(source: str, head: str) -> RecordFormat[Any] | None:
    """The format of a file named ``source`` whose text starts with ``head``, or None for
    the games' own notation."""
    for plugin in plugins():
        if plugin.claims(source, head):
            return get(plugin.name)
    return None


def of_file(path: str) -> str | None:
    """The name of the format a file on disk is in (None: the games' own notation, or a
    file that cannot be read: its reader will say so)."""
    try:
        with open(path, "rb") as handle:
            raw = decompressed(handle.read(MAGIC_BYTES), handle, path).read(HEAD)
    except (OSError, InputError):
        return None
    head = raw.decode("utf-8", errors="replace")
    return next((p.name for p in plugins() if p.claims(path, head)), None)


def names() -> list[str]:
    return [plugin.name for plugin in plugins()]


__all__ = ["CannotWrite", "FormatPlugin", "RecordFormat", "announce", "claiming", "extensions", "get",
           "names", "of_file", "plugins", "withdraw"]
