"""Byte ranges of whole games, so that workers elsewhere read their own part of a file.

The client scans a file once (lines only, nothing is parsed) and notes where
batches of games begin: byte offset and line number, by the same rule as the
streaming reader (:class:`~notation.read.text.Cutter`). A worker that can
see the file (a local cluster, or a cluster on shared storage) reads its range
and checks those games (:func:`notation.parallel.work.span_part`); their line
numbers are the file's.

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

import os
import stat
import sys
from dataclasses import dataclass, replace
from contextlib import contextmanager
from typing import IO, Iterator

from notation.core import formats

from notation.read import compression
from notation.parallel.batch import TARGET
from notation.core.errors import InputError
from notation.read.text import Cutter, open_record_file

#: Bytes at the head of a file that client and worker digest to agree it is the same file.
HEAD = 64 << 10

#: What a worker adds when the file it sees is not the client's.
SAME_FILES = "workers must see the same files at the same paths"


@dataclass(frozen=True, slots=True)
class Identity:
    """A file as the client measured it; a worker reads it only if it measures the same."""

    size: int
    mtime_ns: int
    head: str  # digest of the first HEAD bytes


def identity_of(handle: IO[bytes]) -> Identity:
    """The identity of an open file (its head read in place: the handle does not move).

    Something else than a regular file (a FIFO, a device) has no identity: size -1.
    """
    fd = handle.fileno()
    status = os.fstat(fd)
    if not stat.S_ISREG(status.st_mode):
        return Identity(-1, -1, "")
    head = os.pread(fd, HEAD, 0)
    import hashlib  # (start-up: a local run never asks a file's identity)

    return Identity(status.st_size, status.st_mtime_ns,
                    hashlib.blake2b(head, digest_size=16).hexdigest())


@dataclass(frozen=True, slots=True)
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

    @property
    def path(self) -> str:
        return self.location or self.source

    @property
    def size(self) -> int:
        """Bytes of the span (a batch's ``size``, for progress)."""
        return self.end - self.start


def spans(path: str | os.PathLike[str], game: str | None = None, encoding: str = "utf-8",
          target: int = TARGET) -> Iterator[Span]:
    """The spans of one file, each about ``target`` bytes, in file order.

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
        first = Span(source, 1, 0, 0, 1, game, encoding, location, identity)
        if compression.kind_of(os.pread(handle.fileno(), compression.MAGIC_BYTES, 0)) \
                or formats.of_file(source) is not None:
            yield replace(first, end=identity.size, streamed=True)
            return
        yield from _cut(handle, first, target)


def _cut(handle: IO[bytes], first: Span, target: int) -> Iterator[Span]:
    """The spans of an open file, from its start; ``first`` gives what they all share."""
    try:
        ascii_like = "\n[".encode(first.encoding) == b"\n["
    except (LookupError, UnicodeError):
        ascii_like = False
    if not ascii_like:  # lines cannot be found in the bytes: the file is one span
        size = first.identity.size if first.identity else os.fstat(handle.fileno()).st_size
        yield replace(first, end=size)
        return
    number, start, first_line, offset, line_no = 1, 0, 1, 0, 0
    cutter = Cutter()
    for raw in handle:
        line_no += 1
        text = raw.decode(first.encoding, "replace")
        if line_no == 1 and text.startswith("\ufeff"):
            text = text[1:]
        carry = cutter.may_carry
        if cutter.feed(text) and offset - start >= target and not carry:
            yield replace(first, number=number, start=start, end=offset, first_line=first_line)
            number, start, first_line = number + 1, offset, line_no
        offset += len(raw)
    if offset > start or number == 1:
        yield replace(first, number=number, start=start, end=offset, first_line=first_line)


def read_span(span: Span) -> bytes:
    """The bytes of a span, from the file the client measured (:class:`InputError` if not)."""
    with _reading(span):
        with open_whole(span) as handle:
            handle.seek(span.start)
            return handle.read(span.end - span.start)


def open_whole(span: Span) -> IO[bytes]:
    """The file of a span, open at its start, if it is the file the client measured
    (:class:`InputError` if not)."""
    with _reading(span):
        handle = open(span.path, "rb", opener=_without_blocking)
        try:
            if span.identity is not None:
                _same_file(span, identity_of(handle))
        except BaseException:
            handle.close()
            raise
        return handle


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
