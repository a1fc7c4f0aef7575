"""Sanguine's chance: the hands dealt and the cards drawn from each side's deck, when the
record's order is ``recorded`` (any card left may come next); in ``file`` order the next
cards are the file's, with certainty."""
from __future__ import annotations

import random
from math import comb, prod

from .events import Deal, Draw, Event
from .rules import deals, draws
from .state import SanguineState


def chance_due(state: SanguineState, /) -> bool:
    """A side is still to be dealt, or the side to move starts its turn with a draw."""
    return not state.over and (not all(state.dealt) or state.draw_due())


def chance_outcomes(state: SanguineState, /) -> list[tuple[Event, float]]:
    """The deal of the first side still to be dealt, or the draw due, each with its
    probability (a hand: the ways its cards can be taken from the deck, over all hands);
    [] when a side is to place or pass."""
    if state.over:
        return []
    if not all(state.dealt):
        side = state.dealt.index(False)
        hands = [deal for deal in deals(state) if deal.side == side]
        if state.file_order:
            return [(hands[0], 1.0)]
        left = state.left[side]
        total = comb(sum(left.values()), state.hand_size)
        return [(deal, prod(comb(left[name], deal.cards.count(name))
                            for name in set(deal.cards)) / total) for deal in hands]
    if state.draw_due():
        cards = draws(state)
        if state.file_order:
            return [(cards[0], 1.0)]
        left = state.left[state.to_move]
        total = sum(left.values())
        return [(draw, left[draw.card] / total) for draw in cards]
    return []


def sample_chance(state: SanguineState, rng: random.Random, /) -> Event | None:
    """A hand or a card drawn as a shuffled deck gives it (a hand is not listed first:
    a large deck has too many to list)."""
    if state.over:
        return None
    if not all(state.dealt):
        side = state.dealt.index(False)
        if state.file_order:
            return next(deal for deal in deals(state) if deal.side == side)
        pile = [name for name, count in sorted(state.left[side].items()) for _ in range(count)]
        return Deal(side, tuple(sorted(rng.sample(pile, state.hand_size))))
    if state.draw_due():
        cards = draws(state)
        if state.file_order:
            return cards[0]
        left = state.left[state.to_move]
        return rng.choices(cards, weights=[left[draw.card] for draw in cards])[0]
    return None


def chance_event(event: Event, /) -> bool:
    """Whether ``event`` is chance's (a hand dealt, a card drawn), not a side's."""
    return isinstance(event, (Deal, Draw))


__all__ = ["chance_due", "chance_event", "chance_outcomes", "sample_chance"]
