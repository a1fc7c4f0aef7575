"""A Philosophy state in the shapes the commands print: ``replay --json``'s state and
result objects, ``diff``'s named cells, the seats and the figures ``stats`` sums up."""
from __future__ import annotations

from typing import Any

from .geometry import ORDER
from .state import PhilosophyState


def state_json(state: PhilosophyState, /) -> dict[str, Any]:
    return {
        "players": [{"code": p, "name": state.names.get(p, p),
                     "hand": sorted(state.hands.get(p, ()))} for p in state.order],
        "to_move": state.to_move,
        "respect": state.respect,
        "rules": {f"{r}:{v}": value for (r, v), value in state.variants.items()},
        "placements": state.placements,
    }


def result_json(state: PhilosophyState, /) -> dict[str, Any]:
    awaiting = None
    if state.pending is not None:
        awaiting = {"player": state.mover, "kind": state.pending.kind,
                    "options": list(state.pending.options)}
    return {
        "over": state.over,
        "winners": [state.winner] if state.winner else [],
        "conclusions": [{"player": owner, "spaces": list(line)}
                        for owner, line in state.conclusions()],
        "awaiting": awaiting,
    }


def cells(state: PhilosophyState, /) -> dict[str, str]:
    out = {space: "".join(state.board[space]) if space in state.board else ""
           for space in ORDER}
    for p in state.order:
        out[f"{p} hand"] = " ".join(sorted(state.hands.get(p, ())))
    out["turn order"] = " ".join(state.order)
    out["respect"] = state.respect or ""
    out["awaiting"] = " ".join(state.pending.options) if state.pending else ""
    for (r, v), value in state.variants.items():
        out[f"rule:{r}:{v}"] = value
    return out


# -- scores ---------------------------------------------------------------------------------
def seats(state: PhilosophyState, /) -> list[str]:
    """The players who joined, in the order they joined."""
    return list(state.hands)


def player_count(state: PhilosophyState, /) -> int:
    return len(state.hands)


def facts(state: PhilosophyState, /) -> dict[str, Any]:
    return {"ended by": state.ended_by} if state.over else {}
