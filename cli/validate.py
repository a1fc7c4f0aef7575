"""``validate``: every game of every record file checked against its rules.

Apart from ``replay`` on purpose: a check loads what a verdict needs and nothing it
does not (no pictures, no JSON of positions, no runner for a one-process run).
"""
from __future__ import annotations

import json

import click

from notation.core.errors import ProblemKind
from notation.core.hand_dataclass import hand_dataclass
from notation.core.outcome import Outcome
from notation.core.replay import run

from . import parallel
from .common import JOBS_OPTION, PATHS, Context, color_option, plural, reading_options, say, shown
from .progress import Tally, watch


@hand_dataclass()
class Verdicts:
    """How ``validate`` shows each game's verdict, and the run's tally."""

    ctx: Context
    tally: Tally
    as_json: bool
    quiet: bool

    def __init__(self, ctx: Context, tally: Tally, as_json: bool, quiet: bool) -> None:
        self.ctx = ctx
        self.tally = tally
        self.as_json = as_json
        self.quiet = quiet

    def show(self, outcome: Outcome) -> None:
        ctx = self.ctx
        valid = outcome.valid
        self.tally.count(valid, outcome.plies)
        if not valid:
            ctx.invalid = True
            ctx.internal |= any(p.kind == ProblemKind.INTERNAL for p in outcome.problems)
        if self.as_json:
            say(json.dumps(outcome.verdict_json()))
        elif not valid:
            ctx.report_outcome(outcome)
        elif not self.quiet:
            say(f"{shown(outcome.file)}: game {outcome.index}: ok, "
                f"{plural(outcome.plies, 'ply', 'plies')}")

    def here(self, paths: tuple[str, ...]) -> None:
        """Every game checked in this process (a bug of ours: that game's error)."""
        for records in self.ctx.inputs.read(paths, checked=True):
            for record in records:
                with self.ctx.guard(record):
                    self.show(run(record))


@click.command()
@PATHS
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object per game: file, index, game, valid, plies, errors, tags, result.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the problems.")
@JOBS_OPTION
@parallel.cluster_options
@reading_options
@color_option
def validate(paths: tuple[str, ...], as_json: bool, quiet: bool, jobs: int | None,
             scheduler: str | None, worker_timeout: float, game_name: str | None, encoding: str,
             color: bool | None) -> None:
    ctx = Context(game_name, encoding, color)
    verdicts = Verdicts(ctx, Tally(watch(ctx, paths, not (quiet or as_json))), as_json, quiet)
    # (without --json, workers send a valid game's verdict alone: its tags and result
    # are not shown)
    elsewhere = parallel.elsewhere(ctx, paths, "validate" if as_json else "verdicts", jobs,
                                   scheduler, worker_timeout)
    if elsewhere is not None:
        for outcome in elsewhere:
            verdicts.show(outcome)
    else:
        verdicts.here(paths)
    if quiet:  # only the problems
        verdicts.tally.close()
    else:
        verdicts.tally.summary()
    ctx.finish()
