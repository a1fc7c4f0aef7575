"""An archive cut into files (``notation split``): N games per file, or one file per tag value.

Pieces are named ``PREFIX-0001.EXT``, ... or ``PREFIX-VALUE.EXT``; existing
files are never overwritten, and nothing is made unless every piece is
(:class:`Pieces`).
"""
from __future__ import annotations

import hashlib
import os
import re
from collections import Counter, OrderedDict
from types import TracebackType
from typing import Callable, NoReturn, TypeVar

from notation.core.tree import GameNode
from notation.core import registry

from notation.read.compression import plain_name

from notation.core.errors import WriteError
from notation.save.files import AtomicFile, made_folders, remove_file, remove_folders, sync_folder
from notation.save.sink import game_text

#: split keeps at most this many pieces open at once; the others are closed and reopened
#: (in append mode) when their next game comes, so any number of pieces fits in a small
#: limit of open files.
OPEN_PIECES = 64
#: A tag value names its piece as it is when it is this long at most and made of these
#: characters; any other value is made safe, cut and followed by ``+`` and a hash.
NAME_CHARS, HASH_DIGITS = 100, 16
SAFE_NAME = re.compile(r"[A-Za-z0-9._-]{1,%d}" % NAME_CHARS)
UNSAFE_RUN = re.compile(r"[^A-Za-z0-9._-]+")

Result = TypeVar("Result")


def piece_name(value: str, taken: dict[str, str]) -> str:
    """The file-name part for a tag value, unique among ``taken``.

    ``taken`` maps the lower-case form of every name given so far to its value,
    so two values never share a file, even on a case-insensitive file system.
    """
    name = value if SAFE_NAME.fullmatch(value) else None
    if name is None or name.lower() in taken:
        digest = hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()
        safe = UNSAFE_RUN.sub("_", value)[:NAME_CHARS] or "none"
        name = f"{safe}+{digest[:HASH_DIGITS]}"
        if name.lower() in taken:  # 64 bits of hash alike: all of them, then
            name = f"{safe}+{digest}"
    taken[name.lower()] = value
    return name


def input_name(path: str) -> tuple[str, str]:
    """The stem and extension of an input's file name (``stdin`` for ``-``, or a stream's
    label such as ``<stdin>``: no extension): the pieces' default prefix, and their
    extension."""
    stream = path == "-" or (path.startswith("<") and path.endswith(">"))
    name = "stdin" if stream else os.path.basename(path)
    plain = plain_name(name)  # x.tilewe.gz: stem x, extension .tilewe.gz
    stem, ext = os.path.splitext(plain)
    return stem, ext + name[len(plain):]


def game_extension(game: str | None) -> str:
    """The file extension of a game's records (``.tilewe``), "" for no known game: what
    pieces of standard input, which has no extension of its own, are named with."""
    known = registry.get(game) if game else None
    return known.extensions[0] if known is not None and known.extensions else ""


class PieceNames:
    """Which piece each game goes to, in the order the games come: ``per_file`` games
    to a piece, or one piece per value of the tag ``by_tag`` (exactly one of the two)."""

    def __init__(self, per_file: int | None = None, by_tag: str | None = None) -> None:
        if (per_file is None) == (by_tag is None):
            raise ValueError("give exactly one of per_file and by_tag")
        self.per_file, self.by_tag = per_file, by_tag
        self.count = 0
        self.names: dict[str, str] = {}  # tag value -> piece name
        self.taken: dict[str, str] = {}

    def next(self, record: GameNode) -> str:
        """The piece name of the next game."""
        self.count += 1
        if self.per_file is not None:
            return f"{(self.count - 1) // self.per_file + 1:04d}"
        value = record.headers.get(self.by_tag or "", "")
        if value not in self.names:
            self.names[value] = piece_name(value, self.taken)
        return self.names[value]


class Pieces:
    """Files made from one run, all or nothing.

    Each piece is written to a temporary beside its target, at most
    ``OPEN_PIECES`` of them open at a time (the least recently written is
    closed). :meth:`commit` syncs every temporary, then renames every one;
    any failure on the way, or leaving the context manager without a commit
    (Ctrl-C included), removes them all, and any piece already renamed. A
    failure raises :class:`WriteError` whose ``path`` is the piece concerned.
    """

    def __init__(self, folder: str, stem: str, ext: str) -> None:
        self.folder, self.stem, self.ext = folder, stem, ext
        self.files: dict[str, AtomicFile] = {}  # piece name -> its temporary
        self.targets: dict[str, str] = {}
        self.counts: Counter[str] = Counter()
        self.recent: OrderedDict[str, None] = OrderedDict()  # open ones, least recent first
        self.renamed: list[str] = []
        self.made: list[str] = []  # the folder (and those above it) made for the pieces

    def __enter__(self) -> Pieces:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.discard()  # after commit(): nothing left to remove

    def write(self, name: str, record: GameNode | str) -> None:
        """One more game into piece ``name`` (started if new)."""
        file = self.files.get(name) or self._start(name)
        self.recent[name] = None
        self.recent.move_to_end(name)
        if len(self.recent) > OPEN_PIECES:
            oldest = self.recent.popitem(last=False)[0]
            self._try(self.files[oldest].suspend, oldest)
        text = ("\n" if self.counts[name] else "") + game_text(record)
        self.counts[name] += 1
        self._try(lambda: file.write(text), name)

    def _start(self, name: str) -> AtomicFile:
        target = os.path.join(self.folder, f"{self.stem}-{name}{self.ext}")
        try:
            os.lstat(target)
        except FileNotFoundError:
            pass
        except OSError as exc:  # a name too long for the file system, say
            self._fail(target, str(exc.strerror or exc))
        else:
            self._fail(target, "the file exists (split never overwrites; remove it first)")
        if not self.files and not self.made:  # the first piece: its folder, if it is not there
            try:
                self.made = made_folders(self.folder)
            except WriteError as exc:
                self._fail(target, str(exc))
        self.targets[name] = target
        self.files[name] = self._try(lambda: AtomicFile(target, "utf-8", create=True), name)
        return self.files[name]

    def commit(self) -> int:
        """Sync every piece, then rename every one; how many files were made."""
        for name, file in self.files.items():
            self._try(file.seal, name)
        for name, file in self.files.items():
            target = file.target
            self._try(file.replace, name)
            self.renamed.append(target)
        if self.renamed:
            sync_folder(os.path.dirname(self.renamed[0]))
        made = len(self.renamed)
        self.files.clear()
        self.renamed.clear()  # done: they stay
        self.made = []
        return made

    def discard(self) -> None:
        """Remove every temporary, and every piece renamed so far: none was there before."""
        for file in self.files.values():
            file.discard()
        self.files.clear()
        for target in self.renamed:
            remove_file(target)
        self.renamed.clear()
        remove_folders(self.made)
        self.made = []

    def _try(self, action: Callable[[], Result], name: str) -> Result:
        try:
            return action()
        except WriteError as exc:
            self._fail(self.targets[name], str(exc))

    def _fail(self, target: str, reason: str) -> NoReturn:
        self.discard()
        raise WriteError(reason, path=target)
