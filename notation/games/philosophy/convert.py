"""Writing a Philosophy record's choices the other way (``convert --choices``): folded
into their placement's brackets (``inline``) or as bare events after it (``separate``).

Every line of play is replayed as it is rewritten, the mainline from the record's
start and each variation from the state before the event it is an alternative to,
so each placement learns which choices after it are its own. Annotations, comments
and variations keep their places: a record of bare choices converted ``inline`` and
back is written as it was, but for events played while a choice was open (then after
it) and the options list an unfinished placement gains.

* ``inline`` writes as the reference does: a placement's bare choices go into its
  brackets, and events played meanwhile (a join, a respect pass) after it; a
  placement a line leaves unfinished lists the open choice's options,
  ``Te:C8ReNe(EaNoSoWe)``. The folding stops, leaving the rest bare where it stands,
  at a comment, at an annotated choice, and at an event that has variations: an
  alternative to one choice (or to an event played meanwhile) is played from a
  state the folded placement never shows. So a variation that branches at a choice
  stays after that bare choice and is converted from the state before it, the
  placement's choice open: its own leading choices, whose placement lies outside
  it, stay bare, and its placements fold their choices as the mainline's do.
* ``separate`` writes a placement's bracket choices as bare events right after it:
  its annotations stay on the placement, a comment after it comes after its last
  choice, and its variations (alternatives to the whole placement, so to the bare
  placement too) right after the bare placement. A placement whose conclusion dots
  count lines its bracket choices make stays as written: a choice carries no dots.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from notation.core.tree import GameNode
from notation.core.ast import EventNode, Item, Variation, branch_points
from notation.core.errors import NotationError, RuleError, TagError
from notation.core.replay import variation_label

from . import CHOICE_FORMS
from .events import Choice, Placement
from .rules import apply, start
from .state import PhilosophyState


@dataclass(frozen=True, slots=True)
class Line:
    """Where a line of play starts: plies before it in the record as read (for messages)
    and as written (for event numbers), and the variation it is (``""``: the mainline)."""

    read: int = 0
    written: int = 0
    label: str = ""

    def branch(self, read: int, written: int, number: int) -> Line:
        """The ``number``-th variation of the event that ends ``read`` / ``written`` plies."""
        return Line(read - 1, written - 1, variation_label(number, read - 1, self.label))


def convert(record: GameNode, /, **options: Any) -> GameNode:
    """The record with its choices written as ``choices`` says (one of
    :data:`~notation.games.philosophy.CHOICE_FORMS`), the one option a conversion takes."""
    choices = options.pop("choices", None)
    if choices not in CHOICE_FORMS or options:
        raise NotationError("philosophy converts with --choices inline or --choices separate")
    return convert_choices(record, choices)


def convert_choices(record: GameNode, choices: str) -> GameNode:
    """``choices="inline"`` folds bare choices into brackets; ``"separate"`` splits them."""
    try:
        state = start(record)
    except TagError as exc:
        raise NotationError(exc.message) from None
    rewrite = inline if choices == "inline" else separate
    return record.rewritten(rewrite(record.items, state, Line()))


def inline(items: list[Item], state: PhilosophyState, line: Line) -> list[Item]:
    """One line of play with its choices folded where they can be (``state``: the line's
    start, which this plays on), its variations converted from their branch points."""
    folding = Folding(state, line, branch_points(items))
    for index, item in enumerate(items):
        if isinstance(item, EventNode):
            folding.event(index, item)
        else:
            folding.other(item)
    return folding.finish()


class Folding:
    """One line of play being written inline."""

    def __init__(self, state: PhilosophyState, line: Line, branching: set[int]) -> None:
        self.state, self.line, self.branching = state, line, branching
        self.out: list[Item] = []
        self.taking: int | None = None  # index in ``out`` of the placement taking choices
        self.deferred: list[EventNode] = []  # events played meanwhile: written after it
        self.placed: int | None = None  # index in ``out`` of the last event, a placement
        self.before: PhilosophyState | None = None  # the state before the last event
        self.read = self.written = self.branches = 0

    def event(self, index: int, node: EventNode) -> None:
        event, taking = node.event, self.taking is not None and index not in self.branching
        self.before = self.state.copy() if index in self.branching else None
        self.read, self.branches = self.read + 1, 0
        play(self.state, node, self.line.read + self.read, self.line.label)
        if taking and isinstance(event, Choice) and not node.nags:
            self.fold(event)
        elif taking and not isinstance(event, (Choice, Placement)):
            self.deferred.append(node)  # the reference's way: after the folded placement
        else:
            self.write(node)
            self.placed = len(self.out) - 1 if isinstance(event, Placement) else None
            self.taking = (self.placed if self.state.pending is not None
                           and index not in self.branching else None)

    def other(self, item: Item) -> None:
        """A comment, directive or variation: it ends the folding where it stands."""
        self.write()
        if isinstance(item, Variation):
            self.branches += 1
            if self.before is not None:
                line = self.line.branch(self.line.read + self.read,
                                        self.line.written + self.written, self.branches)
                item = replace(item, items=inline(item.items, self.before.copy(), line))
        self.out.append(item)

    def fold(self, choice: Choice) -> None:
        assert self.taking is not None
        node = self.out[self.taking]
        assert isinstance(node, EventNode)
        placement = close(node.event._replace(params=node.event.params + (choice.option,)),
                          self.state)
        self.out[self.taking] = replace(node, event=placement, text=str(placement))

    def write(self, node: EventNode | None = None) -> None:
        """The deferred events, then ``node``; the folding ends."""
        for each in [*self.deferred, *([node] if node else [])]:
            self.written += 1
            self.out.append(numbered(each, self.line.written + self.written))
        self.deferred, self.taking = [], None

    def finish(self) -> list[Item]:
        """The line written; a placement whose choice its end leaves open lists the options
        (the reference's way of writing an unfinished move)."""
        self.write()
        pending = self.state.pending
        if self.placed is not None and pending is not None:
            node = self.out[self.placed]
            assert isinstance(node, EventNode)
            if self.state.mover == node.event.player:
                placement = node.event._replace(closed=False, options=pending.options)
                self.out[self.placed] = replace(node, event=placement, text=str(placement))
        return self.out


def separate(items: list[Item], state: PhilosophyState, line: Line) -> list[Item]:
    """One line of play with its bracket choices written as bare events where they can
    be (``state``: the line's start, which this plays on), its variations converted
    from their branch points."""
    branching = branch_points(items)
    out: list[Item] = []
    place = -1  # where the last event's variations go in ``out`` (-1: at the end)
    before: PhilosophyState | None = None
    read = written = branches = 0
    branch_written = 0  # plies written up to the event the variations are alternatives to
    for index, item in enumerate(items):
        if isinstance(item, Variation):
            branches += 1
            converted = item if before is None else replace(item, items=separate(
                item.items, before.copy(),
                line.branch(line.read + read, line.written + branch_written, branches)))
            if place < 0:
                out.append(converted)
            else:
                out.insert(place, converted)
                place += 1
            continue
        if not isinstance(item, EventNode):
            out.append(item)
            continue
        event = item.event
        before = state.copy() if index in branching else None
        unsplit = (state.copy() if isinstance(event, Placement) and event.params and event.dots
                   else None)
        read, branches = read + 1, 0
        play(state, item, line.read + read, line.label)
        if not (isinstance(event, Placement) and event.params and splits(event, unsplit)):
            written += 1
            branch_written, place = written, -1
            out.append(numbered(item, line.written + written))
            continue
        bare = event._replace(params=(), closed=False, options=None)
        written += 1
        branch_written = written
        out.append(numbered(replace(item, event=bare, text=str(bare)), line.written + written))
        place = len(out)
        for option in event.params:
            written += 1
            number = None if item.number is None else line.written + written
            out.append(EventNode(Choice(option), number, item.pos, option))
    return out


def splits(placement: Placement, before: PhilosophyState | None) -> bool:
    """Whether the placement's dots (if any) count what its bare form makes (``before``:
    the state before it, which this plays on; dots unchecked)."""
    if before is None:
        return True
    bare = placement._replace(params=(), closed=False, options=None, dots=0)
    apply(before, bare)
    return len(before.conclusions()) == placement.dots


def play(state: PhilosophyState, node: EventNode, ply: int, label: str) -> None:
    """Apply one event; a record that breaks the rules cannot be converted."""
    try:
        apply(state, node.event)
    except RuleError as exc:
        where = f" in {label}" if label else ""
        raise NotationError(f"cannot convert past ply {ply} ({node.text or node.event})"
                            f"{where}: {exc.message}") from None


def close(placement: Placement, state: PhilosophyState) -> Placement:
    """A placement that took a choice: brackets closed once no choice of its own is open
    (then its dots count the lines made), options unlisted while the line goes on."""
    done = state.pending is None or state.mover != placement.player
    return placement._replace(closed=done, options=None, dots=len(state.conclusions())
                              if done and placement.dots else placement.dots)


def numbered(node: EventNode, ply: int) -> EventNode:
    """The node at its new ply, numbered if it was."""
    return node if node.number in (None, ply) else replace(node, number=ply)
