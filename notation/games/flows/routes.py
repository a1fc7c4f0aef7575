"""Which sides connect: flows made of placed tiles, and routes still open.

Positions on the board are nodes ``h * 6 + d`` ("entering hex h through its
edge d"), with the step across every edge precomputed. Placed tiles give each
edge at most two links, so flows are paths and a flow win is found by tracing;
"could this player still connect?" treats an empty hex as a wildcard joining
all six of its edges and is a depth-first search that stops at the first route.

Goals pair the sides {0,3}, {1,4}, {2,5} and connection is symmetric, so at
most three searches answer every player's question.
"""
from __future__ import annotations

from .geometry import SIDE_STARTS, STEP_OUT
from .state import FlowsState
from .tiles import PARTNER

Tiles = list[tuple[int, int] | None]


def side_pairs(state: FlowsState) -> list[int]:
    """The distinct side pairs in play, each named by its lower side (0, 1 or 2)."""
    return sorted({s % 3 for s in state.seating.seats})


def traced(tiles: Tiles, side: int) -> bool:
    """Whether a path of placed tiles joins ``side`` to the opposite side.

    In the placed-tile graph every edge has at most two links, so each
    component is a simple path: follow it from each of the side's edges.
    """
    goal = -1 - (side + 3) % 6
    step_out, partner = STEP_OUT, PARTNER
    for node in SIDE_STARTS[side]:
        while node >= 0:
            h, d = divmod(node, 6)
            tile = tiles[h]
            if tile is None:
                break
            node = step_out[h * 6 + partner[tile[0]][tile[1]][d]]
        if node == goal:
            return True
    return False


def reachable(tiles: Tiles, side: int) -> bool:
    """Whether ``side`` could still reach the opposite side, empty hexes as wildcards."""
    goal = -1 - (side + 3) % 6
    step_out, partner = STEP_OUT, PARTNER
    seen_hexes = 0
    seen = set()
    stack = list(SIDE_STARTS[side])
    while stack:
        node = stack.pop()
        h, d = divmod(node, 6)
        tile = tiles[h]
        if tile is None:
            if seen_hexes >> h & 1:
                continue
            seen_hexes |= 1 << h
            for e in range(6):
                nxt = step_out[h * 6 + e]
                if nxt >= 0:
                    stack.append(nxt)
                elif nxt == goal:
                    return True
        else:
            if node in seen:
                continue
            seen.add(node)
            nxt = step_out[h * 6 + partner[tile[0]][tile[1]][d]]
            if nxt >= 0:
                stack.append(nxt)
            elif nxt == goal:
                return True
    return False


def flow_winners(state: FlowsState) -> list[int]:
    """Players whose side connects to its goal through placed tiles (section 8.1)."""
    connected = {pair for pair in side_pairs(state) if traced(state.tiles, pair)}
    return [p for p, s in enumerate(state.seating.seats) if s % 3 in connected]


def blocked_players(state: FlowsState) -> list[int]:
    """Players (or teams) left with no potential route, empty hexes as wildcards."""
    cut = {pair for pair in side_pairs(state) if not reachable(state.tiles, pair)}
    return [p for p, s in enumerate(state.seating.seats) if s % 3 in cut]
