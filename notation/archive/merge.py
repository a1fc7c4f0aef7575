"""Annotated copies of one game merged into one tree (``notation merge``).

Copies must be of the same game from the same start (their starting positions
written alike). The first copy is the base; each next one is laid over it:

* a move equal to one already at that node (the game's event values compare equal)
  is that node; a move only in the copy becomes a new variation, after those there;
* annotations are united, in written order, the first copy's first; a comment equal
  to one already there is kept once, a different one is added after it (joined with
  a space); commands are united, and a key whose value differs is a conflict: the
  value already there is kept;
* tags likewise: a new tag is added, a different value is a conflict (the first kept).

So merging a tree with itself changes nothing, and merged copies hold every line of
each; which copy comes first decides only the order of variations, comments and
annotations (and which value a conflict keeps).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from notation.core.ast import Pos
from notation.core.errors import Error
from notation.core.tree import ChildNode, GameNode, Node

from .errors import ArchiveError


@dataclass(frozen=True)
class Conflict:
    """Where a later copy disagrees with what the merge kept: its file, line and column."""

    source: str
    line: int
    column: int
    message: str

    def describe(self, severity: str = "warning") -> str:
        """``FILE:LINE:COL: warning: MESSAGE`` (a refused copy: ``error``)."""
        return f"{self.source}:{self.line}:{self.column}: {severity}: {self.message}"


class MergeError(ArchiveError):
    """Copies that cannot be merged (another game, another start); ``refusals`` says
    where each one is."""

    def __init__(self, refusals: list[Conflict]) -> None:
        super().__init__("\n".join(refusal.describe("error") for refusal in refusals))
        self.refusals = refusals


def merge_trees(trees: Sequence[GameNode]) -> tuple[GameNode, list[Conflict]]:
    """One tree holding every line, comment, annotation and command of ``trees`` (which
    are left as they were), and the conflicts met; :class:`MergeError` when a tree is not
    of the first one's game and start."""
    if not trees:
        raise ValueError("no trees to merge")
    first = trees[0]
    start = _start_of(first)
    if isinstance(start, Conflict):
        raise MergeError([start])
    refusals = [refusal for tree in trees[1:]
                if (refusal := _refusal(first, start, tree)) is not None]
    if refusals:
        raise MergeError(refusals)
    merging = _Merging(first.copy())
    for tree in trees[1:]:
        merging.lay(tree)
    return merging.tree, merging.conflicts


def _start_of(tree: GameNode) -> str | Conflict:
    """The tree's starting position in its game's notation, or why there is none."""
    try:
        return tree.start().position()
    except Error as exc:
        return _at(tree, tree.pos, f"game {tree.index}: no start to merge from: {exc}")


def _refusal(first: GameNode, start: str, tree: GameNode) -> Conflict | None:
    """Why ``tree`` cannot be merged into ``first`` (whose start is ``start``), if it cannot."""
    name = f"{first.source} game {first.index}"
    if tree.rules.name != first.rules.name:
        return _at(tree, tree.pos, f"game {tree.index}: a {tree.rules.name} game, not "
                                   f"{first.rules.name} as {name}: not merged")
    other = _start_of(tree)
    if isinstance(other, Conflict):
        return other
    if other != start:
        return _at(tree, tree.pos, f"game {tree.index}: it starts from another position "
                                   f"than {name}: not merged")
    return None


def _at(tree: GameNode, pos: Pos | None, message: str) -> Conflict:
    place = pos or tree.pos or Pos(1, 1)
    return Conflict(tree.source, place.line, place.column, message)


class _Merging:
    """Copies laid one by one over ``tree`` (a copy of the first), the conflicts noted."""

    def __init__(self, tree: GameNode) -> None:
        self.tree = tree
        self.conflicts: list[Conflict] = []
        #: The distinct comments joined so far into each node's comment (starting comment).
        self.said: dict[Node, list[str]] = {}
        self.said_first: dict[Node, list[str]] = {}

    def lay(self, copy: GameNode) -> None:
        """Everything of ``copy`` into the tree; its conflicts in its file's order."""
        found: list[Conflict] = []
        for key, value in copy.headers.items():
            kept = self.tree.headers.setdefault(key, value)
            if kept != value:
                found.append(_at(copy, copy.header_pos.get(key), f"game {copy.index}: "
                                 f"[{key} \"{value}\"] differs from [{key} \"{kept}\"], "
                                 f"which is kept"))
        pairs: list[tuple[Node, Node]] = [(self.tree, copy)]
        while pairs:
            into, other = pairs.pop()
            self.join(into, other, copy, found)
            matched: list[tuple[Node, Node]] = []
            for child in other.variations:
                same = next((node for node in into.variations if node.move == child.move), None)
                if same is None:
                    into.graft(child)
                else:
                    matched.append((same, child))
            pairs += reversed(matched)
        found.sort(key=lambda conflict: (conflict.line, conflict.column))
        self.conflicts += found

    def join(self, into: Node, other: Node, copy: GameNode, found: list[Conflict]) -> None:
        """The words of ``other`` (a node of ``copy``) joined into ``into``."""
        into.nags += [nag for nag in dict.fromkeys(other.nags) if nag not in into.nags]
        into.comment = _joined(self.said, into, into.comment, other.comment)
        into.starting_comment = _joined(self.said_first, into, into.starting_comment,
                                        other.starting_comment)
        for key, value in other.commands.items():
            kept = into.commands.setdefault(key, value)
            if kept != value:
                found.append(_at(copy, other.pos, f"game {copy.index}, {_place(other)}: "
                                 f"[%{key} {value}] differs from [%{key} {kept}], "
                                 f"which is kept"))


def _joined(said: dict[Node, list[str]], node: Node, mine: str, theirs: str) -> str:
    """``mine`` with ``theirs`` added unless it was said already (by any copy so far)."""
    pieces = said.setdefault(node, [mine] if mine else [])
    if theirs and theirs not in pieces:
        pieces.append(theirs)
    return " ".join(pieces)


def _place(node: Node) -> str:
    """``ply 3 (F5e-a2d4)``, or ``before the first move`` for the root."""
    if not isinstance(node, ChildNode):
        return "before the first move"
    return f"ply {node.ply()} ({node.game().rules.format_event(node.move)})"
