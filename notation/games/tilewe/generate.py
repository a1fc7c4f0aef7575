"""Random Tilewe games (``notation random``), cheap enough to make by the thousand.

Each move is drawn uniformly from the legal moves with the very draw
``rng.choice(legal_moves)`` makes, so a seed gives the games it always gave;
but the move is picked by counting the fitting spellings, not by building
and sorting the list of a few hundred moves at every ply.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import bitboard, rules
from .events import Move
from .state import Board

if TYPE_CHECKING:  # (start-up: ``random`` only names the type of an argument)
    import random


def random_move(rng: random.Random, board: Board, player: int) -> Move:
    """A legal move of ``player`` (who must be able to move), uniformly at random."""
    anchors = board.anchors(player)
    spellings = bitboard.fitting_spellings(board.blocked(player), board.used[player], anchors)
    count = sum(targets.bit_count() for targets, _, _ in spellings)
    # randrange(n) draws what choice() draws from a list of n: the same stream of games.
    return bitboard.nth_placement(spellings, anchors, rng.randrange(count))


def random_events(rng: random.Random, board: Board, max_plies: int = 10_000) -> list[Move]:
    """Random legal moves from ``board`` until nobody can move (or ``max_plies``); plays them."""
    events: list[Move] = []
    while len(events) < max_plies:
        player = board.to_move()
        if player is None:
            break
        move = random_move(rng, board, player)
        rules.play(board, move)
        events.append(move)
    return events
