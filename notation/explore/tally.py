"""Results per seat, summed over the games that went through a position or a move.

A game is added at every position and move it passes (twice the depth, and once more), so
a tally counts what is cheap to count: each *pattern* of results (the seat and kind of
each seat of one game, :class:`GameResults`) with the games that made it, and each
seating's scores summed at once. The counts per seat are worked out when the tally is
written, once (measured: adding was two thirds of filing a game, counted seat by seat).
"""
from __future__ import annotations

from operator import add
from typing import Any

from .seats import KINDS, SeatResult


class GameResults:
    """One game's results as a tally adds them: ``pattern`` (each seat with its kind),
    ``seats``, and ``scores``: the seats' scores (0 where none) then whether each has
    one (1 or 0), summed as one row; None when no seat has a score."""

    __slots__ = ("pattern", "seats", "scores")

    def __init__(self, results: list[SeatResult]) -> None:
        self.seats = tuple([result.seat for result in results])
        self.pattern = tuple(zip(self.seats, [result.kind for result in results]))
        scores = [result.score for result in results]
        self.scores: tuple[float, ...] | None = None
        if scores.count(None) < len(scores):
            self.scores = (*[0.0 if score is None else score for score in scores],
                           *[0.0 if score is None else 1.0 for score in scores])


class Tally:
    """Counts of each kind of result (:data:`~.seats.KINDS`) per seat, and the sum
    of the seat's final scores over the games that have one."""

    __slots__ = ("patterns", "sums")

    def __init__(self) -> None:
        self.patterns: dict[tuple[tuple[str, str], ...], int] = {}
        self.sums: dict[tuple[str, ...], list[float]] = {}  # seats: their scores, then counts

    def add(self, results: GameResults | list[SeatResult]) -> None:
        """Count one game's results."""
        if not isinstance(results, GameResults):
            results = GameResults(results)
        patterns = self.patterns
        pattern = results.pattern
        patterns[pattern] = patterns.get(pattern, 0) + 1
        scores = results.scores
        if scores is not None:
            total = self.sums.get(results.seats)
            if total is None:
                self.sums[results.seats] = list(scores)
            else:
                total[:] = map(add, total, scores)

    def _means(self) -> dict[str, float]:
        """Each seat's mean final score, over the games that have one."""
        totals: dict[str, list[float]] = {}
        for seats, row in self.sums.items():
            for seat, total, games in zip(seats, row, row[len(seats):]):
                if games:
                    summed = totals.setdefault(seat, [0.0, 0.0])
                    summed[0] += total
                    summed[1] += games
        return {seat: _mean(total, games) for seat, (total, games) in totals.items()}

    def mean_score(self, seat: str) -> float | None:
        """The seat's mean final score (None: no game with a score)."""
        return self._means().get(seat)

    def as_json(self) -> dict[str, dict[str, Any]]:
        """``{seat: {"wins", "shared", "losses", "no_winner", "unfinished",
        "mean_score"}}``, seats in the order they were first met."""
        rows: dict[str, dict[str, Any]] = {}
        for pattern, games in self.patterns.items():  # (in the order first made)
            for seat, kind in pattern:
                row = rows.get(seat)
                if row is None:
                    row = rows[seat] = _NO_GAMES.copy()
                row[kind] += games
        if len(self.sums) == 1:  # (one seating, the usual case: no sums across seatings)
            [(seats, summed)] = self.sums.items()
            for seat, total, scored in zip(seats, summed, summed[len(seats):]):
                if scored:
                    rows[seat]["mean_score"] = _mean(total, scored)
        elif self.sums:
            for seat, mean in self._means().items():
                rows[seat]["mean_score"] = mean
        return rows


#: A seat's row before any game is counted.
_NO_GAMES: dict[str, Any] = {**dict.fromkeys(KINDS, 0), "mean_score": None}


def _mean(total: float, games: float) -> float:
    """A mean score to three decimals (``round`` is slow on floats: a whole mean is kept as
    it is, which is what ``round`` gives it)."""
    mean = total / games
    return mean if mean.is_integer() else round(mean, 3)
