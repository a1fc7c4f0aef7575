"""A Pentobi game tree read as a Tilewe record (tags, moves, comments, glyphs, variations).

Variants read: ``Blokus`` (four players), ``Blokus Two-Player`` (``[Owners "1 2 1 2"]``)
and ``Blokus Three-Player`` (``[Owners "1 2 3 shared"]``), all with ``[Corners "fixed"]``
and ``[Scoring "blokus"]`` (see ``notation/games/tilewe/blokus.py``); any other ``GM`` is
the record's one problem, naming it.

Root properties kept as tags (the rest, ``FF``, ``CA``, ``AP``, ... are dropped):
:data:`ROOT_TAGS`. Moves: ``1``-``4`` (colours blue, yellow, red, green), ``B``/``W``
(first and second colour), legacy ``BLUE``/``YELLOW``/``RED``/``GREEN`` (one cell a value).
Each becomes the canonical Tilewe spelling of its cells (``cells.py``), so moves are read
while the tree is replayed; a move by a colour that is not the one to move (Tilewe's turn
order skips only colours that cannot move, as Pentobi's does) is a problem at the move.
Annotations: ``C`` a comment after the move; ``TE[1]`` ``!``, ``TE[2]`` ``!!``, ``BM[1]``
``?``, ``BM[2]`` ``??``, ``DO`` ``!?``, ``IT`` ``?!``. A node's children: the first goes
on, the others are alternatives to it (PGN's rule), each a ``Variation``. Setup properties
(``AB``, ``AW``, ``A1``-``A4``, ``AE``, ``PL``) are refused, one problem each.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from notation.core.tree import GameNode
from notation.core.ast import (GLYPHS, UNLISTED_MESSAGE, Comment, EventNode, Item, Malformed,
                               MalformedKind, Tag, Unlisted, Variation)
from notation.core.errors import NotationError, RuleError
from notation.core.limits import MAX_VARIATION_DEPTH

from .. import rules
from ..state import COLORS, Board
from . import sgf
from .cells import placement, read_cells

#: ``GM`` value -> the Tilewe tags of the variant.
VARIANTS: dict[str, dict[str, str]] = {
    "Blokus": {},
    "Blokus Two-Player": {"Owners": "1 2 1 2"},
    "Blokus Three-Player": {"Owners": "1 2 3 shared"},
}
COMMON_TAGS = {"Players": "4", "Corners": "fixed", "Scoring": "blokus"}
#: Root properties kept, and the tag each becomes.
ROOT_TAGS = {"PB": "Player1", "PW": "Player2", "P1": "Player1", "P2": "Player2",
             "P3": "Player3", "P4": "Player4", "DT": "Date", "EV": "Event", "RO": "Round",
             "PC": "Site", "GN": "GameName", "RE": "PentobiResult", "AN": "Annotator",
             "SO": "Source", "US": "User", "CP": "Copyright", "GC": "GameComment"}
#: Move properties and the colour each moves.
MOVES = {"1": 0, "2": 1, "3": 2, "4": 3, "B": 0, "W": 1,
         "BLUE": 0, "YELLOW": 1, "RED": 2, "GREEN": 3}
SETUP = frozenset({"AB", "AW", "A1", "A2", "A3", "A4", "AE", "PL"})
#: Annotation property and value -> its glyph's number (DO and IT take any value).
ANNOTATIONS = {("TE", "1"): GLYPHS["!"], ("TE", "2"): GLYPHS["!!"],
               ("BM", "1"): GLYPHS["?"], ("BM", "2"): GLYPHS["??"]}
ANY_VALUE = {"DO": GLYPHS["!?"], "IT": GLYPHS["?!"]}


def records(text: Iterable[str], source: str) -> Iterator[GameNode]:
    """The game trees of a file's text (its chunks) as Tilewe records, numbered from 1, read
    a tree at a time (:func:`sgf.cut`): memory for one game, whatever the file's size."""
    index = 0
    for piece in sgf.cut(text, source):
        for tree in sgf.read_trees(piece):
            index += 1
            yield record_of(tree, source, index, piece)


def record_of(tree: sgf.Tree, source: str, index: int, piece: sgf.Piece) -> GameNode:
    problems: list[Item] = [_malformed(p) for p in tree.problems]
    items: list[Item] = []
    record = GameNode("tilewe", [Tag("Game", "tilewe")], index=index, source=source,
                    pos=tree.pos, text=piece.text, first_line=piece.line)
    root = tree.root
    if root is None:
        record.game_problem = "a game tree with no node (expected (;GM[Blokus]...))"
        record.items = problems
        return record
    prop = root.get("GM")
    variant = prop.values[0] if prop is not None else None
    if variant not in VARIANTS:
        record.game = None
        record.game_problem = (f"Pentobi variant {variant!r} is not read: only Blokus, Blokus "
                               f"Two-Player and Blokus Three-Player (the classic 20x20 board, "
                               f"Tilewe's)" if variant is not None else
                               "no GM property: which Pentobi variant is this?")
        record.items = problems
        return record
    tags = {**COMMON_TAGS, **VARIANTS[variant]}
    record.tags += [Tag(k, v, root.pos) for k, v in tags.items()]
    for found in root.properties:
        name = ROOT_TAGS.get(found.ident)
        if name is not None and found.values[0]:
            record.tags.append(Tag(name, found.values[0], found.pos))
    try:
        board = rules.start(record.headers)
    except NotationError as exc:  # pragma: no cover - the tags are ours
        record.game_problem = str(exc)
        return record
    reading = _Reading()
    items += reading.node(root, _Line(board), root=True)
    items += reading.rest(root, _Line(board), 0)
    record.items = in_file_order(items, problems)
    return record


def in_file_order(items: list[Item], problems: list[Item]) -> list[Item]:
    """The tree's own problems among the top-level items where the file has them, so a
    problem names the ply it stands at and the moves before it are still checked (each
    before the first item after it). Both are in file order: one merge, linear in both
    (inserting each problem where it goes was quadratic in thousands of stray ``)``)."""
    merged: list[Item] = []
    waiting = iter(problems)
    problem = next(waiting, None)
    for item in items:
        while problem is not None and item.pos > problem.pos:
            merged.append(problem)
            problem = next(waiting, None)
        merged.append(item)
    if problem is not None:
        merged.append(problem)
        merged += waiting
    return merged


@dataclass(slots=True)
class _Line:
    """The board a line of play is read on; ``board`` None once a move of it was refused
    (the replay stops that line there; later moves get their first contact tile)."""

    board: Board | None

    def copy(self) -> _Line:
        return _Line(None if self.board is None else self.board.copy())


class _Reading:
    def rest(self, node: sgf.Node, line: _Line, depth: int) -> list[Item]:
        """The items after ``node``: its first child's line, the others as variations."""
        items: list[Item] = []
        while node.children:
            main, *others = node.children
            before = line.copy() if others else line
            main_items, main = self.head(main, line)
            items += main_items
            for other in others:
                if depth >= MAX_VARIATION_DEPTH:
                    items.append(Malformed("(", f"variations nested deeper than {MAX_VARIATION_DEPTH}",
                                           MalformedKind.VARIATION, None, other.pos))
                    continue
                branch = before.copy()
                inner, last = self.head(other, branch)
                items.append(Variation(inner + self.rest(last, branch, depth + 1), other.pos))
            node = main
        return items

    def head(self, node: sgf.Node, line: _Line) -> tuple[list[Item], sgf.Node]:
        """A line's first node's items, and the node its line goes on from: nodes with no
        move and one child (a comment before a move) are read with the move after them."""
        items: list[Item] = []
        while len(node.children) == 1 and not any(p.ident in MOVES for p in node.properties):
            items += self.node(node, line)
            node = node.children[0]
        return items + self.node(node, line), node

    def node(self, node: sgf.Node, line: _Line, root: bool = False) -> list[Item]:
        """One node's move, glyphs and comments (the root's tags are read elsewhere)."""
        items: list[Item] = []
        nags: list[int] = []
        event: EventNode | None = None
        comments: list[Item] = []
        for found in node.properties:
            ident = found.ident
            if ident in MOVES:
                if event is not None or any(isinstance(i, Malformed) and i.what is
                                            MalformedKind.EVENT for i in items):
                    items.append(_bad(found, "a second move in one node"))
                    continue
                made = self.move(found, MOVES[ident], line)
                if isinstance(made, Malformed):
                    items.append(made)
                else:
                    event = made
            elif ident == "C":
                comments.append(Comment(f" {found.values[0]} ", True, found.pos))
            elif ident in ANY_VALUE or ident in ("TE", "BM"):
                glyph = ANY_VALUE.get(ident) or ANNOTATIONS.get((ident, found.values[0].strip()))
                if glyph is None:
                    items.append(Malformed(f"{ident}[{found.values[0][:12]}]",
                                           f"{ident} takes 1 or 2", MalformedKind.ANNOTATION,
                                           None, found.pos))
                else:
                    nags.append(glyph)
            elif ident in SETUP:
                items.append(_bad(found, f"set-up property {ident} is not read (a Tilewe "
                                         f"record starts from an empty board here)",
                                  MalformedKind.TAG))
        if event is not None:
            event.nags = tuple(nags)
            return [event, *items, *comments]
        if nags and not root:
            items.append(Malformed("", "a move annotation on a node with no move",
                                   MalformedKind.ANNOTATION, None, node.pos))
        return items + comments

    def move(self, found: sgf.Property, colour: int, line: _Line) -> EventNode | Malformed:
        try:
            cells = read_cells(found.values)
        except NotationError as exc:
            return _bad(found, str(exc))
        board = line.board
        if board is not None:
            mover = board.to_move()
            if mover is not None and mover != colour:
                line.board = None
                return _bad(found, f"a move of {COLORS[colour]}, but {COLORS[mover]} is to "
                                   f"move (colours move in turn, passing only when they "
                                   f"cannot move)")
        anchors = board.anchors(board.to_move() or 0) if board is not None else 0
        try:
            move = placement(cells, anchors)
        except NotationError as exc:
            return _bad(found, str(exc))
        if board is not None:
            try:
                rules.play(board, move)
            except RuleError:
                line.board = None
        return EventNode(move, None, found.pos, str(move))


def _bad(found: sgf.Property, message: str,
         what: MalformedKind = MalformedKind.EVENT) -> Malformed:
    text = found.ident + "".join(f"[{v[:40]}]" for v in found.values[:4])
    return Malformed(text, message, what, None, found.pos)


def _malformed(problem: sgf.Problem) -> Malformed:
    """A problem of the tree's structure (not an event: the plies around it are still read)."""
    if isinstance(problem, sgf.Unlisted):  # the problems past the cap: counted, not built
        return Unlisted("", UNLISTED_MESSAGE, MalformedKind.VARIATION, None, problem.pos,
                        problem.count)
    return Malformed(problem.text, problem.message, MalformedKind.VARIATION, None, problem.pos)
