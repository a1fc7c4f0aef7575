"""Reading archives game by game, in flat memory whatever their size.

The last stage before replay: text cut into pieces (:mod:`notation.read.text`)
is given to the game's LALR parser (:mod:`notation.read.parsing`) a piece at a
time, or, for commands that want verdicts, to the fast path
(:mod:`notation.core.fastpath`), and its records get the file's line numbers.
``parse`` and ``load`` are this same reader over text in memory or a file.

A folder is read as its record files (:func:`record_files`, what every command reads
too): paths that are not folders are given as they are; a folder is walked (sorted, as
``ls`` lists, subfolders after their parent's files in name order) for the known
extensions, each also under a compression ending (``x.tilewe.gz``). What goes wrong on
the way is told to the caller's :class:`FolderErrors`: by default a folder that cannot
be listed or that holds no record file raises :class:`~notation.core.errors.InputError`,
and a file that is not a regular one (a FIFO would block its reader) is left out.
"""
from __future__ import annotations

import collections
import itertools
import os
import re
import stat
import weakref
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, TypeVar, overload

from notation.core.tree import GameNode, RecordFile
from notation.core import formats, registry
from notation.core.ast import Comment, Item, Malformed, Pos, Tag, Variation
from .compression import plain_name
from notation.core.errors import Error, InputError
from notation.core.fastpath import hollowed, try_fast, try_headers
from notation.core.game import AnyGame, Game
from notation.core.outcome import Outcome
from notation.core.replay import run
from .text import Source, chunks, label_of, pieces, source_chunks
from .visitor import BaseVisitor, unescape

if TYPE_CHECKING:  # (start-up: only a full parse checks records against other games)
    from .other_readings import OtherGames


# -- records -------------------------------------------------------------------------

_GAME_TAG = re.compile(r'\[[ \t]*Game[ \t]+"([^"\n]*)"[ \t]*\]', re.IGNORECASE)


def choose_game(text: str, source: str, game: str | AnyGame | None = None) -> AnyGame | None:
    """The game of a piece of text: its first ``[Game]`` tag, else ``game``, else the extension.

    Returns None when nothing names a known game; the records then say why.
    """
    m = _GAME_TAG.search(text)
    if m:
        return registry.get(unescape(m.group(1)))
    if isinstance(game, Game):
        return game
    if game:
        return registry.get(game)
    return registry.by_extension(source)


def _shift(record: GameNode, lines: int, columns: int = 0) -> None:
    """Piece line numbers to file line numbers (``columns``: added on the piece's first
    line, for a piece that starts within a line)."""
    if not lines and not columns:
        return
    record.pos = _moved(record.pos, lines, columns)
    for tag in record.tags:
        tag.pos = _moved(tag.pos, lines, columns)
    _shift_items(record.items, lines, columns)


def _shift_items(items: list[Item], lines: int, columns: int) -> None:
    for part in items:
        part.pos = _moved(part.pos, lines, columns)
        if isinstance(part, Variation):
            _shift_items(part.items, lines, columns)


def _moved(pos: Pos, lines: int, columns: int) -> Pos:
    if not pos.line:  # no place in the text (a tag a format adds)
        return pos
    return Pos(pos.line + lines, pos.column + (columns if pos.line == 1 else 0))


def _placed(records: Iterable[GameNode], line: int, column: int) -> Iterator[GameNode]:
    """A format's records of text that starts at ``line``, ``column`` of its file."""
    for record in records:
        _shift(record, line - 1, column - 1)
        record.first_line += line - 1
        yield record


def _parse_piece(text: str, chosen: AnyGame | None, source: str) -> list[GameNode]:
    # Deliberately lazy (start-up): Lark is loaded by the first piece that must be parsed.
    from lark.exceptions import LarkError, UnexpectedInput

    from .parsing import parse_games, scan_games
    scanned = scan_games(chosen, text)
    if scanned is not None:
        return scanned
    hollow = hollowed(text, chosen) if chosen is not None else None
    try:
        if hollow is None:
            return parse_games(chosen, text)
        return parse_games(chosen, hollow[0], long_values=hollow[1])
    except (UnexpectedInput, RecursionError) as exc:  # pragma: no cover - reads any text
        record = GameNode(chosen.name if chosen else None, source=source,
                        pos=Pos(getattr(exc, "line", 1), getattr(exc, "column", 1)))
        record.game_problem = f"cannot read this game: {exc.__class__.__name__}"
        return [record]
    except LarkError as exc:  # pragma: no cover
        raise InputError(source, f"parser failure: {exc}") from None


def records_of(text_chunks: Iterable[str], source: str,
               game: str | AnyGame | None = None, checked: bool = False,
               headers: bool = False, start_line: int = 1,
               tags: Mapping[str, str] | None = None, start_column: int = 1,
               format: str | None = None) -> Iterator[GameNode]:
    """The records of text in runs of whole lines (lines, or :func:`chunks`), a piece at a time.

    ``start_line``: the file line the text begins at (a batch or span of a file);
    ``start_column``: the column, for a batch of a format's pieces (``format``: its name;
    a whole file, from line 1, is looked at for a format that claims it).

    ``checked``: a well-formed valid game is replayed as it is scanned (the
    fast path) and comes with its outcome but without its events; any other
    piece is parsed in full. For commands that want verdicts, not events.
    ``headers``: a plain game comes with its tags only (nothing is parsed
    past them); for ``tags``.
    ``tags``: given to every record that lacks them (a file that cannot carry tags, such
    as the quortextt app's Flows export: ``{"Dialect": "quortextt"}``); such records are
    read in full, as their text alone would be read otherwise.
    """
    if tags:
        for record in records_of(text_chunks, source, game, start_line=start_line,
                                 start_column=start_column, format=format):
            given = record.headers
            record.tags[:0] = [Tag(k, v, record.pos) for k, v in tags.items() if k not in given]
            yield record
        return
    other = None
    if format is not None:
        other = formats.get(format)
        if other is None:  # pragma: no cover - a batch names a format of this process
            raise InputError(source, f"no record format {format!r}")
    elif start_line == 1:  # a whole file: it may be in another format (Pentobi's, JSON)
        other, text_chunks = claimed(text_chunks, source)
    if other is not None:
        named = game if isinstance(game, Game) or game is None else registry.get(game)
        found = other.records(text_chunks, source, named)
        yield from _numbered(_placed(found, start_line, start_column), source)
        return
    yield from records_of_pieces(pieces(text_chunks, source), source, game, checked, headers,
                                 start_line=start_line)


def records_of_pieces(cut: Iterable[tuple[int, str]], source: str,
                      game: str | AnyGame | None = None, checked: bool = False,
                      headers: bool = False, others: OtherGames | None = None,
                      start_line: int = 1) -> Iterator[GameNode]:
    """The records of ``(first line, text)`` pieces of a file (:func:`pieces`, in order:
    a batch's, or a run of them), each read at its own line: the blank lines between
    games are in no piece, so the lines of pieces are not found by counting theirs.
    ``checked``, ``headers``: see :func:`records_of`; ``others``: the other-game check of
    the reading these pieces are part of (a new one: they are all of it);
    ``start_line``: the file line that the pieces' line 1 is."""
    fallback = game.name if isinstance(game, Game) else game
    index = 0
    carry: GameNode | None = None  # tags and comments that belong to the next game
    for first_line, text in cut:
        first_line += start_line - 1
        chosen = choose_game(text, source, game)
        fast = None
        if (checked or headers) and carry is None and chosen is not None:
            fast = (try_headers if headers else try_fast)(text, first_line, chosen, source)
        if fast is not None:
            fast.text, fast.first_line, fast.raw = text, first_line, text
            fast.reread = reread  # its events are read from its text if asked for
            records = [fast]
        else:
            others = _other_games() if others is None else others
            records, carry = _parsed(text, first_line, chosen, source, fallback, carry,
                                     others)
        index = _numbered_from(records, index, source)
        # Nothing here holds the piece while the next one is read (it may hold a 32 MB
        # line): a record given is the consumer's alone.
        text, fast = "", None
        records.reverse()
        while records:
            yield records.pop()
    if carry is not None:
        index += 1
        carry.index, carry.source = index, source
        yield carry


def claimed(text_chunks: Iterable[str],
            source: str) -> tuple[formats.RecordFormat[Any] | None, Iterator[str]]:
    """The format that claims a file by its first chunk (None: the games' own notation),
    and the file's text chunks again, that chunk first."""
    rest = iter(text_chunks)
    opening = next(rest, "")
    return formats.claiming(source, opening), itertools.chain((opening,), rest)


def _parsed(text: str, first_line: int, chosen: AnyGame | None, source: str,
            fallback: str | None, carry: GameNode | None,
            others: OtherGames) -> tuple[list[GameNode], GameNode | None]:
    """A piece's records parsed in full, and the tags and comments they hand on to the next
    game (``carry``: those handed on to them, put in front of their first game;
    ``others``: the reading's other-game check)."""
    # (start-up: a file whose every game the fast path read never needs the parser's module)
    from .parsing import note_game_problem
    from .record_builder import belongs_to_next
    records = _parse_piece(text, chosen, source)
    for record in records:
        _shift(record, first_line - 1)
        record.text, record.first_line = text, first_line
        note_game_problem(record, chosen, fallback)
    _own_lines(records, text, first_line)
    by_option = fallback is not None and _GAME_TAG.search(text) is None  # --game chose it
    for record in records:
        others.note(record, chosen, _reads_as, by_option)
    if carry is not None and records:
        head = records[0]
        if belongs_to_next(carry, head):
            head.tags[:0] = carry.tags
            head.items[:0] = carry.items
            head.pos = carry.pos
            head.raw = carry.raw + head.raw
        else:  # (a game of its own, with no event)
            records.insert(0, carry)
        carry = None
    if records and all(isinstance(i, Comment) for i in records[-1].items):
        carry = records.pop()
    return records, carry


#: How much of a refused record another game's grammar reads to tell whether the record is
#: that game's: its first lines up to this many characters (a hostile record of a million
#: bad events costs no more than a short one).
OTHER_GAME_SAMPLE = 4096


def _other_games() -> OtherGames:
    """A reading's other-game check, made at its first full parse (a record the fast path
    took is its game's: only a full parse can meet another game's record)."""
    from .other_readings import OtherGames  # (start-up: the fast path never needs it)
    return OtherGames()


def _reads_as(record: GameNode, game: AnyGame) -> bool:
    """Whether ``game``'s grammar reads every event of the record's first lines."""
    from .other_readings import reads_all  # (start-up: the fast path never needs it)
    found = _parse_piece(_opening_lines(record.raw), game, record.source)
    return len(found) == 1 and reads_all(found[0].items)


def _opening_lines(text: str) -> str:
    """``text`` up to its last line break within :data:`OTHER_GAME_SAMPLE` characters (all
    of it when shorter; else up to its last blank there, as a line may hold many events)."""
    if len(text) <= OTHER_GAME_SAMPLE:
        return text
    head = text[:OTHER_GAME_SAMPLE]
    cut = head.rfind("\n")
    if cut < 0:
        cut = max(head.rfind(" "), head.rfind("\t"))
    return head[:cut] if cut > 0 else head


def _numbered_from(records: list[GameNode], index: int, source: str) -> int:
    """Number the records on from ``index`` (the games before them); the last number."""
    for record in records:
        index += 1
        record.index, record.source = index, source
    return index


def _numbered(records: Iterable[GameNode], source: str) -> Iterator[GameNode]:
    """A format's records, numbered in their file."""
    for index, record in enumerate(records, 1):
        record.index, record.source = index, source
        yield record


def _own_lines(records: list[GameNode], text: str, first_line: int) -> None:
    """Give each record of a piece its own lines (the first takes the piece's start)."""
    if len(records) == 1:
        records[0].raw = text
        return
    rows = text.split("\n")
    starts = [first_line] + [r.pos.line for r in records[1:]] + [first_line + len(rows)]
    for i, record in enumerate(records):
        part = rows[starts[i] - first_line:starts[i + 1] - first_line]
        last = i == len(records) - 1
        record.raw = "\n".join(part) + ("" if last else "\n")


def read_games(source: Source, game: str | AnyGame | None = None,
               encoding: str = "utf-8", name: str | None = None,
               tags: Mapping[str, str] | None = None) -> Iterator[GameNode]:
    """Every game of an archive, one at a time: a path, a folder (its record files, walked
    in sorted order), or an open text or binary file.

    Memory stays flat whatever the archive's size; each record carries its
    file's line and column numbers. Unreadable or undecodable input raises
    :class:`InputError` (possibly after some games were given); bad content
    never raises: it is in the records' problems. ``tags``: given to every record that
    lacks them (``{"Dialect": "quortextt"}`` for the app's bare Flows export).
    """
    yield from source_records(source, game, encoding, name, tags=tags)


ResultT = TypeVar("ResultT")

#: Each open file's reading so far, for :func:`read_game` to go on where it stopped.
_READINGS: weakref.WeakKeyDictionary[Any, _Reading] = weakref.WeakKeyDictionary()


class _Reading:
    """One open file read a game at a time: its pieces, and what was read but not given."""

    def __init__(self, handle: Source, game: str | AnyGame | None) -> None:
        self.label = label_of(handle)
        opening, chunks_left = claimed(source_chunks(handle, name=self.label), self.label)
        if opening is not None:
            raise Error(f"{self.label}: {opening.name} files are read by notation.read_games; "
                        f"read_game's visitors read the games' own notation")
        self.pieces = pieces(chunks_left, self.label)
        self.game = game
        self.ready: collections.deque[Any] = collections.deque()
        self.records: Iterator[GameNode] | None = None


@overload
def read_game(handle: Source, Visitor: None = None,
              game: str | AnyGame | None = None) -> GameNode | None: ...
@overload
def read_game(handle: Source, Visitor: Callable[[], BaseVisitor[ResultT]],
              game: str | AnyGame | None = None) -> ResultT | None: ...


def read_game(handle: Source, Visitor: Callable[[], BaseVisitor[ResultT]] | None = None,
              game: str | AnyGame | None = None) -> GameNode | ResultT | None:
    """The next game of an open file (python-chess's ``read_game``), None past the last:
    as a :class:`GameNode`, or as ``Visitor()`` makes it of the reading's visits
    (:class:`~notation.read.visitor.BaseVisitor`; spans in the file's lines). Each call
    goes on where the last one on the same file stopped; a path is read from its start.

    :raises InputError: input that cannot be read or decoded.
    :raises Error: a file in another format (Pentobi's, JSON): :func:`read_games` reads it.
    """
    reading = _READINGS.get(handle) if hasattr(handle, "read") else None
    if reading is None:
        reading = _Reading(handle, game)
        if hasattr(handle, "read"):
            _READINGS[handle] = reading
    if Visitor is None:
        if reading.records is None:
            reading.records = records_of_pieces(reading.pieces, reading.label, reading.game)
        return next(reading.records, None)
    while not reading.ready:
        piece = next(reading.pieces, None)
        if piece is None:
            return None
        first_line, text = piece
        chosen = choose_game(text, reading.label, reading.game)
        made = Visitor  # (each game's visitor is new; it takes no arguments)
        from .parsing import parse_games, scan_games  # (start-up: as in _parse_piece)
        lines = first_line - 1
        scanned = scan_games(chosen, text, lambda _game, _pos: made(), lines)
        reading.ready.extend(scanned if scanned is not None else
                             parse_games(chosen, text, lambda _game, _pos: made(), lines=lines))
    found: ResultT = reading.ready.popleft()
    return found


def read_headers(source: Source, game: str | AnyGame | None = None,
                 encoding: str = "utf-8", name: str | None = None) -> Iterator[GameNode]:
    """Every game's tags (python-chess's ``read_headers``): a plain game is read no
    further than its tags; its events are read from its own lines if ``items`` is asked."""
    yield from source_records(source, game, encoding, name, headers=True)


def read_verdicts(source: Source, game: str | AnyGame | None = None,
                  encoding: str = "utf-8", name: str | None = None,
                  tags: Mapping[str, str] | None = None) -> Iterator[Outcome]:
    """Every game's verdict, valid or not with its problems, as fast as it can be had:
    a well-formed valid game is replayed while it is scanned, with no syntax tree."""
    for record in source_records(source, game, encoding, name, checked=True, tags=tags):
        yield run(record)


def source_records(source: Source, game: str | AnyGame | None = None, encoding: str = "utf-8",
                   name: str | None = None, checked: bool = False,
                   headers: bool = False,
                   tags: Mapping[str, str] | None = None) -> Iterator[GameNode]:
    """The records of a path, a folder's record files (sorted, walked) or an open file
    (``checked``, ``headers``, ``tags``: see :func:`records_of`)."""
    if isinstance(source, (str, os.PathLike)) and os.path.isdir(source):
        for path in record_files((source,)):
            yield from source_records(path, game, encoding, None, checked, headers, tags)
        return
    label = label_of(source, name)
    yield from records_of(source_chunks(source, encoding, label), label, game, checked, headers,
                          tags=tags)


def text_records(text: str, source: str, game: str | AnyGame | None = None,
                 tags: Mapping[str, str] | None = None) -> list[GameNode]:
    """The records of text already in memory (what ``parse`` returns)."""
    return list(records_of(chunks((text,), source), source, game, tags=tags))


def reread(record: GameNode) -> tuple[list[Tag | Malformed], list[Item]]:
    """A record's tags and body read again in full from its own text (its events, when a
    fast reading left them out), with its file positions."""
    source = record.source
    found = list(records_of(chunks((record.raw,), source), source, record.game,
                            start_line=record.first_line))
    if len(found) != 1:  # pragma: no cover - a fast reading takes single games only
        raise ValueError(f"{source}: game {record.index} does not read back as one game")
    return found[0].tags, found[0].items


def parse(text: str, game: str | AnyGame | None = None, source: str = "<string>",
          tags: Mapping[str, str] | None = None) -> RecordFile:
    """Parse a whole record file's text. Never raises for bad content.

    Each game's ``[Game]`` tag names its game; games without one take ``game``,
    else the extension of ``source``; ``tags`` are given to every game that lacks them.
    """
    return RecordFile(source, text_records(text, source, game, tags))


def load(source: Source, game: str | AnyGame | None = None, encoding: str = "utf-8",
         tags: Mapping[str, str] | None = None) -> RecordFile:
    """Read and parse a record file: a path (``str`` or ``Path``) or an open text or binary file.

    Raises :class:`InputError` if it cannot be read; bad content never raises.
    For archives larger than memory, or a folder's files, use :func:`notation.read_games`.
    """
    label = label_of(source)
    if isinstance(source, (str, os.PathLike)) and os.path.isdir(source):
        raise InputError(label, "a folder, not a record file (notation.read_games reads a "
                                "folder's record files)")
    return RecordFile(label, list(read_games(source, game, encoding, label, tags)))


__all__ = ["choose_game", "claimed", "load", "parse", "read_game", "read_games", "records_of",
           "records_of_pieces", "reread", "text_records"]


# -- the record files of a folder -----------------------------------------------------

class FolderErrors:
    """What a walk met that it could not read; a command line notes each and goes on,
    a library call raises at the first."""

    def unreadable(self, path: str, reason: str, folder: bool) -> None:
        """A folder (``folder``) or a file in one that cannot be read."""
        what = "folder" if folder else "file"
        raise InputError(path, f"cannot read {what}: {reason}")

    def not_regular(self, path: str) -> None:
        """A FIFO, device or socket met in a walk: never opened."""

    def empty(self, folder: str, extensions: tuple[str, ...]) -> None:
        """A folder with no record file in it, however deep."""
        raise InputError(folder, f"no record files here (known extensions: "
                                 f"{' '.join(extensions)})")


def record_files(paths: Iterable[str | os.PathLike[str]],
                 extensions: tuple[str, ...] | None = None,
                 errors: FolderErrors | None = None) -> Iterator[str]:
    """Each path that is no folder, as given (``-`` too); each folder's record files, those
    whose names end in ``extensions`` (default: every game's and record format's, asked
    only when there is a folder to walk)."""
    errors = FolderErrors() if errors is None else errors
    for given in paths:
        path = os.fspath(given)
        if path == "-" or not os.path.isdir(path):
            yield path
            continue
        if extensions is None:
            extensions = registry.extensions() + formats.extensions()
        yield from _walked(path, extensions, errors)


def _walked(folder: str, extensions: tuple[str, ...], errors: FolderErrors) -> Iterator[str]:
    found = broken = False

    def unlistable(exc: OSError) -> None:
        nonlocal broken
        broken = True
        errors.unreadable(str(exc.filename), exc.strerror or str(exc), True)

    for root, dirs, files in os.walk(folder, onerror=unlistable):
        dirs.sort()
        for name in sorted(files):
            if not plain_name(name).lower().endswith(extensions):
                continue
            full = os.path.join(root, name)
            try:
                mode = os.stat(full).st_mode
            except OSError as exc:
                broken = True
                errors.unreadable(full, exc.strerror or str(exc), False)
                continue
            if not stat.S_ISREG(mode):
                errors.not_regular(full)
                continue
            found = True
            yield full
    if not found and not broken:
        errors.empty(folder, extensions)
