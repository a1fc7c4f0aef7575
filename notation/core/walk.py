"""A record's tree walked with positions: every line of play, each event's node, and what
a caller makes of the position after it (JSON for ``replay --json --tree``, pictures for the
viewer, rows for the tables).

The nodes are the record's tree (:class:`~notation.core.tree.ChildNode`), read leniently
so that a broken record is walked too (an unreadable event is a node with ``unread``
set); what the walk learns of each node (its ply, its line, who moved, its problem,
whether its position was reached and what ``visit`` made of it) is kept beside it, in a
:class:`Step` by node.

Each line plays on one live state, as the replay does: a state is copied only where a
variation starts, so a record without variations costs no copy per event (a Nomic
state's copy costs more than its picture).

The lines are walked one after another, the mainline first and each variation after the
line it branches from, so the mainline's nodes are visited (and numbered by callers) first,
as a record without variations always was. A line ends at its first problem: the node with
the problem keeps it, its alternatives are still walked from the position before it, and
the nodes after it are listed without a position (a viewer still shows them).
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, cast

from .tree import ChildNode, GameNode, Node, lenient_tree
from .ast import EventNode, Malformed, MalformedKind, Variation
from .errors import Problem
from .game import AnyGame
from .outcome import Outcome
from .replayer import Line, Replayer, first_syntax_problems


@dataclass(slots=True, eq=False)
class Step:
    """What the walk learned of one node (the start's: ply 0)."""

    ply: int
    #: The line it is in: "" for the mainline, else ``variation N after ply Q`` (as problems
    #: name variations).
    label: str = ""
    #: Who was to move before it, in the game's own words (``Position.turn``).
    mover: str | None = None
    #: The event as written (an unreadable one's text); "" for the start.
    written: str = ""
    #: The alternatives to it as written (PGN's rule), each a line of nodes from its ply on
    #: (a variation written at a variation's first move stays where it was written, as
    #: its label says; the tree holds it as one more alternative).
    variations: list[list[ChildNode]] = field(default_factory=list)
    problem: Problem | None = None
    #: Whether its position is known: False at a problem and after one.
    reached: bool = False
    #: What the walk's ``visit`` made of the position after it.
    data: Any = None


@dataclass(slots=True)
class Walk:
    """A walked record: its tree (``root``), its mainline's nodes and each node's
    :class:`Step` (``steps``, by node)."""

    root: GameNode
    mainline: list[ChildNode]
    steps: dict[Node, Step]

    @property
    def start(self) -> Step:
        return self.steps[self.root]

    def nodes(self) -> list[Node]:
        """Every node: the root, then those reached in the order they were visited, then the
        others (so a node's place is its picture's when pictures are kept in visit order)."""
        found: list[Node] = [self.root]
        lines = deque([self.mainline])
        steps = self.steps
        while lines:
            line = lines.popleft()
            found.extend(line)
            for node in line:
                lines.extend(steps[node].variations)
        return ([self.root] + [n for n in found[1:] if steps[n].reached]
                + [n for n in found[1:] if not steps[n].reached])

    def played(self, line: list[ChildNode]) -> list[ChildNode]:
        """A line's nodes up to and with its first problem (what follows a problem was
        never played; a line whose start was not reached has none)."""
        kept: list[ChildNode] = []
        for node in line:
            step = self.steps[node]
            if not step.reached and step.problem is None:
                break  # the line's start was not reached
            kept.append(node)
            if not step.reached:
                break
        return kept

    def lines(self) -> list[list[ChildNode]]:
        """Every line as :meth:`played` keeps it, the mainline first, each variation after
        the line it branches from (as ``replay --json --tree`` gives them)."""
        found: list[list[ChildNode]] = []
        waiting = deque([self.mainline])
        while waiting:
            kept = self.played(waiting.popleft())
            for node in kept:
                waiting.extend(self.steps[node].variations)
            found.append(kept)
        return found


Visit = Callable[[Node, Step, Any], Any]


class _Walker(Replayer):
    """Plays every line of the tree with the one replay: variations wait their turn (the
    mainline first, then line by line), each node's step keeps its problem and what
    ``visit`` made of the position after it."""

    def __init__(self, game: AnyGame | None, problems: list[Problem], visit: Visit,
                 lines: dict[int, list[ChildNode]], steps: dict[Node, Step]) -> None:
        #: The syntax problem (after the start) that ends each line, by its label.
        self.syntax = first_syntax_problems(problems)
        # (no game: no state either, so nothing is ever played)
        super().__init__(cast("AnyGame", game), {label: p.ply for label, p in self.syntax.items()})
        self.visit = visit
        self.lines = lines
        self.steps = steps
        self.waiting: deque[Line] = deque()

    def branch(self, line: Line, variation: Line) -> None:
        self.waiting.append(variation)

    def walk(self, line: Line) -> None:
        """Give ``line``'s nodes their steps, then play them."""
        nodes = self.lines[id(line.items)]
        steps = self.steps
        ply = line.ply
        last: Step | None = None
        for item in line.items:
            if isinstance(item, Variation):
                if last is not None and id(item.items) in self.lines:
                    last.variations.append(self.lines[id(item.items)])
            elif isinstance(item, EventNode) or (isinstance(item, Malformed)
                                                 and item.what == MalformedKind.EVENT):
                ply += 1  # (each such item is its line's next node, as the tree read it)
                last = steps[nodes[ply - line.ply - 1]] = Step(ply, line.label,
                                                               written=item.text)
        known = line.state is not None
        if known and nodes:
            steps[nodes[0]].mover = self.game.to_move(line.state)
        at = 0
        for _ply, _item, state in self.play(line):
            node = nodes[at]
            step = steps[node]
            step.reached, step.data = True, self.visit(node, step, state)
            at += 1
            if at < len(nodes):
                steps[nodes[at]].mover = self.game.to_move(state)
        if known and at < len(nodes):  # the line stopped here: a rule or a syntax problem
            stop = self.syntax.get(line.label)
            step = steps[nodes[at]]
            step.problem = line.problem or (
                stop if stop is not None and stop.ply <= step.ply else None)

    def run(self, mainline: Line) -> None:
        """Walk the mainline, then every variation met, in the order met."""
        self.walk(mainline)
        while self.waiting:
            self.walk(self.waiting.popleft())


def walk(record: GameNode, outcome: Outcome, visit: Visit) -> Walk:
    """``record``'s tree, ``visit(node, step, state)`` called on every position reached
    (the start first, then line by line). ``outcome``: its full
    :func:`~notation.core.replay.run`; when that has no state (no game, or a tag it cannot
    start from) nothing is reached, and the nodes are only listed."""
    items = record.items
    root, lines = lenient_tree(record, items)
    start = Step(0)
    steps: dict[Node, Step] = {root: start}
    game, state = outcome.game, None
    if game is not None and outcome.state is not None:
        state = game.start(record)  # a new state (replay started from it): the walk's own
        start.reached, start.data = True, visit(root, start, state)
        # a problem at ply 0 (a tag) stops the mainline before its first event, as in run()
        start.problem = next((p for p in outcome.problems if p.ply == 0 and not p.variation),
                             None)
        if start.problem is not None:
            state = None
    walker = _Walker(game, outcome.problems, visit, lines, steps)
    walker.run(Line(items, state, stop=walker.stops.get("")))
    return Walk(root, lines[id(items)], steps)
