"""``notation random``: random complete legal games from each engine's own move generator."""
from __future__ import annotations

import random
import sys

from typing import Any

import click

from notation.core import registry
from notation.core.ast import Tag
from notation.core.errors import NotationError
from notation.core.results import with_result_tags
from notation.core.writer import format_record

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
@color_option
def random_games(game_name: str, players: int | None, seed: int | None, count: int,
                 color: bool | None, game_options: dict[str, Any]) -> None:
    """Print random complete legal games, in canonical form, each as soon as it is made.

    Every game carries its result tags, [Seed] and [Round] (its number in the run).
    """
    game = registry.get(game_name)
    if game is None:
        known = ", ".join(registry.names())
        raise click.UsageError(f"unknown game {game_name!r}; known games: {known}")
    seed = random.SystemRandom().randrange(2**32) if seed is None else seed
    options = {"players": players, **game_options}
    rng = random.Random(seed)
    bar = Progress(None, "playing", goal=count) if count > 1 and terminal(sys.stderr) else None
    for n in range(count):
        try:
            record = game.random_record(rng, options)
        except NotationError as exc:
            raise click.UsageError(str(exc)) from None
        record.tags += [Tag("Seed", str(seed)), Tag("Round", str(n + 1))]
        record, outcome = with_result_tags(record)
        if outcome.error is not None:  # the generator broke its own rules: a bug of ours
            raise RuntimeError(f"random game {n + 1} is not valid: {outcome.error.describe()}")
        emit(("\n" if n else "") + format_record(record, game), nl=False)
        if bar is not None:
            bar.count()
    if bar is not None:
        bar.close()
