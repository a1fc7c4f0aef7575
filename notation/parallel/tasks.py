"""What the runner does with each game: a task turns a record into its :class:`Outcome`.

A task is sent to worker processes and Dask workers, so its function is a
module-level one (or a ``functools.partial`` of one). A bug of ours in a task
becomes that game's internal problem; the run goes on.
"""
from __future__ import annotations

from typing import Callable


from notation.core.hand_dataclass import hand_dataclass
from notation.core.tree import GameNode
from notation.core.outcome import Outcome
from notation.core.replay import internal_problem, run


@hand_dataclass(frozen=True, slots=True)
class Task:
    """A function from a record to its outcome, and whether it needs the record's events.

    Without ``events``, valid games are read by the fast path: replayed as they
    are scanned, their events left out (what verdicts need, and quicker). With
    ``headers``, plain games come with their tags only, their events still in their
    text, for a task that reads and replays them itself (``export``).
    """

    apply: Callable[[GameNode], Outcome]
    events: bool = False
    headers: bool = False
    #: Whether the consumer reads a valid game's tags and result (JSON verdicts): without,
    #: a valid game comes home with its place and plies alone (:meth:`Outcome.detached`).
    facts: bool = True

    def __init__(self, apply: Callable[[GameNode], Outcome], events: bool = False,
                 headers: bool = False, facts: bool = True) -> None:
        object.__setattr__(self, "apply", apply)
        object.__setattr__(self, "events", events)
        object.__setattr__(self, "headers", headers)
        object.__setattr__(self, "facts", facts)

    @property
    def checked(self) -> bool:
        """Whether its records are read on the fast path (``records_of``'s ``checked``)."""
        return not (self.events or self.headers)


def replayed(record: GameNode) -> Outcome:
    """The verdict with the final position and state as JSON (``replay --json``)."""
    from notation.core.output import position_json  # (start-up: a check needs none)
    outcome = run(record)
    outcome.data = position_json(outcome)
    return outcome


def formatted(record: GameNode) -> Outcome:
    """The verdict and, if the game has no problem, its canonical text (``fmt``): the same
    text ``fmt`` writes in one process (:func:`notation.archive.rewrite.canonical_text`)."""
    from notation.core.writer import format_record  # (start-up: a check writes nothing)
    outcome = run(record)
    if outcome.valid and outcome.game is not None:
        outcome.text = format_record(record, outcome.game)
    return outcome


#: The verdict alone (``validate --json``: with every game's tags and result).
VALIDATE = Task(run)
#: The verdict, a valid game's tags and result left out (``validate``'s lines).
VERDICTS = Task(run, facts=False)
#: The verdict with the position reached (``replay --json``).
REPLAY = Task(replayed)
#: The verdict with the canonical text (``fmt --check``).
FORMAT = Task(formatted, events=True)


def outcome_of(task: Task, record: GameNode) -> Outcome:
    """``task`` applied to ``record``; a bug of ours in the task is the game's internal problem."""
    try:
        return task.apply(record)
    except Exception as exc:  # run() guards the rules; this guards the task itself
        return Outcome(record, None, None, 0, [internal_problem(record, exc)])
