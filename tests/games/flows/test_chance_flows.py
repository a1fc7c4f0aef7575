"""Flows' chance: before every move the mover draws a tile from the bag, each type with
its share of what is left; the draw is played but never written (the placement names
the tile), so records and their replays are as the seed writes them."""
from __future__ import annotations

import collections
import math
import random

import pytest
from hypothesis import given, settings, strategies as st

import notation
from notation.core.errors import IllegalMoveError
from notation.games.flows.events import Draw


def played(seed: int, plies: int, players: int = 2) -> notation.Position:
    """A game played the python-chess way, chance drawing, to ``plies`` placements."""
    rng = random.Random(seed)
    pos = notation.new("flows", players=players)
    while pos.ply < plies and not pos.is_over():
        if pos.is_chance():
            pos.sample_chance(rng)
        else:
            pos.push(rng.choice(pos.legal_moves))
    return pos


def test_a_move_starts_with_a_draw_from_a_full_bag():
    pos = notation.new("flows", players=2)
    assert pos.is_chance() and pos.legal_moves.by_chance
    assert [(str(e), p) for e, p in pos.chance_outcomes()] == [
        (f"T{tile}", 0.25) for tile in range(4)]
    assert [str(e) for e in pos.legal_moves] == ["T0", "T1", "T2", "T3"]  # chance's, not P1's


@given(st.integers(0, 10_000), st.integers(0, 30))
@settings(max_examples=25, deadline=None)
def test_each_type_is_drawn_with_its_share_of_the_bag(seed, plies):
    pos = played(seed, plies)
    if pos.is_over():
        assert pos.chance_outcomes() == [] and not pos.is_chance()
        return
    left = [10 - pos.state.placed[t] for t in range(4)]
    assert [(str(e), p) for e, p in pos.chance_outcomes()] == [
        (f"T{t}", pytest.approx(n / sum(left))) for t, n in enumerate(left) if n]


def test_an_empty_type_is_never_drawn():
    pos = played(5, 200, players=6)  # (long enough for some type to run out, or the end)
    rng = random.Random(8)
    while not pos.is_over() and all(pos.state.placed[t] < 10 for t in range(4)):
        pos.sample_chance(rng) if pos.is_chance() else pos.push(rng.choice(pos.legal_moves))
    if pos.is_over():
        return
    gone = next(t for t in range(4) if pos.state.placed[t] == 10)
    if not pos.is_chance():
        pos.pop()
    assert f"T{gone}" not in [str(e) for e, _ in pos.chance_outcomes()]
    with pytest.raises(IllegalMoveError, match="10 tiles of each type"):
        pos.push("T" + str(gone))


def test_sample_chance_follows_the_bag():
    pos = played(11, 12)
    assert pos.is_chance()
    expected = dict((str(e), p) for e, p in pos.chance_outcomes())
    rng = random.Random(2)
    runs = 4000
    seen = collections.Counter(str(pos.copy(stack=False).sample_chance(rng)) for _ in range(runs))
    assert set(seen) == set(expected)
    for tile, p in expected.items():
        assert abs(seen[tile] - runs * p) <= 5 * math.sqrt(runs * p * (1 - p)), (tile, seen)


def test_after_the_draw_only_the_drawn_tile_is_placed():
    pos = notation.new("flows", players=2)
    drawn = pos.push("T2")
    assert str(drawn) == "T2" and not pos.is_chance() and pos.turn == "P1"
    assert pos.legal_moves and all(move.tile == 2 for move in pos.legal_moves)
    assert pos.legal_moves == pos.legal_moves(tile=2) and pos.legal_moves(tile=0) == []
    with pytest.raises(IllegalMoveError, match=r"P1 drew a T2, not a T0 \[rule: the drawn tile\]"):
        pos.push("P1A2T0N")
    with pytest.raises(IllegalMoveError, match="one tile a turn"):
        pos.push(Draw(1))  # (as text, T1 reads only where a draw is due)
    pos.push("P1A2T2N")
    assert pos.is_chance() and pos.turn == "P2"


def test_the_draw_is_played_but_never_written():
    pos = played(4, 9)
    events = [str(e) for _, e in pos.history()]
    assert events[0::2] == [f"T{move.tile}" for move in pos.moves]  # each placement's draw
    assert [seat for seat, _ in pos.history()][:4] == ["chance", "P1", "chance", "P2"]
    assert pos.ply == len(pos.moves) == 9
    text = notation.format_record(notation.GameNode.from_position(pos))
    assert "T" + str(pos.moves[0].tile) + " " not in text.split("]")[-1].replace("\n", " ")
    (read,) = notation.parse(text, "flows")
    again = notation.Position.from_record(read)
    assert again.position() == pos.position() and again.moves == pos.moves


def test_a_placement_pushed_at_the_draw_names_its_own_tile():
    # A record's replay, or a player's push: the placement draws its tile itself.
    pos = notation.new("flows", players=2)
    pos.push("P1A2T0N")
    assert pos.ply == 1 and pos.history() == [("P1", pos.moves[0])]
    pos.pop()
    assert pos.is_chance() and pos.ply == 0


def test_a_held_tile_is_part_of_the_position_notation():
    pos = notation.new("flows", players=2)
    pos.push("T3")
    text = pos.position()
    assert text.split()[1] == "P1T3"
    again = notation.from_position("flows", text)
    assert again.position() == text and not again.is_chance()
    assert again.legal_moves == pos.legal_moves
    with pytest.raises(notation.NotationError, match="P2"):
        notation.from_position("flows", text.replace("P1T3", "P2T3"))
    pos.pop()
    assert pos.position().split()[1] == "P1"
