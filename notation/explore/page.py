"""The tree as one self-contained HTML page: no network, no external parts.

Every position of the tree is drawn once in Python (the game's own SVG, from its
position notation, in the frame its moves are written in) and stored as a list of
indexes into one table of distinct SVG parts, so positions that differ in a few cells
share the rest. The data sits in a ``<script>`` element as JSON (``<`` escaped, so no
``</script>`` can form); the page's script browses it.
"""
from __future__ import annotations

from typing import Any

from notation.core import registry
from notation.core.errors import NotationError
from notation.render.pages import PartTable, filled

from .shape import game_tree_json
from .tree import GameTree, OpeningTree


def _picture(tree: GameTree, notation: str, pictures: PartTable) -> list[int] | None:
    """A position's picture (None: the game cannot read its notation back)."""
    game = registry.require(tree.name)
    try:
        state = game.read_position(notation)
        return pictures.add(game.drawing(state).parts())
    except NotationError:
        return None


def page_data(explored: OpeningTree) -> dict[str, Any]:
    """What the page shows: each game's tree (as ``--json`` gives it) with a picture
    for each position, and the table of SVG parts the pictures index."""
    pictures = PartTable()
    trees = []
    for name, tree in explored.trees.items():
        data = dict(game_tree_json(tree), game=name)
        for key, position in data["positions"].items():
            position["picture"] = _picture(tree, tree.positions[key].notation, pictures)
        trees.append(data)
    return {"depth": explored.depth, "symmetric": explored.symmetric,
            "trees": trees, "table": pictures.table}


def page(explored: OpeningTree, title: str = "notation explore") -> str:
    """The explorer page of this tree."""
    return filled("explore.html", dict(page_data(explored), title=title))
