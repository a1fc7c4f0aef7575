"""The verdict on one record: what replaying it found.

:func:`notation.core.replay.run` returns it; the pool workers and Dask tasks
of the runner return it too, which is why it is kept apart from the replay
driver.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .ast import Record
from .errors import Problem
from .game import Game


@dataclass(slots=True)
class Outcome:
    """What replaying one record found."""

    record: Record
    game: Game | None
    state: Any  # the state after the last applied event; None if there is none
    plies: int  # events applied
    problems: list[Problem] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def error(self) -> Problem | None:
        """The first problem in record order."""
        return self.problems[0] if self.problems else None
