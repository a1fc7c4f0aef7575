"""Commands that replay records: ``validate``, ``replay`` and ``legal``."""
from __future__ import annotations

import json
from typing import Any

import click

from notation.core.batch import check_game, replay_game
from notation.core.errors import NotationError
from notation.core.output import every_json, replay_json
from notation.core.replay import positions, run

from .common import (
    ENCODING_OPTION, GAME_OPTION, JOBS_OPTION, PATHS, Context, color_option, complete_perspective,
    plural, say, shown,
)
from . import parallel
from .progress import Tally, watch


@click.command()
@PATHS
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object per game: file, index, game, valid, plies, errors, tags, result.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the problems.")
@JOBS_OPTION
@click.option("--scheduler", metavar="ADDRESS",
              help="Validate on a Dask cluster (tcp://HOST:8786); needs notation[dask].")
@GAME_OPTION
@ENCODING_OPTION
@color_option
def validate(paths: tuple[str, ...], as_json: bool, quiet: bool, jobs: int | None,
             scheduler: str | None, game_name: str | None, encoding: str,
             color: bool | None) -> None:
    """Check every game of every record file against its rules."""
    ctx = Context(game_name, encoding, color)
    tally = Tally(watch(ctx, paths, not (quiet or as_json)))

    def show(data: dict) -> None:
        tally.count(data["valid"], data["plies"])
        ctx.invalid |= not data["valid"]
        if "internal" in data:
            ctx.report_data(data, {"kind": "internal", "line": data["line"],
                                   "column": data["column"], "ply": 0, "event": None,
                                   "message": data["internal"], "rule": None})
            return
        ctx.internal |= any(p["kind"] == "internal" for p in data["errors"])
        if as_json:
            say(json.dumps({k: data[k] for k in ("file", "index", "game", "valid", "plies",
                                                 "errors", "tags", "result")}))
        elif data["valid"]:
            if not quiet:
                say(f"{shown(data['file'])}: game {data['index']}: ok, "
                    f"{plural(data['plies'], 'ply', 'plies')}")
        else:
            for problem in data["errors"]:
                ctx.report_data(data, problem)

    asked, jobs = jobs, parallel.default_jobs() if jobs is None else jobs
    if scheduler:
        for data in parallel.cluster_results(ctx.inputs, paths, scheduler, ctx.fail):
            show(data)
    elif parallel.worth_a_pool(list(ctx.inputs.expand_quietly(paths)), asked):
        for data in parallel.results(ctx.inputs, paths, check_game, jobs, ctx.fail):
            show(data)
    else:
        for records in ctx.inputs.read(paths, checked=True):
            for record in records:
                with ctx.guard(record):
                    show(check_game(record))
    if quiet:  # only the problems
        tally.close()
    else:
        tally.summary()
    ctx.finish()


@click.command()
@PATHS
@click.option("--ply", type=click.IntRange(min=0), help="Show the state after this ply (default: the end).")
@click.option("--every", is_flag=True, help="Show the state after every ply (with --json: an "
              "\"every\" list, ply 0 the start).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per game (the replay contract).")
@color_option
@click.option("--perspective", shell_complete=complete_perspective,
              help="Flows: draw the board from P1..P6 or side:K.")
@click.option("--view", "view_name", type=click.Choice(["basic", "full"]),
              help="Sanguine: the basic view or the full state (default).")
@JOBS_OPTION
@GAME_OPTION
@ENCODING_OPTION
def replay(paths: tuple[str, ...], ply: int | None, every: bool, as_json: bool,
           color: bool | None, perspective: str | None, view_name: str | None,
           jobs: int | None, game_name: str | None, encoding: str) -> None:
    """Replay records and show the board after a ply, after every ply, or at the end."""
    ctx = Context(game_name, encoding, color)
    asked, jobs = jobs, parallel.default_jobs() if jobs is None else jobs
    if as_json and ply is None and not every and parallel.worth_a_pool(
            list(ctx.inputs.expand_quietly(paths)), asked):
        tally = Tally(watch(ctx, paths, True))
        for data in parallel.results(ctx.inputs, paths, replay_game, jobs, ctx.fail):
            tally.count(data["valid"], data["plies"])
            ctx.invalid |= not data["valid"]
            say(json.dumps(data))
        tally.summary()
        ctx.finish()
    view = {k: v for k, v in {"perspective": perspective, "view": view_name}.items()
            if v is not None}

    def draw(game: Any, state: Any) -> None:
        try:
            picture = game.render(state, ctx.color, **view)
        except NotationError as exc:
            raise click.UsageError(str(exc)) from None
        say(picture, color=ctx.color, raw=True)  # drawn by the engine, not the record

    tally = Tally(watch(ctx, paths, True))
    for records in ctx.inputs.read(paths, checked=as_json and ply is None and not every):
        for record in records:
            with ctx.guard(record):
                outcome = run(record, ply)
                tally.count(outcome.valid, outcome.plies)
                ctx.invalid |= not outcome.valid
                if as_json:
                    data = replay_json(outcome)
                    if every:
                        data["every"] = every_json(outcome)
                    say(json.dumps(data))
                    continue
                game = outcome.game
                say(f"{shown(record.source)}: game {record.index}"
                    + (f" ({game.name})" if game else ""))
                if game is not None and every and outcome.state is not None:
                    # the problems are reported below; the steps stop before the first
                    for step, event, state in positions(outcome):
                        say(f"\nafter ply {step} ({game.format_event(event)}):" if step
                            else "start:")
                        draw(game, state)
                elif game is not None and outcome.state is not None:
                    note = ""
                    if ply is not None and outcome.plies < ply and outcome.valid:
                        note = f" (the record has only {plural(outcome.plies, 'ply', 'plies')})"
                    say(f"after ply {outcome.plies}{note}:")
                    draw(game, outcome.state)
                for problem in outcome.problems:
                    ctx.report(record, problem)
    tally.summary()
    ctx.finish()


@click.command()
@click.argument("path", metavar="PATH")
@click.option("--ply", type=click.IntRange(min=0), help="After this ply (default: the end).")
@click.option("--count", is_flag=True, help="Print only how many legal moves there are.")
@click.option("--tile", type=click.IntRange(0, 3), help="Flows: the drawn tile type (default: each in the bag).")
@GAME_OPTION
@ENCODING_OPTION
@color_option
def legal(path: str, ply: int | None, count: bool, tile: int | None, game_name: str | None,
          encoding: str, color: bool | None) -> None:
    """List the legal moves of the player to move."""
    ctx = Context(game_name, encoding, color)
    options = {} if tile is None else {"tile": tile}
    for records in ctx.inputs.read((path,)):
        for record in records:
            with ctx.guard(record):
                outcome = run(record, ply)
                if not outcome.valid:
                    ctx.invalid = True
                    for problem in outcome.problems:
                        ctx.report(record, problem)
                    continue
                game, state = outcome.game, outcome.state
                try:
                    moves = game.legal_moves(state, **options)
                except NotationError as exc:
                    raise click.UsageError(str(exc)) from None
                who = game.to_move(state)
                say(f"{shown(record.source)}: game {record.index}, after ply {outcome.plies}: "
                    + (f"{who} to move, {plural(len(moves), 'legal move')}" if who else
                       "the game is over, no legal moves"))
                if not count and moves:
                    words = [game.format_event(m) for m in moves]
                    for i in range(0, len(words), 8):
                        say("  " + " ".join(words[i:i + 8]))
    ctx.finish()
