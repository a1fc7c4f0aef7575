"""``notation random``: random complete legal games (made by :mod:`notation.parallel.generate`)."""
from __future__ import annotations

import contextlib
import random
import sys
from typing import Any

import click

from notation.core import registry
from notation.core.errors import NotationError
from notation.parallel.generate import FEW_GAMES, Plan, games_made, how_many_jobs

from .archive import OUTPUT_OPTION, Sink
from .common import Context, color_option
from .game_options import WithGameOptions, check_for
from .progress import Progress, terminal


@click.command("random", cls=WithGameOptions)
@click.argument("game_name", metavar="GAME",
                shell_complete=lambda ctx, param, incomplete: [
                    n for n in registry.names() if n.startswith(incomplete.lower())])
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Random seed (default: a fresh one).")
@click.option("--count", type=click.IntRange(min=1), default=1, show_default=True,
              help="How many games.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, metavar="N",
              help=f"Worker processes (default: the number of cores; fewer than {FEW_GAMES} "
                   f"games use one); never more than the cores nor than the games. The "
                   f"games are the same whatever N.")
@OUTPUT_OPTION
@color_option
def random_games(game_name: str, seed: int | None, count: int, jobs: int | None,
                 output: str | None, color: bool | None, game_options: dict[str, Any]) -> None:
    """Each game is in canonical form, printed as soon as it is made.

    Every game carries its result tags, [Seed] and [Round] (its number in the run): game R
    of a run is game R of any run with the same seed and options, whatever --jobs. The
    options below are the games' own set-ups (each game takes those that name it); a
    game's options set the tags its records start from, as notation.new takes them.
    """
    game = registry.get(game_name)
    if game is None:
        known = ", ".join(registry.names())
        raise click.UsageError(f"unknown game {game_name!r}; known games: {known}")
    check_for(game, "random", game_options)
    seed = random.SystemRandom().randrange(2**32) if seed is None else seed
    plan = Plan(game.name, seed, game_options)
    ctx = Context(None, "utf-8", color)
    bar = Progress(None, "playing", goal=count) if count > 1 and terminal(sys.stderr) else None
    games = games_made(plan, count, how_many_jobs(jobs, count))
    try:
        with contextlib.closing(games), Sink(ctx, output) as sink:  # an early end: no file
            for n, text in enumerate(games):
                sink.write_text(("\n" if n else "") + text)
                if bar is not None:
                    bar.count()
            sink.close(keep=True)
    except NotationError as exc:
        raise click.UsageError(str(exc)) from None
    finally:
        if bar is not None:
            bar.close()
    ctx.finish()
