"""``referee``: bots play each other, every game checked and recorded (the logic is
:mod:`notation.engine.match`)."""
from __future__ import annotations

import random
import sys
from typing import Any

import click

from notation.core import registry

from .game_options import WithGameOptions, check_for


@click.command("referee", cls=WithGameOptions)
@click.argument("game_name", metavar="GAME",
                shell_complete=lambda ctx, param, incomplete: [
                    n for n in registry.names() if n.startswith(incomplete.lower())])
@click.option("--seat", "commands", multiple=True, required=True, metavar="CMD",
              help="A bot's command, one --seat a seat (2 to 6 as the game allows); seats "
                   "rotate one place from game to game.")
@click.option("--games", type=click.IntRange(min=1), default=1, show_default=True,
              help="How many games.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              metavar="N", help="Games played at once.")
@click.option("--move-time", type=click.FloatRange(min=0, min_open=True), default=10.0,
              show_default=True, metavar="S",
              help="Seconds a bot has for each answer; more is a time forfeit.")
@click.option("--max-plies", type=click.IntRange(min=1), default=1000, show_default=True,
              metavar="N", help="A game still going after N plies is adjourned.")
@click.option("--seed", default=None, help="Seed of chance's draws, deals and rolls "
                                           "(default: a fresh one).")
@click.option("--output", "-o", "archive", required=True, metavar="ARCHIVE",
              help="The record file each finished game is added to (made if missing).")
@click.option("--results", "results", default=None, metavar="FILE.json",
              help="Each game and each bot's figures, as JSON, rewritten after each game.")
def referee(game_name: str, commands: tuple[str, ...], games: int, jobs: int, move_time: float,
            max_plies: int, seed: str | None, archive: str, results: str | None,
            game_options: dict[str, Any]) -> None:
    """Play GAME between the --seat bots: the referee keeps the only authoritative
    position, plays chance from --seed, and checks every event a bot sends with the
    rules validate applies. A bot that answers an illegal event, garbage or nothing in
    time, or stops, forfeits its game; the record says who and why ([Forfeit],
    [Termination], a comment), and the other games go on. Each finished game is added to
    ARCHIVE whole, at once. The bots speak the engine protocol (notation engine), or
    Pentobi's for a four-colour tilewe game. Exit status 0 when every game ended on the
    board, 1 when any was forfeited or adjourned."""
    from notation.core.errors import Error, WriteError
    from notation.engine.match import Match
    from notation.engine.referee import NORMAL, seat_count_options
    game = registry.get(game_name)
    if game is None:
        known = ", ".join(registry.names())
        raise click.UsageError(f"unknown game {game_name!r}; known games: {known}")
    check_for(game, "referee", game_options)
    if archive == results:
        raise click.UsageError("--results and --output name the same file")
    try:
        start = seat_count_options(game.name, len(commands), game_options)
        game.opening(start.state, len(commands))
    except (Error, ValueError) as exc:
        raise click.UsageError(f"{game.name} with {len(commands)} seats: {exc}") from None
    chosen_seed: int | str = random.SystemRandom().randrange(2**32) if seed is None else seed
    shown = sys.stderr.isatty()

    def said(played: Any, done: int) -> None:
        if shown:
            how = ", ".join(played.winners) or "no winner"
            click.echo(f"game {played.index} ({done}/{games}): {how} ({played.termination})",
                       err=True)

    match = Match(game.name, list(commands), archive, games=games, jobs=jobs,
                  options=dict(game_options), seed=chosen_seed, move_time=move_time,
                  max_plies=max_plies, results_path=results, on_game=said)
    try:
        played = match.run()
    except WriteError as exc:  # (an I/O error: said in one line, status 2)
        click.echo(str(exc), err=True)
        sys.exit(2)
    except Error as exc:
        raise click.ClickException(str(exc)) from None
    if any(each.termination != NORMAL for each in played):
        sys.exit(1)
