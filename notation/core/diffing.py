"""Comparing two records, or two states, of the same game."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


from .tree import GameNode
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


def diff_records(a: GameNode, b: GameNode, game: AnyGame, until: int | None = None) -> RecordDiff:
    """Compare the mainlines move by move (``Game.event_keys``: two spellings of one move
    are the same move), then the states after ``until`` (default: the end). The first
    differing events are given as each record writes them (canonical spelling)."""
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
    return RecordDiff(first, _event_text(game, a, first), _event_text(game, b, first),
                      oa.plies, ob.plies, cells, oa, ob)


def _event_text(game: AnyGame, record: GameNode, ply: int | None) -> str | None:
    """The mainline's event at ``ply`` (1-based) in canonical spelling; None: no such ply."""
    events = record.events
    return game.format_event(events[ply - 1]) if ply and ply <= len(events) else None
