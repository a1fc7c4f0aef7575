"""``render``: a position as SVG, or records as a self-contained HTML replay viewer."""
from __future__ import annotations

from typing import Any, Iterable

import click

from notation.core.errors import NotationError
from notation.core.replay import run

from .archive import OUTPUT_OPTION, Sink
from .common import (ENCODING_OPTION, GAME_OPTION, Context, color_option, complete_perspective,
                     plural, warn)


@click.command()
@click.argument("path", metavar="PATH")
@click.option("--ply", type=click.IntRange(min=0),
              help="The position after this ply (default: the end, or before the first error).")
@click.option("--index", "game_index", type=click.IntRange(min=1), default=1, show_default=True,
              help="Which game of the file to draw (SVG; the HTML viewer has them all).")
@click.option("--perspective", shell_complete=complete_perspective,
              help="Flows: P1..P6 or side:K; Sanguine: red or blue.")
@click.option("--html", "as_html", is_flag=True,
              help="One self-contained HTML page to step through every game of the file.")
@OUTPUT_OPTION
@GAME_OPTION
@ENCODING_OPTION
@color_option
def render(path: str, ply: int | None, game_index: int, perspective: str | None,
           as_html: bool, output: str | None, game_name: str | None, encoding: str,
           color: bool | None) -> None:
    """Draw a position as SVG (stdout, or -o FILE.svg), or the file as an HTML viewer.

    An invalid record is drawn as it stands before its first error; the
    error is reported as everywhere (exit 1).
    """
    ctx = Context(game_name, encoding, color)
    options: dict[str, Any] = {} if perspective is None else {"perspective": perspective}
    if as_html and (ply is not None or game_index != 1):
        raise click.UsageError("--ply and --index are for SVG; the viewer has every ply")
    records = (r for group in ctx.inputs.read((path,)) for r in group)
    if as_html:
        _html(ctx, records, path, options, output)
    else:
        seen = 0
        for record in records:  # read only as far as the game wanted
            seen += 1
            if seen == game_index:
                _svg(ctx, record, ply, options, output)
                break
        else:
            if not ctx.inputs.input_errors:
                raise click.UsageError(f"--index {game_index}: {path} has "
                                       f"{plural(seen, 'game')}" if seen else
                                       f"{path}: no games to draw")
    ctx.finish()


def _svg(ctx: Context, record: Any, ply: int | None, options: dict[str, Any],
         output: str | None) -> None:
    picture = None
    with ctx.guard(record):
        outcome = run(record, ply)
        for problem in outcome.problems:
            ctx.report(record, problem, err=True)
        ctx.invalid |= not outcome.valid
        if outcome.game is None or outcome.state is None:
            return  # nothing to draw; the problems say why
        if ply is not None and outcome.plies < ply and outcome.valid:
            warn(f"{record.source}: warning: game {record.index} has only "
                 f"{plural(outcome.plies, 'ply', 'plies')}; drawing its end")
        try:
            picture = outcome.game.svg(outcome.state, **options)
        except NotationError as exc:
            raise click.UsageError(str(exc)) from None
    if picture is not None:
        _write(ctx, picture + "\n", output)


def _html(ctx: Context, records: Iterable[Any], path: str, options: dict[str, Any],
          output: str | None) -> None:
    from notation.viewer import game_data, page
    games = []
    for record in records:
        with ctx.guard(record):
            outcome = run(record)
            for problem in outcome.problems:
                ctx.report(record, problem, err=True)
            ctx.invalid |= not outcome.valid
            try:
                games.append(game_data(record, outcome, **options))
            except NotationError as exc:
                raise click.UsageError(str(exc)) from None
    if ctx.inputs.input_errors:
        return  # said by ctx.finish(); nothing is written
    if not games:
        raise click.UsageError(f"{path}: no games to draw")
    _write(ctx, page(games, title=path), output)


def _write(ctx: Context, text: str, output: str | None) -> None:
    sink = Sink(ctx, output)
    sink.write_text(text)
    sink.close(keep=True)
