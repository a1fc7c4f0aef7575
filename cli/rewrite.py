"""Commands that write records: ``fmt`` and ``convert``, and the safe in-place write.

Neither ever writes a record that has a problem of any kind: a file holding
one is listed and left alone (exit 1), the way black and ruff refuse a file
that does not parse. ``fmt --fix-results`` is the one exception it makes:
wrong or missing result tags are what it is asked to correct.
"""
from __future__ import annotations

import codecs
import hashlib
import os
import stat
import tempfile
from typing import Any, Callable

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
    say,
)

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
    jobs = parallel.default_jobs() if jobs is None else jobs
    if check and not fix_results and "-" not in paths and parallel.worth_a_pool(
            list(ctx.inputs.expand_quietly(paths)), jobs):
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

    def transform(record: Record) -> str:
        game = game_of(record)
        try:
            return format_record(game.convert(record, **options), game)
        except NotationError as exc:
            raise click.UsageError(f"{record.source}: game {record.index}: {exc}") from None

    rewrite(ctx, paths, lambda r: (r, run(r).problems), transform, "converted", in_place)
    ctx.finish()


def rewrite(ctx: Context, paths: tuple[str, ...],
            prepare: Callable[[Record], tuple[Record, list]],
            transform: Callable[[Record], str], verb: str, in_place: bool,
            check: bool = False) -> None:
    """Shared by fmt and convert: refuse records with problems, then print, check or rewrite.

    A file is streamed game by game into a spool (standard output), a
    temporary file beside it (``-i``) or a digest (``--check``); only when
    every game of the file passed is anything written.
    """
    if (in_place or check) and "-" in paths:
        raise click.UsageError("--in-place and --check need files, not standard input")
    for records in ctx.inputs.read(paths):
        try:
            out = Output(records.source, ctx.inputs.encoding, in_place, check)
        except WriteError as exc:
            ctx.inputs.input_errors.append(f"{records.source}: error: not {verb}: {exc}")
            continue
        refused = 0
        try:
            for record in records:
                done = False
                with ctx.guard(record):
                    record, problems = prepare(record)
                    if problems:
                        for problem in problems:
                            ctx.report(record, problem, err=True)
                    else:
                        out.write(transform(record))
                        done = True
                refused += not done
        except BaseException:
            out.discard()
            raise
        if refused or records.failed or not records.count:
            out.discard()
            if refused:
                ctx.invalid = True
                say(f"{records.source}: not {verb}: {plural(refused, 'game')} with problems "
                    f"(listed above); nothing was written", err=True)
            continue
        if not (check or in_place):
            out.copy_to_stdout()
            continue
        if out.same_as_file(ctx.inputs.encoding):
            out.discard()
            continue
        if check:
            out.discard()
            say(f"{records.source}: would be {verb}")
            ctx.invalid = True
            continue
        try:
            out.commit()
        except WriteError as exc:
            ctx.inputs.input_errors.append(f"{records.source}: error: not {verb}: {exc}")
            continue
        say(f"{records.source}: {verb}")


def _check_in_workers(ctx: Context, paths: tuple[str, ...], jobs: int) -> None:
    """``fmt --check`` with worker processes: each file's canonical text is digested in order."""
    state: dict[str, Any] = {"source": None}

    def close() -> None:
        source = state["source"]
        if source is None:
            return
        if any(e.startswith(f"{source}:") for e in ctx.inputs.input_errors):
            return
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
    so ``--check`` and an unchanged ``-i`` need no copy of the text.
    """

    def __init__(self, path: str, encoding: str, in_place: bool, check: bool) -> None:
        self.path, self.encoding = path, encoding
        self.digest = hashlib.sha256()
        self.first = True
        self.atomic = AtomicFile(path, encoding) if in_place else None
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
        if self.atomic is not None:
            self.atomic.commit()

    def discard(self) -> None:
        if self.atomic is not None:
            self.atomic.discard()
        if self.spool is not None:
            self.spool.close()


class AtomicFile:
    """A replacement for the file at ``path`` (through a symbolic link), all or nothing.

    A sibling temporary file is written, synced to disk, given the file's
    mode and owner, then renamed over it. Read-only files and files with
    other hard links (a rename would split them) are refused. On any error
    the file is untouched and the temporary file is removed.
    """

    def __init__(self, path: str, encoding: str) -> None:
        self.target = os.path.realpath(path)
        self.encoding = encoding
        try:
            self.info = info = os.stat(self.target)
            codecs.lookup(encoding)
        except OSError as exc:
            raise WriteError(exc.strerror or str(exc)) from None
        except LookupError as exc:
            raise WriteError(str(exc)) from None
        if not stat.S_ISREG(info.st_mode):
            raise WriteError("not a regular file")
        if not info.st_mode & 0o222:
            raise WriteError("the file is read-only (make it writable first)")
        if info.st_nlink > 1:
            raise WriteError(f"the file has {info.st_nlink} hard links; replacing it would "
                             f"split them (rewrite it with output redirection instead)")
        try:
            fd, self.tmp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX,
                                            dir=os.path.dirname(self.target))
        except OSError as exc:
            raise WriteError(f"cannot create a temporary file beside it: "
                             f"{exc.strerror or exc}") from None
        self.handle = os.fdopen(fd, "wb")

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
        info, tmp = self.info, self.tmp
        try:
            self.handle.flush()
            os.fsync(self.handle.fileno())
            self.handle.close()
            os.chmod(tmp, stat.S_IMODE(info.st_mode))
            if (info.st_uid, info.st_gid) != (os.getuid(), os.getgid()):
                try:
                    os.chown(tmp, info.st_uid, info.st_gid)
                except PermissionError:
                    raise WriteError(f"it belongs to another user (uid {info.st_uid}) and its "
                                     f"owner could not be kept") from None
            os.replace(tmp, self.target)
        except OSError as exc:
            self.discard()
            raise WriteError(exc.strerror or str(exc)) from None
        except BaseException:
            self.discard()
            raise
        _sync_folder(os.path.dirname(self.target))

    def discard(self) -> None:
        try:
            self.handle.close()
        except OSError:
            pass
        _remove(self.tmp)


def write_atomically(path: str, text: str, encoding: str) -> None:
    """Replace the file at ``path`` by ``text``, all or nothing (see :class:`AtomicFile`)."""
    out = AtomicFile(path, encoding)
    out.write(text)
    out.commit()


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _sync_folder(folder: str) -> None:
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
