"""Reading archives game by game, in flat memory whatever their size.

The text is decoded block by block, its line ends normalised, and cut into
pieces at lines that start a tag after a game's body: exactly where the
container grammar starts a new game, and where no comment or block can run
on (the grammar's own ``NEXT_LINE`` terminal says which lines those are).
Each piece is parsed on its own by the game's LALR parser, and its records
get the file's line numbers. ``parse`` and ``load`` are this same reader
over text already in memory.
"""
from __future__ import annotations

import codecs
import os
import re
from functools import lru_cache
from typing import IO, Any, Callable, Iterable, Iterator

from lark import Token
from lark.exceptions import LarkError, UnexpectedInput
from lark.load_grammar import GrammarBuilder

from . import registry
from .ast import Comment, Pos, Record
from .errors import InputError
from .game import Game
from .limits import shorten

BLOCK = 1 << 16


@lru_cache(maxsize=None)
def container_terminal(name: str) -> re.Pattern[str]:
    """A terminal of ``record.lark`` written as one regular expression, compiled.

    Read from the grammar itself (not typed again here), for the few places
    that look for a container token outside a parse.
    """
    from .parsing import grammar_text
    builder = GrammarBuilder()
    builder.load_grammar(grammar_text("record.lark"), "record.lark")
    tree, _priority = dict(builder.build().term_defs)[name]
    (regexp,) = [t for t in tree.scan_values(lambda v: isinstance(v, Token))
                 if t.type == "REGEXP"]
    return re.compile(regexp[1:regexp.rindex("/")])


def _next_line() -> re.Pattern[str]:
    """``NEXT_LINE``: a line break *not* followed by a tag line."""
    return container_terminal("NEXT_LINE")


def starts_tag_line(line: str) -> bool:
    """True when ``line`` begins a tag (``[Key "``): a place where a new game may begin."""
    return line[:1] in "[ \t" and _next_line().match("\n" + line) is None


# -- text ----------------------------------------------------------------------------

def decoded_blocks(stream: IO, source: str, encoding: str, base: int = 0) -> Iterator[str]:
    """Decoded text blocks of a binary or text stream (``base``: its offset in the file)."""
    first = stream.read(BLOCK)
    if isinstance(first, str):
        block = first
        while block:
            yield block
            block = stream.read(BLOCK)
        return
    try:
        codec = codecs.lookup(encoding)
    except (LookupError, ValueError, TypeError):
        raise InputError(source, f"unknown encoding {shorten(encoding)!r}") from None
    if not getattr(codec, "_is_text_encoding", True):
        raise InputError(source, f"{encoding!r} is not a text encoding (it maps text to text "
                                 f"or bytes to bytes); name a byte encoding such as latin-1")
    name = "utf-8-sig" if codec.name == "utf-8" else codec.name
    decoder = codecs.getincrementaldecoder(name)()
    offset = base
    block = first
    while True:
        final = not block
        held = len(decoder.getstate()[0])
        try:
            text = decoder.decode(block, final)
        except UnicodeDecodeError as exc:
            at = offset - held + exc.start
            bad = (exc.object[exc.start:exc.start + 1] or b"").hex()
            raise InputError(source, f"byte 0x{bad} at offset {at} is not valid {codec.name}; "
                                     f"pass --encoding to read another encoding") from None
        except Exception as exc:  # a codec that fails in its own way
            raise InputError(source, f"cannot decode with {codec.name}: "
                                     f"{shorten(str(exc))}") from None
        offset += len(block)
        if text:
            yield text
        if final:
            return
        try:
            block = stream.read(BLOCK)
        except OSError as exc:
            raise InputError(source, f"cannot read: {exc.strerror or exc}") from None


def _joined(parts: list[str]) -> str:
    """The parts as one string, the list emptied: the parts are freed before the caller
    uses the string (a generator that yields this holds no second copy meanwhile)."""
    text = "".join(parts)
    parts.clear()
    return text


def chunks(blocks: Iterable[str]) -> Iterator[str]:
    """Text in runs of whole lines (each ends in ``\\n``, the last may not), CRLF and
    lone CR read as LF: the blocks as they come, cut back to their last line end.

    A line longer than a block is kept as a list of its parts, joined once when
    its end comes and given as a run of its own: time stays linear in the
    line's length, and memory about twice it.
    """
    pending: list[str] = []  # the parts of a line whose end has not come yet
    after_cr = False         # the last block ended in a CR: a LF opening the next is its CRLF
    for block in blocks:
        if after_cr and block.startswith("\n"):
            block, after_cr = block[1:], False
        if not block:
            continue
        after_cr = block.endswith("\r")
        if "\r" in block:  # a CR always ends a line: a trailing one too
            block = block.replace("\r\n", "\n").replace("\r", "\n")
        end = block.rfind("\n") + 1
        if pending and end:
            if len(pending) == 1:  # the line began in the last block: it runs on with this one
                block, end = pending[0] + block, end + len(pending[0])
                pending.clear()
            else:  # a line longer than a block: a run of its own, so that no later piece
                first = block.find("\n") + 1  # of text holds a copy of it
                pending.append(block[:first])
                yield _joined(pending)
                block, end = block[first:], end - first
        if end:
            yield block if end == len(block) else block[:end]
        if end < len(block):
            pending.append(block[end:])
    if pending:
        yield _joined(pending)


def lines(blocks: Iterable[str]) -> Iterator[str]:
    """Lines ending in ``\\n`` (the last may not), CRLF and lone CR read as LF."""
    for chunk in chunks(blocks):
        parts = chunk.split("\n")
        last = parts.pop()
        for part in parts:
            yield part + "\n"
        if last:
            yield last


class Cutter:
    """Where a new game may begin, fed one line at a time (the rule of :func:`pieces`).

    A piece ends before a tag line that follows a body line (anything but a
    blank line or a tag). Cutting there is always safe: no comment or deck
    block runs over a tag line, and a tag after a body starts a new game. Not
    cutting is always safe too: a piece may hold several games.
    ``may_carry`` says whether the current piece may end in a game of tags and
    comments only, which the reader merges into the next game: batches never
    end after such a piece.
    """

    __slots__ = ("body", "plain", "brace")

    def __init__(self) -> None:
        self.body = False   # a body line since the last tags
        self.plain = False  # a body line that is not a comment line
        self.brace = False  # a "{" anywhere in the piece

    @property
    def may_carry(self) -> bool:
        return self.brace or not self.plain

    def feed(self, line: str) -> bool:
        """True when a new piece begins at ``line``."""
        tag = starts_tag_line(line)
        cut = self.body and tag
        if cut:
            self.body = self.plain = self.brace = False
        if not tag:
            stripped = line.lstrip()
            if stripped and not stripped.startswith("["):  # a broken tag is still a tag
                self.body = True
                self.plain = self.plain or not stripped.startswith((";", "#"))
        self.brace = self.brace or "{" in line
        return cut


#: Lines that may start a tag (confirmed with ``NEXT_LINE``), and body lines: not blank,
#: not a tag or a broken one. Lines here are split at ``\n`` only, and ``\s`` is the
#: set ``str.lstrip`` strips, as in :class:`Cutter`.
_TAG_START = re.compile(r"^[ \t]*\[", re.MULTILINE)
_BODY_LINE = re.compile(r"^[^\S\n]*[^\s\[]", re.MULTILINE)


def _is_tag_line(text: str, i: int, next_line: Callable[..., Any]) -> bool:
    """Whether the line starting at ``text[i]`` is a tag line (``NEXT_LINE`` does not match)."""
    if i:
        return next_line(text, i - 1) is None
    return starts_tag_line(text[:text.find("\n") + 1 or len(text)])


def _body_line_at(chunk: str, pos: int) -> int:
    """Where the first body line from ``pos`` on starts, or -1. (Positions, not match
    objects: a match holds on to the whole chunk it searched.)"""
    found = _BODY_LINE.search(chunk, pos)
    return -1 if found is None else found.start()


def _tag_line_at(chunk: str, pos: int, next_line: Callable[..., Any]) -> int:
    """Where the first tag line from ``pos`` on starts, or -1."""
    tag = _TAG_START.search(chunk, pos)
    while tag is not None and not _is_tag_line(chunk, tag.start(), next_line):
        tag = _TAG_START.search(chunk, tag.end())
    return -1 if tag is None else tag.start()


def pieces(text_chunks: Iterable[str]) -> Iterator[tuple[int, str]]:
    """``(first line number, text)`` of each piece that begins a new game (see :class:`Cutter`).

    ``text_chunks``: text in runs of whole lines (lines, or :func:`chunks`); the
    cuts are found a chunk at a time with regular expressions, so a big block
    costs a few C-level scans rather than a Python step per line. Nothing keeps
    a chunk once its text is in the buffer (a match object would): a long line
    is held once, in its piece.
    """
    next_line = _next_line().match
    body = False          # a body line in the current piece
    buffer: list[str] = []
    start = 1             # the current piece's first line
    line = 1              # the line at ``at``
    for chunk in text_chunks:
        at = pos = 0      # the chunk's text not yet in a piece; where the search resumes
        while True:
            if not body:  # the piece's first body line (tag lines are not body lines)
                pos = _body_line_at(chunk, pos)
                if pos < 0:
                    break
                body = True
            i = _tag_line_at(chunk, pos, next_line)  # then the first tag line after it: a cut
            if i < 0:
                break
            buffer.append(chunk[at:i])
            yield start, _joined(buffer)
            line += chunk.count("\n", at, i)
            start, at, pos, body = line, i, i, False
        buffer.append(chunk[at:])
        line += chunk.count("\n", at)
    chunk = ""  # not held beside the last piece while it is read
    text = _joined(buffer)
    if text:
        yield start, text


# -- records -------------------------------------------------------------------------

_GAME_TAG = re.compile(r'\[[ \t]*Game[ \t]+"([^"\n]*)"[ \t]*\]', re.IGNORECASE)


def choose_game(text: str, source: str, game: str | Game | None = None) -> Game | None:
    """The game of a piece of text: its first ``[Game]`` tag, else ``game``, else the extension.

    Returns None when nothing names a known game; the records then say why.
    """
    from .parsing import unescape
    m = _GAME_TAG.search(text)
    if m:
        return registry.get(unescape(m.group(1)))
    if isinstance(game, Game):
        return game
    if game:
        return registry.get(game)
    return registry.by_extension(source)


def _shift(record: Record, lines: int) -> None:
    """Piece line numbers to file line numbers."""
    if not lines:
        return
    record.pos = Pos(record.pos.line + lines, record.pos.column)
    for part in (*record.tags, *record.items):
        part.pos = Pos(part.pos.line + lines, part.pos.column)


def _parse_piece(text: str, chosen: Game | None, source: str) -> list[Record]:
    from .parsing import parser_for
    try:
        return parser_for(chosen).parse(text)
    except (UnexpectedInput, RecursionError) as exc:  # pragma: no cover - reads any text
        record = Record(chosen.name if chosen else None, source=source,
                        pos=Pos(getattr(exc, "line", 1), getattr(exc, "column", 1)))
        record.game_problem = f"cannot read this game: {exc.__class__.__name__}"
        return [record]
    except LarkError as exc:  # pragma: no cover
        raise InputError(source, f"parser failure: {exc}") from None


def records_of(text_chunks: Iterable[str], source: str,
               game: str | Game | None = None, checked: bool = False,
               headers: bool = False, start_line: int = 1) -> Iterator[Record]:
    """The records of text in runs of whole lines (lines, or :func:`chunks`), a piece at a time.

    ``start_line``: the file line the text begins at (a batch or span of a file).

    ``checked``: a well-formed valid game is replayed as it is scanned (the
    fast path) and comes with its outcome but without its events; any other
    piece is parsed in full. For commands that want verdicts, not events.
    ``headers``: a plain game comes with its tags only (nothing is parsed
    past them); for ``tags``.
    """
    from .fastpath import try_fast, try_headers
    from .parsing import note_game_problem
    fallback = game.name if isinstance(game, Game) else game
    index = 0
    carry: Record | None = None  # tags and comments that belong to the next game
    for first_line, text in pieces(text_chunks):
        first_line += start_line - 1
        chosen = choose_game(text, source, game)
        if (checked or headers) and carry is None and chosen is not None:
            fast = (try_headers if headers else try_fast)(text, first_line, chosen, source)
            if fast is not None:
                index += 1
                fast.text, fast.first_line, fast.index, fast.raw = text, first_line, index, text
                fast.unread = True  # its events are read from its text if asked for
                yield fast
                continue
        records = _parse_piece(text, chosen, source)
        for record in records:
            _shift(record, first_line - 1)
            record.text, record.first_line = text, first_line
            note_game_problem(record, chosen, fallback)
        _own_lines(records, text, first_line)
        if carry is not None and records:
            head = records[0]
            head.tags[:0] = carry.tags
            head.items[:0] = carry.items
            head.pos = carry.pos
            head.raw = carry.raw + head.raw
            carry = None
        if records and all(isinstance(i, Comment) for i in records[-1].items):
            carry = records.pop()
        for record in records:
            index += 1
            record.index, record.source = index, source
            yield record
    if carry is not None:
        index += 1
        carry.index, carry.source = index, source
        yield carry


def _own_lines(records: list[Record], text: str, first_line: int) -> None:
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


def label_of(source: str | os.PathLike[str] | IO, name: str | None = None) -> str:
    """What messages call an input: ``name``, a path, a file's name, or ``<stream>``."""
    if name:
        return name
    if hasattr(source, "read"):
        found = getattr(source, "name", None)
        return found if isinstance(found, str) else "<stream>"
    return os.fspath(source)


def open_record_file(path: str | os.PathLike[str], label: str | None = None) -> IO[bytes]:
    """A regular file opened for reading in binary; :class:`InputError` otherwise."""
    from .parsing import check_regular
    check_regular(path)
    try:
        return open(path, "rb")
    except OSError as exc:
        raise InputError(label or os.fspath(path), f"cannot read: {exc.strerror or exc}") from None


def source_chunks(source: str | os.PathLike[str] | IO, encoding: str = "utf-8",
                  name: str | None = None) -> Iterator[str]:
    """The text of a path (a regular file, opened and closed here) or of an open file,
    in runs of whole lines (:func:`chunks`)."""
    label = label_of(source, name)
    if hasattr(source, "read"):
        yield from chunks(decoded_blocks(source, label, encoding))
        return
    with open_record_file(source, label) as handle:
        yield from chunks(decoded_blocks(handle, label, encoding))


def read_games(source: str | os.PathLike[str] | IO, game: str | Game | None = None,
               encoding: str = "utf-8", name: str | None = None,
               checked: bool = False, headers: bool = False) -> Iterator[Record]:
    """Every game of an archive, one at a time: a path, or an open text or binary file.

    Memory stays flat whatever the archive's size; each record carries its
    file's line and column numbers (``checked``: see :func:`records_of`).
    Unreadable or undecodable input raises :class:`InputError` (possibly
    after some games were given); bad content never raises: it is in the
    records' problems.
    """
    label = label_of(source, name)
    yield from records_of(source_chunks(source, encoding, label), label, game, checked, headers)


def text_records(text: str, source: str, game: str | Game | None = None) -> list[Record]:
    """The records of text already in memory (what ``parse`` returns)."""
    return list(records_of(chunks((text,)), source, game))


__all__ = [
    "choose_game",
    "chunks",
    "decoded_blocks",
    "lines",
    "pieces",
    "read_games",
    "records_of",
    "starts_tag_line",
    "text_records",
]
