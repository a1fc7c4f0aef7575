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
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from .ast import (Comment, EventNode, Item, Malformed, MalformedKind, Record, Variation,
                  branch_points)
from .errors import Problem, ProblemKind, RuleError
from .game import AnyGame
from .notes import commands_of
from .outcome import Outcome
from .replay import internal_problem, variation_label


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


@dataclass(slots=True)
class _Line:
    """A line of play waiting to be walked."""

    items: list[Item]
    state: Any  # the state it starts from, its own to play on; None: not known
    ply: int  # its events count on from here
    label: str
    parent: Node
    nodes: list[Node]  # filled by the walk


class _Walker:
    def __init__(self, record: Record, game: AnyGame | None, problems: list[Problem],
                 visit: Visit) -> None:
        self.record = record
        self.game = game
        self.visit = visit
        #: The syntax problems (after the start) that end each line, by its label.
        self.stops: dict[str, list[Problem]] = {}
        for problem in problems:
            if problem.kind == ProblemKind.SYNTAX and problem.ply > 0:
                self.stops.setdefault(problem.variation, []).append(problem)
        self.waiting: deque[_Line] = deque()

    def copy(self, state: Any) -> Any:
        """A state of its own (None stays None: not known)."""
        return None if state is None or self.game is None else self.game.copy(state)

    def line(self, line: _Line) -> None:
        state, ply, last = line.state, line.ply, None
        before: Any = None  # the state before ``last`` where variations replace it
        pending: list[Comment] = []  # comments before the line's first event
        branches = 0
        branching = branch_points(line.items)
        for at, item in enumerate(line.items):
            if isinstance(item, Comment):
                (pending if last is None else last.comments).append(item)
            elif isinstance(item, Variation):
                branches += 1
                if last is not None:  # else a problem of the record: no event to replace
                    inner: list[Node] = []
                    last.variations.append(inner)
                    self.waiting.append(_Line(item.items, self.copy(before), last.ply - 1,
                                              variation_label(branches, last.ply - 1, line.label),
                                              last.parent or line.parent, inner))
            elif isinstance(item, EventNode) or (isinstance(item, Malformed)
                                                 and item.what == MalformedKind.EVENT):
                ply, branches = ply + 1, 0
                node = Node(ply, item, last or line.parent, line.label, starting=pending)
                pending = []
                line.nodes.append(node)
                before = self.copy(state) if at in branching else None
                state = self.play(node, state)
                last = node

    def play(self, node: Node, state: Any) -> Any:
        """Play ``node`` on ``state``: the state after it, or None (it has a problem, or the
        line had one; ``state`` may then be half-changed)."""
        game = self.game
        if state is None or game is None:
            return None
        node.mover = game.to_move(state)
        stop = next((p for p in self.stops.get(node.label, ()) if p.ply <= node.ply), None)
        if stop is not None or not isinstance(node.item, EventNode):
            node.problem = stop
            return None
        item = node.item
        try:
            game.apply(state, item.event)
        except RuleError as exc:
            node.problem = Problem(ProblemKind.RULE, item.pos.line, item.pos.column, node.ply,
                                   item.text, exc.message, exc.rule, node.label)
            return None
        except Exception as exc:  # a bug of ours: this line stops here, said where
            problem = internal_problem(self.record, exc, item.pos, node.ply, item.text)
            node.problem = replace(problem, variation=node.label)
            return None
        node.reached = True
        node.data = self.visit(node, state)
        return state


def walk(record: Record, outcome: Outcome, visit: Visit) -> Tree:
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
    walker = _Walker(record, game, outcome.problems, visit)
    walker.waiting.append(_Line(record.items, state, 0, "", start, mainline))
    while walker.waiting:
        walker.line(walker.waiting.popleft())
    if mainline:  # the comments before the first event are the start's (python-chess's)
        start.comments, mainline[0].starting = mainline[0].starting, []
    else:
        start.comments = [i for i in record.items if isinstance(i, Comment)]
    return Tree(start, mainline)
