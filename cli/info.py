"""``notation games`` and ``notation coords``: what the toolkit knows, without a record."""
from __future__ import annotations

import click

from notation.core import registry
from notation.core.game import needed
from notation.core.errors import NotationError

from .common import color_option, say


@click.command()
@color_option
def games(color: bool | None) -> None:
    for game in registry.games():
        say(f"{game.name}  ({' '.join(game.extensions)})  {game.title}")
        for key, meaning in game.tags.items():
            say(f"    [{key}]  {meaning}")


@click.command()
@click.argument("coord", metavar="COORD")
@click.option("--to", "to", required=True, help="P1..P6, side:K or internal.")
@click.option("--seats", help='Each player\'s side in turn order, as in the [Seats] tag ("0 3").')
@click.option("--players", type=click.IntRange(2, 6), help="Number of players (default: from --seats, else 2).")
@click.option("--game", "game_name", default="flows", show_default=True, metavar="GAME")
@color_option
def coords(coord: str, to: str, seats: str | None, players: int | None, game_name: str,
           color: bool | None) -> None:
    """P2A4 --to P1 prints P1G4."""
    game = registry.get(game_name)
    if game is None:
        raise click.UsageError(f"unknown game {game_name!r}; known games: "
                               f"{', '.join(registry.names())}")
    needed(game, "coordinates", "coords")
    try:
        say(game.convert_coordinate(coord, to, {"seats": seats, "players": players}))
    except (NotationError, ValueError) as exc:
        raise click.UsageError(str(exc)) from None
