"""``notation random``: random complete legal games (made by :mod:`notation.runner.generate`)."""
from __future__ import annotations

import contextlib
import random
import sys
from typing import Any

import click

from notation.core import registry
from notation.core.errors import NotationError
from notation.runner.generate import FEW_GAMES, Plan, games_made, how_many_jobs

from .common import color_option, emit
from .game_options import WithGameOptions
from .progress import Progress, terminal


@click.command("random", cls=WithGameOptions)
@click.argument("game_name", metavar="GAME",
                shell_complete=lambda ctx, param, incomplete: [
                    n for n in registry.names() if n.startswith(incomplete.lower())])
@click.option("--players", type=click.IntRange(min=1), help="Number of players.")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Random seed (default: a fresh one).")
@click.option("--count", type=click.IntRange(min=1), default=1, show_default=True,
              help="How many games.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, metavar="N",
              help=f"Worker processes (default: the number of cores; fewer than {FEW_GAMES} "
                   f"games use one). The games are the same whatever N.")
@color_option
def random_games(game_name: str, players: int | None, seed: int | None, count: int,
                 jobs: int | None, color: bool | None, game_options: dict[str, Any]) -> None:
    """Print random complete legal games, in canonical form, each as soon as it is made.

    Every game carries its result tags, [Seed] and [Round] (its number in the run): game R
    of a run is game R of any run with the same seed and options, whatever --jobs.
    """
    if registry.get(game_name) is None:
        known = ", ".join(registry.names())
        raise click.UsageError(f"unknown game {game_name!r}; known games: {known}")
    seed = random.SystemRandom().randrange(2**32) if seed is None else seed
    plan = Plan(game_name, seed, {"players": players, **game_options})
    bar = Progress(None, "playing", goal=count) if count > 1 and terminal(sys.stderr) else None
    games = games_made(plan, count, how_many_jobs(jobs, count))
    try:
        with contextlib.closing(games):  # an early end stops the workers at once
            for n, text in enumerate(games):
                emit(("\n" if n else "") + text, nl=False)
                if bar is not None:
                    bar.count()
    except NotationError as exc:
        raise click.UsageError(str(exc)) from None
    finally:
        if bar is not None:
            bar.close()
