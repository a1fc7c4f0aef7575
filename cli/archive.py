"""Archive tools, pgn-extract style: ``tags``, ``select``, ``dedupe``, ``split``, ``cat``, ``stats``.

Every command streams (flat memory), takes files, folders and ``-``, and has
``--json``. Games are copied exactly as written (comments kept), one blank
line between games, so the output is itself a valid archive.
"""
from __future__ import annotations

import functools
import hashlib
import json
from json.encoder import encode_basestring as quoted  # json.dumps of a str, in C
import os
import re
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import click

from notation.core.ast import Record
from notation.core.errors import NotationError
from notation.core.fastpath import quick_words
from notation.core.parsing import parse
from notation.core.replay import game_of, run

from . import parallel
from .common import (ENCODING_OPTION, GAME_OPTION, JOBS_OPTION, PATHS, Context, color_option,
                     emit, plural, say)
from .rewrite import AtomicFile, WriteError

JSON_OPTION = click.option("--json", "as_json", is_flag=True, help="JSON output.")
OUTPUT_OPTION = click.option("-o", "--output", metavar="FILE",
                             help="Write the games here (atomically) instead of to stdout.")


def reading_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """PATH..., --json, --game, --encoding and --color: what every reading tool takes."""
    for option in (color_option, ENCODING_OPTION, GAME_OPTION, JSON_OPTION, PATHS):
        func = option(func)
    return func


def game_text(record: Record | str) -> str:
    """A game's own lines as written (a record, or its text), ending in one line break."""
    return (record if isinstance(record, str) else record.raw).rstrip("\n") + "\n"


class Sink:
    """Where selected games go: stdout, or a file replaced all at once at the end."""

    def __init__(self, ctx: Context, output: str | None) -> None:
        self.ctx, self.output, self.count = ctx, output, 0
        self.file: AtomicFile | None = None
        self.created = False
        if output is not None:
            if not os.path.exists(output):
                try:
                    open(output, "x").close()  # a new file: created empty, then replaced
                except OSError as exc:
                    raise click.UsageError(f"{output}: cannot write: "
                                           f"{exc.strerror or exc}") from None
                self.created = True
            try:
                self.file = AtomicFile(output, "utf-8")
            except WriteError as exc:
                if self.created:
                    os.unlink(output)
                raise click.UsageError(f"{output}: cannot write: {exc}") from None

    def write(self, record: Record | str) -> None:
        self.write_text(("\n" if self.count else "") + game_text(record))

    def write_text(self, text: str) -> None:
        self.count += 1
        if self.file is not None:
            self.file.write(text)
        else:
            emit(text, nl=False)

    def close(self, keep: bool = True) -> None:
        if self.file is None:
            return
        if keep:
            try:
                self.file.commit()
            except WriteError as exc:
                self.ctx.inputs.input_errors.append(f"{self.output}: error: not written: {exc}")
        else:
            self.file.discard()
            if self.created:  # nothing of ours is left behind
                try:
                    os.unlink(self.output)
                except OSError:
                    pass


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
    for record in each_record(ctx, paths, headers=True):
        if as_json:
            say(json.dumps({"file": record.source, "index": record.index, "game": record.game,
                            "tags": record.tag_dict}))
        else:
            pairs = " ".join(f"{t.key}={quoted(t.value)}"
                             for t in record.tags if hasattr(t, "key"))
            say(f"{record.source}:{record.index}: {pairs}")
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
    if after_ply is not None and not positions:
        raise click.UsageError("--after-ply goes with --position")
    filters = Filters(tag_specs, validity, _plies_range(plies_spec) if plies_spec else None,
                      winners, players, positions, after_ply)
    filters.check()
    with_verdict = as_json and not count_only
    jobs = parallel.default_jobs() if jobs is None else jobs
    if not filters.headers_only and parallel.worth_a_pool(
            list(ctx.inputs.expand_quietly(paths)), jobs):
        task = functools.partial(selected, filters, invert, with_verdict)
        task.needs_events = bool(positions)  # type: ignore[attr-defined]
        answers = parallel.results(ctx.inputs, paths, task, jobs, ctx.fail)
    else:
        how = ({"headers": True} if filters.headers_only and not as_json
               else {"checked": not positions})
        answers = _answers_here(ctx, paths, how, filters, invert, with_verdict)
    sink = None if count_only or as_json else Sink(ctx, output)
    count = 0
    for data in answers:
        if "usage" in data:
            if sink is not None:
                sink.close(keep=False)
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
    if sink is not None:
        sink.close(keep=not ctx.inputs.input_errors)
    if count_only:
        say(json.dumps({"count": count}) if as_json else str(count))
    ctx.finish()


# -- dedupe --------------------------------------------------------------------------------

def game_key(record: Record, symmetric: bool) -> str | None:
    """What two duplicate games share: the game and its canonical events (one frame)."""
    game = game_of(record)
    if game is None or record.game_problem:
        return None
    keys = None
    if not symmetric and hasattr(game, "quick_keys") and not record.items:
        words = quick_words(record)  # a plain game read in headers mode
        keys = game.quick_keys(words) if words is not None else None
    if keys is None:
        if not record.items and record.raw:  # read in headers mode: parse it now
            record = parse(record.raw, record.game, record.source)[0]
        keys = game.event_keys(record)
    if symmetric:
        if not hasattr(game, "symmetric_keys"):
            raise click.UsageError(f"--symmetric: {game.name} has no board symmetries here "
                                   f"(Tilewe has eight)")
        keys = game.symmetric_keys(record)
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
    seen: dict[str, str] = {}  # key -> "file:index" of the original
    sink = None if as_json else Sink(ctx, output)
    dropped = 0
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
                    say(f"{where}: duplicate of {original}", err=True)
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

_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


@click.command()
@click.argument("path", metavar="PATH")
@click.option("--per-file", type=click.IntRange(min=1), metavar="N", help="N games per file.")
@click.option("--by-tag", metavar="KEY", help="One file per value of this tag.")
@click.option("--out-dir", default=".", show_default=True, help="Folder for the pieces.")
@click.option("--prefix", default=None, help="File name prefix (default: the input's name).")
@GAME_OPTION
@ENCODING_OPTION
@color_option
def split(path: str, per_file: int | None, by_tag: str | None, out_dir: str,
          prefix: str | None, game_name: str | None, encoding: str, color: bool | None) -> None:
    """Cut an archive into files of N games, or one file per tag value (games unchanged)."""
    if (per_file is None) == (by_tag is None):
        raise click.UsageError("give exactly one of --per-file N and --by-tag KEY")
    ctx = Context(game_name, encoding, color)
    base = os.path.basename(path) if path != "-" else "stdin"
    stem, ext = os.path.splitext(base)
    stem = prefix or stem
    sinks: dict[str, Sink] = {}
    made: list[str] = []

    def sink_for(name: str) -> Sink:
        if name not in sinks:
            target = os.path.join(out_dir, f"{stem}-{name}{ext}")
            if os.path.exists(target):
                raise click.UsageError(f"{target} exists; not overwritten (remove it first)")
            made.append(target)
            sinks[name] = Sink(ctx, target)
        return sinks[name]

    count = 0
    try:
        for record in each_record(ctx, (path,), headers=True):  # copied as written: no parse
            if per_file is not None:
                name = f"{count // per_file + 1:04d}"
                if count % per_file == 0 and sinks:  # the previous piece is complete
                    for done in list(sinks):
                        sinks.pop(done).close()
            else:
                value = record.tag_dict.get(by_tag, "")
                name = _UNSAFE_NAME.sub("_", value).strip("_") or "none"
            sink_for(name).write(record)
            count += 1
    except BaseException:
        for sink in sinks.values():
            sink.close(keep=False)
        for target in made:
            if os.path.exists(target) and os.path.getsize(target) == 0:
                os.unlink(target)
        raise
    for sink in sinks.values():
        sink.close(keep=not ctx.inputs.input_errors)
    say(f"{plural(count, 'game')} into {plural(len(made), 'file')}", err=True)
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
    sink = Sink(ctx, output)
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
    summaries: dict[str, Summary] = defaultdict(Summary)
    jobs = parallel.default_jobs() if jobs is None else jobs
    if parallel.worth_a_pool(list(ctx.inputs.expand_quietly(paths)), jobs):
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
