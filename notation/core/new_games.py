"""Games made from nothing: a new position at a game's start, and a random record.

Both begin with a record that holds only the set-up (tags, and Sanguine's decks): the
game's rules start from a record, and the record type is the tree's root, which sits
above positions.
"""
from __future__ import annotations

import random
from typing import Any, Mapping, TypeVar, overload

from .ast import EventNode
from .errors import Error, NotationError
from .events import game_named
from .game import AnyGame, Game, snake_case
from .plugins import check_setup, under_names
from .position import Position, started
from .tree import GameNode

EventT = TypeVar("EventT")


@overload
def new(game: Game[Any, EventT], **options: object) -> Position[EventT]: ...
@overload
def new(game: str, **options: object) -> Position[object]: ...


def new(game: str | Game[Any, EventT], **options: object) -> Position[Any]:
    """A new game at its start; ``options`` are the game's tags in snake case
    (``notation.new("tilewe", players=4)``, ``notation.new("sanguine", rows=3, ...)``).
    An option given as None is not given (the game's default), as ``notation random``
    takes it; an option has the name ``random`` gives it (``red_deck=`` is
    ``--red-deck``), and takes its declared aliases as well (``red=``, as ``--red``).

    :raises Error: an unknown game, or a value the game's declared option refuses
        (``players=5`` for Tilewe), naming those it takes.
    """
    chosen = game_named(game)
    options = {name: value for name, value in options.items() if value is not None}
    try:
        options = under_names(chosen.name, chosen.options, options)
        check_setup(chosen.name, chosen.options, options)
    except NotationError as exc:
        raise Error(str(exc)) from None
    setup = chosen.setup(options)
    return started(chosen, GameNode(chosen, setup.tags, setup.items),
                   lambda exc: f"{chosen.name}: option {snake_case(exc.key)}: {exc.message}")


def random_record(game: str | AnyGame, rng: random.Random,
                  options: Mapping[str, Any] | None = None) -> GameNode:
    """A complete random game: the game's random set-up (``options`` as ``notation
    random`` takes them), then its random events from that start.

    :raises NotationError: an option the game refuses, or a set-up it cannot start from.
    """
    chosen = game_named(game)
    setup = chosen.random_setup(rng, options or {})
    record = GameNode(chosen, setup.tags, setup.items)
    record.items = [*setup.items, *(EventNode(e) for e in chosen.random_events(rng, record))]
    return record
