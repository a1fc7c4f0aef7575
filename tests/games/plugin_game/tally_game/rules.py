"""The rules of Tally (notation's Rules protocol): a start, a move played or refused,
the moves there are, the end."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from notation.core.errors import NotationError, RuleError, TagError
from notation.core.protocols import RecordView, Result

#: The seats, in turn order.
PLAYERS = "AB"


@dataclass
class Total:
    goal: int
    total: int = 0
    ply: int = 0


def start(record: RecordView, /) -> Total:
    goal = record.headers.get("Goal", "10")
    if not goal.isdigit() or not 2 <= int(goal) <= 99:
        raise TagError("Goal", f"goal must be 2..99, not {goal!r}")
    return Total(int(goal))


def apply(state: Total, event: int, /) -> None:
    if is_over(state):
        raise RuleError("the game is over", "game over")
    if state.total + event > state.goal:
        raise RuleError(f"{state.total} + {event} passes {state.goal}", "no overshoot")
    state.total += event
    state.ply += 1


def legal_moves(state: Total, /, **options: Any) -> list[int]:
    if options:
        raise NotationError(f"tally has no option {sorted(options)[0]}")
    return [] if is_over(state) else [n for n in (1, 2) if state.total + n <= state.goal]


def is_over(state: Total, /) -> bool:
    return state.total == state.goal


def copy(state: Total, /) -> Total:
    return Total(state.goal, state.total, state.ply)


def to_move(state: Total, /) -> str | None:
    return None if is_over(state) else PLAYERS[state.ply % 2]


def result(state: Total, /) -> Result:
    """Who made the goal won (the last to move)."""
    over = is_over(state)
    winners = [PLAYERS[(state.ply - 1) % 2]] if over else []
    return Result(over, winners, {"Result": winners[0] if over else "*"},
                  {"over": over, "winners": winners})
