"""The one replay: a record's lines of play, every event checked against the rules once.

A :class:`Replayer` plays a line of play (the mainline, or a variation from its branch
point) on one live state and yields the position after each event; it stops the line at
its first problem, which it hands to :meth:`Replayer.on_problem`, and hands each
variation it meets to :meth:`Replayer.branch` with a state of its own. Validation
(:func:`~notation.core.replay.run`), the step-by-step replay, the walked tree of the
viewer and ``replay --json --tree`` and a :class:`~notation.core.position.Position`
built from a record are its clients: what differs between them is what they keep.

A state is copied only where a variation starts, so a record without variations costs
no copy per event. :func:`refusal` is the one place a rule's refusal becomes a
:class:`~notation.core.errors.Problem`.
"""
from __future__ import annotations

from typing import Any, Iterable, Iterator, Mapping

from .ast import EventNode, Item, Malformed, MalformedKind, Pos, Variation, branch_points
from .protocols import RecordView
from .errors import WITHIN, Problem, ProblemKind, RuleError, TagError
from .game import AnyGame
from .hand_dataclass import hand_dataclass


def variation_label(number: int, ply: int, outer: str = "") -> str:
    """``variation 2 after ply 9``, then the variation it is in, if any."""
    label = f"variation {number} after ply {ply}"
    return f"{label}{WITHIN}{outer}" if outer else label


def internal_problem(record: RecordView, exc: BaseException, pos: Pos | None = None, ply: int = 0,
                     event: str | None = None, label: str = "") -> Problem:
    """A bug of ours met while working on ``record``: reported where it struck (the record's
    start unless ``pos`` says), and the run goes on. Every path reports one this way."""
    return _internal(exc, record.pos if pos is None else pos, ply, event, label)


def _internal(exc: BaseException, pos: Pos, ply: int, event: str | None,
              label: str) -> Problem:
    return Problem(ProblemKind.INTERNAL, pos.line, pos.column, ply, event,
                   f"internal error: {exc.__class__.__name__}: {exc}", "", label)


def refusal(exc: BaseException, pos: Pos, ply: int, event: str | None,
            label: str = "") -> Problem:
    """What starting, applying or finishing at ``pos`` raised, as a problem: a rule's
    refusal (:class:`RuleError`, or :class:`TagError` for a start) names its rule; anything
    else is a bug of ours, said where. The one place a refusal becomes a problem."""
    if isinstance(exc, RuleError):
        return Problem(ProblemKind.RULE, pos.line, pos.column, ply, event, exc.message,
                       exc.rule, label)
    if isinstance(exc, TagError):  # a tag the game cannot start from
        return Problem(ProblemKind.RULE, pos.line, pos.column, ply, event, exc.message,
                       f"tag {exc.key}", label)
    return _internal(exc, pos, ply, event, label)


def first_syntax_problems(problems: Iterable[Problem]) -> dict[str, Problem]:
    """Each line's first syntax problem after its start (the least ply, the first found of
    it), by label ("" for the mainline): where that line stops unplayed."""
    first: dict[str, Problem] = {}
    for problem in problems:
        if problem.kind == ProblemKind.SYNTAX and problem.ply > 0:
            known = first.get(problem.variation)
            if known is None or problem.ply < known.ply:
                first[problem.variation] = problem
    return first


@hand_dataclass(slots=True, eq=False)
class Line:
    """One line of play, as the replayer plays it.

    ``state`` is the line's own live state (None: not known, nothing is played); after
    :meth:`Replayer.play`, ``plies`` counts the events applied on it from the record's
    start, ``complete`` says whether every event was, and ``problem`` is the rule (or
    internal) problem that stopped it, if one did.
    """

    items: list[Item]
    state: Any
    #: Events before its first, from the record's start (its events count on from here).
    ply: int = 0
    #: "" for the mainline, else ``variation N after ply Q`` (as problems name variations).
    label: str = ""
    #: The ply of its first syntax problem, where it stops unplayed (None: it has none).
    stop: int | None = None
    plies: int = 0
    complete: bool = True
    problem: Problem | None = None

    def __init__(self, items: list[Item], state: Any, ply: int = 0, label: str = "",
                 stop: int | None = None, plies: int = 0, complete: bool = True,
                 problem: Problem | None = None) -> None:
        self.items = items
        self.state = state
        self.ply = ply
        self.label = label
        self.stop = stop
        self.plies = plies
        self.complete = complete
        self.problem = problem


class Replayer:
    """Plays lines of play of one record; subclasses say what they keep.

    ``stops``: the first syntax problem's ply of each variation, by label (a line stops
    before it; the mainline's is its :class:`Line`'s ``stop``). ``until``: the mainline
    stops after that many plies. ``variations``: whether variations are played at all.
    """

    def __init__(self, game: AnyGame, stops: Mapping[str, int] | None = None,
                 until: int | None = None, variations: bool = True) -> None:
        self.game = game
        self.stops: Mapping[str, int] = stops or {}
        self.until = until
        self.variations = variations

    def on_problem(self, line: Line, problem: Problem) -> None:
        """The problem that stopped ``line`` (it is also ``line.problem``)."""

    def before_event(self, line: Line, ply: int, node: EventNode, state: Any) -> None:
        """``node``'s event is about to be applied to ``state`` (the position it is played
        in): a client that needs it before (the canonical spelling, who moves) looks here.
        Not called unless a subclass defines it (the replay's hot loop pays nothing)."""

    def branch(self, line: Line, variation: Line) -> None:
        """A variation of ``line`` was met, with a state of its own (None when the event it
        replaces was not reached). By default it is played at once, to its end."""
        for _ in self.play(variation):
            pass

    def play(self, line: Line) -> Iterator[tuple[int, EventNode, Any]]:
        """Play ``line``: ``(ply, event node, live state)`` after each event applied. It
        ends at the line's end, its first problem or the mainline's ``until``; variations
        met on the way go to :meth:`branch` (past a problem too: an alternative to the
        bad event is still played from the position before it)."""
        game = self.game
        apply = game.apply if line.state is not None else None  # (no state: nothing played)
        state, ply, label = line.state, line.ply, line.label
        stop = line.stop
        until = None if label else self.until
        variations = self.variations
        branching = branch_points(line.items) if variations else ()
        before: Any = None  # the state before the last event, where its variations start
        last = False        # an event met on this line: a variation has one to replace
        ahead = (self.before_event if type(self).before_event is not Replayer.before_event
                 else None)
        branches = 0
        line.plies = ply
        for at, item in enumerate(line.items):
            kind = type(item)
            if kind is EventNode or (isinstance(item, Malformed)
                                     and item.what == MalformedKind.EVENT):
                if until is not None and ply >= until:
                    line.complete = False
                    break
                ply, last, branches = ply + 1, True, 0
                if state is None:  # not known: after a problem, or never reached
                    line.complete, before = False, None
                    continue
                before = game.copy(state) if at in branching else None
                if kind is not EventNode or ply == stop:  # a syntax problem, reported
                    line.complete, state = False, None
                    continue
                node: EventNode = item  # type: ignore[assignment]
                if ahead is not None:
                    ahead(line, ply, node, state)
                try:
                    apply(state, node.event)  # type: ignore[misc]
                except Exception as exc:  # the state may be half-changed: the line stops
                    line.problem = refusal(exc, node.pos, ply, node.text, label)
                    line.complete, state = False, None
                    self.on_problem(line, line.problem)
                    continue
                line.plies = ply
                yield ply, node, state
            elif kind is Variation and variations:
                branches += 1
                if last:  # else a syntax problem of the record: no event to replace
                    inner = variation_label(branches, ply - 1, label)
                    start = None if before is None else game.copy(before)
                    self.branch(line, Line(item.items, start, ply - 1, inner,  # type: ignore[union-attr]
                                           self.stops.get(inner)))
