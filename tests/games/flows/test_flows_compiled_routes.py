"""Flows' compiled route search (compiled/routes.c) against its Python definition.

The two must find the same route (not only agree that one exists): the route found is
remembered on the state and decides which later placements need a search.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import notation
from notation.games.flows import routes
from notation.games.flows.geometry import N_HEXES
from notation.games.flows.routes import Tiles

compiled = routes.compiled_routes

tile = st.tuples(st.integers(0, 3), st.integers(0, 5))


@st.composite
def boards(draw: st.DrawFn) -> Tiles:
    """Boards from empty to full, dense and sparse alike (a board of games in play)."""
    fill = draw(st.floats(0, 1))
    rng = random.Random(draw(st.integers(0, 2**32)))
    return [(rng.randrange(4), rng.randrange(6)) if rng.random() < fill else None
            for _ in range(N_HEXES)]


def test_the_compiled_search_is_built_and_named() -> None:
    assert compiled is not None and routes.COMPILED, "compiled/routes.c was not built"
    assert routes.open_route is compiled.open_route
    assert "routes" in notation.get_game("flows").compiled


@settings(max_examples=300, deadline=None)
@given(st.one_of(boards(), st.lists(st.one_of(st.none(), tile), min_size=N_HEXES,
                                    max_size=N_HEXES)), st.integers(0, 5))
def test_the_compiled_search_finds_the_python_route(tiles: Tiles, side: int) -> None:
    assert compiled.open_route(tiles, side) == routes.open_route_python(tiles, side)


@pytest.mark.parametrize("tiles, side, error", [
    ([None] * (N_HEXES - 1), 0, ValueError),  # a hex short
    ([None] * N_HEXES, 6, ValueError),         # no such side
    ([None] * (N_HEXES - 1) + [(4, 0)], 0, ValueError),   # no such tile
    ([None] * (N_HEXES - 1) + [(0, 6)], 0, ValueError),   # no such rotation
    ([None] * (N_HEXES - 1) + [(0,)], 0, TypeError),
    ([None] * (N_HEXES - 1) + ["T0"], 0, TypeError),
    ([None] * (N_HEXES - 1) + [(0, "1")], 0, TypeError),
    (None, 0, TypeError),
])
def test_a_board_it_cannot_read_is_refused(tiles: object, side: int, error: type) -> None:
    with pytest.raises(error):
        compiled.open_route(tiles, side)


def test_tables_of_the_wrong_shape_are_refused_and_the_right_ones_taken_back() -> None:
    good = (routes.THROUGH, routes._ONWARD, routes._TO_GOAL, routes.SIDE_STARTS,
            routes.PARTNER)
    try:
        for at, bad in ((0, routes.THROUGH[:3]), (2, ((0,) * N_HEXES,) * 5),
                        (4, ((tuple(range(7)),) * 6,) * 4)):
            tables = list(good)
            tables[at] = bad
            with pytest.raises(ValueError):
                compiled.set_tables(*tables)
            with pytest.raises(RuntimeError):  # not ready until tables are whole again
                compiled.open_route([None] * N_HEXES, 0)
    finally:
        compiled.set_tables(*good)
    assert compiled.open_route([None] * N_HEXES, 0) == routes.open_route_python(
        [None] * N_HEXES, 0)
