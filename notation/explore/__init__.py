"""The opening explorer: an archive's games as a tree of positions and the moves played
from them, with results per seat (``notation explore``).

:mod:`.tree` builds it, :mod:`.seats` and :mod:`.tally` count results seat by seat,
:mod:`.frames` files positions (and folds Tilewe's symmetries), and :mod:`.text`,
:mod:`.shape` and :mod:`.page` write it for people, as JSON, and as an HTML page.
"""
from .page import page, page_data
from .shape import tree_json
from .text import tree_lines
from .tree import DEFAULT_DEPTH, Filing, OpeningTree, explored_game, filing

__all__ = ["DEFAULT_DEPTH", "Filing", "OpeningTree", "explored_game", "filing", "page",
           "page_data", "tree_json", "tree_lines"]
