"""Annotated copies of one game merged into one tree (``notation merge``).

Copies must be of the same game from the same start, under the same rules and written in
the same notation: their starts alike in meaning, however their tags spell them (a tag
given at its default or left out, ``04`` for 4, a tag the game keeps only for people:
:mod:`.starts`). Each copy in turn, the first one first, is laid over an empty tree:

* a move that is already there (the same move, ``Game.event_identity``: Tilewe's two
  spellings of one placement are one move) is that node, written as it was first
  spelled; another move is a new variation, after those there. A copy's own variation
  that plays the move of the line beside it (``1. a (1. a! ...)``) is laid there too, so
  it folds into that line whole;
* annotations are united, in written order, the first copy's first; a comment equal
  to one already there is kept once, a different one is added after it (joined with
  a space); commands are united, and a key whose value differs is a conflict: the
  value already there is kept. A comment stays with its move: one that opened a
  variation (before its first move) joins the move's own comment when that move is
  a main continuation, where no comment before it could be read back as its own;
* tags likewise: a new tag is added, a different value is a conflict (the first kept);
  the result tags (``Game.result_tags``) say where the merged mainline ends.

So merging a record with itself is merging it alone, merged copies hold every line of
each, and what is merged is a valid record (:func:`merged_text` writes it, reads it back
and replays it, and refuses what would not read back the same); which copy comes first
decides only the order of variations, comments and annotations (and which value a
conflict keeps).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from notation.core.ast import Pos
from notation.core.errors import NotationError, TagError
from notation.read.reading import parse
from notation.core.replay import run
from notation.core.tree import ChildNode, GameNode, Node
from notation.core.writer import format_record

from .errors import ArchiveError
from .starts import StartIdentity, Starts


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
    """Copies that cannot be merged (another game, another start, other rules, or a
    merged tree no record can hold); ``refusals`` says where each one is."""

    def __init__(self, refusals: list[Conflict]) -> None:
        super().__init__("\n".join(refusal.describe("error") for refusal in refusals))
        self.refusals = refusals


def merge_trees(trees: Sequence[GameNode]) -> tuple[GameNode, list[Conflict]]:
    """One tree holding every line, comment, annotation and command of ``trees`` (which
    are left as they were), and the conflicts met; :class:`MergeError` when a tree is not
    of the first one's game, start and rules."""
    if not trees:
        raise ValueError("no trees to merge")
    first = trees[0]
    starts = Starts()  # (built once per distinct set-up, not once per copy)
    start = _start_of(starts, first)
    if isinstance(start, Conflict):
        raise MergeError([start])
    results = _result_tags(first)
    refusals = [refusal for tree in trees[1:]
                if (refusal := _refusal(starts, first, start, results, tree)) is not None]
    if refusals:
        raise MergeError(refusals)
    merging = _Merging(_bare(first), results)
    for tree in trees:
        merging.lay(tree)
    merging.write()
    merging.respell()
    _settle_results(merging.tree, results)
    return merging.tree, merging.conflicts


def merged_text(tree: GameNode) -> str:
    """The merged tree as a record's text, read back and replayed first: a tree that
    cannot be written (variations nested deeper than a reader reads) or whose text does
    not read back as a valid record raises :class:`MergeError`, so that nothing written
    by ``merge`` fails ``validate``."""
    try:
        text = format_record(tree, tree.rules)
    except NotationError as exc:
        raise MergeError([_at(tree, tree.pos, f"game {tree.index}: the merged game cannot be "
                                              f"written: {exc}: not merged")]) from None
    # read as the game's own notation whatever the first copy's file was (a Pentobi
    # file's name would claim it), beside that file (where Sanguine's decks are found)
    for record in parse(text, tree.rules, f"{tree.source} (merged)"):
        problems = run(record).problems
        if problems:
            first = problems[0]
            raise MergeError([_at(tree, tree.pos, f"game {tree.index}: the merged game would "
                                                  f"not validate (line {first.line} of it: "
                                                  f"{first.message}): not merged")])
    return text


def _start_of(starts: Starts, tree: GameNode) -> StartIdentity | Conflict:
    """What the tree's start sets up, or why it has none."""
    try:
        return _identity(starts, tree, tree.headers)
    except TagError as exc:
        return _at(tree, tree.header_pos.get(exc.key), f"game {tree.index}: no start to merge "
                                                       f"from: [{exc.key}]: {exc.message}")


def _identity(starts: Starts, tree: GameNode, headers: Mapping[str, str]) -> StartIdentity:
    """The identity of the start ``headers`` give with ``tree``'s set-up lines and file."""
    return starts.identity(tree.rules, headers, tree.directives, tree.source)


def _result_tags(tree: GameNode) -> frozenset[str]:
    """The tags the game sets from where a game ends (``[Result]``, Tilewe's ``[Scores]``)."""
    return frozenset(tree.rules.result_tags(tree.start().state))


def _refusal(starts: Starts, first: GameNode, start: StartIdentity, results: frozenset[str],
             tree: GameNode) -> Conflict | None:
    """Why ``tree`` cannot be merged into ``first`` (whose start is ``start``), if it cannot:
    another game, another starting position, or the tag that sets other rules or another
    notation (a point of view, which a game's full position may hold, is notation)."""
    name = f"{first.source} game {first.index}"
    if tree.rules.name != first.rules.name:
        return _at(tree, tree.pos, f"game {tree.index}: a {tree.rules.name} game, not "
                                   f"{first.rules.name} as {name}: not merged")
    other = _start_of(starts, tree)
    if isinstance(other, Conflict):
        return other
    if other == start:
        return None
    if other.position != start.position and other.setup != start.setup:
        return _at(tree, tree.pos, f"game {tree.index}: it starts from another position "
                                   f"than {name}: not merged")
    key = _telling_tag(starts, first, start, results, tree)
    if key is None:
        return _at(tree, tree.pos, f"game {tree.index}: it is played under other rules, or "
                                   f"written in another notation, than {name}: not merged")
    mine, theirs = first.headers.get(key), tree.headers.get(key)
    said = f'[{key} "{theirs}"]' if theirs is not None else f"no [{key}] tag"
    kept = f'[{key} "{mine}"]' if mine is not None else f"no [{key}] tag"
    return _at(tree, tree.header_pos.get(key),
               f"game {tree.index}: {said}, but {kept} in {name} (a tag "
               f"{tree.rules.name} reads: its rules, set-up or notation): not merged")


def _telling_tag(starts: Starts, first: GameNode, start: StartIdentity,
                 results: frozenset[str], tree: GameNode) -> str | None:
    """The first tag the game reads whose value in ``tree``, put in ``first``'s place,
    changes what ``first``'s start means (None: no one tag does it alone)."""
    for key in tree.rules.tags:
        theirs = tree.headers.get(key)
        if key in results or key == "Game" or theirs == first.headers.get(key):
            continue
        headers = {k: v for k, v in first.headers.items() if k != key}
        if theirs is not None:
            headers[key] = theirs
        try:
            if _identity(starts, first, headers) != start:
                return key
        except TagError:
            return key
    return None


def _bare(tree: GameNode) -> GameNode:
    """A tree of ``tree``'s game, tags, set-up and place, with no move and no words."""
    bare = GameNode(tree.rules, list(tree.tags), list(tree.directives), index=tree.index,
                    source=tree.source, pos=tree.pos)
    bare.trailer[:] = tree.trailer
    return bare


def _settle_results(tree: GameNode, results: frozenset[str]) -> None:
    """The result tags the copies gave, set to what the merged mainline reaches (a copy
    that stopped early said ``*``; one that went on said how it ended)."""
    if results.isdisjoint(tree.headers):
        return
    reached = tree.rules.result_tags(tree.end().position().state)
    for key in results & tree.headers.keys():
        if key in reached:
            tree.headers[key] = reached[key]


def _at(tree: GameNode, pos: Pos | None, message: str) -> Conflict:
    place = pos or tree.pos or Pos(1, 1)
    return Conflict(tree.source, place.line, place.column, message)


class _Merging:
    """Copies laid one by one over ``tree`` (empty at first), the conflicts noted."""

    def __init__(self, tree: GameNode, results: frozenset[str]) -> None:
        self.tree = tree
        self.results = results
        self.conflicts: list[Conflict] = []
        self.noted: set[Conflict] = set()
        #: The distinct comments laid so far on each node's comment and starting comment,
        #: in order (a dict as an ordered set: each copy's looked up at once, however many
        #: came before), written into the nodes once every copy is laid (:meth:`write`).
        #: A node not in ``said`` has had nothing laid on it yet.
        self.said: dict[Node, dict[str, None]] = {}
        self.said_first: dict[Node, dict[str, None]] = {}
        #: Each node's children by the identity of their moves, as laid so far.
        self.children: dict[Node, dict[str, Node]] = {}
        #: Nodes whose move the copies spell in more than one way (Tilewe's contacts).
        self.respelled: dict[Node, None] = {}

    def lay(self, copy: GameNode) -> None:
        """Everything of ``copy`` into the tree; its conflicts in its file's order."""
        found: list[Conflict] = []
        for key, value in copy.headers.items():
            kept = self.tree.headers.setdefault(key, value)
            if kept != value and key not in self.results:
                found.append(_at(copy, copy.header_pos.get(key), f"game {copy.index}: "
                                 f"[{key} \"{value}\"] differs from [{key} \"{kept}\"], "
                                 f"which is kept"))
        identity = copy.rules.event_identity
        pairs: list[tuple[Node, Node]] = [(self.tree, copy)]
        while pairs:
            into, other = pairs.pop()
            self.join(into, other, copy, found)
            matched: list[tuple[Node, Node]] = []
            children = self.children.get(into)
            if children is None:
                children = self.children[into] = {identity(node.move): node
                                                  for node in reversed(into.variations)}
            for child in other.variations:
                move = identity(child.move)
                same = children.get(move)
                if same is not None and same.move != child.move:
                    self.respelled[same] = None
                if same is None:
                    same = children[move] = ChildNode(into, child.move)
                matched.append((same, child))
            pairs += reversed(matched)
        found.sort(key=lambda conflict: (conflict.line, conflict.column))
        # a copy laid twice (a file given twice) meets its conflicts again: each is said once
        self.conflicts += [conflict for conflict in dict.fromkeys(found)
                           if conflict not in self.noted]
        self.noted.update(found)

    def write(self) -> None:
        """Each node's comments: the distinct ones laid on it, in the order they came,
        joined once (a node's words left as they were read when one copy said them all)."""
        for node, comments in self.said.items():
            openings = self.said_first[node]
            node.comment, node.starting_comment = " ".join(comments), " ".join(openings)

    def respell(self) -> None:
        """A move the copies spell in more than one way is written in its one canonical
        spelling (``fmt --canonical``'s), not as the first copy happened to spell it."""
        rules = self.tree.rules
        for node in self.respelled:
            assert node.parent is not None  # (the root has no move)
            node.move = rules.canonical_event(node.parent.position().state, node.move)

    def join(self, into: Node, other: Node, copy: GameNode, found: list[Conflict]) -> None:
        """The words of ``other`` (a node of ``copy``) joined into ``into``."""
        fresh = into not in self.said
        comments = self.said.setdefault(into, {})
        openings = self.said_first.setdefault(into, {})
        # before a main continuation a comment would read back as the previous move's
        main = into.parent is not None and into.is_main_variation()
        if other.starting_comment:
            (comments if main else openings).setdefault(other.starting_comment)
        if other.comment:
            comments.setdefault(other.comment)
        if other.nags:
            held = set(into.nags)
            into.nags += [nag for nag in dict.fromkeys(other.nags) if nag not in held]
        for key, value in other.commands.items():
            kept = into.commands.setdefault(key, value)
            if kept != value:
                found.append(_at(copy, other.pos, f"game {copy.index}, {_place(other)}: "
                                 f"[%{key} {value}] differs from [%{key} {kept}], "
                                 f"which is kept"))
        if fresh:  # its first words: written back as they were read while they stand
            into.pos = other.pos
            into.keep_written(other)


def _place(node: Node) -> str:
    """``ply 3 (F5e-a2d4)``, or ``before the first move`` for the root."""
    if not isinstance(node, ChildNode):
        return "before the first move"
    return f"ply {node.ply()} ({node.root().rules.format_event(node.move)})"
