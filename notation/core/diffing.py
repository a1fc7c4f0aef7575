"""Comparing two records, or two states, of the same game."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .ast import Record
from .game import AnyGame
from .outcome import Outcome
from .replay import run


@dataclass(slots=True)
class CellChange:
    name: str
    a: str | None  # None: absent (an empty square, say)
    b: str | None


@dataclass(slots=True)
class RecordDiff:
    """Where two records part ways, and how their states differ at one ply."""

    first_ply: int | None  # 1-based ply of the first differing event, None if equal
    event_a: str | None
    event_b: str | None
    ply_a: int  # plies replayed on each side before comparing states
    ply_b: int
    cells: list[CellChange] = field(default_factory=list)
    outcome_a: Outcome | None = None
    outcome_b: Outcome | None = None

    @property
    def same(self) -> bool:
        return self.first_ply is None and not self.cells


def diff_states(game: AnyGame, a: Any, b: Any) -> list[CellChange]:
    """Every named part of the two states that differs, in a stable order."""
    ca, cb = game.cells(a), game.cells(b)
    names = list(ca) + [n for n in cb if n not in ca]
    return [CellChange(n, ca.get(n), cb.get(n)) for n in names if ca.get(n) != cb.get(n)]


def diff_records(a: Record, b: Record, game: AnyGame, until: int | None = None) -> RecordDiff:
    """Compare events in canonical spelling, then the states after ``until`` (default: the end)."""
    ea, eb = game.event_keys(a), game.event_keys(b)
    first = None
    for i in range(max(len(ea), len(eb))):
        x = ea[i] if i < len(ea) else None
        y = eb[i] if i < len(eb) else None
        if x != y:
            first = i + 1
            break
    oa, ob = run(a, until), run(b, until)
    cells = diff_states(game, oa.state, ob.state) if oa.state is not None and ob.state is not None else []
    return RecordDiff(first, ea[first - 1] if first and first <= len(ea) else None,
                      eb[first - 1] if first and first <= len(eb) else None,
                      oa.plies, ob.plies, cells, oa, ob)
