"""Commands that write records: ``fmt`` and ``convert``, and the safe in-place write.

Neither ever writes a record that has a problem of any kind: a file holding
one is listed and left alone (exit 1), the way black and ruff refuse a file
that does not parse. ``fmt --fix-results`` is the one exception it makes:
wrong or missing result tags are what it is asked to correct.
"""
from __future__ import annotations

import atexit
import codecs
import contextlib
import hashlib
import os
import stat
import tempfile
from typing import Any, BinaryIO, Callable, Iterator

import click

from notation.core.ast import Record
from notation.core.batch import format_game
from notation.core.errors import InputError, NotationError
from notation.core.reading import source_chunks
from notation.core.replay import game_of, run
from notation.core.results import with_result_tags
from notation.core.writer import format_record

from . import parallel
from .common import (
    ENCODING_OPTION, GAME_OPTION, PATHS, Context, color_option, complete_perspective, emit, plural,
    say, shown,
)
from .inputs import FileRecords
from .progress import watch

#: Temporary files are named so that no walk ever reads them as records; a
#: killed process may leave one behind, which is safe to delete.
TEMP_PREFIX, TEMP_SUFFIX = ".notation-", ".tmp"
#: Output to a terminal or pipe is held until the whole file passed; beyond this, on disk.
SPOOL_BYTES = 8 << 20


class WriteError(Exception):
    """A file that could not be rewritten; it is left as it was."""


@click.command()
@PATHS
@click.option("--in-place", "-i", is_flag=True, help="Rewrite the files (atomically).")
@click.option("--check", is_flag=True, help="Exit 1 if any file is not in canonical form.")
@click.option("--fix-results", is_flag=True,
              help="Set every result tag to what the replay reaches (add missing ones).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, metavar="N",
              help="With --check: worker processes (default: the number of cores).")
@GAME_OPTION
@ENCODING_OPTION
@color_option
def fmt(paths: tuple[str, ...], in_place: bool, check: bool, fix_results: bool,
        jobs: int | None, game_name: str | None, encoding: str, color: bool | None) -> None:
    """Write records in canonical form: Game tag first, events in canonical spelling."""
    if in_place and check:
        raise click.UsageError("--in-place and --check exclude each other")
    ctx = Context(game_name, encoding, color)
    watch(ctx, paths, True)
    asked, jobs = jobs, parallel.default_jobs() if jobs is None else jobs
    if check and not fix_results and "-" not in paths and parallel.worth_a_pool(
            list(ctx.inputs.expand_quietly(paths)), asked):
        _check_in_workers(ctx, paths, jobs)
        ctx.finish()

    def prepare(record: Record) -> tuple[Record, list]:
        if fix_results:
            fixed, outcome = with_result_tags(record)
            return fixed, outcome.problems
        return record, run(record).problems

    rewrite(ctx, paths, prepare, lambda r: format_record(r, game_of(r)), "reformatted",
            in_place, check)
    ctx.finish()


@click.command()
@PATHS
@click.option("--perspective", shell_complete=complete_perspective,
              help="Flows: P1..P6, side:K, or mover; Sanguine: red or blue.")
@click.option("--choices", type=click.Choice(["inline", "separate"]),
              help="Philosophy: choices in brackets, or as separate events.")
@click.option("--transform", type=click.Choice(["rot90", "rot180", "rot270", "flip-h", "flip-v",
                                                "flip-d", "flip-a"]),
              help="Tilewe: the same game on a turned or mirrored board.")
@click.option("--in-place", "-i", is_flag=True, help="Rewrite the files (atomically).")
@GAME_OPTION
@ENCODING_OPTION
@color_option
def convert(paths: tuple[str, ...], perspective: str | None, choices: str | None,
            transform: str | None, in_place: bool, game_name: str | None, encoding: str,
            color: bool | None) -> None:
    """Rewrite records another way without changing what they mean (comments kept)."""
    options = {k: v for k, v in {"perspective": perspective, "choices": choices,
                                 "transform": transform}.items() if v is not None}
    ctx = Context(game_name, encoding, color)
    watch(ctx, paths, True)

    def transform(record: Record) -> str:
        game = game_of(record)
        try:
            return format_record(game.convert(record, **options), game)
        except NotationError as exc:
            raise click.UsageError(f"{shown(record.source)}: game {record.index}: {exc}") \
                from None

    rewrite(ctx, paths, lambda r: (r, run(r).problems), transform, "converted", in_place)
    ctx.finish()


def rewrite(ctx: Context, paths: tuple[str, ...],
            prepare: Callable[[Record], tuple[Record, list]],
            transform: Callable[[Record], str], verb: str, in_place: bool,
            check: bool = False) -> None:
    """Shared by fmt and convert: refuse records with problems, then print, check or rewrite.

    A file is streamed game by game into a spool (standard output), a
    temporary file beside it (``-i``) or a digest (``--check``); only when
    every game of the file passed is anything written. A file that cannot be
    written (a full disk, a read-only file that would change) is one error
    line and the next file is done; whatever ends a file, Ctrl-C included,
    its temporary is removed.
    """
    if (in_place or check) and "-" in paths:
        raise click.UsageError("--in-place and --check need files, not standard input")
    for records in ctx.inputs.read(paths):
        out = Output(records.source, ctx.inputs.encoding, in_place, check)
        try:
            _rewrite_file(ctx, records, out, prepare, transform, verb, in_place, check)
        except WriteError as exc:
            ctx.inputs.input_errors.append(f"{shown(records.source)}: error: not {verb}: {exc}")
        finally:
            out.discard()  # after a commit, nothing is left to remove


def _rewrite_file(ctx: Context, records: FileRecords, out: "Output",
                  prepare: Callable[[Record], tuple[Record, list]],
                  transform: Callable[[Record], str], verb: str, in_place: bool,
                  check: bool) -> None:
    """One file of :func:`rewrite`; a failed write raises :class:`WriteError`."""
    refused = 0
    for record in records:
        text = None
        with ctx.guard(record):  # a bug of ours in one game refuses that game
            record, problems = prepare(record)
            for problem in problems:
                ctx.report(record, problem, err=True)
            if not problems:
                text = transform(record)
        if text is None:
            refused += 1
        else:
            out.write(text)  # outside the guard: a failed write is the file's error
    source = shown(records.source)
    if refused or records.failed or not records.count:
        if refused:
            ctx.invalid = True
            say(f"{source}: not {verb}: {plural(refused, 'game')} with problems "
                f"(listed above); nothing was written", err=True)
        return
    if not (check or in_place):
        out.copy_to_stdout()
        return
    if out.same_as_file(ctx.inputs.encoding):
        return  # nothing to write: not even a read-only file is an error
    if check:
        say(f"{source}: would be {verb}")
        ctx.invalid = True
        return
    out.commit()
    say(f"{source}: {verb}")


def _check_in_workers(ctx: Context, paths: tuple[str, ...], jobs: int) -> None:
    """``fmt --check`` with worker processes: each file's canonical text is digested in order."""
    state: dict[str, Any] = {"source": None}

    def close() -> None:
        source = state["source"]
        if source is None:
            return
        if any(e.startswith(f"{source}:") for e in ctx.inputs.input_errors):
            return
        source = shown(source)
        if state["refused"]:
            ctx.invalid = True
            say(f"{source}: not reformatted: {plural(state['refused'], 'game')} with problems "
                f"(listed above)", err=True)
        elif not state["out"].same_as_file(ctx.inputs.encoding):
            ctx.invalid = True
            say(f"{source}: would be reformatted")

    for data in parallel.results(ctx.inputs, paths, format_game, jobs, ctx.fail):
        if data["file"] != state["source"]:
            close()
            state.update(source=data["file"], refused=0,
                         out=Output(data["file"], ctx.inputs.encoding, False, True))
        if "text" in data:
            state["out"].write(data["text"])
            continue
        state["refused"] += 1
        for problem in data.get("errors", []):
            ctx.report_data(data, problem, err=True)
    close()


class Output:
    """Where one file's rewritten games go while the file is read.

    Games are joined by a blank line. The digest of what was written is kept,
    so ``--check`` and an unchanged ``-i`` need no copy of the text. A file
    ``-i`` cannot replace (read-only, hard-linked, in a folder it cannot
    write) is only digested: that is an error only if its text would change.
    """

    def __init__(self, path: str, encoding: str, in_place: bool, check: bool) -> None:
        self.path, self.encoding = path, encoding
        self.digest = hashlib.sha256()
        self.first = True
        self.atomic: AtomicFile | None = None
        self.refusal: str | None = None  # why the file cannot be replaced
        if in_place:
            try:
                self.atomic = AtomicFile(path, encoding)
            except WriteError as exc:
                self.refusal = str(exc)
        self.spool = (None if in_place or check else
                      tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES, mode="w+",
                                                    encoding="utf-8"))

    def write(self, text: str) -> None:
        if not self.first:
            text = "\n" + text
        self.first = False
        self.digest.update(text.encode("utf-8", "surrogatepass"))
        if self.atomic is not None:
            self.atomic.write(text)
        elif self.spool is not None:
            self.spool.write(text)

    def same_as_file(self, encoding: str) -> bool:
        """Whether the file's text (line ends normalised) is exactly what was written."""
        original = hashlib.sha256()
        try:
            for chunk in source_chunks(self.path, encoding):
                original.update(chunk.encode("utf-8", "surrogatepass"))
        except (OSError, InputError):
            return False
        return original.digest() == self.digest.digest()

    def copy_to_stdout(self) -> None:
        if self.spool is None:
            return
        self.spool.seek(0)
        while block := self.spool.read(1 << 16):
            emit(block, nl=False)  # the records themselves: written as they are
        self.spool.close()

    def commit(self) -> None:
        if self.refusal is not None:
            raise WriteError(self.refusal)
        if self.atomic is not None:
            self.atomic.commit()

    def discard(self) -> None:
        if self.atomic is not None:
            self.atomic.discard()
        if self.spool is not None:
            self.spool.close()


#: Temporary files of this process not yet renamed or removed (path -> the pid that made
#: it): removed at exit, whatever way the run ends, should a caller have missed one.
_LIVE: dict[str, int] = {}


@atexit.register
def _remove_live_temporaries() -> None:
    for path, pid in list(_LIVE.items()):
        if pid == os.getpid():  # never a forked worker's copy of the table
            remove_file(path)


class AtomicFile:
    """A replacement for the file at ``path`` (through a symbolic link), all or nothing.

    A sibling temporary file is written, synced to disk, given the file's
    mode and owner, then renamed over it. Read-only files and files with
    other hard links (a rename would split them) are refused. With
    ``create``, a missing file is made (mode from the umask, as a shell's
    ``>`` does) and nothing is visible under its name before the rename. On
    any error or exception (Ctrl-C included) the file is untouched and the
    temporary file is removed. ``suspend`` closes the temporary until the
    next write (for callers that write many files at once).
    """

    def __init__(self, path: str, encoding: str, create: bool = False) -> None:
        self.target = os.path.realpath(path)
        self.encoding = encoding
        self.handle: BinaryIO | None = None
        self.tmp: str | None = None
        try:
            codecs.lookup(encoding)
        except LookupError as exc:
            raise WriteError(str(exc)) from None
        self.info = _replaceable(self.target, create)
        try:
            fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX,
                                       dir=os.path.dirname(self.target))
        except OSError as exc:
            raise WriteError(f"cannot create a temporary file beside it: "
                             f"{exc.strerror or exc}") from None
        self.tmp = tmp
        _LIVE[tmp] = os.getpid()
        try:
            self.handle = os.fdopen(fd, "wb")
        except BaseException:
            os.close(fd)
            self.discard()
            raise

    def __enter__(self) -> "AtomicFile":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.discard()  # after a commit: nothing left to remove

    def write(self, text: str) -> None:
        with self._undone_on_failure():
            try:
                data = text.encode(self.encoding)
            except (UnicodeError, LookupError) as exc:
                raise WriteError(f"the text cannot be written in {self.encoding}: "
                                 f"{exc}") from None
            if self.handle is None:
                self.resume()
            self.handle.write(data)

    def suspend(self) -> None:
        """Close the temporary (its data written) until the next write."""
        if self.handle is not None:
            with self._undone_on_failure():
                handle, self.handle = self.handle, None
                handle.close()

    def resume(self) -> None:
        """Open the temporary again, to add to it."""
        if self.tmp is None:
            raise WriteError("the temporary file was removed")
        with self._undone_on_failure():
            self.handle = os.fdopen(os.open(self.tmp, os.O_WRONLY | os.O_APPEND), "wb")

    def commit(self) -> None:
        self.seal()
        self.replace()
        sync_folder(os.path.dirname(self.target))

    def seal(self) -> None:
        """The temporary complete on disk, with the file's mode and owner: ready to rename."""
        info = self.info
        with self._undone_on_failure():
            if self.handle is None:
                self.resume()
            self.handle.flush()
            os.fsync(self.handle.fileno())
            handle, self.handle = self.handle, None
            handle.close()
            os.chmod(self.tmp, stat.S_IMODE(info.st_mode) if info else _new_file_mode())
            if info and (info.st_uid, info.st_gid) != (os.getuid(), os.getgid()):
                try:
                    os.chown(self.tmp, info.st_uid, info.st_gid)
                except PermissionError:
                    raise WriteError(f"it belongs to another user (uid {info.st_uid}) and its "
                                     f"owner could not be kept") from None

    def replace(self) -> None:
        """Rename the sealed temporary over the file (the folder is not synced here)."""
        with self._undone_on_failure():
            os.replace(self.tmp, self.target)
        _LIVE.pop(self.tmp, None)
        self.tmp = None

    def discard(self) -> None:
        close_quietly(self.handle)
        self.handle = None
        if self.tmp is not None:
            remove_file(self.tmp)
            _LIVE.pop(self.tmp, None)
            self.tmp = None

    @contextlib.contextmanager
    def _undone_on_failure(self) -> Iterator[None]:
        """Any exception removes the temporary; a system error becomes a WriteError."""
        try:
            yield
        except OSError as exc:
            self.discard()
            raise WriteError(exc.strerror or str(exc)) from None
        except BaseException:
            self.discard()
            raise


def _replaceable(target: str, create: bool) -> os.stat_result | None:
    """The file's status, if it is one we may replace (None: a new file, with ``create``)."""
    try:
        info = os.stat(target)
    except FileNotFoundError:
        if create:
            return None
        raise WriteError("No such file or directory") from None
    except OSError as exc:
        raise WriteError(exc.strerror or str(exc)) from None
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

    def __init__(self, path: str, encoding: str) -> None:
        self.encoding = encoding
        try:
            self.handle: BinaryIO | None = open(path, "wb")
        except OSError as exc:
            raise WriteError(exc.strerror or str(exc)) from None

    def write(self, text: str) -> None:
        try:
            self.handle.write(text.encode(self.encoding))
        except (UnicodeError, LookupError) as exc:
            self.discard()
            raise WriteError(f"the text cannot be written in {self.encoding}: {exc}") from None
        except OSError as exc:
            self.discard()
            raise WriteError(exc.strerror or str(exc)) from None

    def commit(self) -> None:
        handle, self.handle = self.handle, None
        try:
            handle.close()
        except OSError as exc:
            raise WriteError(exc.strerror or str(exc)) from None

    def discard(self) -> None:
        close_quietly(self.handle)
        self.handle = None


def close_quietly(handle: BinaryIO | None) -> None:
    """Close a file being given up on (its write already failed, or is abandoned)."""
    if handle is not None:
        try:
            handle.close()
        except OSError:
            pass


def open_output(path: str, encoding: str = "utf-8") -> AtomicFile | DeviceFile:
    """Where ``-o PATH`` writes: a device or pipe directly, any other path through an
    :class:`AtomicFile` (made if new)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        mode = 0
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return DeviceFile(path, encoding)
    return AtomicFile(path, encoding, create=True)


def write_atomically(path: str, text: str, encoding: str) -> None:
    """Replace the file at ``path`` by ``text``, all or nothing (see :class:`AtomicFile`)."""
    with AtomicFile(path, encoding) as out:
        out.write(text)
        out.commit()


def remove_file(path: str) -> None:
    """Remove a file if it is there (nothing to say if it is not)."""
    try:
        os.unlink(path)
    except OSError:
        pass


def sync_folder(folder: str) -> None:
    """Make the rename itself durable (where the platform allows it)."""
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
