"""The exploration nomic in text for people: the map around the origin with the rules
beside it (``render``), and the state as named parts for diffs (``cells``)."""
from __future__ import annotations

from .events import coord_text
from .state import ORIGIN, NomicState

SYMBOLS = {"Wood": "w", "Metal": "m", "Water": "~", "Food": "f"}
#: The widest map the text view draws, in spaces.
MAP_SPAN = 61


def render(state: NomicState) -> str:
    spots = list(state.players.values()) + list(state.revealed) + [ORIGIN]
    xs, ys = [c[0] for c in spots], [c[1] for c in spots]
    x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    cut = x1 - x0 >= MAP_SPAN or y1 - y0 >= MAP_SPAN
    if cut:  # a far-flung map: draw the window around the origin and say so
        half = MAP_SPAN // 2
        x0, x1 = max(x0, -half), min(x1, half)
        y0, y1 = max(y0, -half), min(y1, half)
    at: dict[tuple[int, int], list[str]] = {}
    for p, c in state.players.items():
        at.setdefault(c, []).append(p[0])
    lines = []
    for y in range(y1, y0 - 1, -1):
        row = []
        for x in range(x0, x1 + 1):
            here = "".join(sorted(at.get((x, y), [])))
            resource = state.revealed.get((x, y))
            ground = ("o" if (x, y) == ORIGIN else
                      "." if resource is None else SYMBOLS.get(resource, "."))
            row.append(f"{here or ground:>3}")
        lines.append(f"{y:>4} " + "".join(row))
    lines.append("     " + "".join(f"{x:>3}" for x in range(x0, x1 + 1)))
    lines.append("(o origin, w Wood, m Metal, ~ Water, f Food, . unknown; letters: players)")
    if cut:
        lines.append(f"(map cut to x and y within {MAP_SPAN // 2} of the origin)")
    where = "; ".join(f"{p} {coord_text(state.players[p])}" for p in state.order())
    lines.append(f"players (turn order): {where or 'none'}")
    status = (f"{state.label}, phase {state.phase}" if state.current else
              "before the game" if state.round == 0 else
              f"round {state.round}, between turns, next: {state.next_turn() or 'a new round'}")
    lines.append(status + (" (record ended)" if state.ended else ""))
    lines.append(f"next rule number: {state.counter}")
    lines.append("rules in effect: " + ", ".join(
        str(n) + ("*" if r.amended else "") for n, r in sorted(state.rules.items()) if r.in_effect)
        + "   (* amended)")
    for n, r in sorted(state.rules.items()):
        if n > 115 or r.amended or not r.in_effect:
            lines.append(f"  {n} {r.status}{', amended' if r.amended else ''}: {r.text}")
    if state.pending:
        lines.append("pending: " + ", ".join(f"{k} {n}" for k, n, _ in state.pending))
    if state.checks_off():
        lines.append("checks off: " + ", ".join(
            f"{n} ({'amended' if state.rules[n].amended else 'repealed'})"
            for n in state.checks_off()))
    return "\n".join(lines)


def cells(state: NomicState) -> dict[str, str]:
    """The state as named parts, for diffing two states."""
    out = {f"{p} at": coord_text(c) for p, c in state.players.items()}
    out.update({f"space {coord_text(c)}": r for c, r in state.revealed.items()})
    for n, r in state.rules.items():
        out[f"rule {n}"] = f"{r.status}{' amended' if r.amended else ''}: {r.text}"
    out["next rule number"] = str(state.counter)
    out["pending"] = ", ".join(f"{k} {n}" for k, n, _ in state.pending)
    out["round/turn/phase"] = f"{state.round} {state.current or '-'} {state.phase}"
    return out
