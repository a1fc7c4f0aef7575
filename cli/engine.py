"""``engine``: a bot on standard input and output, speaking the engine protocol (the
logic is :mod:`notation.engine`)."""
from __future__ import annotations

import sys

import click

from notation.core import registry


@click.command()
@click.argument("game")
@click.option("--bot", type=click.Choice(["random", "greedy"]), default="random",
              show_default=True, help="random: any legal event; greedy: the event after "
                                      "which the mover's own score is highest.")
@click.option("--seed", type=int, default=None, help="Seed of the bot's choices.")
def engine(game: str, bot: str, seed: int | None) -> None:
    """Commands on standard input, one a line (GTP's shape: protocol_version, name,
    version, list_commands, known_command, quit, game, clear_board, play SEAT EVENT,
    genmove SEAT, undo, showboard, position, final_score); replies on standard output,
    '= ...' or '? why', each ended by a blank line. The seat 'chance' plays draws,
    deals and rolls. See the handbook's protocol page."""
    from notation.engine.session import EngineSession
    if registry.get(game) is None:
        raise click.UsageError(f"unknown game {game!r}; known: {', '.join(registry.names())}")
    EngineSession(game, bot, seed).serve(sys.stdin.buffer, sys.stdout.buffer)
