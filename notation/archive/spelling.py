"""Every move of a record in its one canonical spelling (``fmt --canonical``).

A game may spell one move several ways (Tilewe: by any contact tile of the placement);
``Game.canonical_event`` picks one, from the position the move is played in. So every
line is replayed, variations too, each from the position before the move it replaces.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from notation.core.ast import EventNode, Item, Variation
from notation.core.game import AnyGame
from notation.core.replay import game_of
from notation.core.replayer import Line, Replayer
from notation.core.tree import GameNode


class _Spelling(Replayer):
    """The one replay, noting each event's canonical spelling from the position it is
    played in (variations from the position before the move they replace)."""

    def __init__(self, game: AnyGame) -> None:
        super().__init__(game)
        self.spelled: dict[int, Any] = {}  # by the event node (its id: nodes are not hashed)

    def before_event(self, line: Line, ply: int, node: EventNode, state: Any) -> None:
        self.spelled[id(node)] = self.game.canonical_event(state, node.event)


def canonical_spellings(record: GameNode) -> GameNode:
    """``record`` with each move in its game's canonical spelling (it must have no
    problem: every line is replayed); comments, annotations and numbers kept."""
    game = game_of(record)
    if game is None:
        return record
    items = record.items
    spelling = _Spelling(game)
    for _ in spelling.play(Line(items, game.start(record))):
        pass
    return record.rewritten(_respelled(game, items, spelling.spelled))


def _respelled(game: AnyGame, items: list[Item], spelled: dict[int, Any]) -> list[Item]:
    out: list[Item] = []
    for item in items:
        event = spelled.get(id(item)) if isinstance(item, EventNode) else None
        if isinstance(item, EventNode) and event is not None:
            item = replace(item, event=event, text=game.format_event(event))
        elif isinstance(item, Variation):
            item = replace(item, items=_respelled(game, item.items, spelled))
        out.append(item)
    return out
