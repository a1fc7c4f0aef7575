"""Shaping results for people (error lines with carets) and for programs (JSON)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from .errors import Problem, ProblemKind
from .outcome import Outcome
from .replay import positions


def problem_line(source: str, index: int, problem: Problem) -> str:
    """``FILE:LINE:COL: error: game K, ply P (EVENT): MESSAGE [rule]``."""
    severity = "error"
    if problem.kind == ProblemKind.INTERNAL:  # said once, in front
        severity = "internal error"
        problem = replace(problem, message=problem.message.removeprefix("internal error: "))
    where = f"game {index}, {problem.place()}" if problem.place() else f"game {index}"
    return f"{source}:{problem.line}:{problem.column}: {severity}: {where}: {problem.saying()}"


def caret(line: str | None, problem: Problem) -> str:
    """The offending source line with a caret under the column (for terminals)."""
    if line is None:
        return ""
    line = line.rstrip("\r\n").expandtabs(1)
    width = max(1, len(problem.event or "")) if problem.event else 1
    return f"    {line}\n    {' ' * (problem.column - 1)}^{'~' * (width - 1)}"


def position_json(outcome: Outcome) -> dict[str, Any]:
    """``position`` and ``state`` of ``replay --json``: from the live state, or, for an
    outcome read back from a worker, as the worker wrote them in its ``data``."""
    if outcome.record is None:
        data = outcome.data if isinstance(outcome.data, dict) else {}
        return {"position": data.get("position"), "state": data.get("state")}
    game, state = outcome.game, outcome.state
    if game is None or state is None:
        return {"position": None, "state": None}
    return {"position": game.position(state), "state": game.state_json(state)}


def replay_json(outcome: Outcome) -> dict[str, Any]:
    """The object ``notation replay --json`` prints for one game."""
    view = position_json(outcome)
    return {
        "file": outcome.file,
        "game": outcome.game_name,
        "index": outcome.index,
        "tags": outcome.tags,
        "valid": outcome.valid,
        "plies": outcome.plies,
        "error": outcome.error.as_json() if outcome.error else None,
        "errors": [p.as_json() for p in outcome.problems],
        "position": view["position"],
        "state": view["state"],
        "result": outcome.result,
    }


def every_json(outcome: Outcome) -> list[dict[str, Any]]:
    """The position after every ply (``replay --json --every``): ply 0 is the start; the
    list stops before the first problem, as the replay does."""
    game = outcome.game
    if game is None:
        return []
    return [{"ply": ply, "event": None if event is None else game.format_event(event),
             "position": game.position(state), "state": game.state_json(state),
             "result": game.result_json(state)}
            for ply, event, state in positions(outcome)]


def legal_json(outcome: Outcome, moves: list[Any] | None, listed: bool = True) -> dict[str, Any]:
    """What ``legal --json`` prints for one game: the position after the plies replayed and
    its legal ``moves`` as text (``listed`` False: how many only). ``moves`` None: the game
    has a problem, given in ``errors``, and no position to play from (nulls)."""
    game, state = outcome.game, outcome.state
    data: dict[str, Any] = {
        "file": outcome.file, "index": outcome.index, "game": outcome.game_name,
        "ply": outcome.plies, "valid": outcome.valid,
        "errors": [p.as_json() for p in outcome.problems],
        "to_move": None, "over": None, "position": None, "count": None}
    if game is not None and moves is not None:
        data |= {"to_move": game.to_move(state), "over": game.is_over(state),
                 "position": game.position(state), "count": len(moves)}
    if listed:
        data["moves"] = (None if game is None or moves is None
                         else [game.format_event(m) for m in moves])
    return data
