"""Files rewritten game by game (``fmt``, ``convert``): printed, checked, or replaced in place.

A file's new text is streamed into a spool (to print), a temporary file
beside it (in place) or only a digest (to check); nothing is written unless
every game of the file passed, and a file whose text would not change is not
touched at all.
"""
from __future__ import annotations

import enum
import hashlib
import tempfile
from types import TracebackType
from typing import IO, Any, Callable, Iterable, Iterator

from notation.core.tree import GameNode
from notation.core import formats

from notation.core.game import needed
from notation.core.errors import InputError, NotationError, Problem
from notation.core.game import Game
from notation.core.replay import game_of, run
from notation.core.results import with_result_tags
from notation.read.text import source_chunks
from notation.core.writer import PIECE, format_pieces, format_record

from notation.core.errors import WriteError
from notation.save.files import AtomicFile
from .spelling import canonical_spellings

#: Text to print is held until the whole file passed; beyond this, on disk.
SPOOL_BYTES = 8 << 20


class Mode(enum.Enum):
    """What becomes of a file's new text."""

    PRINT = "print"        # held, then copied out (standard output)
    CHECK = "check"        # only compared with the file
    IN_PLACE = "in-place"  # the file is replaced by it


class Settled(enum.Enum):
    """How a file's rewrite ended (:meth:`FileRewrite.settle`)."""

    TO_PRINT = "to print"    # the text waits in the spool (:meth:`FileRewrite.copy_to`)
    UNCHANGED = "unchanged"  # the file already reads so: nothing written
    DIFFERS = "differs"      # checking: the file would change
    WRITTEN = "written"      # the file was replaced


class FileRewrite:
    """Where one file's rewritten games go while the file is read.

    Games are joined by a blank line. The digest of what was written is kept,
    so checking, and an unchanged file in place, need no copy of the text. A
    file that cannot be replaced (read-only, hard-linked, in a folder that
    cannot be written) is only digested: that is an error only if its text
    would change. Leaving the context manager removes any temporary.
    """

    def __init__(self, path: str, encoding: str = "utf-8", mode: Mode = Mode.PRINT,
                 between: str = "\n") -> None:
        """``between``: what stands between two games' texts (a blank line in the games'
        own notation; nothing in JSON Lines)."""
        self.path, self.encoding, self.mode, self.between = path, encoding, mode, between
        self.digest = hashlib.sha256()
        self.first = True
        self.atomic: AtomicFile | None = None
        self.refusal: str | None = None  # why the file cannot be replaced
        self.spool: IO[str] | None = None
        if mode is Mode.IN_PLACE:
            try:
                self.atomic = AtomicFile(path, encoding)
            except WriteError as exc:
                self.refusal = str(exc)
        elif mode is Mode.PRINT:
            self.spool = tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES, mode="w+",
                                                       encoding="utf-8")

    def __enter__(self) -> FileRewrite:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.discard()  # after a commit, nothing is left to remove

    def write(self, text: str | Iterable[str]) -> None:
        """One more game's text, or its pieces (:func:`canonical_pieces`: a game of
        megabytes is never whole in memory twice); a failure to write raises
        :class:`WriteError`."""
        pieces = (text,) if isinstance(text, str) else text
        if not self.first:
            self._put(self.between)
        self.first = False
        for piece in pieces:
            self._put(piece)

    def _put(self, text: str) -> None:
        self.digest.update(text.encode("utf-8", "surrogatepass"))
        if self.atomic is not None:
            self.atomic.write(text)
        elif self.spool is not None:
            self.spool.write(text)

    def same_as_file(self) -> bool:
        """Whether the file's text (line ends normalised) is exactly what was written."""
        original = hashlib.sha256()
        try:
            for chunk in source_chunks(self.path, self.encoding):  # (a line may be 32 MB)
                for start in range(0, len(chunk), PIECE):
                    original.update(chunk[start:start + PIECE].encode("utf-8", "surrogatepass"))
        except (OSError, InputError):
            return False
        return original.digest() == self.digest.digest()

    def settle(self) -> Settled:
        """Every game passed: print, compare or replace, as the mode says."""
        if self.mode is Mode.PRINT:
            return Settled.TO_PRINT
        if self.same_as_file():
            return Settled.UNCHANGED  # not even a read-only file is an error then
        if self.mode is Mode.CHECK:
            return Settled.DIFFERS
        self.commit()
        return Settled.WRITTEN

    def copy_to(self, echo: Callable[[str], None], block: int = 1 << 16) -> None:
        """Give the held text out, a block at a time."""
        if self.spool is None:
            return
        self.spool.seek(0)
        while text := self.spool.read(block):
            echo(text)
        self.spool.close()

    def commit(self) -> None:
        """Replace the file by what was written (raises :class:`WriteError` if it cannot be)."""
        if self.refusal is not None:
            raise WriteError(self.refusal)
        if self.atomic is not None:
            self.atomic.commit()

    def discard(self) -> None:
        if self.atomic is not None:
            self.atomic.discard()
        if self.spool is not None:
            self.spool.close()


def _known_game(record: GameNode) -> Game[Any, Any]:
    game = game_of(record)
    if game is None:
        raise NotationError(f"no known game to write {record.game!r} records")
    return game


def to_format(record: GameNode, fix_results: bool = False,
              canonical: bool = False) -> tuple[GameNode, list[Problem]]:
    """The record ``fmt`` writes and its problems (it writes none that has any);
    ``fix_results``: its result tags set to what its replay reaches first;
    ``canonical``: its moves in their one canonical spelling (``fmt --canonical``)."""
    if fix_results:
        record, outcome = with_result_tags(record)
        problems = outcome.problems
    else:
        problems = run(record).problems
    if canonical and not problems:
        record = canonical_spellings(record)
    return record, problems


def canonical_text(record: GameNode) -> str:
    """The record in canonical form (it must have no problem)."""
    return format_record(record, _known_game(record))


def canonical_pieces(record: GameNode) -> Iterator[str]:
    """:func:`canonical_text` in pieces (:func:`~notation.core.writer.format_pieces`),
    for :meth:`FileRewrite.write`; what may refuse the record is done before it returns."""
    return format_pieces(record, _known_game(record))


def converted_text(record: GameNode, to: str | None = None, **options: Any) -> str:
    """The record written another way: by its game (``Game.convert`` with ``options``), and
    in the format ``to`` (a :mod:`~notation.core.formats` name such as ``blksgf`` or
    ``json``; one of the game's ``dialects``; the game's name or None: its own notation,
    canonical). Raises
    :class:`NotationError` for options the game cannot apply or a record the format
    cannot hold (:class:`~notation.core.game.MissingCapability` for a game that has
    no other way to write its records)."""
    game = _known_game(record)
    spoken = to is not None and (to in game.dialects or (to == game.name and game.dialects))
    if spoken:  # one of the game's own notations: its convert writes it
        options = dict(options, to=to)
    if options or to is None:
        record = needed(game, "conversion", "convert").convert(record, **options)
    if to is None or to == game.name or spoken:
        return format_record(record, game)
    target = formats.get(to)
    if target is None:
        raise NotationError(f"cannot convert to {to!r}: the targets are {game.name} and "
                            f"{', '.join(formats.names()) or 'no other format'}")
    try:
        return target.write(record)
    except NotationError as exc:  # the record is valid: the format cannot hold it
        raise formats.CannotWrite(f"cannot be written as {to}: {exc}") from None
