"""A record's tree walked with positions: every line of play, each event's node, and what
a caller makes of the position after it (JSON for ``replay --json --tree``, pictures for the
viewer).

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

from .tree import GameNode
from .ast import Comment, EventNode, Malformed, MalformedKind, Variation
from .errors import Problem
from .game import AnyGame
from .notes import commands_of
from .outcome import Outcome
from .replayer import Line, Replayer, first_syntax_problems


@dataclass(slots=True, eq=False)
class Node:
    """One event of a tree (the start: ``item`` None, ply 0) and where it stands."""

    ply: int
    item: EventNode | Malformed | None
    parent: Node | None
    #: The line it is in: "" for the mainline, else ``variation N after ply Q`` (as problems
    #: name variations).
    label: str = ""
    #: Who was to move before it, in the game's own words (``Position.turn``).
    mover: str | None = None
    #: Comments before it (only a line's first event has any) and after it.
    starting: list[Comment] = field(default_factory=list)
    comments: list[Comment] = field(default_factory=list)
    #: The alternatives to it (PGN's rule), each a line of nodes from its ply on.
    variations: list[list[Node]] = field(default_factory=list)
    problem: Problem | None = None
    #: Whether its position is known: False at a problem and after one.
    reached: bool = False
    #: What the walk's ``visit`` made of the position after it.
    data: Any = None

    @property
    def nags(self) -> tuple[int, ...]:
        return self.item.nags if isinstance(self.item, EventNode) else ()

    @property
    def commands(self) -> dict[str, str]:
        """The commands of its comments (before it, then after it; a later key wins)."""
        return commands_of((*self.starting, *self.comments))


@dataclass(slots=True)
class Tree:
    """A walked record: its start and its mainline."""

    start: Node
    mainline: list[Node]

    def nodes(self) -> list[Node]:
        """Every node: the start, then those reached in the order they were visited, then the
        others (so a node's place is its picture's when pictures are kept in visit order)."""
        found = [self.start]
        lines = deque([self.mainline])
        while lines:
            line = lines.popleft()
            found.extend(line)
            for node in line:
                lines.extend(node.variations)
        return ([self.start] + [n for n in found[1:] if n.reached]
                + [n for n in found[1:] if not n.reached])


def played(line: list[Node]) -> list[Node]:
    """A line's nodes up to and with its first problem (what follows a problem was never
    played; a line whose start was not reached has none)."""
    kept: list[Node] = []
    for node in line:
        if not node.reached and node.problem is None:
            break  # the line's start was not reached
        kept.append(node)
        if not node.reached:
            break
    return kept


Visit = Callable[[Node, Any], Any]


class _Walker(Replayer):
    """Lists every line's nodes and plays them with the one replay: variations wait their
    turn (the mainline first, then line by line), each node keeps its problem and what
    ``visit`` made of the position after it."""

    def __init__(self, game: AnyGame | None, problems: list[Problem], visit: Visit) -> None:
        #: The syntax problem (after the start) that ends each line, by its label.
        self.syntax = first_syntax_problems(problems)
        # (no game: no state either, so nothing is ever played)
        super().__init__(cast("AnyGame", game), {label: p.ply for label, p in self.syntax.items()})
        self.visit = visit
        self.waiting: deque[Line] = deque()
        #: Each variation's node list and the node its first event follows, by its items.
        self.hung: dict[int, tuple[list[Node], Node]] = {}

    def branch(self, line: Line, variation: Line) -> None:
        self.waiting.append(variation)

    def walk(self, line: Line, parent: Node, nodes: list[Node]) -> None:
        """List ``line``'s nodes (hung from ``parent``), then play them."""
        last: Node | None = None
        pending: list[Comment] = []  # comments before the line's first event
        ply = line.ply
        for item in line.items:
            if isinstance(item, Comment):
                (pending if last is None else last.comments).append(item)
            elif isinstance(item, Variation):
                if last is not None:  # else a problem of the record: no event to replace
                    inner: list[Node] = []
                    last.variations.append(inner)
                    self.hung[id(item.items)] = (inner, last.parent or parent)
            elif isinstance(item, EventNode) or (isinstance(item, Malformed)
                                                 and item.what == MalformedKind.EVENT):
                ply += 1
                node = Node(ply, item, last or parent, line.label, starting=pending)
                pending = []
                nodes.append(node)
                last = node
        known = line.state is not None
        if known and nodes:
            nodes[0].mover = self.game.to_move(line.state)
        at = 0
        for _ply, _item, state in self.play(line):
            node = nodes[at]
            node.reached, node.data = True, self.visit(node, state)
            at += 1
            if at < len(nodes):
                nodes[at].mover = self.game.to_move(state)
        if known and at < len(nodes):  # the line stopped here: a rule or a syntax problem
            stop = self.syntax.get(line.label)
            nodes[at].problem = line.problem or (
                stop if stop is not None and stop.ply <= nodes[at].ply else None)

    def run(self, mainline: Line, start: Node, nodes: list[Node]) -> None:
        """Walk the mainline, then every variation met, in the order met."""
        self.walk(mainline, start, nodes)
        while self.waiting:
            line = self.waiting.popleft()
            inner, parent = self.hung[id(line.items)]
            self.walk(line, parent, inner)


def walk(record: GameNode, outcome: Outcome, visit: Visit) -> Tree:
    """``record``'s tree, ``visit(node, state)`` called on every position reached (the start
    first, then line by line). ``outcome``: its full :func:`~notation.core.replay.run`; when
    that has no state (no game, or a tag it cannot start from) nothing is reached, and the
    nodes are only listed."""
    start = Node(0, None, None)
    game, state = outcome.game, None
    if game is not None and outcome.state is not None:
        state = game.start(record)  # a new state (replay started from it): the walk's own
        start.reached, start.data = True, visit(start, state)
        # a problem at ply 0 (a tag) stops the mainline before its first event, as in run()
        start.problem = next((p for p in outcome.problems if p.ply == 0 and not p.variation),
                             None)
        if start.problem is not None:
            state = None
    mainline: list[Node] = []
    walker = _Walker(game, outcome.problems, visit)
    walker.run(Line(record.items, state, stop=walker.stops.get("")), start, mainline)
    if mainline:  # the comments before the first event are the start's (python-chess's)
        start.comments, mainline[0].starting = mainline[0].starting, []
    else:
        start.comments = [i for i in record.items if isinstance(i, Comment)]
    return Tree(start, mainline)
