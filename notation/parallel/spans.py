"""Byte ranges of whole games, so that workers elsewhere read their own part of a file.

The client scans a file once (nothing is parsed) and notes where batches of games
begin: byte offset and line number, by the same rule as the streaming reader
(:class:`~notation.read.text.Cutter`, a line at a time in :func:`_cut_by_lines`; a few
searches in C a span in :func:`_cut`, which equals it). A worker that can see the file
(a forked worker process, a local cluster, or a cluster on shared storage) reads its
range and checks those games (:func:`notation.parallel.work.span_part`); their line
numbers are the file's. A file whose encoding cannot be cut in its bytes (UTF-16, a
codec with shifts: :data:`CUTTABLE`) is one span.

A worker runs in its own folder, on its own machine: it opens the file by the
absolute path the client resolved, and reads it only if it is the file the
client measured (size, modification time, a digest of its head). Messages
quote the path as the user gave it.

A compressed file cannot be cut in its bytes (a game's start is known only
after decompressing all before it), nor can a file in another format (Pentobi's,
JSON: the notation's rule finds no game starts in it): each is one span, which its
worker reads as a stream (:func:`open_whole`), in flat memory.
"""
from __future__ import annotations

import codecs
import os
import re
import stat
import sys
from dataclasses import replace
from contextlib import contextmanager
from typing import IO, Generator, Iterator

from notation.core import formats
from notation.core.hand_dataclass import hand_dataclass

from notation.read import compression
from notation.parallel.batch import TARGET
from notation.core.errors import InputError
from notation.read.text import (BODY_LINE, NEITHER, TAG_LINE, Cutter, line_kind, may_carry,
                                open_record_file, tag_line_at)

#: Bytes at the head of a file that client and worker digest to agree it is the same file.
HEAD = 64 << 10

#: What a worker adds when the file it sees is not the client's.
SAME_FILES = "workers must see the same files at the same paths"


@hand_dataclass(frozen=True, slots=True)
class Identity:
    """A file as the client measured it; a worker reads it only if it measures the same."""

    size: int
    mtime_ns: int
    head: str  # digest of the first HEAD bytes

    def __init__(self, size: int, mtime_ns: int, head: str) -> None:
        object.__setattr__(self, "size", size)
        object.__setattr__(self, "mtime_ns", mtime_ns)
        object.__setattr__(self, "head", head)


def identity_of(handle: IO[bytes]) -> Identity:
    """The identity of an open file (its head read in place: the handle does not move).

    Something else than a regular file (a FIFO, a device) has no identity: size -1.
    """
    fd = handle.fileno()
    status = os.fstat(fd)
    if not stat.S_ISREG(status.st_mode):
        return Identity(-1, -1, "")
    head = os.pread(fd, HEAD, 0)
    try:  # (start-up: hashlib loads OpenSSL, 2.3 ms, for a digest CPython builds in)
        from _blake2 import blake2b
    except ImportError:  # pragma: no cover - another interpreter
        from hashlib import blake2b
    return Identity(status.st_size, status.st_mtime_ns,
                    blake2b(head, digest_size=16).hexdigest())


@hand_dataclass(frozen=True, slots=True)
class Span:
    """Bytes ``start`` to ``end`` of ``source``: whole games from line ``first_line``."""

    source: str
    number: int
    start: int
    end: int
    first_line: int
    game: str | None = None
    encoding: str = "utf-8"
    location: str = ""  # the absolute path the worker opens ("": ``source``)
    identity: Identity | None = None  # the file the client measured (None: not checked)
    #: The whole of a file that cannot be cut in its bytes (compressed, or in another
    #: format), read as a stream.
    streamed: bool = False

    def __init__(self, source: str, number: int, start: int, end: int, first_line: int,
                 game: str | None = None, encoding: str = "utf-8", location: str = "",
                 identity: Identity | None = None, streamed: bool = False) -> None:
        setting = object.__setattr__
        setting(self, "source", source)
        setting(self, "number", number)
        setting(self, "start", start)
        setting(self, "end", end)
        setting(self, "first_line", first_line)
        setting(self, "game", game)
        setting(self, "encoding", encoding)
        setting(self, "location", location)
        setting(self, "identity", identity)
        setting(self, "streamed", streamed)

    @property
    def path(self) -> str:
        return self.location or self.source

    @property
    def size(self) -> int:
        """Bytes of the span (a batch's ``size``, for progress)."""
        return self.end - self.start


def spans(path: str | os.PathLike[str], game: str | None = None, encoding: str = "utf-8",
          target: int = TARGET, first: int | None = None) -> Generator[Span, None, None]:
    """The spans of one file, each about ``target`` bytes, in file order (``first``: the
    first one's size, each next one twice the last, up to ``target``).

    Each span names the file as given (for messages) and by its absolute path
    (for the worker, whose working folder is not ours), with the file's identity
    measured before it is scanned: a file that changes meanwhile is refused.
    """
    source = os.fspath(path)
    location = os.path.abspath(source)
    with open_record_file(source) as handle:  # checks it is a regular file first
        try:
            identity = identity_of(handle)
        except OSError as exc:
            raise InputError(source, f"cannot read: {exc.strerror or exc}") from None
        whole = Span(source, 1, 0, 0, 1, game, encoding, location, identity)
        if compression.kind_of(os.pread(handle.fileno(), compression.MAGIC_BYTES, 0)) \
                or formats.of_file(source) is not None:
            yield replace(whole, end=identity.size, streamed=True)
            return
        yield from _cut(handle, whole, target, target if first is None else first)


#: Codecs that read an ASCII byte as that character, whatever surrounds it: where a file's
#: bytes are ASCII, its text is the same string and a character's place its byte offset.
ASCII_AS_ASCII = frozenset({"utf-8", "ascii", "iso8859-1", "cp1252"})
#: Characters of a span the fast search holds before it goes on line by line (a span may
#: find no end for long: a file of one game, or of games that all carry comments over).
HOLD = 2 << 20
#: Bytes read at a time.
READ = 1 << 20


def _cut(handle: IO[bytes], first: Span, target: int, first_target: int) -> Iterator[Span]:
    """The spans of an open file, from its start; ``first`` gives what they all share.

    The first span's end is looked for from ``first_target`` bytes on, each next one's
    from twice as far, up to ``target``. Where a span's text is ASCII in a codec that
    reads it so, its end is found by :func:`_end_in`, a few scans in C however many games
    it holds; elsewhere (another encoding, bytes that are not ASCII, a span longer than
    :data:`HOLD`) by :class:`~notation.read.text.Cutter` a line at a time
    (:func:`_cut_by_lines`, which this equals: see the tests)."""
    if not cuttable(first.encoding):  # lines cannot be found in the bytes: one span
        size = first.identity.size if first.identity else os.fstat(handle.fileno()).st_size
        yield replace(first, end=size)
        return
    fast = _codec_name(first.encoding) in ASCII_AS_ASCII
    start, line, number = 0, 1, 1
    want = min(first_target, target)
    text = ""             # the text read: whole lines of ASCII
    tail: list[bytes] = []  # the bytes read past it (a line not ended yet), in parts
    held = 0              # their length
    base = pos = 0        # where in ``text`` the span starts, and its search resumes
    ended = False
    while True:
        if fast and len(text) - base + held <= HOLD:
            end, pos = _end_in(text, base, pos, want)
            if end >= 0:
                yield replace(first, number=number, start=start, end=start + end - base,
                              first_line=line)
                line += text.count("\n", base, end)
                start, number, base = start + end - base, number + 1, end
                want = min(2 * want, target)
                continue
            if ended:
                last = start + len(text) - base
                break
            block = handle.read(READ)
            whole = block.rfind(b"\n") + 1
            if block and not whole:  # a line longer than a block goes on
                tail.append(block)
                held += len(block)
                continue
            data = b"".join((*tail, block[:whole])) if block else b"".join(tail)
            tail = [block[whole:]] if block else []
            held = len(tail[0]) if tail else 0
            ended = not block  # (the end: a last line without a line break is whole)
            if data.isascii():
                pos -= base
                text = text[base:] + data.decode("ascii")
                base = 0
                continue
            tail.insert(0, data)
        # the rest of the span line by line, from its start
        found = _span_end_by_lines(handle, start, line, want, first.encoding)
        if found is None:
            last = handle.tell()
            break
        offset, lines_before = found
        yield replace(first, number=number, start=start, end=start + offset, first_line=line)
        line += lines_before
        start, number = start + offset, number + 1
        want = min(2 * want, target)
        handle.seek(start)
        text, tail, held, base, pos, ended = "", [], 0, 0, 0, False
    text = ""  # (not held while the last span is worked on)
    if last > start or number == 1:
        yield replace(first, number=number, start=start, end=last, first_line=line)


def _end_in(text: str, base: int, pos: int, want: int) -> tuple[int, int]:
    """Where in ``text`` a span that starts at ``base`` ends (-1: not in it yet), and where
    the search resumes when more text comes.

    ``text`` holds whole lines (the last may lack its line break only at the file's end),
    and :class:`~notation.read.text.Cutter` starts a piece at ``base`` (the file's start,
    or a cut). The span ends at the first line at least ``want`` characters on, at or
    after ``pos``, where the Cutter cuts (a tag line whose last tag or body line before
    is a body line) after a piece that may not carry its comments over (see
    :meth:`~notation.read.text.Cutter.may_carry`). Only a tag line that follows a body
    line is walked back from to its piece's start: walking back from every tag line went
    over each run of tag lines once a line in it (a file of games of tags alone, 1 MB:
    minutes). What decides a line is all before it, so a search resumes where it
    stopped."""
    least = base + want
    if len(text) <= least:
        return -1, pos
    if pos < least:
        pos = least if text[least - 1] == "\n" else text.find("\n", least) + 1 or len(text)
    while True:
        i = tag_line_at(text, pos)
        if i < 0:
            return -1, len(text)
        if (_follows_a_body(text, base, i)
                and not may_carry(text[_piece_start(text, base, i):i])):
            return i, i
        pos = text.find("\n", i) + 1
        if not pos:
            return -1, len(text)


def _lines_back(text: str, base: int, i: int) -> Iterator[tuple[int, int]]:
    """``(start, kind)`` of the lines of ``text`` from ``base`` on before the one at ``i``,
    last first."""
    while i > base:
        i = text.rfind("\n", base, i - 1) + 1 or base
        yield i, line_kind(text, i)


def _follows_a_body(text: str, base: int, i: int) -> bool:
    """Whether the last tag or body line from ``base`` on before ``i`` is a body line (one
    step back past blank lines: the line at ``i`` is then a cut, if it is a tag line)."""
    for _start, kind in _lines_back(text, base, i):
        if kind != NEITHER:
            return kind == BODY_LINE
    return False


def _piece_start(text: str, base: int, cut: int) -> int:
    """Where the piece that a cut at ``cut`` ends starts: its tag lines' first (a piece is
    tag lines, then body lines; blank lines anywhere), or ``base``."""
    start, tags = base, False
    for line, kind in _lines_back(text, base, cut):
        if kind == TAG_LINE:
            start, tags = line, True
        elif kind == BODY_LINE and tags:
            return start
    return base


#: Bytes of a line the line-by-line search decodes at once: a longer line is told by its
#: head, and searched for a ``{`` a block at a time (decoded whole, a 32 MB tag value cost
#: the scan twice its size).
LONG = 1 << 16

#: A head that cannot tell its line: blanks, brackets and a tag's key alone so far.
_UNDECIDED = re.compile(r"[\s\[A-Za-z0-9_]*")


def _span_end_by_lines(handle: IO[bytes], start: int, first_line: int, want: int,
                       encoding: str) -> tuple[int, int] | None:
    """Where the span from byte ``start`` (a piece's start, on line ``first_line``) ends, by
    :class:`Cutter` a line at a time: its length and line count (None: at the file's end,
    where the handle is left)."""
    handle.seek(start)
    fast = _codec_name(encoding) in ASCII_AS_ASCII
    cutter = Cutter()
    offset = count = 0
    while True:
        raw = handle.readline(LONG)
        if not raw:
            return None
        size, brace, first = len(raw), None, first_line + count == 1
        if size < LONG or raw.endswith(b"\n"):
            text = raw.decode(encoding, "replace")
            if first and text.startswith("\ufeff"):
                text = text[1:]
        else:
            text, size, brace = _long_line(handle, raw, encoding, fast, first)
        carry = cutter.may_carry
        if cutter.feed(text, brace) and offset >= want and not carry:
            return offset, count
        offset += size
        count += 1


def _long_line(handle: IO[bytes], head: bytes, encoding: str, fast: bool,
               first: bool) -> tuple[str, int, bool | None]:
    """A line longer than :data:`LONG` whose first bytes are ``head``, read on to its end:
    the text that tells it (its head's, or where the head cannot tell, all of it; the
    file's ``first`` line without its byte-order mark), its length in bytes, and whether
    it holds a ``{`` (None: the text holds all of it).

    A head tells its line once it holds a character that is no blank, bracket, letter,
    digit or underscore: a tag line, a body line and a comment line are told apart at
    the latest there (see :class:`Cutter`)."""
    decoder = codecs.getincrementaldecoder(encoding)("replace")
    text = decoder.decode(head, False)
    size = len(head)
    mark = first and text.startswith("\ufeff")
    if _UNDECIDED.fullmatch(text, 1 if mark else 0):
        parts = [head]
        while not parts[-1].endswith(b"\n"):
            more = handle.readline(LONG)
            if not more:
                break
            parts.append(more)
        whole = b"".join(parts)
        text = whole.decode(encoding, "replace")
        return text[1:] if first and text.startswith("\ufeff") else text, len(whole), None
    if mark:
        text = text[1:]
    brace = "{" in text
    more = head
    while not more.endswith(b"\n"):
        more = handle.readline(LONG)
        if not more:
            break
        size += len(more)
        if not brace:
            brace = b"{" in more if fast else "{" in decoder.decode(more, False)
    return text, size, brace


def _cut_by_lines(handle: IO[bytes], first: Span, target: int,
                  first_target: int) -> Iterator[Span]:
    """The spans of an open file by :class:`Cutter`, a line at a time: what :func:`_cut`
    does faster, and its definition."""
    if not cuttable(first.encoding):
        size = first.identity.size if first.identity else os.fstat(handle.fileno()).st_size
        yield replace(first, end=size)
        return
    number, start, first_line, offset, line_no = 1, 0, 1, 0, 0
    want = min(first_target, target)
    cutter = Cutter()
    for raw in handle:
        line_no += 1
        text = raw.decode(first.encoding, "replace")
        if line_no == 1 and text.startswith("\ufeff"):
            text = text[1:]
        carry = cutter.may_carry
        if cutter.feed(text) and offset - start >= want and not carry:
            yield replace(first, number=number, start=start, end=offset, first_line=first_line)
            number, start, first_line = number + 1, offset, line_no
            want = min(2 * want, target)
        offset += len(raw)
    if offset > start or number == 1:
        yield replace(first, number=number, start=start, end=offset, first_line=first_line)


def _codec_name(encoding: str) -> str:
    try:
        return codecs.lookup(encoding).name
    except (LookupError, ValueError, TypeError):
        return ""


#: Codecs whose bytes can be cut at any line break, each part then read alone: stateless
#: (a byte's reading depends on no shift made lines before, as ISO-2022's and UTF-7's
#: do), a line break and a tag's bracket each their ASCII byte, and no byte of a
#: character a line break.
CUTTABLE = ASCII_AS_ASCII | frozenset({
    "utf-8-sig", "cp437", "cp850", "cp852", "cp1250", "cp1251", "cp1253", "cp1254",
    "cp1255", "cp1256", "cp1257", "cp1258", "koi8-r", "koi8-u", "mac-roman",
    "shift_jis", "cp932", "euc_jp", "euc_kr", "cp949", "gbk", "gb2312", "gb18030", "big5",
    "cp950", *(f"iso8859-{n}" for n in range(2, 17) if n != 12)})


def cuttable(encoding: str) -> bool:
    """Whether a file in ``encoding`` can be cut in its bytes at its line breaks (see
    :data:`CUTTABLE`); one that cannot is one span, or batches read here."""
    return _codec_name(encoding) in CUTTABLE


class SpanReader:
    """A span's bytes read a block at a time (a span read whole was a fresh mapping of
    memory each time, its pages faulted in one by one: a tenth of a worker's time), from
    the file the client measured; a failure to read is an :class:`InputError`."""

    def __init__(self, span: Span) -> None:
        self.span = span
        self.handle = open_whole(span)
        self.left = span.end - span.start
        with _reading(span):
            self.handle.seek(span.start)

    def read(self, size: int = -1, /) -> bytes:
        with _reading(self.span):
            data = self.handle.read(self.left if size < 0 else min(size, self.left))
        self.left -= len(data)
        return data

    def close(self) -> None:
        self.handle.close()

    def __enter__(self) -> SpanReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_whole(span: Span) -> IO[bytes]:
    """The file of a span, open at its start, if it is the file the client measured
    (:class:`InputError` if not)."""
    with _reading(span):
        handle = open(span.path, "rb", opener=_without_blocking)
        try:
            if span.identity is not None:
                _check_same_file(span, handle)
        except BaseException:
            handle.close()
            raise
        return handle


#: The files this process found to be the client's: by path and identity, the file as the
#: system saw it then (device, inode, size, modification time). A worker opens one file
#: once a span: its head is digested again only if the system sees another file there.
_SEEN: dict[tuple[str, Identity], tuple[int, int, int, int]] = {}


def _check_same_file(span: Span, handle: IO[bytes]) -> None:
    assert span.identity is not None
    status = os.fstat(handle.fileno())
    seen = (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns)
    key = (span.path, span.identity)
    if _SEEN.get(key) == seen and stat.S_ISREG(status.st_mode):
        return
    _same_file(span, identity_of(handle))
    if len(_SEEN) > 1000:
        _SEEN.clear()
    _SEEN[key] = seen


@contextmanager
def _reading(span: Span) -> Iterator[None]:
    """A failure to read the span's file as an :class:`InputError` (naming the worker)."""
    try:
        yield
    except OSError as exc:
        reason = exc.strerror or str(exc)
        worker = _worker_address()
        if worker is None:
            raise InputError(span.source, f"cannot read: {reason}") from None
        raise InputError(span.source, f"the worker at {worker} cannot read it: {reason}; "
                                      f"{SAME_FILES}") from None


def _without_blocking(path: str, flags: int) -> int:
    """Open without waiting: a FIFO where the client saw a file must not hang the worker."""
    return os.open(path, flags | os.O_NONBLOCK)


def _same_file(span: Span, seen: Identity) -> None:
    """Refuse a file that is not the one the client measured (another machine's, or changed)."""
    expected = span.identity
    if expected is None:
        return
    differ = [what for what, same in (("size", seen.size == expected.size),
                                      ("mtime", seen.mtime_ns == expected.mtime_ns),
                                      ("content", seen.head == expected.head)) if not same]
    if not differ:
        return
    why = f"({'/'.join(differ)} differ{'s' if len(differ) == 1 else ''})"
    worker = _worker_address()
    if worker is None:
        raise InputError(span.source, f"the file changed after it was scanned {why}")
    raise InputError(span.source, f"the worker at {worker} sees a different file at this path "
                                  f"{why}; {SAME_FILES}")


def _worker_address() -> str | None:
    """The Dask worker running this task, if any (for messages); Dask is never imported here."""
    module = sys.modules.get("distributed")
    if module is None:
        return None
    try:
        address: str = module.get_worker().address
    except (ValueError, AttributeError):
        return None
    return address
