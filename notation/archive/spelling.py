"""Every move of a record in its one canonical spelling (``fmt --canonical``).

A game may spell one move several ways (Tilewe: by any contact tile of the placement);
``Game.canonical_event`` picks one, from the position the move is played in. So every
line is replayed, variations too, each from the position before the move it replaces.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from notation.core.tree import GameNode
from notation.core.ast import EventNode, Item, Variation, branch_points
from notation.core.game import AnyGame
from notation.core.replay import game_of


def canonical_spellings(record: GameNode) -> GameNode:
    """``record`` with each move in its game's canonical spelling (it must have no
    problem: every line is replayed); comments, annotations and numbers kept."""
    game = game_of(record)
    if game is None:
        return record
    return record.rewritten(_line(game, game.start(record), record.items))


def _line(game: AnyGame, state: Any, items: list[Item]) -> list[Item]:
    """One line played from ``state`` (which it changes), its variations each from a copy
    of the state before the move they replace."""
    out: list[Item] = []
    before: Any = None
    branching = branch_points(items)
    for at, item in enumerate(items):
        if isinstance(item, EventNode):
            before = game.copy(state) if at in branching else None
            event = game.canonical_event(state, item.event)
            game.apply(state, event)
            item = replace(item, event=event, text=game.format_event(event))
        elif isinstance(item, Variation):
            item = replace(item, items=_line(game, game.copy(before), item.items))
        out.append(item)
    return out
