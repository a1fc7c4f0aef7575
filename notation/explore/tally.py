"""Results per seat, summed over the games that went through a position or a move."""
from __future__ import annotations

from typing import Any

from .seats import KINDS, SeatResult


class Tally:
    """Counts of each kind of result (:data:`~.seats.KINDS`) per seat, and the sum
    of the seat's final scores over the games that have one."""

    __slots__ = ("counts", "scores")

    def __init__(self) -> None:
        self.counts: dict[str, dict[str, int]] = {}
        self.scores: dict[str, list[float]] = {}  # seat: [total, games scored]

    def add(self, results: list[SeatResult]) -> None:
        """Count one game's results."""
        for result in results:
            counts = self.counts.get(result.seat)
            if counts is None:
                counts = self.counts[result.seat] = dict.fromkeys(KINDS, 0)
            counts[result.kind] += 1
            if result.score is not None:
                total = self.scores.setdefault(result.seat, [0.0, 0])
                total[0] += result.score
                total[1] += 1

    def mean_score(self, seat: str) -> float | None:
        """The seat's mean final score (None: no game with a score)."""
        total = self.scores.get(seat)
        return round(total[0] / total[1], 3) if total else None

    def as_json(self) -> dict[str, dict[str, Any]]:
        """``{seat: {"wins", "shared", "losses", "no_winner", "unfinished",
        "mean_score"}}``, seats in the order they were first met."""
        return {seat: {**counts, "mean_score": self.mean_score(seat)}
                for seat, counts in self.counts.items()}
