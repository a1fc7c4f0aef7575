"""The nomic game's chance: rule 109's d6 at the start of a turn's movement, rule 106's
resource when a player first lands on a space (1/4 each); nothing else is chance's."""
from __future__ import annotations

import collections
import math
import random

import pytest

import notation


def at_the_roll() -> notation.Position:
    pos = notation.new("nomic", players="Alice Bob")
    for event in ("round 1", "turn Alice"):
        pos.push(event)
    return pos


def test_a_turn_starts_with_a_d6():
    pos = at_the_roll()
    assert pos.is_chance()
    assert [(str(e), p) for e, p in pos.chance_outcomes()] == [
        (f"roll {face}", pytest.approx(1 / 6)) for face in range(1, 7)]


def test_landing_on_an_unknown_space_reveals_one_of_four_resources():
    pos = at_the_roll()
    pos.push("roll 1")
    assert not pos.is_chance()  # the move is the player's
    pos.push("move to (1,0)")
    assert [(str(e), p) for e, p in pos.chance_outcomes()] == [
        (f"reveal (1,0) {r}", 0.25) for r in ("Wood", "Metal", "Water", "Food")]
    pos.push("reveal (1,0) Food")
    assert not pos.is_chance()  # the proposal is the player's


def test_sample_chance_follows_the_die():
    rng = random.Random(17)
    pos = at_the_roll()
    runs = 6000
    seen = collections.Counter(str(pos.copy(stack=False).sample_chance(rng)) for _ in range(runs))
    assert set(seen) == {f"roll {face}" for face in range(1, 7)}
    spread = 5 * math.sqrt(runs * (1 / 6) * (5 / 6))
    assert all(abs(count - runs / 6) <= spread for count in seen.values())


def test_between_turns_nothing_is_chance():
    pos = notation.new("nomic", players="Alice Bob")
    assert not pos.is_chance() and pos.chance_outcomes() == []
