"""A game's problems as they are found, listed up to :data:`~.limits.MAX_PROBLEMS`.

Past the cap a problem is only counted: hostile text (a stray ``)`` a million times)
must cost neither a million objects nor a million lines of output. What is listed ends
with one problem that says how many more there were, at the first of them; the first
problem of the mainline, which decides where the replay stops, is kept whether listed
or not.
"""
from __future__ import annotations

from .errors import Problem, ProblemKind
from .limits import MAX_PROBLEMS


class Listing:
    """Problems in the order found: the first :data:`MAX_PROBLEMS` kept, the rest counted.

    ``until``: problems after that ply are not the caller's (``run(until=N)``) and are
    neither kept nor counted.
    """

    __slots__ = ("kept", "more", "next", "internal", "first", "until")

    def __init__(self, until: int | None = None) -> None:
        self.kept: list[Problem] = []
        self.more = 0                     # problems counted, not kept
        self.next: Problem | None = None  # the first of them
        self.internal = False             # one of them a bug of ours
        #: The mainline's first problem (the least ply, the first found of it): where
        #: the replay stops, kept or not.
        self.first: Problem | None = None
        self.until = until

    def add(self, problem: Problem, count: int = 1) -> None:
        """One problem found, or ``count`` in a row of which ``problem`` is the first."""
        if self.until is not None and problem.ply > self.until:
            return
        if not problem.variation and (self.first is None or problem.ply < self.first.ply):
            self.first = problem
        if len(self.kept) < MAX_PROBLEMS:
            self.kept.append(problem)
            count -= 1
        if count:
            self.next = self.next or problem
            self.more += count
            self.internal |= problem.kind == ProblemKind.INTERNAL

    def absorb(self, other: Listing) -> None:
        """Add what ``other`` found after what this found: its kept problems one by one,
        then the ones it only counted."""
        for problem in other.kept:
            self.add(problem)
        if other.more:
            assert other.next is not None  # (counted ones have their first)
            self.internal |= other.internal
            self.add(other.next, other.more)

    def listed(self) -> list[Problem]:
        """The problems to report: at most :data:`MAX_PROBLEMS` (the kept ones in their
        order now, however many the caller added to them), then one that says how many
        more there were, where the first of them is."""
        shown, rest = self.kept[:MAX_PROBLEMS], self.kept[MAX_PROBLEMS:]
        more = len(rest) + self.more
        if not more:
            return shown
        first = rest[0] if rest else self.next
        assert first is not None  # (counted ones have their first)
        internal = self.internal or any(p.kind == ProblemKind.INTERNAL for p in rest)
        return shown + [Problem(ProblemKind.INTERNAL if internal else first.kind, first.line,
                                first.column, first.ply, None,
                                f"... and {more:,} more problem{'s' * (more != 1)} (a game "
                                f"lists its first {MAX_PROBLEMS})", "", first.variation)]
