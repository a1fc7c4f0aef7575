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
from notation.core.replayer import Line, Replayer

from .frames import Place, place_of, places_of


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


class _Opening(Replayer):
    """The one replay along the mainline (variations are not games played), noting who
    moves before each event and, to the depth, its canonical spelling."""

    def __init__(self, game: AnyGame, depth: int) -> None:
        super().__init__(game, variations=False)
        self.depth = depth
        self.mover: str | None = None
        self.events: list[Any] = []

    def before_event(self, line: Line, ply: int, node: EventNode, state: Any) -> None:
        self.mover = self.game.to_move(state)
        if ply <= self.depth:  # from the position it is played in
            self.events.append(self.game.canonical_event(state, node.event))


def opening(game: AnyGame, record: GameNode, depth: int, symmetric: bool) -> Opening:
    """The opening of a valid game's mainline."""
    state = game.start(record)  # a state of its own: the replay's is the game's end
    places = [place_of(game, state, symmetric)]
    replayer = _Opening(game, depth)
    steps = replayer.play(Line(record.items, state))
    movers: list[str | None] = []
    for _ply, _node, after in itertools.islice(steps, depth):
        movers.append(replayer.mover)
        places.append(place_of(game, after, symmetric))
    rest = (replayer.mover for _ in steps)  # played on from the depth as far as read
    return Opening(places, replayer.events, itertools.chain(movers, rest))


def plain_opening(game: AnyGame, start: GameNode, events: Iterable[Any], depth: int,
                  symmetric: bool) -> Opening:
    """:func:`opening` of a plain game read in headers mode (``start``: its tags and
    directives, ``events``: its events, the game already judged valid, read as far as
    they are played here): the same opening, its events played here with no tree (a
    test holds the two equal)."""
    state = game.start(start)
    events = iter(events)
    places, spelled, movers = played_opening(game, state, itertools.islice(events, depth),
                                             symmetric)

    def rest() -> Iterator[str | None]:  # played on from the depth as far as read
        for event in events:
            yield game.to_move(state)
            game.apply(state, event)

    return Opening(places, spelled, itertools.chain(movers, rest()))


def played_opening(game: AnyGame, state: Any, events: Iterable[Any], symmetric: bool
                   ) -> tuple[list[Place], list[Any], list[str | None]]:
    """``events`` (an opening's) played on ``state``, which they change: the places
    before and after each, the events in canonical spelling, and who moved each. A rule
    broken raises as ``Game.apply`` does."""
    texts = [game.full_position(state)]
    spelled: list[Any] = []
    movers: list[str | None] = []
    for event in events:
        movers.append(game.to_move(state))
        spelled.append(game.canonical_event(state, event))
        game.apply(state, event)
        texts.append(game.full_position(state))
    return places_of(game, texts, symmetric), spelled, movers
