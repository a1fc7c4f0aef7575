"""Text: files, decoding, line ends, and the one rule for where a game may begin.

The first stage of reading (text -> syntax -> records -> replay). Bytes are
decoded block by block, line ends normalised to LF, and the text cut into
pieces at lines that start a tag after a game's body: exactly where the
container grammar starts a new game, and where no comment or block can run
on. That rule is the grammar's own ``NEXT_LINE`` terminal, compiled from
``record.lark`` (see :mod:`notation.read.grammars`), and it is used by every
reader: serial, pool batches and Dask spans alike.
"""
from __future__ import annotations

import codecs
import io
import os
import re
import stat
from typing import IO, Any, Callable, Iterable, Iterator, Union

from notation.core import limits

from . import compression
from notation.core.errors import InputError, shorten
from .grammars import terminal_pattern

BLOCK = 1 << 16

#: ``NEXT_LINE``'s bound ``match(text, pos)``.
NextLine = Callable[[str, int], "re.Match[str] | None"]

#: What the readers accept: a path, or an open text or binary file.
Source = Union[str, "os.PathLike[str]", IO[str], IO[bytes]]


def next_line() -> re.Pattern[str]:
    """``NEXT_LINE`` of ``record.lark``: a line break *not* followed by a tag line."""
    return terminal_pattern("container.lark", "NEXT_LINE")


def starts_tag_line(line: str) -> bool:
    """True when ``line`` begins a tag (``[Key "``): a place where a new game may begin."""
    return line[:1] in "[ \t" and next_line().match("\n" + line) is None


# -- decoding -----------------------------------------------------------------------

def decoded_blocks(stream: IO[Any] | compression.Readable, source: str, encoding: str,
                   base: int = 0, first: bytes | str | None = None) -> Iterator[str]:
    """Decoded text blocks of a binary or text stream (``base``: its offset in the file;
    ``first``: its first block, if already read)."""
    read: Callable[[int], Any] = stream.read  # bytes, or str from a text stream
    block = read(BLOCK) if first is None else first
    if isinstance(block, str):
        while block:
            yield block
            block = read(BLOCK)
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
    while True:
        final = not block
        state = decoder.getstate()
        held = len(state[0])
        try:
            text = decoder.decode(block, final)
        except UnicodeDecodeError as exc:
            at = offset - held + exc.start
            bad = (exc.object[exc.start:exc.start + 1] or b"").hex()
            # the text before the byte first, so that the games before it are the same
            # however the bytes were cut into blocks (a file, a pipe, a worker's span)
            good = _decoded_before(exc, block, name, state)
            if good:
                yield good
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
            block = read(BLOCK)
        except OSError as exc:
            raise InputError(source, f"cannot read: {exc.strerror or exc}") from None


def _decoded_before(exc: UnicodeDecodeError, block: bytes, codec: str,
                    state: tuple[bytes, int]) -> str:
    """The text of a block's bytes before the one its decoder could not read, decoded from
    the decoder's ``state`` before the block (what it held of the block before, and any
    shift a stateful codec made); "" where the error is not so placed in the block."""
    held = len(exc.object) - len(block)
    if held < 0 or exc.start < held or exc.object[held:] != block:
        return ""
    decoder = codecs.getincrementaldecoder(codec)()
    try:
        decoder.setstate(state)
        return decoder.decode(block[:exc.start - held], False)
    except (UnicodeError, TypeError, ValueError):  # (a codec that cannot say)
        return ""


def _joined(parts: list[str]) -> str:
    """The parts as one string, the list emptied: the parts are freed before the caller
    uses the string (a generator that yields this holds no second copy meanwhile)."""
    text = "".join(parts)
    parts.clear()
    return text


def chunks(blocks: Iterable[str], source: str = "<text>") -> Iterator[str]:
    """Text in runs of whole lines (each ends in ``\\n``, the last may not), CRLF and
    lone CR read as LF: the blocks as they come, cut back to their last line end.

    A line longer than a block is kept as a list of its parts, joined once when
    its end comes and given as a run of its own: time stays linear in the
    line's length, and memory about twice it. A line longer than a game may be
    (:data:`~notation.core.limits.MAX_GAME_CHARS`) is an :class:`InputError` naming
    ``source``, raised before it is held whole.
    """
    pending: list[str] = []  # the parts of a line whose end has not come yet
    held = 0                 # their characters
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
            held = 0
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
            held += len(block) - end
            if held > limits.MAX_GAME_CHARS:
                raise InputError(source, f"a line runs past {limits.MAX_GAME_CHARS:,} "
                                         f"characters, more than a game may hold "
                                         f"(MAX_GAME_CHARS); not read")
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

    def feed(self, line: str, brace: bool | None = None) -> bool:
        """True when a new piece begins at ``line`` (``brace``: whether the line holds a
        ``{``, where ``line`` is only its head; None: look in ``line``)."""
        tag = starts_tag_line(line)
        cut = self.body and tag
        if cut:
            self.body = self.plain = self.brace = False
        if not tag and _BODY_LINE.match(line):  # a broken tag is still a tag
            self.body = True
            self.plain = self.plain or not line.lstrip().startswith((";", "#"))
        self.brace = self.brace or ("{" in line if brace is None else brace)
        return cut


#: Body lines: not blank, not a tag or a broken one. Lines here are split at ``\n``
#: only, and ``\s`` is the set ``str.lstrip`` strips, as in :class:`Cutter`.
_BODY_LINE = re.compile(r"^[^\S\n]*[^\s\[]", re.MULTILINE)
#: A line break, then a body line (:data:`_BODY_LINE` found by its line break).
_LINE_BREAK_BODY_LINE = re.compile(r"\n[^\S\n]*[^\s\[]")


#: Body lines that are not comment lines (``;``, ``#``): what makes a piece more than tags
#: and comments.
_PLAIN_BODY_LINE = re.compile(r"^[^\S\n]*[^\s\[;#]", re.MULTILINE)


def may_carry(piece: str) -> bool:
    """:attr:`Cutter.may_carry` after a whole piece of :func:`pieces` (which holds no cut),
    found by scans in C: no line of the piece is copied (one may be 32 MB)."""
    return "{" in piece or _PLAIN_BODY_LINE.search(piece) is None


#: What a line is to :class:`Cutter` (:func:`line_kind`): a tag line, a body line, or
#: neither (blank, or a broken tag, which starts no game and is no body).
TAG_LINE, BODY_LINE, NEITHER = 1, 2, 0


def line_kind(text: str, start: int) -> int:
    """What the line of ``text`` that starts at ``start`` is to :class:`Cutter`."""
    if _is_tag_line(text, start, next_line().match):
        return TAG_LINE
    return BODY_LINE if _BODY_LINE.match(text, start) else NEITHER


def tag_line_at(text: str, pos: int) -> int:
    """Where the first tag line of ``text`` that starts at or after ``pos`` (a line start)
    starts, or -1; found at C speed (:func:`_tag_line_at`)."""
    return _tag_line_at(text, pos, next_line().match)


def _is_tag_line(text: str, i: int, match_next_line: NextLine) -> bool:
    """Whether the line starting at ``text[i]`` is a tag line (``NEXT_LINE`` does not match)."""
    if i:
        return match_next_line(text, i - 1) is None
    return starts_tag_line(text[:text.find("\n") + 1 or len(text)])


def _body_line_at(chunk: str, pos: int) -> int:
    """Where the first body line from ``pos`` on starts, or -1. (Positions, not match
    objects: a match holds on to the whole chunk it searched; a chunk of blank lines is
    seen to hold none at C speed, where the search tries each of its lines.)"""
    if pos == 0:
        if chunk.isspace():
            return -1
        if _BODY_LINE.match(chunk):
            return 0
    # (a body line after a line break: the search runs from one "\n" to the next in C,
    # where a pattern anchored at a line's start is tried at every place of the text)
    found = _LINE_BREAK_BODY_LINE.search(chunk, pos - 1 if pos else 0)
    return -1 if found is None else found.start() + 1


def _tag_line_at(chunk: str, pos: int, match_next_line: NextLine) -> int:
    """Where the first tag line from ``pos`` on starts, or -1.

    A candidate is a line starting ``[`` after spaces and tabs (confirmed with
    ``NEXT_LINE``), found from the first ``[`` of a line with ``str.find``: a game's
    body seldom holds one, so the scan runs at C speed, where a multi-line regular
    expression would try every position of the body."""
    bracket = chunk.find("[", pos)
    while bracket >= 0:
        start = chunk.rfind("\n", 0, bracket) + 1
        if (start >= pos and not chunk[start:bracket].strip(" \t")
                and _is_tag_line(chunk, start, match_next_line)):
            return start
        # No later "[" of this line starts one: on to the next line (each line once, so a
        # line of a million brackets costs as much as any other line).
        end = chunk.find("\n", bracket)
        if end < 0:
            return -1
        bracket = chunk.find("[", end + 1)
    return -1


def pieces(text_chunks: Iterable[str], source: str = "<text>") -> Iterator[tuple[int, str]]:
    """``(first line number, text)`` of each piece that begins a new game (see :class:`Cutter`).

    ``text_chunks``: text in runs of whole lines (lines, or :func:`chunks`); the
    cuts are found a chunk at a time with regular expressions, so a big block
    costs a few C-level scans rather than a Python step per line. Nothing keeps
    a chunk once its text is in the buffer (a match object would): a long line
    is held once, in its piece. A piece runs from its first line that is not
    blank to its last one: the blank lines after a game's body, up to the next
    game or the end, and those before the first game, belong to no game and are
    neither held nor counted (see :class:`_Piece`). A piece longer than a game
    may be (:data:`~notation.core.limits.MAX_GAME_CHARS`) is an
    :class:`InputError` naming ``source``, raised before it is held whole.
    """
    match_next_line = next_line().match
    body = False          # a body line in the current piece
    piece = _Piece(source)
    line = 1              # the line at ``at``
    most = limits.MAX_GAME_CHARS
    for chunk in text_chunks:
        at = pos = 0      # the chunk's text not yet in a piece; where the search resumes
        while True:
            if not body:  # the piece's first body line (tag lines are not body lines)
                pos = _body_line_at(chunk, pos)
                if pos < 0:
                    break
                body = True
            i = _tag_line_at(chunk, pos, match_next_line)  # then the first tag line after it: a cut
            if i < 0:
                break
            if (not piece.first and not piece.blanks.size and i - at > 2 and i - at <= most
                    and chunk[i - 2] == "\n" and not chunk[i - 3].isspace()
                    and not chunk[at].isspace()):
                # most games: whole in this chunk, one blank line after them, none before
                yield line, chunk[at:i - 1]
            else:
                piece.add(chunk, at, i, line, True)
                yield piece.taken()
            line += chunk.count("\n", at, i)
            at, pos, body = i, i, False
        piece.add(chunk, at, len(chunk), line, body)
        line += chunk.count("\n", at)
    chunk = ""  # not held beside the last piece while it is read
    if piece.first:
        yield piece.taken()


class _Piece:
    """The piece being cut: its text up to its last line that is not blank, held and
    counted against :data:`~notation.core.limits.MAX_GAME_CHARS`, and the blank lines after
    it, which are the game's only if more of it follows (:class:`_Blanks`)."""

    __slots__ = ("source", "parts", "held", "first", "blanks")

    def __init__(self, source: str) -> None:
        self.source = source
        self.parts: list[str] = []
        self.held = 0          # the parts' characters
        self.first = 0         # the piece's first line (0: no line that is not blank yet)
        self.blanks = _Blanks()

    def add(self, chunk: str, start: int, stop: int, line: int, body: bool) -> None:
        """``chunk[start:stop]``, whole lines of the piece, the first of them line ``line``
        (``body``: the piece has a body line, so that a tag line would end it: before one,
        blank lines after its tags are the game's, and refused at once past the limit)."""
        end = _content_end(chunk, start, stop)
        if end > start:
            if not self.first:  # blank lines before a game are no game's
                found = _NON_BLANK_LINE.search(chunk, start)
                assert found is not None  # (end > start: a line there is not blank)
                line += chunk.count("\n", start, found.start())
                start, self.first = found.start(), line
            check_game(self.held + self.blanks.size + end - start, self.first, self.source)
            if self.blanks.size:  # more of the game follows them: they are its own
                self.parts.append(self.blanks.text())
                self.held += self.blanks.size
                self.blanks.clear()
            self.parts.append(chunk[start:end])
            self.held += end - start
        if self.first and stop > end:
            self.blanks.add(chunk[end:stop], limits.MAX_GAME_CHARS - self.held)
            if self.blanks.lost and not body:
                check_game(self.held + self.blanks.size, self.first, self.source)

    def taken(self) -> tuple[int, str]:
        """``(first line, text)`` of the piece, which ends here (the blank lines after it
        are no game's); the next one starts empty."""
        found = self.first, _joined(self.parts)
        self.held = self.first = 0
        self.blanks.clear()
        return found


class _Blanks:
    """Blank lines after a piece's last line that is not blank: after a body line, between
    games if a tag line or the end follows them, within the game if more of it does (and
    before one, the game's: see :meth:`_Piece.add`). Until that is known
    they are held only while the game could still hold them, and a run of bare line
    breaks only as its length: a file of two games 1 GB of blank lines apart reads in the
    memory of its games."""

    __slots__ = ("parts", "size", "lost")

    def __init__(self) -> None:
        self.parts: list[str | int] = []  # text, or a number of bare line breaks
        self.size = 0        # their characters
        self.lost = False    # more than the game could hold: not kept

    def add(self, text: str, room: int) -> None:
        """More blank lines (``room``: what the game can still hold)."""
        self.size += len(text)
        if self.lost or self.size > room:  # if the game goes on, it is refused
            self.parts.clear()
            self.lost = True
        elif text.count("\n") == len(text):
            if self.parts and isinstance(self.parts[-1], int):
                self.parts[-1] += len(text)
            else:
                self.parts.append(len(text))
        else:
            self.parts.append(text)

    def text(self) -> str:
        """The blank lines as they were (only asked while they are kept)."""
        assert not self.lost
        return "".join("\n" * part if isinstance(part, int) else part for part in self.parts)

    def clear(self) -> None:
        self.parts.clear()
        self.size, self.lost = 0, False


#: A line that is not blank (``\s``: what ``str.isspace`` and the grammars' ``WS`` call blank).
_NON_BLANK_LINE = re.compile(r"^[^\S\n]*\S", re.MULTILINE)


#: Characters :func:`_content_end` looks back one by one before it strips the run in C.
_LOOK_BACK = 16


def _content_end(chunk: str, start: int, stop: int) -> int:
    """Where the last line of ``chunk[start:stop]`` that is not blank ends (after its line
    break), or ``start`` when all are blank. Found from the end at C speed: most runs end
    in a line that is not blank, and is seen so at once."""
    last = stop - 1
    if last > start and chunk[last] == "\n":
        last -= 1
    if last < start:
        return start
    if not chunk[last].isspace():
        return stop
    floor = max(start, last - _LOOK_BACK)  # most runs end in a blank line or two
    while last >= floor and chunk[last].isspace():
        last -= 1
    if last >= floor:
        line_end = chunk.find("\n", last, stop)
        return stop if line_end < 0 else line_end + 1
    whole = chunk if start == 0 and stop == len(chunk) else chunk[start:stop]
    kept = len(whole.rstrip())
    if not kept:
        return start
    line_end = chunk.find("\n", start + kept, stop)
    return stop if line_end < 0 else line_end + 1


def check_game(size: int, start: int, source: str) -> None:
    """Refuse a game of ``size`` characters from line ``start`` of ``source`` past
    :data:`~notation.core.limits.MAX_GAME_CHARS` (:class:`InputError`), before it is held
    whole; for every reader that gathers a game (a format's too)."""
    if size > limits.MAX_GAME_CHARS:
        raise InputError(source, f"the game from line {start:,} runs past "
                                 f"{limits.MAX_GAME_CHARS:,} characters (MAX_GAME_CHARS); "
                                 f"not read")


# -- files -------------------------------------------------------------------------

def label_of(source: str | os.PathLike[str] | IO[Any], name: str | None = None) -> str:
    """What messages call an input: ``name``, a path, a file's name, or ``<stream>``."""
    if name:
        return name
    if hasattr(source, "read"):
        found = getattr(source, "name", None)
        return found if isinstance(found, str) else "<stream>"
    return os.fspath(source)


def open_record_file(path: str | os.PathLike[str], label: str | None = None) -> IO[bytes]:
    """A regular file opened for reading in binary; :class:`InputError` otherwise."""
    check_regular(path)
    try:
        return open(path, "rb")
    except OSError as exc:
        raise InputError(label or os.fspath(path), f"cannot read: {exc.strerror or exc}") from None


def source_chunks(source: str | os.PathLike[str] | IO[Any], encoding: str = "utf-8",
                  name: str | None = None) -> Iterator[str]:
    """The text of a path (a regular file, opened and closed here) or of an open file,
    in runs of whole lines (:func:`chunks`), decompressed if it is compressed."""
    label = label_of(source, name)
    if not isinstance(source, (str, os.PathLike)):  # an open file
        yield from chunks(plain_blocks(source, label, encoding), label)
        return
    with open_record_file(source, label) as handle:
        yield from chunks(plain_blocks(handle, label, encoding), label)


def plain_blocks(stream: IO[Any], label: str, encoding: str = "utf-8") -> Iterator[str]:
    """Decoded text blocks of a stream, decompressed first when its first bytes say it is
    compressed (gzip, bzip2, xz, Zstandard: :mod:`notation.read.compression`)."""
    first = stream.read(BLOCK)
    while isinstance(first, bytes) and 0 < len(first) < compression.MAGIC_BYTES:
        more = stream.read(BLOCK)  # a pipe may give a few bytes at a time
        if not more:
            break
        first += more
    if isinstance(first, bytes) and compression.kind_of(first) is not None:
        yield from decoded_blocks(compression.decompressed(first, stream, label), label,
                                  encoding)
        return
    yield from decoded_blocks(stream, label, encoding, first=first)


def decode(data: bytes, source: str, encoding: str = "utf-8") -> str:
    """Bytes to text with LF line ends; a UTF-8 BOM is dropped.

    Undecodable bytes, an unknown encoding, or a codec that is not a text
    encoding (``rot13``) raise :class:`InputError` (the reader's own decoding).
    Compressed bytes are not decompressed: what is read whole must be small.
    """
    return "".join(chunks(decoded_blocks(io.BytesIO(data), source, encoding), source))


def check_regular(path: str | os.PathLike[str]) -> None:
    """Raise :class:`InputError` unless ``path`` is a regular file (or a link to one).

    A FIFO or a device would block or never end; a record file is always a
    regular file (read pipes with ``-``).
    """
    source = os.fspath(path)
    try:
        mode = os.stat(source).st_mode
    except OSError as exc:
        raise InputError(source, f"cannot read: {exc.strerror or exc}") from None
    except ValueError:  # a NUL in the path
        raise InputError(source.replace("\0", "\\0"), "cannot read: the path holds a NUL "
                                                        "character") from None
    if stat.S_ISDIR(mode):
        raise InputError(source, "is a directory")
    if not stat.S_ISREG(mode):
        kind = "a FIFO" if stat.S_ISFIFO(mode) else "a device" if (
            stat.S_ISCHR(mode) or stat.S_ISBLK(mode)) else "a socket" if stat.S_ISSOCK(mode) \
            else "not a file"
        raise InputError(source, f"not a regular file ({kind}); read pipes with '-'")


def read_bytes(path: str | os.PathLike[str], limit: int | None = None) -> bytes:
    """The bytes of a regular file, at most ``limit`` of them (InputError beyond)."""
    source = os.fspath(path)
    check_regular(source)
    try:
        with open(source, "rb") as fh:
            data = fh.read() if limit is None else fh.read(limit + 1)
    except OSError as exc:
        raise InputError(source, f"cannot read: {exc.strerror or exc}") from None
    if limit is not None and len(data) > limit:
        raise InputError(source, f"is larger than {limit:,} bytes")
    return data


def read_beside(record_source: str, relative: str, limit: int) -> tuple[str, bytes]:
    """A file that a record names, read only if it lies in the record's own folder
    (:func:`path_beside`), a regular file of at most ``limit`` bytes. Returns the path
    used and the bytes."""
    path, target = path_beside(record_source, relative)
    return path, read_bytes(target, limit)


def path_beside(record_source: str, relative: str) -> tuple[str, str]:
    """Where a file that a record names is, if it may be read: ``relative`` is a
    ``/``-separated path below the folder of ``record_source``: no absolute path, no
    ``..``, no symbolic link that leads out (InputError). Returns the path as the record
    names it and the real path. A record read from standard input or a string has no
    folder and may name no file.
    """
    if not record_source or record_source.startswith("<"):
        raise InputError(relative, "a record read from standard input cannot name a file "
                                   "(it has no folder); give the record as a file, or inline "
                                   "the data")
    if not relative or "\0" in relative or "\\" in relative:
        raise InputError(shorten(relative.replace("\0", "\\0")),
                         "not a usable relative path")
    parts = relative.split("/")
    if relative.startswith("/") or os.path.isabs(relative) or ".." in parts:
        raise InputError(shorten(relative), "must be a path inside the record's folder "
                                            "(no absolute path, no '..')")
    folder = os.path.realpath(os.path.dirname(os.path.abspath(record_source)))
    path = os.path.join(os.path.dirname(record_source), *parts)
    target = os.path.realpath(os.path.join(folder, *parts))
    if os.path.commonpath([folder, target]) != folder:
        raise InputError(shorten(relative), "leads out of the record's folder (a symbolic link); "
                                            "not read")
    return path, target
