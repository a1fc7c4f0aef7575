"""Shaping results for people (error lines with carets) and for programs (JSON)."""
from __future__ import annotations

from typing import Any

from .errors import Problem
from .replay import Outcome, positions


def problem_line(source: str, index: int, problem: Problem) -> str:
    """``FILE:LINE:COL: error: game K, ply P (EVENT): MESSAGE [rule]``."""
    where = f"game {index}"
    if problem.ply and problem.event is not None:
        where += f", ply {problem.ply} ({problem.event})"
    elif problem.ply:
        where += f", ply {problem.ply}"
    rule = f" [rule: {problem.rule}]" if problem.rule else ""
    severity = "internal error" if problem.kind == "internal" else "error"
    message = problem.message.removeprefix("internal error: ")
    return f"{source}:{problem.line}:{problem.column}: {severity}: {where}: {message}{rule}"


def caret(line: str | None, problem: Problem) -> str:
    """The offending source line with a caret under the column (for terminals)."""
    if line is None:
        return ""
    line = line.rstrip("\r\n").expandtabs(1)
    width = max(1, len(problem.event or "")) if problem.event else 1
    return f"    {line}\n    {' ' * (problem.column - 1)}^{'~' * (width - 1)}"


def replay_json(outcome: Outcome) -> dict[str, Any]:
    """The object ``notation replay --json`` prints for one game."""
    game, state, record = outcome.game, outcome.state, outcome.record
    has_state = game is not None and state is not None
    return {
        "file": record.source,
        "game": record.game,
        "index": record.index,
        "tags": record.tag_dict,
        "valid": outcome.valid,
        "plies": outcome.plies,
        "error": outcome.error.as_json() if outcome.error else None,
        "errors": [p.as_json() for p in outcome.problems],
        "position": game.position(state) if has_state else None,
        "state": game.state_json(state) if has_state else None,
        "result": game.result_json(state) if has_state else None,
    }


def every_json(outcome: Outcome) -> list[dict[str, Any]]:
    """The position after every ply (``replay --json --every``): ply 0 is the start; the
    list stops before the first problem, as the replay does."""
    game = outcome.game
    return [{"ply": ply, "event": None if event is None else game.format_event(event),
             "position": game.position(state), "state": game.state_json(state),
             "result": game.result_json(state)}
            for ply, event, state in positions(outcome)]
