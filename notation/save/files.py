"""Files written all or nothing: a new text appears whole under its name, or not at all.

A replacement is written to a temporary file beside its target, synced, given
the target's mode and owner, then renamed over it; every failure (Ctrl-C
included) removes the temporary and leaves the target as it was. Devices and
pipes cannot be renamed over, so they are written directly.

A new file whose name ends in ``.gz``, ``.bz2``, ``.xz`` or ``.zst`` is written
compressed so; a file replaced in place keeps the compression its content has
(:mod:`notation.read.compression`).
"""
from __future__ import annotations

import atexit
import codecs
import contextlib
import os
import shutil
import stat
import tempfile
from types import TracebackType
from typing import BinaryIO, Iterator

from notation.read import compression
from notation.read.compression import Compressing

from notation.core.errors import WriteError

#: Temporary files are named so that no walk ever reads them as records; a
#: killed process may leave one behind, which is safe to delete.
TEMP_PREFIX, TEMP_SUFFIX = ".notation-", ".tmp"

#: Temporary files of this process not yet renamed or removed (path -> the pid that made
#: it): removed at exit, whatever way the run ends, should a caller have missed one.
_LIVE: dict[str, int] = {}


@atexit.register
def _remove_live_temporaries() -> None:
    for path, pid in list(_LIVE.items()):
        if pid == os.getpid():  # never a forked worker's copy of the table
            remove_file(path)


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


class AtomicFile:
    """A replacement for the file at ``path`` (through a symbolic link), all or nothing.

    Use it as a context manager: leaving the block without :meth:`commit`
    removes the temporary. Read-only files and files with other hard links (a
    rename would split them) are refused. With ``create``, a missing file is
    made (mode from the umask, as a shell's ``>`` does) and nothing is visible
    under its name before the rename. ``suspend`` closes the temporary until
    the next write (for callers that write many files at once); a compressed one
    goes on in a new compressed stream after the last (what every reader of the
    four forms reads as one).
    """

    def __init__(self, path: str, encoding: str = "utf-8", create: bool = False) -> None:
        if not path:  # (realpath would make it the working folder)
            raise WriteError("an empty path names no file")
        self.target = os.path.realpath(path)
        self.encoding = encoding
        self.handle: BinaryIO | None = None
        self.packer: Compressing | None = None  # what compresses into the handle, if any
        self.tmp: str | None = None
        self.made: list[str] = []  # folders made for a new file (taken back if it never is)
        try:
            codecs.lookup(encoding)
        except LookupError as exc:
            raise WriteError(str(exc)) from None
        self.info = _replaceable(self.target, create)
        self.compression = (compression.kind_of_file(self.target) if self.info and not create
                            else compression.kind_by_name(path))
        refusal = compression.cannot_write(self.compression)
        if refusal:
            raise WriteError(refusal)
        self.made = made_folders(os.path.dirname(self.target)) if self.info is None else []
        try:
            fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX,
                                       dir=os.path.dirname(self.target))
        except OSError as exc:
            remove_folders(self.made)
            raise WriteError(f"cannot create a temporary file beside it: {_reason(exc)}") \
                from None
        self.tmp = tmp
        _LIVE[tmp] = os.getpid()
        try:
            self.handle = os.fdopen(fd, "wb")
        except BaseException:
            os.close(fd)
            self.discard()
            raise
        with self._undone_on_failure():
            self._start_packer(self.handle)

    def __enter__(self) -> AtomicFile:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.discard()  # after a commit: nothing left to remove

    def write(self, text: str) -> None:
        with self._undone_on_failure():
            try:
                data = text.encode(self.encoding)
            except (UnicodeError, LookupError) as exc:
                raise WriteError(f"the text cannot be written in {self.encoding}: "
                                 f"{exc}") from None
            handle = self._open()
            (self.packer or handle).write(data)

    def suspend(self) -> None:
        """Close the temporary (its data written, a compressed stream ended) until the
        next write."""
        if self.handle is not None:
            with self._undone_on_failure():
                self._end_packer()
                handle, self.handle = self.handle, None
                handle.close()

    def _end_packer(self) -> None:
        """End the compressed stream being written, if any (its last bytes go to the handle)."""
        packer, self.packer = self.packer, None
        if packer is not None:
            packer.close()

    def _open(self) -> BinaryIO:
        """The temporary's handle, opened again (to append, a new compressed stream begun)
        if it was suspended."""
        if self.handle is not None:
            return self.handle
        handle = self._reopen()
        with self._undone_on_failure():
            self._start_packer(handle)
        return handle

    def _reopen(self) -> BinaryIO:
        """The suspended temporary opened again, to append."""
        if self.tmp is None:
            raise WriteError("the temporary file was removed")
        with self._undone_on_failure():
            self.handle = os.fdopen(os.open(self.tmp, os.O_WRONLY | os.O_APPEND), "wb")
        return self.handle

    def _start_packer(self, handle: BinaryIO) -> None:
        """Begin a compressed stream into a newly opened handle, if the file is compressed."""
        if self.compression is not None:
            self.packer = Compressing(self.compression, handle)

    def commit(self) -> None:
        """Seal and rename: the file now holds exactly what was written."""
        self.seal()
        self.replace()
        sync_folder(os.path.dirname(self.target))

    def seal(self) -> None:
        """The temporary complete on disk, with the file's mode and owner: ready to rename."""
        info = self.info
        handle = self.handle if self.handle is not None else self._reopen()
        with self._undone_on_failure():
            self._end_packer()
            handle.flush()
            os.fsync(handle.fileno())
            self.handle = None
            handle.close()
            tmp = self._temporary()
            os.chmod(tmp, stat.S_IMODE(info.st_mode) if info else _new_file_mode())
            if info and (info.st_uid, info.st_gid) != (os.getuid(), os.getgid()):
                _keep_owner(tmp, info)

    def replace(self) -> None:
        """Rename the sealed temporary over the file (the folder is not synced here)."""
        tmp = self._temporary()
        with self._undone_on_failure():
            os.replace(tmp, self.target)
        _LIVE.pop(tmp, None)
        self.tmp = None
        self.made = []  # the file is there: so are its folders

    def discard(self) -> None:
        """Give the replacement up: the temporary goes, the file stays as it was."""
        close_quietly(self.packer)
        self.packer = None
        close_quietly(self.handle)
        self.handle = None
        if self.tmp is not None:
            remove_file(self.tmp)
            _LIVE.pop(self.tmp, None)
            self.tmp = None
        remove_folders(self.made)
        self.made = []

    def _temporary(self) -> str:
        if self.tmp is None:
            raise WriteError("the temporary file was removed")
        return self.tmp

    @contextlib.contextmanager
    def _undone_on_failure(self) -> Iterator[None]:
        """Any exception removes the temporary; a system error becomes a WriteError."""
        try:
            yield
        except OSError as exc:
            self.discard()
            raise WriteError(_reason(exc)) from None
        except BaseException:
            self.discard()
            raise


def _keep_owner(path: str, info: os.stat_result) -> None:
    try:
        os.chown(path, info.st_uid, info.st_gid)
    except PermissionError:
        raise WriteError(f"it belongs to another user (uid {info.st_uid}) and its "
                         f"owner could not be kept") from None


def _replaceable(target: str, create: bool) -> os.stat_result | None:
    """The file's status, if it is one we may replace (None: a new file, with ``create``)."""
    try:
        info = os.stat(target)
    except (FileNotFoundError, NotADirectoryError):  # (a file where a folder should be)
        if create:
            return None  # its folders are made, or say why they cannot be
        raise WriteError("No such file or directory") from None
    except OSError as exc:
        raise WriteError(_reason(exc)) from None
    if stat.S_ISDIR(info.st_mode):
        raise WriteError("a folder, not a file (name a file in it)")
    if not stat.S_ISREG(info.st_mode):
        raise WriteError("not a regular file")
    if not info.st_mode & 0o222:
        raise WriteError("the file is read-only (make it writable first)")
    if info.st_nlink > 1:
        raise WriteError(f"the file has {info.st_nlink} hard links; replacing it would "
                         f"split them (rewrite it with output redirection instead)")
    return info


def _new_file_mode() -> int:
    """What a shell's ``>`` would give a new file: 0o666 less the umask."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


class DeviceFile:
    """An output that is a character device or a named pipe (``/dev/null``, a FIFO):
    written directly, as a shell's ``>`` does; a rename would replace the device."""

    def __init__(self, path: str, encoding: str = "utf-8") -> None:
        self.encoding = encoding
        kind = compression.kind_by_name(path)
        refusal = compression.cannot_write(kind)
        if refusal:
            raise WriteError(refusal)
        try:
            self.handle: BinaryIO | None = open(path, "wb")
        except OSError as exc:
            raise WriteError(_reason(exc)) from None
        self.packer = None if kind is None else Compressing(kind, self.handle)

    def __enter__(self) -> DeviceFile:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.discard()

    def write(self, text: str) -> None:
        if self.handle is None:
            raise WriteError("the output was closed")
        try:
            (self.packer or self.handle).write(text.encode(self.encoding))
        except (UnicodeError, LookupError) as exc:
            self.discard()
            raise WriteError(f"the text cannot be written in {self.encoding}: {exc}") from None
        except OSError as exc:
            self.discard()
            raise WriteError(_reason(exc)) from None

    def commit(self) -> None:
        packer, self.packer = self.packer, None
        handle, self.handle = self.handle, None
        if handle is None:
            return
        try:
            if packer is not None:
                packer.close()
            handle.close()
        except OSError as exc:
            raise WriteError(_reason(exc)) from None

    def discard(self) -> None:
        close_quietly(self.packer)
        self.packer = None
        close_quietly(self.handle)
        self.handle = None


def close_quietly(handle: BinaryIO | Compressing | None) -> None:
    """Close a file being given up on (its write already failed, or is abandoned)."""
    if handle is not None:
        try:
            handle.close()
        except (OSError, ValueError):  # ValueError: a compressor's file already closed
            pass


def open_output(path: str, encoding: str = "utf-8") -> AtomicFile | DeviceFile:
    """Where an output named by the user goes: a device or pipe directly, any other path
    through an :class:`AtomicFile` (made if new)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        mode = 0
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return DeviceFile(path, encoding)
    return AtomicFile(path, encoding, create=True)


def append_atomically(path: str, text: str, encoding: str = "utf-8") -> None:
    """Add ``text`` at the end of the plain file at ``path`` (made if missing), all or
    nothing: its bytes so far and ``text`` go to a temporary that is renamed over it, so a
    reader, or a run killed meanwhile, sees the file before or after, never between."""
    with AtomicFile(path, encoding, create=True) as out:
        if out.compression is not None:
            raise WriteError("a compressed file is not added to game by game; write it "
                             "plain and compress it once it is complete")
        if out.info is not None:
            handle = out._open()
            try:
                with open(out.target, "rb") as old:
                    shutil.copyfileobj(old, handle, 1 << 20)
            except OSError as exc:
                raise WriteError(f"cannot read it to add to it: {_reason(exc)}") from None
        out.write(text)
        out.commit()


def write_atomically(path: str, text: str, encoding: str = "utf-8", create: bool = False) -> None:
    """Replace the file at ``path`` by ``text``, all or nothing (see :class:`AtomicFile`;
    ``create``: a missing file is made)."""
    with AtomicFile(path, encoding, create) as out:
        out.write(text)
        out.commit()


def made_folders(folder: str) -> list[str]:
    """Make ``folder`` and every missing folder above it, as ``mkdir -p`` does, so that every
    writer may name an output in a folder that is not there yet; the folders made,
    outermost first (:func:`remove_folders` takes them back). :class:`WriteError` when one
    cannot be made (none is left made then)."""
    missing: list[str] = []
    path = os.path.abspath(folder)
    while not os.path.isdir(path) and os.path.dirname(path) != path:
        if os.path.lexists(path):
            raise WriteError(f"cannot make its folder: {path} is not a folder")
        missing.append(path)
        path = os.path.dirname(path)
    made: list[str] = []
    for path in reversed(missing):
        try:
            os.mkdir(path)
        except OSError as exc:
            remove_folders(made)
            raise WriteError(f"cannot make its folder {path}: {_reason(exc)}") from None
        made.append(path)
    return made


def remove_folders(made: list[str]) -> None:
    """Remove folders :func:`made_folders` made, innermost first, where they are empty."""
    for path in reversed(made):
        try:
            os.rmdir(path)
        except OSError:
            break


def remove_file(path: str) -> None:
    """Remove a file if it is there (nothing to say if it is not)."""
    try:
        os.unlink(path)
    except OSError:
        pass


def sync_folder(folder: str) -> None:
    """Make a rename itself durable (where the platform allows it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
