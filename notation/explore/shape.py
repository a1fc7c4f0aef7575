"""The tree as JSON (``explore --json``), one object:

``{"depth": N, "symmetric": bool, "games": VALID, "invalid": INVALID, "trees": {GAME: TREE}}``

where each ``TREE`` (one per game name, in the order first met) is
``{"games": N, "roots": [KEY...], "positions": {KEY: POSITION}}`` and each ``POSITION``
(keyed by its position key, ``notation.tables.keys``; in the order first met) is
``{"position": NOTATION, "ply": N, "games": N, "ended": N, "cut": N, "results": RESULTS,
"moves": [MOVE...]}``. ``ended``: games that ended there; ``cut``: games that went on past
the depth bound; the games of its moves are the rest. Each ``MOVE`` (most played first)
is ``{"move": TEXT, "games": N, "next": KEY, "results": RESULTS}``, and ``RESULTS`` is
``{SEAT: {"wins", "shared", "losses", "no_winner", "unfinished": N, "mean_score": X|null}}``
with the seats in the game's own words (``blue``, ``P2``, ``red``), in seat order.
"""
from __future__ import annotations

from typing import Any

from .tree import GameTree, OpeningTree, PositionEntry


def position_json(entry: PositionEntry) -> dict[str, Any]:
    return {"position": entry.notation, "ply": entry.ply, "games": entry.games,
            "ended": entry.ended, "cut": entry.cut, "results": entry.results.as_json(),
            "moves": [{"move": m.text, "games": m.games, "next": m.next_key,
                       "results": m.results.as_json()} for m in entry.sorted_moves()]}


def game_tree_json(tree: GameTree) -> dict[str, Any]:
    return {"games": tree.games, "roots": list(tree.roots),
            "positions": {key: position_json(p) for key, p in tree.positions.items()}}


def tree_json(explored: OpeningTree) -> dict[str, Any]:
    """The whole tree in the shape of the module's docstring."""
    return {"depth": explored.depth, "symmetric": explored.symmetric,
            "games": explored.games, "invalid": explored.invalid,
            "trees": {name: game_tree_json(tree) for name, tree in explored.trees.items()}}
