"""A game's opening as the explorer files it: its first ``depth`` plies played again, the
position after each, and who was to move before each of the mainline's events.

Only the opening is played (the full replay that judged the game is done already): a
game of hundreds of plies costs the explorer ``depth`` of them, and the positions past
the depth are never made. Who moved past the depth is needed only by a game that
cannot name its seats (``Game.seats``), so the movers play on from the depth lazily,
as far as they are read.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

from notation.core.tree import GameNode
from notation.core.ast import EventNode
from notation.core.game import AnyGame

from .frames import Place, place_of


@dataclass(slots=True)
class Opening:
    """``places``: the positions at plies 0 to the depth (or the game's end, if sooner);
    ``events``: the events between them (``events[p]`` is played from ``places[p]``), each
    in the one spelling ``fmt --canonical`` writes (``Game.canonical_event``: Tilewe's
    spellings of one placement show as one);
    ``movers``: who was to move before each event of the mainline, in order."""

    places: list[Place]
    events: list[Any]
    movers: Iterator[str | None]


def opening(game: AnyGame, record: GameNode, depth: int, symmetric: bool) -> Opening:
    """The opening of a valid game's mainline (variations are not games played)."""
    mainline = (item.event for item in record.items if isinstance(item, EventNode))
    state = game.start(record)  # a state of its own: the replay's is the game's end
    places = [place_of(game, state, symmetric)]
    events: list[Any] = []
    movers: list[str | None] = []
    for event in itertools.islice(mainline, depth):
        movers.append(game.to_move(state))
        events.append(game.canonical_event(state, event))  # from the position it is played in
        game.apply(state, event)
        places.append(place_of(game, state, symmetric))
    return Opening(places, events, itertools.chain(movers, _played_on(game, state, mainline)))


def _played_on(game: AnyGame, state: Any, events: Iterable[Any]) -> Iterator[str | None]:
    """Who moves before each of ``events``, played on ``state`` one by one as asked."""
    for event in events:
        yield game.to_move(state)
        game.apply(state, event)
