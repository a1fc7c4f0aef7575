"""Commands that write records: ``fmt``, ``strip`` and ``convert``.

Neither ever writes a record that has a problem of any kind: a file holding
one is listed and left alone (exit 1), the way black and ruff refuse a file
that does not parse. ``fmt --fix-results`` is the one exception it makes:
wrong or missing result tags are what it is asked to correct. The writing
itself, all or nothing, is :mod:`notation.archive.rewrite`'s.
"""
from __future__ import annotations

import functools
import itertools
from typing import Any, Callable, Iterable, TypeVar

import click

from notation.core.tree import GameNode
from notation.parallel import runs as runner
from notation.archive import (FileRewrite, Mode, Pieces, Settled, Strip, WriteError,
                              converted_text, game_extension, input_name, to_format)
from notation.archive.rewrite import canonical_pieces
from notation.core import formats, registry

from notation.core.game import MissingCapability
from notation.core.errors import NotationError, Problem, ProblemKind
from notation.core.outcome import Outcome
from notation.core.replay import game_of

from . import parallel
from .common import (IN_PLACE_OPTION, PATHS, Context, color_option, emit, plural, reading_options,
                     say, shown, warn)
from .index_option import INDEX_OPTION, chosen
from .inputs import FileRecords
from .game_options import WithGameOptions, check_for
from .progress import watch

Prepare = Callable[[GameNode], tuple[GameNode, list[Problem]]]
Transform = Callable[[GameNode], str]
#: A game's new text, or its pieces (:func:`canonical_pieces`), for :class:`FileRewrite`.
Rewritten = Callable[[GameNode], "str | Iterable[str]"]
Text = TypeVar("Text")


@click.command()
@PATHS
@IN_PLACE_OPTION
@click.option("--check", is_flag=True, help="Exit 1 if any file is not in canonical form.")
@click.option("--fix-results", is_flag=True,
              help="Set every result tag to what the replay reaches (add missing ones).")
@click.option("--canonical", is_flag=True,
              help="Write each move in its one canonical spelling (Tilewe: the contact "
                   "tile the Pentobi reader picks for the cells covered).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, metavar="N",
              help="With --check: processes that check games, this one among them (default: "
                   "the number of cores); never more than the cores nor than the input's "
                   "parts of 256 KiB.")
@reading_options
@color_option
def fmt(paths: tuple[str, ...], in_place: bool, check: bool, fix_results: bool,
        canonical: bool, jobs: int | None, game_name: str | None, encoding: str,
        color: bool | None) -> None:
    """The Game tag comes first, and every event is in its canonical spelling."""
    if in_place and check:
        raise click.UsageError("--in-place and --check exclude each other")
    ctx = Context(game_name, encoding, color)
    watch(ctx, paths, True)
    workers = (parallel.workers(ctx.inputs, paths, jobs)
               if check and not fix_results and not canonical and "-" not in paths else None)
    if workers is not None:
        _check_in_workers(ctx, paths, workers)
        ctx.finish()
    prepare = functools.partial(to_format, fix_results=fix_results, canonical=canonical)
    rewrite(ctx, paths, prepare, canonical_pieces, "reformatted", in_place, check)
    ctx.finish()


@click.command()
@PATHS
@click.option("--variations", "-V", is_flag=True, help="Remove variations (the mainline stays).")
@click.option("--comments", "-C", is_flag=True, help="Remove comments (commands with them).")
@click.option("--annotations", "-N", is_flag=True, help="Remove move glyphs and $N annotations.")
@click.option("--commands", is_flag=True,
              help="Remove [%key value] commands from comments (a comment left empty goes).")
@IN_PLACE_OPTION
@click.option("--check", is_flag=True, help="Exit 1 if any file would change.")
@reading_options
@color_option
def strip(paths: tuple[str, ...], variations: bool, comments: bool, annotations: bool,
          commands: bool, in_place: bool, check: bool, game_name: str | None, encoding: str,
          color: bool | None) -> None:
    """What is left is written in canonical form.

    What is removed is not checked: a variation with an illegal move is no
    obstacle to -V (the mainline that stays must be valid).
    """
    what = Strip(variations, comments, annotations, commands)
    if not what:
        raise click.UsageError("say what to strip: -V (variations), -C (comments), "
                               "-N (annotations) or --commands")
    if in_place and check:
        raise click.UsageError("--in-place and --check exclude each other")
    ctx = Context(game_name, encoding, color)
    watch(ctx, paths, True)
    rewrite(ctx, paths, lambda record: to_format(what.record(record)), canonical_pieces,
            "stripped", in_place, check)
    ctx.finish()


@click.command(cls=WithGameOptions)
@PATHS
@IN_PLACE_OPTION
@click.option("--to", "target", metavar="FORMAT",
              help="Write in another format (blksgf, json) or in the game's own notation "
                   "(its name: tilewe), to standard output.")
@INDEX_OPTION
@click.option("--split", "split_games", is_flag=True,
              help="One file a game instead, in --out-dir: STEM-K.EXT, K the game's number "
                   "in its file, EXT the format's (an existing file is never overwritten).")
@click.option("--out-dir", metavar="DIR",
              help="With --split: the folder of the files (made if need be; default: the "
                   "current one).")
@reading_options
@color_option
def convert(paths: tuple[str, ...], in_place: bool, target: str | None,
            game_index: int | None, split_games: bool, out_dir: str | None,
            game_name: str | None, encoding: str, color: bool | None,
            game_options: dict[str, Any]) -> None:
    """Comments are kept.

    How is the game's to say: the options below are each game's own. --to
    writes them in another format, with the game's options or without. A format
    whose files hold one game each (Pentobi's reads the first game of a file alone)
    gets a warning for a file of several games: --split writes one file a game.
    """
    if in_place and (target is not None or split_games or game_index is not None):
        raise click.UsageError("--in-place rewrites every game of a file in its own "
                               "notation; --to, --index and --split write elsewhere")
    if out_dir is not None and not split_games:
        raise click.UsageError("--out-dir goes with --split")
    ctx = Context(game_name, encoding, color)
    watch(ctx, paths, True)
    transform = functools.partial(_converted, game_options, target)
    if split_games:
        _converted_apart(ctx, paths, transform, target, out_dir or ".", game_index)
        ctx.finish()
    written = formats.get(target) if target is not None else None
    between = "" if written is not None else "\n"
    rewrite(ctx, paths, to_format, transform, "converted", in_place, between=between,
            game_index=game_index, one_a_file=written.one_game_a_file if written else "")
    ctx.finish()


def _converted_apart(ctx: Context, paths: tuple[str, ...], transform: Transform,
                     target: str | None, folder: str, game_index: int | None) -> None:
    """``convert --split``: each game of each file converted into a file of its own,
    all of a file's or none (a game with problems, or a failed write, leaves nothing)."""
    for records in ctx.inputs.read(paths):
        stem, ext = input_name(records.source)
        source = shown(records.source)
        try:
            with Pieces(folder, stem, extension_of(target) or ext) as pieces:
                refused = 0
                for record in chosen(records, game_index):
                    if not pieces.ext:  # standard input: files of the records' game
                        pieces.ext = game_extension(record.game)
                    text = _one_game(ctx, record, to_format, transform)
                    if text is None:
                        refused += 1
                    else:
                        pieces.write(f"{record.index:04d}", text)
                if refused:
                    ctx.invalid = True
                    say(f"{source}: not converted: {plural(refused, 'game')} with problems "
                        f"(listed above); nothing was written", err=True)
                elif not records.failed:
                    say(f"{source}: converted into {plural(pieces.commit(), 'file')}")
        except WriteError as exc:
            ctx.inputs.input_errors.append(f"{shown(exc.path or records.source)}: error: "
                                           f"not converted: {exc}")


def extension_of(target: str | None) -> str | None:
    """The file extension of what ``--to`` writes: the format's, or the game's named; None
    for the records' own notation (the input's extension stays)."""
    if target is None:
        return None
    plugin = next((p for p in formats.plugins() if p.name == target), None)
    if plugin is not None:
        return plugin.extensions[0]
    game = registry.get(target)
    return game.extensions[0] if game is not None and game.extensions else None


def _converted(game_options: dict[str, Any], target: str | None, record: GameNode) -> str:
    """The record converted; options its game does not declare for ``convert``, or values
    it does not take, are the usage error ``random`` gives (:func:`check_for`), and what
    else its game cannot apply is one too (a record the target format cannot hold is that
    record's problem: :func:`_one_game`)."""
    game = game_of(record)
    if game is not None:
        check_for(game, "convert", game_options)
    options = dict(game_options, to=target) if target is not None else game_options
    try:
        return converted_text(record, **options)
    except (formats.CannotWrite, MissingCapability):
        raise  # a record the format cannot hold; a game with no conversions (the run's)
    except NotationError as exc:
        raise click.UsageError(f"{shown(record.source)}: game {record.index}: {exc}") from None


def rewrite(ctx: Context, paths: tuple[str, ...], prepare: Prepare, transform: Rewritten,
            verb: str, in_place: bool, check: bool = False, between: str = "\n",
            game_index: int | None = None, one_a_file: str = "") -> None:
    """Shared by fmt and convert: refuse records with problems, then print, check or rewrite.

    A file is only written when every game of it passed. A file that cannot
    be written (a full disk, a read-only file that would change) is one error
    line and the next file is done; whatever ends a file, Ctrl-C included,
    its temporary is removed. ``game_index``: game K of each file alone (printed);
    ``one_a_file``: why what is printed should hold one game (a warning for more).
    """
    if (in_place or check) and "-" in paths:
        raise click.UsageError("--in-place and --check need files, not standard input")
    mode = Mode.IN_PLACE if in_place else Mode.CHECK if check else Mode.PRINT
    for records in ctx.inputs.read(paths):
        other = formats.of_file(records.source) if mode is not Mode.PRINT else None
        if other is not None:  # its games would be written in the game's own notation
            ctx.inputs.input_errors.append(
                f"{shown(records.source)}: error: not {verb}: a {other} file; this writes "
                f"the game's own notation (convert --to NAME writes another format, to "
                f"standard output)")
            continue
        with FileRewrite(records.source, ctx.inputs.encoding, mode, between) as out:
            try:
                _rewrite_file(ctx, records, out, prepare, transform, verb, game_index,
                              one_a_file)
            except WriteError as exc:
                ctx.inputs.input_errors.append(f"{shown(records.source)}: error: not {verb}: "
                                               f"{exc}")


def _rewrite_file(ctx: Context, records: FileRecords, out: FileRewrite, prepare: Prepare,
                  transform: Rewritten, verb: str, game_index: int | None = None,
                  one_a_file: str = "") -> None:
    """One file of :func:`rewrite`; a failed write raises :class:`WriteError`."""
    refused, written = _write_games(ctx, records, out, prepare, transform, game_index)
    source = shown(records.source)
    if refused:
        ctx.invalid = True
        say(f"{source}: not {verb}: {plural(refused, 'game')} with problems "
            f"(listed above); nothing was written", err=True)
    if refused or records.failed or not records.count:
        return
    settled = out.settle()
    if settled is Settled.TO_PRINT:
        out.copy_to(functools.partial(emit, nl=False))  # the records themselves, as they are
        if one_a_file and written > 1:
            warn(f"{source}: warning: {plural(written, 'game')} written one after another; "
                 f"{one_a_file}: --split writes one file a game")
    elif settled is Settled.DIFFERS:
        say(f"{source}: would be {verb}")
        ctx.invalid = True
    elif settled is Settled.WRITTEN:
        say(f"{source}: {verb}")


def _write_games(ctx: Context, records: FileRecords, out: FileRewrite, prepare: Prepare,
                 transform: Rewritten, game_index: int | None) -> tuple[int, int]:
    """Each game of a file rewritten into ``out``: how many were refused and written (no
    game is held once this returns: the file is compared or printed next)."""
    refused = written = 0
    for record in chosen(records, game_index):
        text = _one_game(ctx, record, prepare, transform)
        if text is None:
            refused += 1
        else:
            out.write(text)  # outside the guard: a failed write is the file's error
            written += 1
    return refused, written


def _one_game(ctx: Context, record: GameNode, prepare: Prepare,
              transform: Callable[[GameNode], Text]) -> Text | None:
    """One game's new text; None if it has problems (said here) or met a bug of ours."""
    with ctx.guard(record):  # a bug of ours in one game refuses that game
        record, problems = prepare(record)
        for problem in problems:
            ctx.report(record, problem, err=True)
        if not problems:
            try:
                return transform(record)
            except formats.CannotWrite as exc:
                ctx.report(record, Problem(ProblemKind.SYNTAX, record.pos.line,
                                           record.pos.column, 0, None, str(exc)), err=True)
    return None


def _check_in_workers(ctx: Context, paths: tuple[str, ...], jobs: int) -> None:
    """``fmt --check`` with worker processes: each file's canonical text is digested in order."""
    outcomes = parallel.in_workers(ctx.inputs, paths, runner.FORMAT, jobs, ctx.fail)
    for source, games in itertools.groupby(outcomes, key=lambda outcome: outcome.file):
        _check_file(ctx, source, games)


def _check_file(ctx: Context, source: str, games: Iterable[Outcome]) -> None:
    """One file's outcomes from the workers, then what is to be said of the file."""
    out = FileRewrite(source, ctx.inputs.encoding, Mode.CHECK)
    refused = 0
    for outcome in games:
        if outcome.text is not None:
            out.write(outcome.text)
            continue
        refused += 1
        ctx.report_outcome(outcome, err=True)
    if any(e.startswith(f"{source}:") for e in ctx.inputs.input_errors):
        return
    if refused:
        ctx.invalid = True
        say(f"{shown(source)}: not reformatted: {plural(refused, 'game')} with problems "
            f"(listed above)", err=True)
    elif out.settle() is Settled.DIFFERS:
        ctx.invalid = True
        say(f"{shown(source)}: would be reformatted")
