"""Compressed archives (gzip, bzip2, xz, Zstandard): known by their first bytes, read and
written as streams.

Archives are shipped compressed, often under names that do not say so; a reader
that trusted names would read a renamed ``.gz`` as undecodable text. So the
first bytes decide (:func:`kind_of`), and names only choose how a new file is
written (:func:`kind_by_name`). Reading never holds more than a block of
decompressed bytes: a small file that decompresses to gigabytes (a
decompression bomb) streams like any other, and one endless line in it is
refused past :data:`MAX_LINE_BYTES` rather than held whole. Every failure to
decompress is an :class:`~notation.core.errors.InputError` naming the file.

Zstandard needs the ``zstandard`` package (the ``game-notation[data]`` extra); the
other three are in the standard library.
"""
from __future__ import annotations

import importlib
import os
from functools import lru_cache
from typing import IO, Any, Protocol, cast

from notation.core.errors import InputError, shorten

GZIP, BZIP2, XZ, ZSTD = "gzip", "bzip2", "xz", "zstd"

#: File name endings that mean a compression, for new files and for finding a record's
#: game by name (``x.tilewe.gz`` is a Tilewe record).
SUFFIXES = {".gz": GZIP, ".bz2": BZIP2, ".xz": XZ, ".zst": ZSTD}

#: Bytes enough to tell every kind by its start.
MAGIC_BYTES = 6

#: The longest run of decompressed bytes without a line break that is read: past it the
#: input is refused (one line that size is no record; it is what a bomb of zeros makes).
MAX_LINE_BYTES = 64 << 20

#: The most memory an xz stream may ask of its decoder (its dictionary, about: ``xz -9``
#: asks 65 MiB): past it the file is refused, never given what it asks (a stream can
#: declare a dictionary of 1.5 GiB).
MAX_XZ_MEMORY = 256 << 20

#: What the messages call each kind.
TITLES = {GZIP: "gzip", BZIP2: "bzip2", XZ: "xz", ZSTD: "Zstandard"}

#: How to get what reading or writing Zstandard needs.
INSTALL_ZSTD = "pip install 'game-notation[data]'"



@lru_cache(maxsize=None)
def codec(name: str) -> Any:
    """A codec's module (``gzip``, ``bz2``, ``lzma``, ``zlib``, ``zstandard``), imported
    the first time a compressed file is met: every command starts without them (zstandard
    alone costs 16 ms). None for ``zstandard`` when the extra is not installed."""
    try:
        return importlib.import_module(name)
    except ImportError:  # pragma: no cover - the optional extra is not installed
        if name == "zstandard":
            return None
        raise


@lru_cache(maxsize=None)
def _decompression_errors() -> tuple[type[Exception], ...]:
    """What the libraries raise for data that is not what it claims (beside OSError and
    EOFError)."""
    zstandard = codec("zstandard")
    return (codec("zlib").error, codec("lzma").LZMAError,
            *((zstandard.ZstdError,) if zstandard is not None else ()))
_BZIP2_LEVELS = tuple(bytes([c]) for c in b"123456789")
_ZSTD_FRAME = 0xFD2FB528
_ZSTD_SKIPPABLE, _ZSTD_SKIPPABLE_MASK = 0x184D2A50, 0xFFFFFFF0


def kind_of(head: bytes) -> str | None:
    """The compression whose signature ``head`` (a file's first bytes) starts with, or None."""
    if head.startswith(b"\x1f\x8b\x08"):  # deflate, the one method gzip has
        return GZIP
    if head.startswith(b"BZh") and head[3:4] in _BZIP2_LEVELS:
        return BZIP2
    if head.startswith(b"\xfd7zXZ\x00"):
        return XZ
    if len(head) >= 4:
        magic = int.from_bytes(head[:4], "little")
        if magic == _ZSTD_FRAME or magic & _ZSTD_SKIPPABLE_MASK == _ZSTD_SKIPPABLE:
            return ZSTD
    return None


def kind_by_name(path: str) -> str | None:
    """The compression a file name asks for by its ending (``.gz`` ...), or None."""
    _, ext = os.path.splitext(path)
    return SUFFIXES.get(ext.lower())


def plain_name(path: str) -> str:
    """``path`` without its compression ending: what the file's name says it holds."""
    stem, ext = os.path.splitext(path)
    return stem if ext.lower() in SUFFIXES else path


def kind_of_file(path: str | os.PathLike[str]) -> str | None:
    """The compression of the file at ``path`` by its first bytes; None for an uncompressed
    file or one that cannot be read (its reader says why)."""
    try:
        with open(path, "rb") as handle:
            return kind_of(handle.read(MAGIC_BYTES))
    except OSError:
        return None


class Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


class Prefixed:
    """A stream whose first bytes were already read: they are given again, then the rest."""

    def __init__(self, head: bytes, rest: Readable) -> None:
        self.head, self.rest = head, rest

    def read(self, size: int = -1, /) -> bytes:
        if not self.head:
            return self.rest.read(size)
        if size < 0:
            data, self.head = self.head + self.rest.read(), b""
            return data
        data, self.head = self.head[:size], self.head[size:]
        return data


class ZstdFrames:
    """Follows a Zstandard stream's frame and block headers as its bytes pass, to tell a
    stream cut short: the ``zstandard`` library reads one as if it had ended."""

    def __init__(self) -> None:
        self.state = "magic"  # what the header bytes being gathered are
        self.head = bytearray()
        self.skip = 0         # bytes to pass before the next header
        self.size = 0         # the frame header's length, once its descriptor is read
        self.checksum = False

    def _need(self) -> int:
        return {"magic": 4, "descriptor": 5, "skippable": 8, "block": 3}.get(
            self.state, self.size)

    def feed(self, data: bytes) -> None:
        at, end = 0, len(data)
        while at < end and self.state != "unknown":  # unknown bytes: the library refuses them
            if self.skip:
                step = min(self.skip, end - at)
                self.skip, at = self.skip - step, at + step
                continue
            need = self._need()
            take = min(need - len(self.head), end - at)
            self.head += data[at:at + take]
            at += take
            if len(self.head) == need:
                self._header()

    def _header(self) -> None:
        head = self.head
        if self.state == "magic":
            magic = int.from_bytes(head, "little")
            self.state = ("descriptor" if magic == _ZSTD_FRAME else "skippable"
                          if magic & _ZSTD_SKIPPABLE_MASK == _ZSTD_SKIPPABLE else "unknown")
            return
        if self.state == "descriptor":
            flags = head[4]
            single = flags >> 5 & 1
            self.checksum = bool(flags >> 2 & 1)
            self.size = (5 + (1 - single) + (0, 1, 2, 4)[flags & 3]
                         + (single, 2, 4, 8)[flags >> 6])
            self.state = "header"
            return
        if self.state == "header":
            self.state = "block"
        elif self.state == "skippable":
            self.skip, self.state = int.from_bytes(head[4:8], "little"), "magic"
        else:  # a block: its header says its size and whether it is the frame's last
            word = int.from_bytes(head, "little")
            self.skip = 1 if word >> 1 & 3 == 1 else word >> 3  # an RLE block holds one byte
            if word & 1:
                self.skip += 4 * self.checksum
                self.state = "magic"
        head.clear()

    @property
    def whole(self) -> bool:
        """The bytes so far end where a frame ends (or in bytes the library refuses)."""
        return self.state in ("magic", "unknown") and not self.head and not self.skip


_XZ_MAGIC = b"\xfd7zXZ\x00"


class XzStreams:
    """The decompressed bytes of an xz file as its format says to read one (the .xz file
    format, 2.2): streams one after another, each followed by stream padding, null bytes
    in a multiple of four; anything else after a stream is an error, as ``xz -t`` says
    (the standard library's reader refused legal padding as a cut, and read any other
    bytes after a stream, a second stream too, as an end). Each stream's decoder has at
    most :data:`MAX_XZ_MEMORY`."""

    def __init__(self, source: Readable) -> None:
        self.source = source
        self.decoder: Any = None  # None between streams
        self.held = b""           # bytes read past a stream's end, not yet looked at
        self.padding = 0          # null bytes since the last stream ended
        self.started = False

    def read1(self, size: int) -> bytes:
        """Up to ``size`` bytes (fewer at times); ``b""`` at the file's end.
        ``EOFError`` for a stream cut short; ``LZMAError`` for anything else wrong (bad
        data, bytes after a stream that are not padding, a decoder past the limit)."""
        while True:
            if self.decoder is None and not self._next_stream():
                return b""
            decoder = self.decoder
            data = b""
            if decoder.needs_input:
                data, self.held = self.held or self.source.read(1 << 16), b""
                if not data:
                    raise EOFError("the stream is cut short")
            out: bytes = decoder.decompress(data, size)
            if decoder.eof:
                self.held, self.decoder, self.padding = decoder.unused_data, None, 0
            if out:
                return out

    def _next_stream(self) -> bool:
        """Past the padding after a stream to the next stream's start: whether there is one."""
        if not self.started:  # the file's start: a stream (its first bytes say so)
            self.started = True
            self.decoder = _xz_decoder()
            return True
        while True:
            data, self.held = self.held or self.source.read(1 << 16), b""
            if not data:
                if self.padding % 4:
                    raise _xz_error(f"stream padding of {self.padding} null bytes (not a "
                                    f"multiple of 4)")
                return False
            rest = data.lstrip(b"\0")
            self.padding += len(data) - len(rest)
            if rest:
                break
        if self.padding % 4:
            raise _xz_error(f"stream padding of {self.padding} null bytes (not a multiple "
                            f"of 4)")
        while len(rest) < len(_XZ_MAGIC):  # (a pipe may give a few bytes at a time)
            more = self.source.read(len(_XZ_MAGIC) - len(rest))
            if not more:
                break
            rest += more
        if not rest.startswith(_XZ_MAGIC):
            if _XZ_MAGIC.startswith(rest):
                raise EOFError("the next stream is cut short")
            raise _xz_error("data after a stream is neither padding nor a stream")
        self.decoder, self.held = _xz_decoder(), rest
        return True

    def close(self) -> None:
        """Nothing to let go: the file is its owner's."""


def _xz_decoder() -> Any:
    lzma = codec("lzma")
    return lzma.LZMADecompressor(format=lzma.FORMAT_XZ, memlimit=MAX_XZ_MEMORY)


def _xz_error(message: str) -> Exception:
    error: type[Exception] = codec("lzma").LZMAError
    return error(message)


def _past_memory_limit(exc: BaseException) -> bool:
    """Whether an xz decoder refused a stream for :data:`MAX_XZ_MEMORY` (liblzma says so in
    words only)."""
    return "memory usage limit" in str(exc).lower()


class Tapped:
    """A stream whose bytes are shown to a :class:`ZstdFrames` as they are read."""

    def __init__(self, source: Readable, frames: ZstdFrames) -> None:
        self.source, self.frames = source, frames

    def read(self, size: int = -1, /) -> bytes:
        data = self.source.read(size)
        self.frames.feed(data)
        return data


class Decompressed:
    """The decompressed bytes of a compressed stream, read a block at a time.

    Every failure (bad data, a stream cut short, a line past :data:`MAX_LINE_BYTES`)
    is an :class:`InputError` naming the input; a failure of the file itself
    (an ``OSError`` with an errno) is one too, said as it is.
    """

    def __init__(self, kind: str, source: Readable, label: str) -> None:
        self.kind, self.label = kind, label
        self.title = TITLES[kind]
        self.run = 0  # bytes since the last line break
        self.frames: ZstdFrames | None = None
        self.inner: Any
        stream = cast(IO[bytes], source)  # the libraries call only its read()
        if kind == GZIP:
            self.inner = codec("gzip").GzipFile(fileobj=stream, mode="rb")
        elif kind == BZIP2:
            self.inner = codec("bz2").BZ2File(stream, "rb")
        elif kind == XZ:
            self.inner = XzStreams(source)
        else:
            zstandard = codec("zstandard")
            if zstandard is None:
                raise InputError(label, f"is a Zstandard archive; reading it needs the "
                                        f"zstandard package: {INSTALL_ZSTD}")
            self.frames = ZstdFrames()
            self.inner = zstandard.ZstdDecompressor().stream_reader(
                cast(IO[bytes], Tapped(source, self.frames)), read_across_frames=True,
                closefd=False)
        # the standard library's readers fill a read(n) whole or raise, losing what they had
        self.read_step = self.inner.read if self.frames is not None else self.inner.read1

    def read(self, size: int = -1, /) -> bytes:
        """At most ``size`` bytes (a block when not given: never the whole, which may be
        a bomb's)."""
        if size < 0:
            size = 1 << 16
        try:  # read1: what one step gives, so that bytes before a fault are not lost with it
            data: bytes = self.read_step(size)
        except EOFError:
            raise self._cut_short() from None
        except OSError as exc:
            if exc.errno is not None:
                raise InputError(self.label, f"cannot read: {exc.strerror or exc}") from None
            raise self._corrupt(exc) from None
        except _decompression_errors() as exc:
            raise self._corrupt(exc) from None
        if not data and self.frames is not None and not self.frames.whole:
            raise self._cut_short()
        self._count_line(data)
        return data

    def _count_line(self, data: bytes) -> None:
        last = max(data.rfind(b"\n"), data.rfind(b"\r"))
        self.run = self.run + len(data) if last < 0 else len(data) - last - 1
        if self.run > MAX_LINE_BYTES:
            raise InputError(self.label, f"decompressed, it holds a line longer than "
                                         f"{MAX_LINE_BYTES:,} bytes; not read (no record has "
                                         f"one: a decompression bomb?)")

    def _cut_short(self) -> InputError:
        return InputError(self.label, f"the {self.title} archive is cut short (truncated)")

    def _corrupt(self, exc: BaseException) -> InputError:
        if self.kind == XZ and _past_memory_limit(exc):
            return InputError(self.label, f"the xz archive needs more than "
                                          f"{MAX_XZ_MEMORY >> 20} MiB of memory to decompress "
                                          f"(a dictionary that large; MAX_XZ_MEMORY); not read")
        reason = " ".join(str(exc).split()) or exc.__class__.__name__
        return InputError(self.label, f"corrupt {self.title} archive: {shorten(reason)}")

    def close(self) -> None:
        self.inner.close()


def decompressed(head: bytes, rest: Readable, label: str) -> Readable:
    """The bytes of a stream whose first bytes ``head`` were already read: decompressed
    if ``head`` says it is compressed, as they are otherwise."""
    whole = Prefixed(head, rest)
    kind = kind_of(head)
    return whole if kind is None else Decompressed(kind, whole, label)


def cannot_write(kind: str | None) -> str | None:
    """Why a file of compression ``kind`` cannot be written here, or None when it can."""
    if kind == ZSTD and codec("zstandard") is None:
        return f"writing Zstandard needs the zstandard package: {INSTALL_ZSTD}"
    return None


class Compressing:
    """Bytes written compressed to ``raw``; :meth:`close` ends the compressed stream and
    leaves ``raw`` open (its owner syncs and closes it)."""

    def __init__(self, kind: str, raw: IO[bytes]) -> None:
        self.inner: Any
        if kind == GZIP:  # no name and no time inside: the same games make the same bytes
            self.inner = codec("gzip").GzipFile(filename="", mode="wb", fileobj=raw, mtime=0)
        elif kind == BZIP2:
            self.inner = codec("bz2").BZ2File(raw, "wb")
        elif kind == XZ:
            self.inner = codec("lzma").LZMAFile(raw, "wb")
        else:
            zstandard = codec("zstandard")
            if zstandard is None:
                raise OSError(cannot_write(kind))
            self.inner = zstandard.ZstdCompressor(write_checksum=True).stream_writer(
                raw, closefd=False)

    def write(self, data: bytes) -> int:
        self.inner.write(data)
        return len(data)

    def close(self) -> None:
        self.inner.close()


__all__ = ["BZIP2", "GZIP", "INSTALL_ZSTD", "MAX_LINE_BYTES", "MAX_XZ_MEMORY", "SUFFIXES", "XZ",
           "ZSTD", "Compressing", "Decompressed", "Prefixed", "XzStreams", "cannot_write",
           "decompressed", "kind_by_name", "kind_of", "kind_of_file", "plain_name"]
