"""What may come off a deck next: the deals and draws a position allows (its chance points).

With ``Order "file"`` (and so in a game set up with a seed) the deck's order
fixes them: one deal, the first H cards, and one draw, the next card. With
``Order "recorded"`` any cards left may come, so every deal of H cards left is
legal: each written once, its names sorted, and the deals sorted by their names.
"""
from __future__ import annotations

from collections.abc import Iterator

from notation.core.errors import NotationError

from .events import SIDE_NAMES, Deal, Draw
from .state import SanguineState

#: More possible deals than this are not listed (a big hand from a deck of many designs
#: has millions); such a position asks for a deal to be pushed, or a seeded game.
MAX_DEALS = 100_000


def deals(state: SanguineState) -> list[Deal]:
    """Every deal the sides still to be dealt may get, Red's first."""
    found: list[Deal] = []
    for side in (0, 1):
        if state.dealt[side]:
            continue
        if state.file_order:
            first = state.decks[side].cards[state.taken[side]:state.taken[side] + state.hand_size]
            if len(first) == state.hand_size:
                found.append(Deal(side, tuple(card.name for card in first)))
            continue
        left = sorted((name, count) for name, count in state.left[side].items() if count > 0)
        total = deal_count([count for _, count in left], state.hand_size)
        if total > MAX_DEALS:
            raise NotationError(f"{SIDE_NAMES[side]} may be dealt {total:,} different hands of "
                                f"{state.hand_size} cards, too many to list (at most "
                                f"{MAX_DEALS:,}); push a deal, or set the game up with a seed")
        found += (Deal(side, hand) for hand in hands(left, state.hand_size))
    return found


def draws(state: SanguineState) -> list[Draw]:
    """The draws the side to move may make (its draw is due): the next card of the file,
    or any card left, by name."""
    side = state.to_move
    if state.file_order:
        return [Draw(side, state.decks[side].cards[state.taken[side]].name)]
    return [Draw(side, name) for name in sorted(state.left[side]) if state.left[side][name]]


def deal_count(counts: list[int], size: int) -> int:
    """How many multisets of ``size`` cards the copies ``counts`` of each design give."""
    ways = [1] + [0] * size  # ways[k]: hands of k cards from the designs seen so far
    for count in counts:
        ways = [sum(ways[k - take] for take in range(min(count, k) + 1))
                for k in range(size + 1)]
    return ways[size]


def hands(left: list[tuple[str, int]], size: int) -> Iterator[tuple[str, ...]]:
    """Each hand of ``size`` cards from ``left`` (names sorted, with their copies), as
    sorted names, in order."""
    def extend(start: int, need: int, hand: list[str]) -> Iterator[tuple[str, ...]]:
        if need == 0:
            yield tuple(hand)
            return
        for i in range(start, len(left)):
            name, count = left[i]
            for take in range(min(count, need), 0, -1):  # more copies first: sorted order
                yield from extend(i + 1, need - take, hand + [name] * take)

    return extend(0, size, [])
