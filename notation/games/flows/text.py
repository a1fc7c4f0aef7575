"""The text picture of a Flows board for people, drawn from one side's point of view."""
from __future__ import annotations

from .geometry import HEXES, label_of, name_of_rotation, turned
from .state import FlowsState, mover_name

_ANSI = ("\x1b[34m", "\x1b[33m", "\x1b[31m", "\x1b[32m", "\x1b[35m", "\x1b[36m")
_RESET = "\x1b[0m"
CELL = 11


def render(state: FlowsState, side: int, color: bool = False) -> str:
    """Rows top to bottom, the board turned so the viewer's side is at the bottom
    (sides 0-2) or the top (sides 3-5, the seed's row flip). A cell shows the
    hex's label in that view, the tile as type + orientation, and after ``:``
    the players whose flow runs through it."""
    k = side % 3
    flows: dict[int, list[int]] = {}
    for p in range(state.seating.players):
        for h, _, _ in state.flow_segments(p):
            if p + 1 not in flows.setdefault(h, []):
                flows[h].append(p + 1)
    placed: dict[tuple[int, int], int] = {}
    for h, (r, c) in enumerate(HEXES):
        placed[turned(r, c, k)] = h
    lines = []
    for r in range(6, -1, -1):
        cells = []
        for c in range(7):
            found = placed.get((r, c))
            if found is None:
                continue
            h = found
            tile = state.tiles[h]
            code = "." if tile is None else f"{tile[0]}{name_of_rotation(tile[1], side)}"
            mark = ""
            if h in flows:
                mark = ":" + "".join(
                    f"{_ANSI[p - 1]}{p}{_RESET}" if color else str(p) for p in flows[h])
            text = f"{label_of(h, side)} {code}{mark}"
            visible = len(label_of(h, side)) + 1 + len(code) + (1 + len(flows.get(h, [])) if mark else 0)
            cells.append(text + " " * max(1, CELL - visible))
        lines.append(" " * ((7 - len(cells)) * (CELL // 2)) + "".join(cells).rstrip())
    seats = ", ".join(f"P{p + 1} side {s}" for p, s in enumerate(state.seating.seats))
    lines.append(f"(view of side {side}; {seats})")
    if state.over:
        lines.append(status(state))
    else:
        bag = " ".join(f"T{t}x{state.in_bag(t)}" for t in range(4))
        lines.append(f"{status(state)}; bag {bag}")
    return "\n".join(lines)


def status(state: FlowsState) -> str:
    """Who moves, or how the game ended: the text board's last line and the picture's caption."""
    if state.over:
        who = " and ".join(f"P{p + 1}" for p in state.winners)
        return f"game over after {state.ply} plies: {state.win_type}, won by {who}"
    return f"ply {state.ply}, {mover_name(state)} to move"  # plies counted as everywhere
