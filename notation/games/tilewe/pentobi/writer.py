"""A Tilewe record (its tree, comments and glyphs) written as a Pentobi file.

The variant is the one the record's colours and players make: four colours each its own
player ``Blokus``; ``[Owners "1 2 1 2"]`` ``Blokus Two-Player``; ``[Owners "1 2 3 shared"]``
``Blokus Three-Player``. What Pentobi cannot hold is refused with the reason, never written
wrong: fewer than four colours, other owners, a set-up ``[Position]``, a colour's first
piece off its own corner (blue a20, yellow t20, red t1, green a1), an illegal move, a
``$N`` annotation other than the six glyphs (or two of one property on a move).

Moves are ``1``-``4`` with the cells sorted a1, b1, ..., a2, ...; comments ``C[]`` (comment
commands kept in their text); a comment before a variation's first move is a node of its
own before it (SGF nodes hold a move and the words after it).
"""
from __future__ import annotations

from notation.core.tree import GameNode
from notation.core.ast import GLYPH_OF, Comment
from notation.core.errors import NotationError, RuleError
from notation.core.tree import GameNode, Node
from notation.core.writer import check_nesting

from .. import blokus, rules
from ..state import Board
from .cells import cells_of
from ..state import COLORS
from .reader import ROOT_TAGS
from .sgf import escape

#: Owners -> the variant's GM.
GM_OF: dict[tuple[int, ...], str] = {(1, 2, 3, 4): "Blokus", (1, 2, 1, 2): "Blokus Two-Player",
         (1, 2, 3, blokus.SHARED): "Blokus Three-Player"}
#: A glyph's number -> its property (TE good, BM bad, DO doubtful, IT interesting).
PROPERTY_OF = {1: "TE[1]", 3: "TE[2]", 2: "BM[1]", 4: "BM[2]", 5: "DO[]", 6: "IT[]"}
#: Tags written back as root properties (two-player names as PB and PW).
PROPERTY_OF_TAG = {tag: ident for ident, tag in ROOT_TAGS.items() if ident not in ("PB", "PW")}


def write(record: GameNode) -> str:
    """The Pentobi file of ``record``; :class:`NotationError` saying why it cannot be one."""
    if record.game != "tilewe":
        raise NotationError(f"Pentobi files hold Tilewe (Blokus) games, not {record.game}")
    check_nesting(record.items)
    tags = record.headers
    if "Position" in tags:
        raise NotationError("a record set up with [Position] is not written as a Pentobi file")
    try:
        board = rules.start(tags)
    except NotationError as exc:
        raise NotationError(f"cannot start the game: {exc}") from None
    if board.players != 4:
        raise NotationError(f"Pentobi's classic board is for four colours; this game has "
                            f"{board.players}")
    variant = GM_OF.get(board.owners)
    if variant is None:
        raise NotationError(f"[Owners \"{tags.get('Owners')}\"] is no Pentobi variant (Blokus: "
                            f"1 2 3 4, Two-Player: 1 2 1 2, Three-Player: 1 2 3 shared)")
    tree = record
    out = [f"(;GM[{variant}]FF[4]CA[UTF-8]"]
    for tag, value in tags.items():
        ident = PROPERTY_OF_TAG.get(tag)
        if variant == "Blokus Two-Player" and tag in ("Player1", "Player2"):
            ident = "PB" if tag == "Player1" else "PW"
        if ident is not None:
            out.append(f"{ident}[{escape(value)}]")
    out.append(_comment(tree))
    _line(tree, board, out)
    out.append(")\n")
    return "".join(out)


def _line(node: Node, board: Board, out: list[str]) -> None:
    """The nodes after ``node``: one line while there is one way on, then its branches."""
    while len(node.variations) == 1:
        node = node.variations[0]
        out.append(_node(node, board))
    for branch in node.variations:
        copy = board.copy()
        out.append("(")
        out.append(_node(branch, copy))
        _line(branch, copy, out)
        out.append(")")


def _node(node: Node, board: Board) -> str:
    """One move (played on ``board``), its glyphs and comment; a node before it for a
    starting comment."""
    ply = board.ply + 1
    colour = board.to_move()
    if colour is None:
        raise NotationError(f"ply {ply} ({node.move}): the game is over, nobody can move")
    who = COLORS[colour]
    try:
        cells = cells_of(node.move)
        if not board.used[colour] and not blokus.CORNERS[colour] >> node.move.target & 1:
            raise NotationError(f"{who}'s first piece {node.move} is not on {who}'s own corner "
                                f"{blokus.CORNER_NAMES[colour]}, where Pentobi's rules put it")
        rules.play(board, node.move)
    except RuleError as exc:
        raise NotationError(f"ply {ply} ({node.move}) is not legal: {exc.message}") from None
    except NotationError as exc:
        raise NotationError(f"ply {ply}: {exc}") from None
    text = [f";C[{escape(node.starting_comment)}]" if node.starting_comment else "",
            f";{colour + 1}[{cells}]"]
    seen: set[str] = set()
    for nag in node.nags:
        prop = PROPERTY_OF.get(nag)
        if prop is None or prop[:2] in seen:
            shown = GLYPH_OF.get(nag, f"${nag}")
            raise NotationError(f"ply {ply} ({node.move}): the annotation {shown} has no "
                                f"Pentobi property (TE, BM, DO, IT once each)")
        seen.add(prop[:2])
        text.append(prop)
    text.append(_comment(node))
    return "".join(text)


def _comment(node: Node | GameNode) -> str:
    """``C[...]`` of a node's comment and its commands, or nothing."""
    if not node.comment and not node.commands:
        return ""
    words = Comment.make(node.comment, node.commands).text.strip()
    return f"C[{escape(words)}]"
