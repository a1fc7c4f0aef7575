"""Archive tools, pgn-extract style: ``tags``, ``select``, ``dedupe``, ``split``, ``cat``, ``stats``.

Every command streams (flat memory), takes files, folders and ``-``, and has
``--json``. Games are copied exactly as written (comments kept), one blank
line between games, so the output is itself a valid archive. The work is
:mod:`notation.archive`'s; here are the options, the messages and the exits.
"""
from __future__ import annotations

import functools
import json
from json.encoder import encode_basestring as quoted  # json.dumps of a str, in C
from json.encoder import encode_basestring_ascii as ascii_quoted  # (with ensure_ascii)
from typing import Any, Callable, Iterator, NoReturn

import click

from notation.core.tree import GameNode
from notation.parallel import WORKER_WAIT
from notation.parallel import runs as runner
from notation.archive import (Duplicates, FilterError, Filters, GameSink, PieceNames, Pieces,
                              Selector, Stats, WriteError, game_extension, input_name,
                              parse_plies)
from notation.archive.filters import selection
from notation.archive.keys import keyed
from notation.archive.skim import needles, skimmed_records
from notation.archive.stats import figured, game_figures
from notation.core.ast import Tag
from notation.core.game import MissingCapability, needed
from notation.core.outcome import Outcome
from notation.core.replay import game_of
from notation.read.text import open_record_file, source_chunks

from . import parallel
from .common import (JOBS_OPTION, PATHS, Context, color_option, emit, plural, reading_options, say,
                     shown)
from .game_options import WithGameOptions
from .inputs import FileRecords, Inputs
from .progress import watch

JSON_OPTION = click.option("--json", "as_json", is_flag=True, help="JSON output.")
OUTPUT_OPTION = click.option("-o", "--output", metavar="FILE",
                             help="Write here instead of to stdout: a file is replaced "
                                  "atomically, a device or pipe written directly; - is stdout.")


def archive_reading_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """PATH..., --json, --game, --dialect, --encoding and --color: what every reading tool
    of an archive takes."""
    return PATHS(JSON_OPTION(reading_options(color_option(func))))


def joining_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """PATH..., -o, --game, --dialect, --encoding and --color: what a command that makes
    one archive of several takes (``cat``, ``merge``)."""
    return PATHS(OUTPUT_OPTION(reading_options(color_option(func))))


def echo(text: str) -> None:
    """Text of the records themselves to standard output, as it is."""
    emit(text, nl=False)


class Sink:
    """Selected games to standard output (no ``-o``, or ``-o -``) or to ``-o``'s output
    (a :class:`notation.archive.GameSink`).

    An output that cannot be written ends the run at once: one line, exit 2, and
    no file left that was not there before (one that was keeps its content).
    """

    def __init__(self, ctx: Context, output: str | None) -> None:
        self.ctx, self.output = ctx, "-" if output is None else output
        try:
            self.games = GameSink(echo if self.output == "-" else self.output)
        except WriteError as exc:
            give_up(ctx, self.output, exc)

    def __enter__(self) -> Sink:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.games.discard()  # after close(): nothing left to remove

    def write(self, record: GameNode | str) -> None:
        self._attempt(self.games.add, record)

    def write_text(self, text: str) -> None:
        self._attempt(self.games.write, text)

    def _attempt(self, action: Callable[[Any], None], value: GameNode | str) -> None:
        try:
            action(value)
        except WriteError as exc:
            self.games.discard()
            give_up(self.ctx, self.output, exc)

    def close(self, keep: bool = True) -> None:
        if not keep:
            self.games.discard()
            return
        try:
            self.games.commit()
        except WriteError as exc:
            self.ctx.inputs.input_errors.append(not_written(self.output, exc))


def not_written(path: str, reason: object) -> str:
    """The one line for an output that could not be written (as ``fmt -i`` says it)."""
    return f"{shown(path)}: error: not written: {reason}"


def give_up(ctx: Context, path: str, reason: object) -> NoReturn:
    """End the run now for an output that cannot be written: every message, exit 2."""
    ctx.inputs.input_errors.append(not_written(path, reason))
    ctx.finish()
    raise AssertionError("ctx.finish() exits")  # pragma: no cover


def each_record(ctx: Context, paths: tuple[str, ...], **how: Any) -> Iterator[GameNode]:
    for records in ctx.inputs.read(paths, **how):
        yield from records


# -- tags ----------------------------------------------------------------------------------

@click.command()
@archive_reading_options
def tags(paths: tuple[str, ...], as_json: bool, game_name: str | None, encoding: str,
         color: bool | None) -> None:
    """A line gives the file, the game's index and its tags."""
    ctx = Context(game_name, encoding, color)
    watch(ctx, paths, not as_json)
    for record in each_record(ctx, paths, headers=True):
        for piece in (_tags_json if as_json else _tags_line)(record):
            say(piece, nl=False)
        say("")
    ctx.finish()


#: Characters of a tag value quoted and written at a time: a value of megabytes is never
#: copied whole (quoted, joined into its line, made printable, encoded).
PIECE = 1 << 20


def _quoted_pieces(value: str, quote: Callable[[str], str] = quoted) -> Iterator[str]:
    """``quote(value)`` (a JSON string) a piece at a time; the quoting is character by
    character, so the pieces are the whole's."""
    if len(value) <= PIECE:
        yield quote(value)
        return
    yield '"'
    for start in range(0, len(value), PIECE):
        yield quote(value[start:start + PIECE])[1:-1]
    yield '"'


def _tags_line(record: GameNode) -> Iterator[str]:
    """``FILE:INDEX: Key="value" ...``, in pieces."""
    yield f"{shown(record.source)}:{record.index}: "
    for n, tag in enumerate(t for t in record.tags if isinstance(t, Tag)):
        yield f"{' ' if n else ''}{tag.key}="
        yield from _quoted_pieces(tag.value)


def _tags_json(record: GameNode) -> Iterator[str]:
    """``{"file", "index", "game", "tags": {KEY: VALUE}}`` as ``json.dumps`` writes it
    (non-ASCII escaped), in pieces."""
    yield json.dumps({"file": record.source, "index": record.index, "game": record.game})[:-1]
    yield ', "tags": {'
    for n, (key, value) in enumerate(record.headers.items()):
        yield f"{', ' if n else ''}{json.dumps(key)}: "
        yield from _quoted_pieces(value, ascii_quoted)
    yield "}}"


# -- select --------------------------------------------------------------------------------

def filter_usage(name: str, message: str) -> click.UsageError:
    """A filter that cannot be applied, said as the option that gave it."""
    return click.UsageError(f"--{name} {message}")


def make_filters(tag_specs: tuple[str, ...], validity: bool | None, plies_spec: str | None,
                 winners: tuple[str, ...], players: int | None, positions: tuple[str, ...],
                 after_ply: int | None, in_variations: bool = False) -> Filters:
    """``select``'s options as filters; a bad one is a usage error before any game is read."""
    if after_ply is not None and not positions:
        raise click.UsageError("--after-ply goes with --position")
    try:
        plies = parse_plies(plies_spec) if plies_spec else None
        return Filters(tag_specs, validity, plies, winners, players, positions, after_ply,
                       in_variations)
    except FilterError as exc:
        raise filter_usage(exc.name, str(exc)) from None


class SkimmedRecords(FileRecords):
    """One input's records for ``KEY=VALUE`` tag tests: a game whose text lacks a wanted
    value comes as a stand-in with no tags (:mod:`notation.archive.skim`); standard input
    is read in full."""

    def __init__(self, inputs: Inputs, path: str, wanted: tuple[str, ...]) -> None:
        super().__init__(inputs, path, headers=True)
        self.wanted = wanted

    def games(self) -> Iterator[GameNode]:
        if self.path == "-":
            yield from super().games()
            return
        inputs = self.inputs
        with open_record_file(self.path) as handle:
            self.handle = handle
            yield from skimmed_records(source_chunks(handle, inputs.encoding, self.path),
                                       self.path, inputs.game, self.wanted)


def _skimmed(ctx: Context, paths: tuple[str, ...], wanted: tuple[str, ...]) -> Iterator[GameNode]:
    """Every input's records, games that cannot match as stand-ins."""
    for path in ctx.inputs.expand(paths):
        yield from SkimmedRecords(ctx.inputs, path, wanted)


def _answers_here(ctx: Context, paths: tuple[str, ...], how: dict[str, bool],
                  selector: Selector) -> Iterator[Outcome]:
    """The selector's answer for every game, in this process (a bug of ours: that game's
    error)."""
    wanted = () if selector.invert or ctx.inputs.tags or not how.get("headers") \
        else needles(selector.filters)
    records = _skimmed(ctx, paths, wanted) if wanted else each_record(ctx, paths, **how)
    for record in records:
        if wanted and not record.tags:  # a stand-in (or a game with no tags) fails KEY=VALUE
            continue
        outcome = None
        with ctx.guard(record):
            outcome = selection(selector, record)
        if outcome is not None:
            yield outcome


def answers(ctx: Context, paths: tuple[str, ...], selector: Selector, jobs: int | None,
            as_json: bool, scheduler: str | None = None,
            worker_timeout: float = WORKER_WAIT) -> Iterator[Outcome]:
    """Every game's answer (:func:`notation.archive.filters.selection`), from a Dask
    cluster, or worker processes when that pays (the tags alone are always quicker read
    here, but for a cluster, whose workers see the files)."""
    filters = selector.filters
    task = runner.Task(functools.partial(selection, selector), events=selector.needs_events)
    spread = None if filters.headers_only and not scheduler else parallel.spread(
        ctx, paths, lambda: task, jobs, scheduler, worker_timeout)
    if spread is not None:
        return spread
    how = ({"headers": True} if filters.headers_only and not as_json
           else {"checked": not filters.positions})
    return _answers_here(ctx, paths, how, selector)


@click.command()
@PATHS
@click.option("--tag", "tag_specs", multiple=True, metavar="KEY=VALUE|KEY~REGEX",
              help="A tag equals a value, or matches a regular expression (repeatable).")
@click.option("--valid/--invalid", "validity", default=None, help="Only valid (or invalid) games.")
@click.option("--plies", "plies_spec", metavar="MIN:MAX", help="Number of plies in range.")
@click.option("--winner", "winners", multiple=True, metavar="NAME",
              help="A winner, in the game's words: blue, P2, Sa, red (repeatable: all of them).")
@click.option("--players", type=click.IntRange(min=1), help="Number of players.")
@click.option("--position", "positions", multiple=True, metavar="POS",
              help="The game reaches this position (the game's position notation).")
@click.option("--after-ply", type=click.IntRange(min=0), metavar="N",
              help="With --position: the position after exactly ply N.")
@click.option("--in-variations", is_flag=True,
              help="With --position: look in every variation too, not only the mainline.")
@click.option("--count", "count_only", is_flag=True, help="Print only how many games match.")
@click.option("--invert", is_flag=True, help="Select the games that do not match.")
@OUTPUT_OPTION
@JSON_OPTION
@JOBS_OPTION
@parallel.cluster_options
@reading_options
@color_option
def select(paths: tuple[str, ...], tag_specs: tuple[str, ...], validity: bool | None,
           plies_spec: str | None, winners: tuple[str, ...], players: int | None,
           positions: tuple[str, ...], after_ply: int | None, in_variations: bool,
           count_only: bool, invert: bool,
           output: str | None, as_json: bool, jobs: int | None, scheduler: str | None,
           worker_timeout: float, game_name: str | None,
           encoding: str, color: bool | None) -> None:
    """The games that match go out as one archive."""
    ctx = Context(game_name, encoding, color)
    watch(ctx, paths, not as_json)
    filters = make_filters(tag_specs, validity, plies_spec, winners, players, positions,
                           after_ply, in_variations)
    selector = Selector(filters, invert, verdict=as_json and not count_only)
    found = answers(ctx, paths, selector, jobs, as_json, scheduler, worker_timeout)
    with Sink(ctx, output) as sink:  # (-o takes what is printed: games, verdicts or the count)
        count = _take(ctx, found, None if count_only else sink, selector.verdict)
        if count_only:
            sink.write_text((json.dumps({"count": count}) if as_json else str(count)) + "\n")
        sink.close(keep=not ctx.inputs.input_errors)
    ctx.finish()


def _take(ctx: Context, found: Iterator[Outcome], sink: Sink | None,
          with_verdict: bool) -> int:
    """Write (or print as JSON) the selected games; how many there were."""
    count = 0
    for outcome in found:
        data = outcome.data
        if data is None:
            ctx.report_outcome(outcome, err=True)  # a bug of ours, met by a worker
        elif "usage" in data:
            raise filter_usage(data["filter"], data["usage"])
        elif "missing" in data:
            raise MissingCapability(data["missing"])
        elif data["selected"]:
            count += 1
            _give(outcome, sink, with_verdict)
    return count


def _give(outcome: Outcome, sink: Sink | None, with_verdict: bool) -> None:
    """One selected game: its verdict as a JSON line, or its text, to the output (None:
    only counted)."""
    if sink is None:
        return
    if with_verdict:
        sink.write_text(json.dumps({"file": outcome.file, "index": outcome.index,
                                    "game": outcome.game_name, "valid": outcome.valid,
                                    "plies": outcome.plies, "tags": outcome.tags}) + "\n")
    elif outcome.text is not None:
        sink.write(outcome.text)


# -- dedupe --------------------------------------------------------------------------------

@click.command(cls=WithGameOptions)
@PATHS
@OUTPUT_OPTION
@click.option("--report", is_flag=True, help="Name every duplicate and its original (stderr).")
@JSON_OPTION
@parallel.cluster_options
@reading_options
@color_option
def dedupe(paths: tuple[str, ...], output: str | None, report: bool, as_json: bool,
           scheduler: str | None, worker_timeout: float, game_name: str | None,
           encoding: str, color: bool | None, game_options: dict[str, Any]) -> None:
    """Two games are copies when their events are the same in canonical form."""
    symmetric = bool(game_options.get("symmetric"))
    ctx = Context(game_name, encoding, color)
    watch(ctx, paths, not as_json)
    duplicates = Duplicates(symmetric)
    dropped = 0
    with Sink(ctx, output) as sink:  # (-o takes what is printed: the games, or --json's lines)
        if scheduler:  # the keys made on the cluster, the set of them kept here
            task = runner.Task(functools.partial(keyed, symmetric), headers=True)
            for outcome in parallel.on_cluster(ctx.inputs, paths, scheduler, task, ctx.fail,
                                               worker_timeout):
                dropped += _keyed_copy_kept(ctx, duplicates, outcome, sink, report, as_json)
        else:
            for record in each_record(ctx, paths, headers=True):
                with ctx.guard(record):
                    dropped += _first_copy_kept(duplicates, record, sink, report, as_json)
        sink.close(keep=not ctx.inputs.input_errors)
    if report and not as_json:
        say(f"{plural(dropped, 'duplicate')} dropped, "
            f"{plural(duplicates.distinct, 'distinct game')} kept", err=True)
    ctx.finish()


def _first_copy_kept(duplicates: Duplicates, record: GameNode, sink: Sink, report: bool,
                     as_json: bool) -> int:
    """Write a game met for the first time (``as_json``: every game's line); 1 if it is a
    later copy (dropped), else 0."""
    game = game_of(record) if duplicates.symmetric else None
    if game is not None:  # refused at the game's first record, before any key is made
        needed(game, "symmetries", "dedupe --symmetric")
    original = duplicates.original_of(record)
    return _kept(original, record.source, record.index, record.game, record, sink, report,
                 as_json)


def _keyed_copy_kept(ctx: Context, duplicates: Duplicates, outcome: Outcome, sink: Sink,
                     report: bool, as_json: bool) -> int:
    """As :func:`_first_copy_kept`, for a game keyed on a cluster (:func:`keyed`)."""
    data = outcome.data
    if data is None or outcome.text is None and "missing" not in data:
        ctx.report_outcome(outcome, err=True)  # a bug of ours, met by a worker
        return 0
    if "missing" in data:
        raise MissingCapability(data["missing"])
    key = data["key"]
    original = None if key is None else duplicates.first_copy(bytes.fromhex(key),
                                                              outcome.file, outcome.index)
    assert outcome.text is not None
    return _kept(original, outcome.file, outcome.index, outcome.game_name, outcome.text, sink,
                 report, as_json)


def _kept(original: str | None, source: str, index: int, game: str | None,
          record: GameNode | str, sink: Sink, report: bool, as_json: bool) -> int:
    if as_json:
        sink.write_text(json.dumps({"file": source, "index": index,
                                    "game": game, "duplicate_of": original}) + "\n")
    if original is None:
        if not as_json:
            sink.write(record)
        return 0
    if report and not as_json:
        say(f"{shown(f'{source}:{index}')}: duplicate of {shown(original)}", err=True)
    return 1


# -- split and cat ----------------------------------------------------------------------------

@click.command()
@click.argument("path", metavar="PATH")
@click.option("--per-file", type=click.IntRange(min=1), metavar="N", help="N games per file.")
@click.option("--by-tag", metavar="KEY",
              help="One file per value of this tag (file names: see above).")
@click.option("--out-dir", default=".", show_default=True, help="Folder for the pieces.")
@click.option("--prefix", default=None, help="File name prefix (default: the input's name).")
@reading_options
@color_option
def split(path: str, per_file: int | None, by_tag: str | None, out_dir: str,
          prefix: str | None, game_name: str | None, encoding: str, color: bool | None) -> None:
    """By a tag: one file per tag value. The games are unchanged.

    Pieces are named PREFIX-0001.EXT, PREFIX-0002.EXT, ... or PREFIX-VALUE.EXT. A tag
    value names its file as it is when it is at most 100 characters, all letters,
    digits, '.', '_' or '-', and differs from every earlier value by more than letter
    case; any other value has each run of other characters made '_', is cut to 100
    characters and followed by '+' and the first 16 hex digits of the SHA-256 of its
    exact UTF-8 text ('a/b' gives PREFIX-a_b+<hash>.EXT; an empty value or a missing
    tag, PREFIX-none+e3b0c44298fc1c14.EXT), so no two values share a file. Existing
    files are never overwritten. Nothing is written unless the whole run succeeds; at
    most 64 pieces are open at a time, whatever their number.
    """
    if (per_file is None) == (by_tag is None):
        raise click.UsageError("give exactly one of --per-file N and --by-tag KEY")
    ctx = Context(game_name, encoding, color)
    watch(ctx, (path,), True)
    stem, ext = input_name(path)
    names = PieceNames(per_file, by_tag)
    with Pieces(out_dir, prefix or stem, ext) as pieces:
        try:
            for record in each_record(ctx, (path,), headers=True):  # copied as written
                if not pieces.ext:  # standard input: the pieces are files of its game
                    pieces.ext = game_extension(record.game)
                pieces.write(names.next(record), record)
            made = 0 if ctx.inputs.input_errors else pieces.commit()
        except WriteError as exc:
            give_up(ctx, exc.path or path, exc)
    say(f"{plural(names.count, 'game')} into {plural(made, 'file')}", err=True)
    ctx.finish()


@click.command()
@joining_options
def cat(paths: tuple[str, ...], output: str | None, game_name: str | None, encoding: str,
        color: bool | None) -> None:
    """A blank line stands between games."""
    ctx = Context(game_name, encoding, color)
    watch(ctx, paths, True)
    with Sink(ctx, output) as sink:  # an exception on the way: nothing is left
        for record in each_record(ctx, paths, headers=True):  # copied as written: no parse
            sink.write(record)
        sink.close(keep=not ctx.inputs.input_errors)
    ctx.finish()


# -- stats ---------------------------------------------------------------------------------

def _figures(ctx: Context, paths: tuple[str, ...], jobs: int | None, scheduler: str | None,
             worker_timeout: float) -> Iterator[dict[str, Any]]:
    """Every game's figures, from a Dask cluster, or worker processes when that pays."""
    task = runner.Task(figured)  # fast path: the first event is read from the text
    spread = parallel.spread(ctx, paths, lambda: task, jobs, scheduler, worker_timeout)
    if spread is not None:
        for outcome in spread:
            if outcome.data is None:
                ctx.report_outcome(outcome, err=True)  # a bug of ours, met by a worker
            else:
                yield outcome.data
        return
    for record in each_record(ctx, paths, checked=True):
        found = None
        with ctx.guard(record):
            found = game_figures(record)
        if found is not None:
            yield found


@click.command()
@archive_reading_options
@JOBS_OPTION
@parallel.cluster_options
def stats(paths: tuple[str, ...], as_json: bool, game_name: str | None, encoding: str,
          color: bool | None, jobs: int | None, scheduler: str | None,
          worker_timeout: float) -> None:
    """Results per seat or colour, and figures per game."""
    ctx = Context(game_name, encoding, color)
    watch(ctx, paths, not as_json)
    figures = Stats()
    for game in _figures(ctx, paths, jobs, scheduler, worker_timeout):
        figures.add(game)
    if as_json:
        say(json.dumps(figures.as_json()))
    else:
        for line in figures.lines():
            say(line)
    ctx.finish()


__all__ = ["cat", "dedupe", "select", "split", "stats", "tags"]
