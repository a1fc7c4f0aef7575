"""Which sides connect: flows made of placed tiles, and routes still open.

Positions on the board are nodes ``h * 6 + d`` ("entering hex h through its
edge d"), with the step across every edge precomputed. Placed tiles give each
edge at most two links, so flows are paths and a flow win is found by tracing;
"could this player still connect?" treats an empty hex as a wildcard joining
all six of its edges and is a depth-first search that stops at the first route.

Goals pair the sides {0,3}, {1,4}, {2,5} and connection is symmetric, so at
most three searches answer every player's question. A search that succeeds
leaves its route on the state; while each hex of it is still empty or joins the
edges the route uses, the route stands and no search is needed (most placements
miss every remembered route).
"""
from __future__ import annotations

from typing import Any, Callable

from .geometry import N_HEXES, SIDE_STARTS, STEP_OUT
from .state import FlowsState
from .tiles import PARTNER

Tiles = list[tuple[int, int] | None]


#: A route: the (hex, entry edge, exit edge) steps of a walk from a side to its goal.
Route = tuple[tuple[int, int, int], ...]

_PAIRS: dict[tuple[int, ...], tuple[int, ...]] = {}


def side_pairs(state: FlowsState) -> tuple[int, ...]:
    """The distinct side pairs in play, each named by its lower side (0, 1 or 2)."""
    seats = state.seating.seats
    pairs = _PAIRS.get(seats)
    if pairs is None:
        pairs = _PAIRS[seats] = tuple(sorted({s % 3 for s in seats}))
    return pairs


#: THROUGH[tile][rotation][node]: where a path goes on from ``node`` when its hex holds
#: that tile (the node entered through the edge the tile joins to the entry, or a side).
THROUGH = tuple(tuple(tuple(STEP_OUT[node - node % 6 + PARTNER[t][r][node % 6]]
                            for node in range(N_HEXES * 6)) for r in range(6)) for t in range(4))


def traced(tiles: Tiles, side: int) -> bool:
    """Whether a path of placed tiles joins ``side`` to the opposite side.

    In the placed-tile graph every edge has at most two links, so each
    component is a simple path: follow it from each of the side's edges.
    """
    goal = -1 - (side + 3) % 6
    through = THROUGH
    for node in SIDE_STARTS[side]:
        while node >= 0:
            tile = tiles[node // 6]
            if tile is None:
                break
            node = through[tile[0]][tile[1]][node]
        if node == goal:
            return True
    return False


def reachable(tiles: Tiles, side: int) -> bool:
    """Whether ``side`` could still reach the opposite side, empty hexes as wildcards."""
    return open_route(tiles, side) is not None


def _search_tables() -> tuple[tuple[tuple[tuple[int, ...], ...], ...],
                             tuple[tuple[int, ...], ...]]:
    """Per side, per hex: the nodes an empty hex leads on to, those facing the side's
    goal last (a stack pops them first: side k's own edges face directions k and k+5,
    its goal's k+2 and k+3), and the exit to the goal, or -1."""
    onward, to_goal = [], []
    for k in range(6):
        goal = -1 - (k + 3) % 6
        order = [(k + turn) % 6 for turn in (0, 5, 1, 4, 2, 3)]
        onward.append(tuple(tuple(STEP_OUT[h * 6 + e] for e in order if STEP_OUT[h * 6 + e] >= 0)
                            for h in range(N_HEXES)))
        to_goal.append(tuple(next((e for e in range(6) if STEP_OUT[h * 6 + e] == goal), -1)
                             for h in range(N_HEXES)))
    return tuple(onward), tuple(to_goal)


_ONWARD, _TO_GOAL = _search_tables()


def open_route_python(tiles: Tiles, side: int) -> Route | None:
    """A walk from ``side`` to the opposite side, empty hexes as wildcards, or None
    (:func:`open_route`'s definition).

    A depth-first search over nodes that stops at the first route; out of an empty
    hex it tries the edges facing the goal first, so the route it finds is short and
    straight (fewer hexes for later tiles to cut). Each node it goes on from
    remembers the node it was reached from, which gives the route back.
    """
    goal = -1 - (side + 3) % 6
    through = THROUGH
    onward, to_goal = _ONWARD[side], _TO_GOAL[side]
    seen_hexes = 0
    seen = set()
    stack = list(SIDE_STARTS[side])
    parents = [-1] * len(stack)
    came: dict[int, int] = {}
    while stack:
        node = stack.pop()
        parent = parents.pop()
        h = node // 6
        tile = tiles[h]
        if tile is None:
            if seen_hexes >> h & 1:
                continue
            seen_hexes |= 1 << h
            came[node] = parent
            e = to_goal[h]
            if e >= 0:
                return _walk_back(came, node, e)
            nodes = onward[h]
            stack += nodes
            parents += [node] * len(nodes)
        elif node not in seen:
            seen.add(node)
            came[node] = parent
            nxt = through[tile[0]][tile[1]][node]
            if nxt >= 0:
                stack.append(nxt)
                parents.append(node)
            elif nxt == goal:
                return _walk_back(came, node, PARTNER[tile[0]][tile[1]][node - h * 6])
    return None


compiled_routes: Any
try:  # the search compiled (compiled/routes.c), where the install built it
    from .compiled import routes as compiled_routes
except ImportError:  # pragma: no cover - an install without a C compiler
    compiled_routes = None
else:
    compiled_routes.set_tables(THROUGH, _ONWARD, _TO_GOAL, SIDE_STARTS, PARTNER)
#: Whether the search runs compiled (``notation --version`` says).
COMPILED = compiled_routes is not None

#: A walk from ``side`` to the opposite side, empty hexes as wildcards, or None: the same
#: route :func:`open_route_python` finds (tests hold the two equal), compiled where built.
open_route: Callable[[Tiles, int], Route | None] = (
    open_route_python if compiled_routes is None else compiled_routes.open_route)


def _walk_back(came: dict[int, int], node: int, exit_edge: int) -> Route:
    """The route that ends leaving ``node``'s hex through ``exit_edge``: each step's
    exit is the edge facing the next step's entry."""
    steps = []
    while node >= 0:
        h, d = divmod(node, 6)
        steps.append((h, d, exit_edge))
        node, exit_edge = came[node], (d + 3) % 6
    return tuple(reversed(steps))


def still_open(tiles: Tiles, route: Route) -> bool:
    """Whether every hex of ``route`` is empty or joins the edges the route uses there."""
    partner = PARTNER
    for h, d, e in route:
        tile = tiles[h]
        if tile is not None and partner[tile[0]][tile[1]][d] != e:
            return False
    return True


def flow_winners(state: FlowsState) -> list[int]:
    """Players whose side connects to its goal through placed tiles (section 8.1)."""
    tiles = state.tiles
    connected = [pair for pair in side_pairs(state) if traced(tiles, pair)]
    if not connected:
        return []
    return [p for p, s in enumerate(state.seating.seats) if s % 3 in connected]


def blocked_players(state: FlowsState) -> list[int]:
    """Players (or teams) left with no potential route, empty hexes as wildcards.

    The route a pair last had is tried first (``state.routes``): it stands
    unless a tile on it turns the walk away."""
    tiles, routes = state.tiles, state.routes
    cut = []
    for pair in side_pairs(state):
        route = routes.get(pair)
        if route is not None and still_open(tiles, route):
            continue
        route = open_route(tiles, pair)
        if route is None:
            cut.append(pair)
        else:
            routes[pair] = route
    if not cut:
        return []
    return [p for p, s in enumerate(state.seating.seats) if s % 3 in cut]
