"""Archive tools, pgn-extract style: ``tags``, ``select``, ``dedupe``, ``split``, ``cat``, ``stats``.

Every command streams (flat memory), takes files, folders and ``-``, and has
``--json``. Games are copied exactly as written (comments kept), one blank
line between games, so the output is itself a valid archive.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import json
from json.encoder import encode_basestring as quoted  # json.dumps of a str, in C
import os
import re
import statistics
from collections import Counter, OrderedDict, defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, NoReturn

import click

from notation.core.ast import Record
from notation.core.errors import NotationError
from notation.core.fastpath import quick_words
from notation.core.replay import game_of, run

from . import parallel
from .common import (ENCODING_OPTION, GAME_OPTION, JOBS_OPTION, PATHS, Context, color_option,
                     emit, plural, say, shown)
from .progress import watch
from .rewrite import (AtomicFile, DeviceFile, WriteError, open_output, remove_file,
                      sync_folder)

JSON_OPTION = click.option("--json", "as_json", is_flag=True, help="JSON output.")
OUTPUT_OPTION = click.option("-o", "--output", metavar="FILE",
                             help="Write here instead of to stdout: a file is replaced "
                                  "atomically, a device or pipe written directly; - is stdout.")


def reading_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """PATH..., --json, --game, --encoding and --color: what every reading tool takes."""
    for option in (color_option, ENCODING_OPTION, GAME_OPTION, JSON_OPTION, PATHS):
        func = option(func)
    return func


def game_text(record: Record | str) -> str:
    """A game's own lines as written (a record, or its text), ending in one line break."""
    return (record if isinstance(record, str) else record.raw).rstrip("\n") + "\n"


class Sink:
    """Where selected games go: stdout (no ``-o``, or ``-o -``), a device or pipe written
    directly, or a file replaced all at once at the end (nothing is made before).

    An output that cannot be written ends the run at once: one line, exit 2, and
    no file left that was not there before (one that was keeps its content).
    """

    def __init__(self, ctx: Context, output: str | None) -> None:
        self.ctx, self.output, self.count = ctx, output, 0
        self.file: AtomicFile | DeviceFile | None = None
        if output is not None and output != "-":
            try:
                self.file = open_output(output)
            except WriteError as exc:
                self.fail(str(exc))

    def __enter__(self) -> "Sink":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.discard()  # after close(): nothing left to remove

    def write(self, record: Record | str) -> None:
        self.write_text(("\n" if self.count else "") + game_text(record))

    def write_text(self, text: str) -> None:
        self.count += 1
        if self.file is None:
            emit(text, nl=False)
            return
        try:
            self.file.write(text)
        except WriteError as exc:
            self.fail(str(exc))

    def close(self, keep: bool = True) -> None:
        file, self.file = self.file, None
        if file is None:
            return
        if not keep:
            file.discard()
            return
        try:
            file.commit()
        except WriteError as exc:
            self.ctx.inputs.input_errors.append(not_written(self.output, exc))

    def discard(self) -> None:
        self.close(keep=False)

    def fail(self, reason: str) -> NoReturn:
        """The output cannot be written: remove what there is of it and end the run."""
        self.discard()
        give_up(self.ctx, self.output, reason)


def not_written(path: str, reason: object) -> str:
    """The one line for an output that could not be written (as ``fmt -i`` says it)."""
    return f"{shown(path)}: error: not written: {reason}"


def give_up(ctx: Context, path: str, reason: object) -> NoReturn:
    """End the run now for an output that cannot be written: every message, exit 2."""
    ctx.inputs.input_errors.append(not_written(path, reason))
    ctx.finish()
    raise AssertionError("ctx.finish() exits")  # pragma: no cover


def each_record(ctx: Context, paths: tuple[str, ...], **how: Any) -> Iterator[Record]:
    for records in ctx.inputs.read(paths, **how):
        yield from records


# -- tags ----------------------------------------------------------------------------------

@click.command()
@reading_options
def tags(paths: tuple[str, ...], as_json: bool, game_name: str | None, encoding: str,
         color: bool | None) -> None:
    """Headers only, one line per game: file, index, tags (nothing is replayed)."""
    ctx = Context(game_name, encoding, color)
    watch(ctx, paths, not as_json)
    for record in each_record(ctx, paths, headers=True):
        if as_json:
            say(json.dumps({"file": record.source, "index": record.index, "game": record.game,
                            "tags": record.tag_dict}))
        else:
            pairs = " ".join(f"{t.key}={quoted(t.value)}"
                             for t in record.tags if hasattr(t, "key"))
            say(f"{shown(record.source)}:{record.index}: {pairs}")
    ctx.finish()


# -- select --------------------------------------------------------------------------------

def _tag_filter(spec: str) -> Callable[[Record], bool]:
    if "~" in spec and ("=" not in spec or spec.index("~") < spec.index("=")):
        key, pattern = spec.split("~", 1)
        try:
            regex = re.compile(pattern)
        except re.error as exc:
            raise click.UsageError(f"--tag {spec}: bad regular expression: {exc}") from None
        return lambda r: regex.search(r.tag_dict.get(key, "")) is not None
    if "=" not in spec:
        raise click.UsageError(f"--tag {spec}: expected KEY=VALUE or KEY~REGEX")
    key, value = spec.split("=", 1)
    return lambda r: r.tag_dict.get(key) == value


def _plies_range(spec: str) -> tuple[int, int]:
    low, _, high = spec.partition(":")
    try:
        return (int(low) if low else 0, int(high) if high else 10**12)
    except ValueError:
        raise click.UsageError(f"--plies {spec}: expected MIN:MAX (either may be left out)") \
            from None


def _reaches(record: Record, wanted: str, at_ply: int | None) -> bool:
    """Whether the game shows position ``wanted`` (canonical text) at some ply, or at ``at_ply``."""
    game = game_of(record)
    if game is None:
        return False
    try:
        if at_ply == 0 or at_ply is None:
            if game.position(game.start(record)) == wanted:
                return True
            if at_ply == 0:
                return False
        for step in record.replay():
            if at_ply is None or step.ply == at_ply:
                if game.position(step.state) == wanted:
                    return True
                if at_ply is not None:
                    return False
    except Exception:  # a ReplayError, or a bug of ours: the game does not reach it
        return False
    return False


@dataclass
class Filters:
    """``select``'s filters as plain data, so worker processes can apply them too."""

    tag_specs: tuple[str, ...] = ()
    validity: bool | None = None
    plies: tuple[int, int] | None = None
    winners: tuple[str, ...] = ()
    players: int | None = None
    positions: tuple[str, ...] = ()
    after_ply: int | None = None
    _tests: list[Callable[[Record], bool]] | None = field(default=None, repr=False)
    _canonical: dict[str, list[str]] = field(default_factory=dict, repr=False)

    def __getstate__(self) -> dict[str, Any]:  # compiled tests are rebuilt where used
        return {**self.__dict__, "_tests": None, "_canonical": {}}

    def check(self) -> None:
        """Usage errors now, before any game is read (bad regular expressions)."""
        self._tests = [_tag_filter(spec) for spec in self.tag_specs]

    @property
    def headers_only(self) -> bool:
        return not (self.validity is not None or self.plies or self.winners
                    or self.players is not None or self.positions)

    def _wanted_positions(self, record: Record) -> list[str] | None:
        game = game_of(record)
        if game is None:
            return None
        if game.name not in self._canonical:
            try:
                self._canonical[game.name] = [game.position(game.read_position(p))
                                              for p in self.positions]
            except NotationError as exc:
                raise click.UsageError(f"--position for {game.name}: {exc}") from None
        return self._canonical[game.name]

    def matches(self, record: Record) -> bool:
        if self._tests is None:
            self.check()
        if not all(test(record) for test in self._tests):
            return False
        if (self.validity is not None or self.plies or self.winners
                or self.players is not None):
            outcome = run(record)
            if self.validity is not None and outcome.valid != self.validity:
                return False
            if self.plies and not self.plies[0] <= outcome.plies <= self.plies[1]:
                return False
            game, state = outcome.game, outcome.state
            if self.winners or self.players is not None:
                if game is None or state is None or not outcome.valid:
                    return False
                if self.winners and not set(self.winners) <= set(game.winner_words(state)):
                    return False
                if self.players is not None and game.player_count(state) != self.players:
                    return False
        if self.positions:
            wanted = self._wanted_positions(record)
            if wanted is None or not all(_reaches(record, p, self.after_ply) for p in wanted):
                return False
        return True


def selected(filters: Filters, invert: bool, with_verdict: bool,
             record: Record) -> dict[str, Any]:
    """One game's answer to the filters (a worker's result under ``--jobs``): whether it
    is selected, its text if so, and its verdict for ``--json``."""
    data: dict[str, Any] = {"file": record.source, "index": record.index, "game": record.game,
                            "selected": False}
    try:
        data["selected"] = filters.matches(record) != invert
    except click.UsageError as exc:  # said once by the main process, which stops there
        data["usage"] = exc.format_message()
        return data
    if data["selected"]:
        data["text"] = game_text(record)
        if with_verdict:
            outcome = run(record)
            data.update(valid=outcome.valid, plies=outcome.plies, tags=record.tag_dict)
    return data


def _answers_here(ctx: Context, paths: tuple[str, ...], how: dict[str, bool], filters: Filters,
                  invert: bool, with_verdict: bool) -> Iterator[dict[str, Any]]:
    """``selected`` for every game, in this process (a bug of ours: that game's error)."""
    for record in each_record(ctx, paths, **how):
        data = None
        with ctx.guard(record):
            data = selected(filters, invert, with_verdict, record)
        if data is not None:
            yield data


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
@click.option("--count", "count_only", is_flag=True, help="Print only how many games match.")
@click.option("--invert", is_flag=True, help="Select the games that do not match.")
@OUTPUT_OPTION
@JSON_OPTION
@JOBS_OPTION
@GAME_OPTION
@ENCODING_OPTION
@color_option
def select(paths: tuple[str, ...], tag_specs: tuple[str, ...], validity: bool | None,
           plies_spec: str | None, winners: tuple[str, ...], players: int | None,
           positions: tuple[str, ...], after_ply: int | None, count_only: bool, invert: bool,
           output: str | None, as_json: bool, jobs: int | None, game_name: str | None,
           encoding: str, color: bool | None) -> None:
    """Write the games that match every filter, unchanged, as one archive."""
    ctx = Context(game_name, encoding, color)
    watch(ctx, paths, not as_json)
    if after_ply is not None and not positions:
        raise click.UsageError("--after-ply goes with --position")
    filters = Filters(tag_specs, validity, _plies_range(plies_spec) if plies_spec else None,
                      winners, players, positions, after_ply)
    filters.check()
    with_verdict = as_json and not count_only
    asked, jobs = jobs, parallel.default_jobs() if jobs is None else jobs
    if not filters.headers_only and parallel.worth_a_pool(
            list(ctx.inputs.expand_quietly(paths)), asked):
        task = functools.partial(selected, filters, invert, with_verdict)
        task.needs_events = bool(positions)  # type: ignore[attr-defined]
        answers = parallel.results(ctx.inputs, paths, task, jobs, ctx.fail)
    else:
        how = ({"headers": True} if filters.headers_only and not as_json
               else {"checked": not positions})
        answers = _answers_here(ctx, paths, how, filters, invert, with_verdict)
    sink = None if count_only or as_json else Sink(ctx, output)
    with sink or contextlib.nullcontext():  # an exception on the way: nothing is left
        count = _take(ctx, answers, sink, with_verdict)
        if sink is not None:
            sink.close(keep=not ctx.inputs.input_errors)
    if count_only:
        say(json.dumps({"count": count}) if as_json else str(count))
    ctx.finish()


def _take(ctx: Context, answers: Iterator[dict[str, Any]], sink: Sink | None,
          with_verdict: bool) -> int:
    """Write (or print as JSON) the selected games; how many there were."""
    count = 0
    for data in answers:
        if "usage" in data:
            raise click.UsageError(data["usage"])
        if "internal" in data:  # a bug of ours in that game, said where it struck
            ctx.report_data(data, {"kind": "internal", "line": data["line"],
                                   "column": data["column"], "ply": 0, "event": None,
                                   "message": data["internal"], "rule": None})
            continue
        if not data["selected"]:
            continue
        count += 1
        if with_verdict:
            say(json.dumps({k: data[k] for k in ("file", "index", "game", "valid", "plies",
                                                 "tags")}))
        elif sink is not None:
            sink.write(data["text"])
    return count


# -- dedupe --------------------------------------------------------------------------------

def game_key(record: Record, symmetric: bool) -> str | None:
    """What two duplicate games share: the game and its canonical events (one frame)."""
    game = game_of(record)
    if game is None or record.game_problem:
        return None
    keys = None
    if not symmetric and record.unread:
        words = quick_words(record)  # a plain game read in headers mode
        keys = game.quick_keys(words) if words is not None else None
    if keys is None:
        keys = game.event_keys(record)  # (a record read in headers mode reads its events now)
    if symmetric:
        keys = game.symmetric_keys(record)
        if keys is None:
            raise click.UsageError(f"--symmetric: {game.name} has no board symmetries here "
                                   f"(Tilewe has eight)")
    digest = hashlib.sha256("\n".join([game.name, *keys]).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


@click.command()
@PATHS
@OUTPUT_OPTION
@click.option("--report", is_flag=True, help="Name every duplicate and its original (stderr).")
@click.option("--symmetric", is_flag=True,
              help="Tilewe: games equal up to one of the board's 8 symmetries are duplicates.")
@JSON_OPTION
@GAME_OPTION
@ENCODING_OPTION
@color_option
def dedupe(paths: tuple[str, ...], output: str | None, report: bool, symmetric: bool,
           as_json: bool, game_name: str | None, encoding: str, color: bool | None) -> None:
    """Keep the first copy of every game (same events in canonical form); drop the others."""
    ctx = Context(game_name, encoding, color)
    watch(ctx, paths, not as_json)
    seen: dict[str, str] = {}  # key -> "file:index" of the original
    sink = None if as_json else Sink(ctx, output)
    dropped = 0
    with sink or contextlib.nullcontext():  # an exception on the way: nothing is left
        for record in each_record(ctx, paths, headers=True):
            with ctx.guard(record):
                key = game_key(record, symmetric)
                where = f"{record.source}:{record.index}"
                original = seen.get(key) if key is not None else None
                if as_json:
                    say(json.dumps({"file": record.source, "index": record.index,
                                    "game": record.game, "duplicate_of": original}))
                if original is not None:
                    dropped += 1
                    if report and not as_json:
                        say(f"{shown(where)}: duplicate of {shown(original)}", err=True)
                    continue
                if key is not None:
                    seen[key] = where
                if sink is not None:
                    sink.write(record)
        if sink is not None:
            sink.close(keep=not ctx.inputs.input_errors)
    if report and not as_json:
        say(f"{plural(dropped, 'duplicate')} dropped, {plural(len(seen), 'distinct game')} kept",
            err=True)
    ctx.finish()


# -- split and cat ----------------------------------------------------------------------------

#: split keeps at most this many pieces open at once; the others are closed and reopened
#: (in append mode) when their next game comes, so any number of pieces fits in a small
#: limit of open files.
OPEN_PIECES = 64
#: A tag value names its piece as it is when it is this long at most and made of these
#: characters; any other value is made safe, cut and followed by ``+`` and a hash.
NAME_CHARS, HASH_DIGITS = 100, 16
_SAFE_NAME = re.compile(r"[A-Za-z0-9._-]{1,%d}" % NAME_CHARS)
_UNSAFE_RUN = re.compile(r"[^A-Za-z0-9._-]+")


def piece_name(value: str, taken: dict[str, str]) -> str:
    """The file-name part for a tag value (see ``split --help``), unique among ``taken``.

    ``taken`` maps the lower-case form of every name given so far to its value,
    so two values never share a file, even on a case-insensitive file system.
    """
    name = value if _SAFE_NAME.fullmatch(value) else None
    if name is None or name.lower() in taken:
        digest = hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()
        safe = _UNSAFE_RUN.sub("_", value)[:NAME_CHARS] or "none"
        name = f"{safe}+{digest[:HASH_DIGITS]}"
        if name.lower() in taken:  # 64 bits of hash alike: all of them, then
            name = f"{safe}+{digest}"
    taken[name.lower()] = value
    return name


class Pieces:
    """``split``'s output files, all or nothing.

    Each piece is written to a temporary beside its target, at most
    ``OPEN_PIECES`` of them open at a time (the least recently written is
    closed). At the end of a run that succeeded every temporary is synced,
    then every one renamed; any failure or exception on the way (Ctrl-C
    included) removes them all, and any piece already renamed.
    """

    def __init__(self, ctx: Context, folder: str, stem: str, ext: str) -> None:
        self.ctx, self.folder, self.stem, self.ext = ctx, folder, stem, ext
        self.files: dict[str, AtomicFile] = {}  # piece name -> its temporary
        self.targets: dict[str, str] = {}
        self.counts: Counter[str] = Counter()
        self.recent: OrderedDict[str, None] = OrderedDict()  # open ones, least recent first
        self.renamed: list[str] = []

    def __enter__(self) -> "Pieces":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.discard()  # after commit(): nothing left to remove

    def write(self, name: str, record: Record) -> None:
        file = self.files.get(name) or self._start(name)
        self.recent[name] = None
        self.recent.move_to_end(name)
        if len(self.recent) > OPEN_PIECES:
            oldest = self.recent.popitem(last=False)[0]
            self._try(self.files[oldest].suspend, oldest)
        text = ("\n" if self.counts[name] else "") + game_text(record)
        self.counts[name] += 1
        self._try(lambda: file.write(text), name)

    def _start(self, name: str) -> AtomicFile:
        target = os.path.join(self.folder, f"{self.stem}-{name}{self.ext}")
        try:
            os.lstat(target)
        except FileNotFoundError:
            pass
        except OSError as exc:  # a name too long for the file system, say
            self._fail(target, exc.strerror or exc)
        else:
            self._fail(target, "the file exists (split never overwrites; remove it first)")
        self.targets[name] = target
        self.files[name] = self._try(lambda: AtomicFile(target, "utf-8", create=True), name)
        return self.files[name]

    def commit(self) -> int:
        """Sync every piece, then rename every one; how many files were made."""
        for name, file in self.files.items():
            self._try(file.seal, name)
        for name, file in self.files.items():
            target = file.target
            self._try(file.replace, name)
            self.renamed.append(target)
        if self.renamed:
            sync_folder(os.path.dirname(self.renamed[0]))
        made = len(self.renamed)
        self.files.clear()
        self.renamed.clear()  # done: they stay
        return made

    def discard(self) -> None:
        """Remove every temporary, and every piece renamed so far: none was there before."""
        for file in self.files.values():
            file.discard()
        self.files.clear()
        for target in self.renamed:
            remove_file(target)
        self.renamed.clear()

    def _try(self, action: Callable[[], Any], name: str) -> Any:
        try:
            return action()
        except WriteError as exc:
            self._fail(self.targets[name], exc)

    def _fail(self, target: str, reason: object) -> NoReturn:
        self.discard()
        give_up(self.ctx, target, reason)


@click.command()
@click.argument("path", metavar="PATH")
@click.option("--per-file", type=click.IntRange(min=1), metavar="N", help="N games per file.")
@click.option("--by-tag", metavar="KEY",
              help="One file per value of this tag (file names: see above).")
@click.option("--out-dir", default=".", show_default=True, help="Folder for the pieces.")
@click.option("--prefix", default=None, help="File name prefix (default: the input's name).")
@GAME_OPTION
@ENCODING_OPTION
@color_option
def split(path: str, per_file: int | None, by_tag: str | None, out_dir: str,
          prefix: str | None, game_name: str | None, encoding: str, color: bool | None) -> None:
    """Cut an archive into files of N games, or one file per tag value (games unchanged).

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
    base = os.path.basename(path) if path != "-" else "stdin"
    stem, ext = os.path.splitext(base)
    names: dict[str, str] = {}  # tag value -> piece name
    taken: dict[str, str] = {}
    count = 0
    with Pieces(ctx, out_dir, prefix or stem, ext) as pieces:
        for record in each_record(ctx, (path,), headers=True):  # copied as written: no parse
            if per_file is not None:
                name = f"{count // per_file + 1:04d}"
            else:
                value = record.tag_dict.get(by_tag, "")
                if value not in names:
                    names[value] = piece_name(value, taken)
                name = names[value]
            pieces.write(name, record)
            count += 1
        made = 0 if ctx.inputs.input_errors else pieces.commit()
    say(f"{plural(count, 'game')} into {plural(made, 'file')}", err=True)
    ctx.finish()


@click.command()
@PATHS
@OUTPUT_OPTION
@GAME_OPTION
@ENCODING_OPTION
@color_option
def cat(paths: tuple[str, ...], output: str | None, game_name: str | None, encoding: str,
        color: bool | None) -> None:
    """Join archives into one: every game unchanged, a blank line between games."""
    ctx = Context(game_name, encoding, color)
    watch(ctx, paths, True)
    with Sink(ctx, output) as sink:  # an exception on the way: nothing is left
        for record in each_record(ctx, paths, headers=True):  # copied as written: no parse
            sink.write(record)
        sink.close(keep=not ctx.inputs.input_errors)
    ctx.finish()


# -- stats ---------------------------------------------------------------------------------

class Summary:
    """Running figures of one game's records (plies kept as counts for the median)."""

    def __init__(self) -> None:
        self.games = self.valid = 0
        self.plies: Counter[int] = Counter()
        self.wins: Counter[str] = Counter()
        self.ties: Counter[str] = Counter()
        self.finished = 0
        self.first: Counter[str] = Counter()
        self.numbers: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
        self.words: dict[str, Counter[str]] = defaultdict(Counter)

    def add(self, figures: dict[str, Any]) -> None:
        """Count one game's figures (:func:`game_figures`)."""
        self.games += 1
        self.plies[figures["plies"]] += 1
        if figures.get("first"):
            self.first[figures["first"]] += 1
        if not figures.get("scored"):
            return
        self.valid += 1
        winners = figures["winners"]
        if figures["finished"]:
            self.finished += 1
            for name in winners:
                (self.wins if len(winners) == 1 else self.ties)[name] += 1
        for key, value in figures["facts"].items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                total = self.numbers[key]
                total[0] += value
                total[1] += 1
            elif value is not None:
                self.words[key][str(value)] += 1

    def as_json(self) -> dict[str, Any]:
        plies = sorted(self.plies.elements())
        finished = self.finished or 1
        return {
            "games": self.games, "valid": self.valid, "invalid": self.games - self.valid,
            "plies": {"min": plies[0], "median": statistics.median(plies), "max": plies[-1]}
            if plies else None,
            "finished": self.finished,
            "results": {name: {"wins": self.wins[name], "ties": self.ties[name],
                               "win_rate": round(self.wins[name] / finished, 4),
                               "tie_rate": round(self.ties[name] / finished, 4)}
                        for name in sorted(set(self.wins) | set(self.ties))},
            "first_events": dict(self.first.most_common(10)),
            "means": {k: round(total / n, 3) for k, (total, n) in self.numbers.items() if n},
            "counts": {k: dict(v.most_common()) for k, v in self.words.items()},
        }


def _first_event(record: Record) -> str | None:
    game = game_of(record)
    events = record.events
    return game.format_event(events[0]) if game is not None and events else None


def game_figures(record: Record) -> dict[str, Any]:
    """What ``stats`` counts of one game (plain data: a worker's result under ``--jobs``)."""
    outcome = run(record)
    figures: dict[str, Any] = {
        "file": record.source, "index": record.index, "game": record.game or "unknown",
        "valid": outcome.valid, "plies": outcome.plies, "first": _first_event(record),
        "scored": outcome.valid and outcome.state is not None,
        "finished": False, "winners": [], "facts": {}}
    if figures["scored"]:
        game, state = outcome.game, outcome.state
        figures.update(finished=game.is_over(state), winners=game.winner_words(state),
                       facts=game.facts(state))
    return figures


game_figures.needs_events = True  # type: ignore[attr-defined]  # the first event


@click.command()
@reading_options
@JOBS_OPTION
def stats(paths: tuple[str, ...], as_json: bool, game_name: str | None, encoding: str,
          color: bool | None, jobs: int | None) -> None:
    """Games, verdicts, plies, results per seat or colour, first events, per-game figures."""
    ctx = Context(game_name, encoding, color)
    watch(ctx, paths, not as_json)
    summaries: dict[str, Summary] = defaultdict(Summary)
    asked, jobs = jobs, parallel.default_jobs() if jobs is None else jobs
    if parallel.worth_a_pool(list(ctx.inputs.expand_quietly(paths)), asked):
        for figures in parallel.results(ctx.inputs, paths, game_figures, jobs, ctx.fail):
            if "internal" in figures:  # a bug of ours in that game, said where it struck
                ctx.report_data(figures, {"kind": "internal", "line": figures["line"],
                                          "column": figures["column"], "ply": 0,
                                          "event": None, "message": figures["internal"],
                                          "rule": None})
            summaries[figures["game"] or "unknown"].add(figures)
    else:
        for record in each_record(ctx, paths):
            with ctx.guard(record):
                summaries[record.game or "unknown"].add(game_figures(record))
    report = {name: summaries[name].as_json() for name in sorted(summaries)}
    if as_json:
        say(json.dumps(report))
    else:
        for name, data in report.items():
            _print_stats(name, data)
    ctx.finish()


def _print_stats(name: str, data: dict[str, Any]) -> None:
    say(f"{name}: {plural(data['games'], 'game')}, {data['valid']:,} valid, "
        f"{data['invalid']:,} invalid")
    if data["plies"]:
        p = data["plies"]
        say(f"  plies: min {p['min']}, median {p['median']:g}, max {p['max']}")
    if data["results"]:
        say(f"  results of {plural(data['finished'], 'finished game')}:")
        for who, r in data["results"].items():
            say(f"    {who:<10} {r['wins']:>6,} wins ({r['win_rate']:.1%}), "
                f"{r['ties']:,} ties ({r['tie_rate']:.1%})")
    if data["first_events"]:
        say("  first events: " + ", ".join(f"{e} {n:,}" for e, n in data["first_events"].items()))
    for key, mean in data["means"].items():
        say(f"  mean {key}: {mean:g}")
    for key, counts in data["counts"].items():
        say(f"  {key}: " + ", ".join(f"{v} {n:,}" for v, n in counts.items()))


__all__ = ["cat", "dedupe", "select", "split", "stats", "tags"]
