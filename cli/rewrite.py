"""Commands that write records: ``fmt`` and ``convert``, and the safe in-place write.

Neither ever writes a record that has a problem of any kind: a file holding
one is listed and left alone (exit 1), the way black and ruff refuse a file
that does not parse. ``fmt --fix-results`` is the one exception it makes:
wrong or missing result tags are what it is asked to correct.
"""
from __future__ import annotations

import os
import stat
import tempfile
from typing import Callable

import click

from notation.core.ast import Record
from notation.core.errors import NotationError
from notation.core.replay import game_of, run
from notation.core.results import with_result_tags
from notation.core.writer import format_record

from .common import (
    ENCODING_OPTION, GAME_OPTION, PATHS, Context, color_option, emit, plural, say,
)
from .inputs import STDIN

#: Temporary files are named so that no walk ever reads them as records; a
#: killed process may leave one behind, which is safe to delete.
TEMP_PREFIX, TEMP_SUFFIX = ".notation-", ".tmp"


class WriteError(Exception):
    """A file that could not be rewritten; it is left as it was."""


@click.command()
@PATHS
@click.option("--in-place", "-i", is_flag=True, help="Rewrite the files (atomically).")
@click.option("--check", is_flag=True, help="Exit 1 if any file is not in canonical form.")
@click.option("--fix-results", is_flag=True,
              help="Set every result tag to what the replay reaches (add missing ones).")
@GAME_OPTION
@ENCODING_OPTION
@color_option
def fmt(paths: tuple[str, ...], in_place: bool, check: bool, fix_results: bool,
        game_name: str | None, encoding: str, color: bool | None) -> None:
    """Write records in canonical form: Game tag first, events in canonical spelling."""
    if in_place and check:
        raise click.UsageError("--in-place and --check exclude each other")
    ctx = Context(game_name, encoding, color)

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
@click.option("--perspective", help="Flows: P1..P6, side:K, or mover; Sanguine: red or blue.")
@click.option("--choices", type=click.Choice(["inline", "separate"]),
              help="Philosophy: choices in brackets, or as separate events.")
@click.option("--in-place", "-i", is_flag=True, help="Rewrite the files (atomically).")
@GAME_OPTION
@ENCODING_OPTION
@color_option
def convert(paths: tuple[str, ...], perspective: str | None, choices: str | None,
            in_place: bool, game_name: str | None, encoding: str, color: bool | None) -> None:
    """Rewrite records another way without changing what they mean (comments kept)."""
    options = {k: v for k, v in {"perspective": perspective, "choices": choices}.items()
               if v is not None}
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
    """Shared by fmt and convert: refuse records with problems, then print, check or rewrite."""
    if (in_place or check) and "-" in paths:
        raise click.UsageError("--in-place and --check need files, not standard input")
    for records in ctx.inputs.read(paths):
        texts: list[str] = []
        refused = 0
        for record in records:
            done = False
            with ctx.guard(record):
                record, problems = prepare(record)
                if problems:
                    refused += 1
                    for problem in problems:
                        ctx.report(record, problem, err=True)
                    continue
                texts.append(transform(record))
                done = True
            if not done and not refused:
                refused += 1  # an internal error, already reported
        if refused:
            ctx.invalid = True
            say(f"{records.source}: not {verb}: {plural(refused, 'game')} with problems "
                f"(listed above); nothing was written", err=True)
            continue
        text = "\n".join(texts)
        if not (check or in_place):
            emit(text, nl=False)  # the records themselves: written as they are
            continue
        if records.source == STDIN:  # pragma: no cover - refused above
            raise click.UsageError("--in-place and --check need files, not standard input")
        if "\n".join(ctx.inputs.source_lines(records.source)) == text:
            continue
        if check:
            say(f"{records.source}: would be {verb}")
            ctx.invalid = True
            continue
        try:
            write_atomically(records.source, text, ctx.inputs.encoding)
        except WriteError as exc:
            ctx.inputs.input_errors.append(f"{records.source}: error: not {verb}: {exc}")
            continue
        say(f"{records.source}: {verb}")


def write_atomically(path: str, text: str, encoding: str) -> None:
    """Replace the file at ``path`` (through a symbolic link) by ``text``, all or nothing.

    A sibling temporary file is written, synced to disk, given the file's
    mode and owner, then renamed over it. Read-only files and files with
    other hard links (a rename would split them) are refused. On any error
    the file is untouched and the temporary file is removed.
    """
    target = os.path.realpath(path)
    try:
        info = os.stat(target)
        data = text.encode(encoding)
    except OSError as exc:
        raise WriteError(exc.strerror or str(exc)) from None
    except (UnicodeError, LookupError) as exc:
        raise WriteError(f"the text cannot be written in {encoding}: {exc}") from None
    if not stat.S_ISREG(info.st_mode):
        raise WriteError("not a regular file")
    if not info.st_mode & 0o222:
        raise WriteError("the file is read-only (make it writable first)")
    if info.st_nlink > 1:
        raise WriteError(f"the file has {info.st_nlink} hard links; replacing it would split "
                         f"them (rewrite it with output redirection instead)")
    try:
        fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX,
                                   dir=os.path.dirname(target))
    except OSError as exc:
        raise WriteError(f"cannot create a temporary file beside it: "
                         f"{exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, stat.S_IMODE(info.st_mode))
        if (info.st_uid, info.st_gid) != (os.getuid(), os.getgid()):
            try:
                os.chown(tmp, info.st_uid, info.st_gid)
            except PermissionError:
                raise WriteError(f"it belongs to another user (uid {info.st_uid}) and its "
                                 f"owner could not be kept") from None
        os.replace(tmp, target)
    except OSError as exc:
        _remove(tmp)
        raise WriteError(exc.strerror or str(exc)) from None
    except BaseException:
        _remove(tmp)
        raise
    _sync_folder(os.path.dirname(target))


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
