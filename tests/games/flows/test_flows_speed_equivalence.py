"""The Flows fast paths against the plain rules they stand in for.

The validate path takes shortcuts: a remembered route per side pair (checked
against the tiles, searched again only when a tile cuts it), a table-driven
trace, a per-text memory of read placements, and an applier that checks a
placement in one go and hands every other case to ``rules.apply``. Each is
held here to a plain version written from the rules' definitions.
"""
from __future__ import annotations

import random
from typing import Callable

from hypothesis import given, settings
from hypothesis import strategies as st
import pytest

from notation.core.errors import NotationError, RuleError
from notation.games.flows import events, routes, rules
from notation.games.flows.dialect import NOTATIONS
from notation.games.flows.events import Event, Placement, Unplaceable
from notation.games.flows.geometry import (COLUMNS, N_HEXES, ORIENTATIONS, ROWS, SIDE_STARTS,
                                           STEP_OUT)
from notation.games.flows.state import FlowsState, Seating, write_position
from notation.games.flows.routes import Tiles
from notation.games.flows.tiles import PARTNER

boards = st.lists(st.one_of(st.none(), st.tuples(st.integers(0, 3), st.integers(0, 5))),
                  min_size=N_HEXES, max_size=N_HEXES)


def plain_reachable(tiles: Tiles, side: int) -> bool:
    """Flood fill over (hex, entry edge) nodes: an empty hex leaves by any edge."""
    goal = -1 - (side + 3) % 6
    todo, seen = list(SIDE_STARTS[side]), set()
    while todo:
        node = todo.pop()
        if node in seen:
            continue
        seen.add(node)
        h, d = divmod(node, 6)
        tile = tiles[h]
        exits = range(6) if tile is None else (PARTNER[tile[0]][tile[1]][d],)
        for e in exits:
            nxt = STEP_OUT[h * 6 + e]
            if nxt == goal:
                return True
            if nxt >= 0:
                todo.append(nxt)
    return False


def plain_traced(tiles: Tiles, side: int) -> bool:
    """Follow placed tiles from each of the side's edges (a bounded walk)."""
    goal = -1 - (side + 3) % 6
    for node in SIDE_STARTS[side]:
        for _ in range(N_HEXES * 6 + 1):
            if node < 0:
                break
            h, d = divmod(node, 6)
            tile = tiles[h]
            if tile is None:
                break
            node = STEP_OUT[h * 6 + PARTNER[tile[0]][tile[1]][d]]
        if node == goal:
            return True
    return False


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(boards, st.integers(0, 5))
def test_routes_and_traces_match_the_plain_searches(tiles: Tiles, side: int) -> None:
    route = routes.open_route(tiles, side)
    assert (route is not None) == plain_reachable(tiles, side) == routes.reachable(tiles, side)
    assert routes.traced(tiles, side) == plain_traced(tiles, side)
    if route is not None:  # a real walk: from the side, edge to edge, out at the goal
        assert route[0][0] * 6 + route[0][1] in SIDE_STARTS[side]
        for (h, d, e), (h2, d2, _) in zip(route, route[1:]):
            assert STEP_OUT[h * 6 + e] == h2 * 6 + d2
        h, d, e = route[-1]
        assert STEP_OUT[h * 6 + e] == -1 - (side + 3) % 6
        assert routes.still_open(tiles, route)
        for h, d, e in route:
            tile = tiles[h]
            assert tile is None or PARTNER[tile[0]][tile[1]][d] == e


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 6))
def test_a_remembered_route_never_changes_the_verdict(seed: int, players: int) -> None:
    """Tiles come and go (as a trial placement does) under one state's remembered routes;
    its verdict is always that of a state with none."""
    rng = random.Random(seed)
    state = FlowsState(Seating.make(players))
    blocked_seen = False
    for h in rng.sample(range(N_HEXES), N_HEXES):
        state.tiles[h] = (rng.randrange(4), rng.randrange(6))
        if rng.random() < 0.2:  # a trial placement taken back
            gone = rng.choice([g for g in range(N_HEXES) if state.tiles[g] is not None])
            before = routes.blocked_players(state)
            kept, state.tiles[gone] = state.tiles[gone], None
            fresh = FlowsState(state.seating)
            fresh.tiles = state.tiles[:]
            assert routes.blocked_players(state) == routes.blocked_players(fresh)
            state.tiles[gone] = kept
            assert routes.blocked_players(state) == before
        fresh = FlowsState(state.seating)
        fresh.tiles = state.tiles[:]
        verdict = routes.blocked_players(state)
        assert verdict == routes.blocked_players(fresh)
        blocked_seen = blocked_seen or bool(verdict)
        if blocked_seen and rng.random() < 0.1:
            break


SEATINGS = [Seating.make(n) for n in range(2, 7)] + [Seating.make(2, (1, 4)),
                                                     Seating.make(3, (0, 1, 2))]


def random_event(rng: random.Random, state: FlowsState) -> Placement | Unplaceable:
    """Mostly the mover's placements anywhere, sometimes anything at all."""
    mover = state.to_move
    player = mover + 1 if mover is not None and rng.random() < 0.85 else rng.randint(0, 7)
    if rng.random() < 0.02:
        return Unplaceable(player, rng.randrange(4))
    label = rng.choice(ROWS) + rng.choice(COLUMNS) if rng.random() < 0.97 else "H9"
    orientation = rng.choice(ORIENTATIONS) if rng.random() < 0.98 else "X"
    tile = rng.randrange(4) if rng.random() < 0.99 else 4
    return Placement(player, label, tile, orientation)


def outcome(play: Callable[[Event], None], event: Event) -> tuple[str, str] | None:
    try:
        play(event)
    except (RuleError, NotationError, ValueError, IndexError) as exc:
        return type(exc).__name__, str(exc)
    return None


def snapshot(state: FlowsState) -> tuple[object, ...]:
    return (write_position(state, view=True), state.placed, state.ply, state.step,
            state.over, state.winners, state.win_type)


@pytest.mark.slow
@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(SEATINGS), st.sampled_from(list(NOTATIONS)),
       st.one_of(st.none(), st.integers(0, 5)), st.booleans())
def test_the_applier_plays_as_apply(seed: int, seating: Seating, dialect: str,
                                    view: int | None, hinted: bool) -> None:
    rng = random.Random(seed)
    fast = FlowsState(seating, view, NOTATIONS[dialect])
    if hinted:
        fast.hint = lambda: "; a hint"
    plain = fast.copy()
    apply_fast = rules.applier(fast)
    for _ in range(80):
        event = random_event(rng, plain)
        assert outcome(apply_fast, event) == outcome(lambda e: rules.apply(plain, e), event)
        assert snapshot(fast) == snapshot(plain)
        if plain.over and rng.random() < 0.3:
            break


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["P1A2T0N", "P6G7T3NW", "P1T2", "3.P1A2T0N", "P1H2T0N", "P1A2T0X",
                        "P0A2T0N"]) | st.text(max_size=12))
def test_remembered_reads_are_reads(text: str) -> None:
    def read(reader: Callable[[str], Event]) -> Event | str:
        try:
            return reader(text)
        except NotationError as exc:
            return str(exc)
    first = read(events.read_placement)
    assert first == read(events.parse_placement) == read(events.read_placement)
