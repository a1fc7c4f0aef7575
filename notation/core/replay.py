"""The replay driver: from a parsed record to the state after every ply.

It knows no game. It checks what the container promises (tags once each,
event numbers equal to the event's index, every event readable), asks the
game for the starting state, then applies events until the end, the first
problem, or the requested ply.
"""
from __future__ import annotations

import functools
from typing import Any, Iterator

from . import registry
from .ast import EventNode, Item, Malformed, MalformedKind, Pos, Tag, Unlisted, Variation
from .ast import tag_values
from .protocols import RecordView, Result
from .errors import Error, Problem, ProblemKind, RuleError, TagError
from .game import AnyGame
from .hand_dataclass import hand_dataclass
from .limits import Listing
from .outcome import Judged, Outcome
from .replayer import (Line, Replayer, first_syntax_problems, internal_problem, refusal,
                       variation_label)

__all__ = ["CORE_TAGS", "ReplayError", "Step", "check_result_tags", "end_checks", "game_of",
           "internal_problem", "positions", "replay", "run", "structure_problems",
           "variation_label"]


@hand_dataclass(slots=True)
class Step:
    """The state right after event number ``ply`` (1-based) was applied.

    ``state`` is the live state of the replay: it changes on the next step (a
    snapshot per ply would make every replay pay for what few keep). Keep a
    step with :meth:`copy`, or play on from a record's end with ``Position.from_record(record)``.
    """

    ply: int
    event: Any
    node: EventNode
    state: Any
    game: AnyGame

    def __init__(self, ply: int, event: Any, node: EventNode, state: Any, game: AnyGame) -> None:
        self.ply = ply
        self.event = event
        self.node = node
        self.state = state
        self.game = game

    def _repr_svg_(self) -> str | None:
        """Notebooks draw a step as its position (None: a game without pictures)."""
        return None if self.game.pictures is None else self.game.svg(self.state)

    def copy(self) -> Step:
        """The same step with a snapshot of its state, which the replay leaves alone."""
        return Step(self.ply, self.event, self.node, self.game.copy(self.state), self.game)


class ReplayError(Error):
    """Raised by :func:`replay` at the first problem of a record.

    ``source``, ``line`` and ``column`` say where; ``problem`` has the rest.
    """

    def __init__(self, problem: Problem, source: str = "<string>", index: int = 1) -> None:
        super().__init__(f"{source}:{problem.line}:{problem.column}: {problem.describe()}")
        self.problem = problem
        self.source = source
        self.index = index
        self.line = problem.line
        self.column = problem.column


def game_of(record: RecordView) -> AnyGame | None:
    return registry.get(record.game) if record.game else None


#: Tags the core itself reads, whatever the game.
CORE_TAGS = ("Game", "Position", "Result", "Forfeit", "Termination", "TerminationDetails")


def structure_problems(record: RecordView) -> list[Problem]:
    """Syntax problems: unknown game, bad tags, unreadable events, wrong numbers (as
    listed: the first ``MAX_PROBLEMS``, then how many more)."""
    if _plainly_clean(record):  # (the reader's fast path asks this of every game)
        return []
    return _structure(record).listed()


def _plainly_clean(record: RecordView) -> bool:
    """Whether ``record`` has no syntax problem, seen at a glance: a known game, no body
    yet, each tag read, given once, and spelt as the game spells it or not one it
    reads. False says nothing (:func:`_structure` then looks); a test holds a True to it."""
    if record.game_problem or record.items:
        return False
    game = game_of(record)
    if game is None:
        return False
    exact, known = _exact_tags(game), _known_tags(game)
    seen: set[str] = set()
    for tag in record.tags:  # (a loop: quicker than sets made of the names, measured)
        if not isinstance(tag, Tag):
            return False
        key = tag.key
        if key in seen or key not in exact and key.lower() in known:
            return False
        seen.add(key)
    return True


def _structure(record: RecordView, until: int | None = None) -> Listing:
    """The syntax problems found (up to ply ``until``)."""
    problems = Listing(until)
    if record.game_problem:
        problems.add(Problem(ProblemKind.SYNTAX, record.pos.line, record.pos.column, 0, None,
                             record.game_problem))
        return problems
    game = game_of(record)
    known = _known_tags(game) if game else _CORE_KNOWN
    seen: dict[str, Pos] = {}
    for tag in record.tags:
        if isinstance(tag, Malformed):
            problems.add(Problem(ProblemKind.SYNTAX, tag.pos.line, tag.pos.column, 0, None,
                                 tag.message), _count(tag))
            continue
        meant = known.get(tag.key.lower())
        if meant is not None and meant != tag.key:
            problems.add(Problem(ProblemKind.SYNTAX, tag.pos.line, tag.pos.column, 0, None,
                                 f"unknown tag [{tag.key}]; did you mean [{meant}]? "
                                 f"(tag names are case-sensitive)"))
        if tag.key in seen:
            first = seen[tag.key]
            problems.add(Problem(ProblemKind.SYNTAX, tag.pos.line, tag.pos.column, 0, None,
                                 f"tag [{tag.key}] given twice (first at line {first.line})"))
        else:
            seen[tag.key] = tag.pos
    _line_problems(record.items, 0, "", problems)
    return problems


@functools.lru_cache(maxsize=64)
def _known_tags(game: AnyGame) -> dict[str, str]:
    """The tags the core and ``game`` read, by their lower-case names (made once a game,
    which is its own key: one registered anew is another; never changed by a caller)."""
    return {k.lower(): k for k in (*CORE_TAGS, *game.tags)}


@functools.lru_cache(maxsize=64)
def _exact_tags(game: AnyGame) -> frozenset[str]:
    """The tags the core and ``game`` read, as they are spelt (as :func:`_known_tags`)."""
    return frozenset(_known_tags(game).values())


_CORE_KNOWN = {k.lower(): k for k in CORE_TAGS}


def _count(item: Malformed) -> int:
    """How many problems a malformed item stands for (an :class:`Unlisted` run, many)."""
    return item.count if isinstance(item, Unlisted) else 1


def _line_problems(items: list[Item], ply: int, label: str, problems: Listing) -> None:
    """The syntax problems of one line of play (the mainline, or a variation ``label``
    whose events count on from ``ply``), and of the variations in it."""
    after_event = False  # a variation is an alternative to the event just before it
    branches = 0         # variations since that event
    for item in items:
        if isinstance(item, EventNode):
            ply += 1
            after_event, branches = True, 0
            if item.number is not None and item.number != ply:
                problems.add(Problem(ProblemKind.SYNTAX, item.pos.line, item.pos.column, ply,
                                     item.text, f"event number {item.number}. should be {ply}.",
                                     "", label))
        elif isinstance(item, Variation):
            branches += 1
            base = ply - 1 if after_event else ply  # (no event before it: a problem below)
            inner = variation_label(branches, base, label)
            if not after_event:
                problems.add(Problem(ProblemKind.SYNTAX, item.pos.line, item.pos.column, ply + 1,
                                     None, "a variation '(' must follow the event it is an "
                                     "alternative to", "", label))
            if not item.closed:
                problems.add(Problem(ProblemKind.SYNTAX, item.pos.line, item.pos.column, ply,
                                     None, "variation '(' is never closed", "", label))
            _line_problems(item.items, base, inner, problems)
        elif isinstance(item, Malformed):
            count = _count(item)
            text = None if isinstance(item, Unlisted) else item.text
            if item.what == MalformedKind.EVENT:
                problems.add(Problem(ProblemKind.SYNTAX, item.pos.line, item.pos.column, ply + 1,
                                     text, item.message, "", label), count)
                ply += count
                after_event, branches = True, 0
            elif item.what == MalformedKind.NUMBER:
                problems.add(Problem(ProblemKind.SYNTAX, item.pos.line, item.pos.column, ply + 1,
                                     text, item.message, "", label), count)
            elif item.what == MalformedKind.ANNOTATION:  # on the event before it, if any
                problems.add(Problem(ProblemKind.SYNTAX, item.pos.line, item.pos.column,
                                     ply if ply else 1, None, item.message, "", label), count)
            else:  # a comment never closed (it swallowed the rest of the game), a stray ")"
                problems.add(Problem(ProblemKind.SYNTAX, item.pos.line, item.pos.column, ply + 1,
                                     None, item.message, "", label), count)


def _tag_problem(record: RecordView, exc: TagError) -> Problem:
    pos = next((t.pos for t in record.tags if getattr(t, "key", None) == exc.key), record.pos)
    return refusal(exc, pos, 0, None)


def check_result_tags(record: RecordView, game: AnyGame, state: Any,
                      standing: Result | None = None) -> None:
    """Each result tag the record gives must say what the replay reached (RuleError);
    ``standing``: ``game.result(state)`` where the caller has it already."""
    _check_result_tags(tag_values(record.tags), game, state, standing)


def _check_result_tags(tags: dict[str, str], game: AnyGame, state: Any,
                       standing: Result | None) -> None:
    expected_tags = game.result_tags(state) if standing is None else standing.tags
    for key, expected in expected_tags.items():
        given = tags.get(key)
        if given is None or given == expected:
            continue
        over = game.is_over(state) if standing is None else standing.over
        if not over:
            why = (f"the record stops before the game is over (expected \"{expected}\")")
        elif given == "*":
            why = f"the game is over: \"{expected}\""
        else:
            why = f"the game ended \"{expected}\""
        raise RuleError(f"[{key} \"{given}\"] but {why}", f"{key} tag")


def end_checks(record: RecordView, game: AnyGame, state: Any, ply: int,
               standing: Result | None = None) -> Problem | None:
    """The end-of-record checks (its result tags), at the record's last item
    (``standing``: as for :func:`check_result_tags`)."""
    last = record.items[-1].pos if record.items else record.pos
    tags = tag_values(record.tags)
    try:
        _check_result_tags(tags, game, state, standing)
        if "Forfeit" in tags:  # (start-up: the module loads for a forfeit only)
            from .forfeit import check_forfeit
            check_forfeit(record, game, state)
    except Exception as exc:
        return refusal(exc, last, ply, None)
    return None


def _start(record: RecordView, game: AnyGame) -> Any:
    """The starting state; TagError for a tag the game cannot start from."""
    return game.start(record)


class _Checking(Replayer):
    """Keeps the problems of the variations (each stops its own line only), in the order
    they are met; the mainline's is its line's."""

    def __init__(self, record: RecordView, game: AnyGame, found: Listing,
                 until: int | None = None) -> None:
        stops = {label: p.ply for label, p in first_syntax_problems(found.kept).items()}
        super().__init__(game, stops, until, record.has_variations and until is None)
        self.inside = Listing()

    def on_problem(self, line: Line, problem: Problem) -> None:
        if line.label:
            self.inside.add(problem)


def run(record: RecordView, until: int | None = None) -> Outcome:
    """Replay ``record`` (up to ``until`` plies) and report every problem found.

    Syntax problems are all found (the first ``MAX_PROBLEMS`` listed, then how many
    more); replay stops before the first event that has a problem, so ``state`` is the
    state before the bad event. Variations (when all is replayed) are played from their
    branch points on the way, each stopping at its own first problem.
    """
    if record.outcome is not None and until is None:  # replayed by the reader's fast path
        known: Judged = record.outcome
        return Outcome(record, known.game, known.state, known.plies, standing=known.standing)
    game = game_of(record)
    found = _structure(record, None if game is None else until)
    problems = found.kept  # the few found below join these, and are listed as they are
    if game is None:
        return Outcome(record, None, None, 0, found.listed())
    try:
        state = _start(record, game)
    except TagError as exc:
        problems.insert(0, _tag_problem(record, exc))
        return Outcome(record, game, None, 0, found.listed())
    except Exception as exc:
        problems.insert(0, internal_problem(record, exc))
        return Outcome(record, game, None, 0, found.listed())
    stop = None if found.first is None else found.first.ply
    if stop == 0:
        return Outcome(record, game, state, 0, found.listed())
    checking = _Checking(record, game, found, until)
    line = Line(record.items, state, stop=stop)
    for _ in checking.play(line):
        pass
    if line.problem is not None:
        problems.append(line.problem)
        problems.sort(key=lambda p: p.ply)
    elif line.complete and found.first is None:
        problem = end_checks(record, game, state, line.plies)
        if problem is not None:
            problems.append(problem)
    found.absorb(checking.inside)
    return Outcome(record, game, state, line.plies, found.listed())


def positions(outcome: Outcome) -> Iterator[tuple[int, Any, Any]]:
    """``(ply, event, state)`` from the start (ply 0, no event) through every ply the
    outcome reached, stopping before its first problem: what ``--every`` and the viewer
    step through. ``state`` is live, as in :class:`Step`."""
    game, record = outcome.game, outcome.record
    if game is None or outcome.state is None or record is None:
        return
    yield 0, None, game.start(record)
    try:
        for step in replay(record, until=outcome.plies):
            yield step.ply, step.event, step.state
    except ReplayError:  # the outcome's problems say why
        pass


def replay(record: RecordView, until: int | None = None) -> Iterator[Step]:
    """Yield a :class:`Step` after each event; raise :class:`ReplayError` at a problem
    (the mainline's first; once the mainline is good, a variation's)."""
    game = game_of(record)
    found = _structure(record)
    problems = found.kept

    def error(problem: Problem) -> ReplayError:
        return ReplayError(problem, record.source, record.index)

    if game is None:
        raise error(problems[0])
    try:
        state = _start(record, game)
    except TagError as exc:
        raise error(_tag_problem(record, exc)) from None
    except Exception as exc:
        raise error(internal_problem(record, exc)) from None
    first = found.first
    checking = _Checking(record, game, found, until)
    line = Line(record.items, state, stop=None if first is None else first.ply)
    if first is None or first.ply > 0:
        for ply, node, live in checking.play(line):
            yield Step(ply, node.event, node, live, game)
    if line.problem is not None:
        raise error(line.problem)
    if first is not None and (until is None or first.ply <= until):
        raise error(first)
    if until is not None and line.plies >= until and not line.complete:
        return
    problem = end_checks(record, game, state, line.plies)
    if problem is not None:
        raise error(problem)
    inside = [p for p in problems if p.variation] + checking.inside.listed()
    if inside:
        raise error(inside[0])
