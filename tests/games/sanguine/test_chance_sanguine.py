"""Sanguine's chance follows the deck: a card is drawn with the share of its copies
left, a hand dealt with the share of the ways to take it from the deck (checked against
every way of taking it, counted one by one), and ``sample_chance`` draws that way."""
from __future__ import annotations

import collections
import itertools
import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import notation
from notation.games.sanguine.events import Deal

#: A small game: few enough cards that every way to deal a hand can be counted.
SMALL = dict(rows=3, cols=3, hand_size=2)


def deck_cards(pos, side: int) -> list[str]:
    """The names of the cards of ``side``'s deck, one a copy, from the deck itself."""
    return [card.name for card in pos.state.decks[side].cards]


def test_a_hand_is_dealt_with_the_share_of_the_ways_to_take_it():
    pos = notation.new("sanguine", **SMALL)
    cards = deck_cards(pos, 0)
    ways = collections.Counter(tuple(sorted(cards[i] for i in chosen))
                               for chosen in itertools.combinations(range(len(cards)), 2))
    total = math.comb(len(cards), 2)
    outcomes = pos.chance_outcomes()
    assert pos.is_chance()
    assert {event.cards: probability for event, probability in outcomes} == pytest.approx(
        {hand: count / total for hand, count in ways.items()})
    assert all(event.side == 0 for event, _ in outcomes)  # Red is dealt first
    assert math.fsum(p for _, p in outcomes) == pytest.approx(1)


def test_a_card_is_drawn_with_the_share_of_its_copies_left():
    rng = random.Random(5)
    pos = notation.new("sanguine", **SMALL)
    pos.sample_chance(rng)
    pos.sample_chance(rng)  # both hands dealt: Red's first turn starts with a draw
    assert pos.is_chance()
    left = collections.Counter(deck_cards(pos, 0))
    left.subtract(pos.moves[0].cards)
    outcomes = pos.chance_outcomes()
    assert {str(e): p for e, p in outcomes} == pytest.approx(
        {f"R draw {name}": count / sum(left.values()) for name, count in left.items() if count})


@pytest.mark.parametrize("dealt", [0, 2])
def test_sample_chance_follows_the_deck(dealt: int):
    rng = random.Random(11)
    pos = notation.new("sanguine", **SMALL)
    for _ in range(dealt):
        pos.sample_chance(rng)
    expected = {str(e): p for e, p in pos.chance_outcomes()}
    runs = 6000
    seen = collections.Counter()
    for _ in range(runs):
        trial = pos.copy(stack=False)
        seen[str(trial.sample_chance(rng))] += 1
    assert set(seen) <= set(expected)
    for event, probability in expected.items():  # within 5 standard deviations
        spread = 5 * math.sqrt(runs * probability * (1 - probability)) + 1
        assert abs(seen[event] - runs * probability) <= spread, event


def test_in_file_order_the_next_cards_are_the_files():
    pos = notation.new("sanguine", **SMALL, order="file")
    ((deal, probability),) = pos.chance_outcomes()
    assert probability == 1 and deal == Deal(0, tuple(deck_cards(pos, 0)[:2]))
    assert pos.sample_chance(random.Random(1)) == deal


def test_a_player_move_is_no_chance():
    rng = random.Random(3)
    pos = notation.new("sanguine", **SMALL)
    while pos.is_chance():
        pos.sample_chance(rng)
    assert pos.chance_outcomes() == []
    with pytest.raises(ValueError, match="no chance event is due"):
        pos.sample_chance(rng)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6))
def test_a_game_played_with_chance_is_a_valid_record(seed: int):
    rng = random.Random(seed)
    pos = notation.new("sanguine", **SMALL)
    while not pos.is_over():
        if pos.is_chance():
            outcomes = pos.chance_outcomes()
            assert math.fsum(p for _, p in outcomes) == pytest.approx(1)
            assert all(pos.is_legal(event) for event, _ in outcomes)
            pos.sample_chance(rng)
        else:
            pos.push(rng.choice(pos.legal_moves))
    record = notation.GameNode.from_position(pos)
    assert notation.run(notation.parse(notation.format_record(record), "sanguine")[0]).valid
