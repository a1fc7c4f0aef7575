"""Random Tilewe games (``notation random``), cheap enough to make by the thousand.

Each move is drawn uniformly from the legal moves with the very draw
``rng.choice(legal_moves)`` makes, so a seed gives the games it always gave;
but the move is picked by counting the spellings that fit at each anchor
(``anchor_fits.py``, kept from one turn of a player to the next), not by
building and sorting the list of a few hundred moves at every ply.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import anchor_fits, rules
from .anchor_fits import AnchorFits
from .events import Move
from .state import Board

if TYPE_CHECKING:  # (start-up: ``random`` only names the type of an argument)
    import random


def random_move(rng: random.Random, board: Board, player: int) -> Move:
    """A legal move of ``player`` (who must be able to move), uniformly at random."""
    found, count = AnchorFits().update(board.blocked(player), board.used[player],
                                       board.anchors(player))
    # randrange(n) draws what choice() draws from a list of n: the same stream of games.
    return anchor_fits.nth_move(found, rng.randrange(count))


def random_events(rng: random.Random, board: Board, max_plies: int = 10_000) -> list[Move]:
    """Random legal moves from ``board`` until nobody can move (or ``max_plies``); plays them."""
    events: list[Move] = []
    fits = [AnchorFits() for _ in range(board.players)]
    while len(events) < max_plies:
        mover = next_mover(board, fits)
        if mover is None:
            break
        found, count = mover
        move = anchor_fits.nth_move(found, rng.randrange(count))
        rules.play(board, move)
        events.append(move)
    return events


def next_mover(board: Board, fits: list[AnchorFits]) -> tuple[anchor_fits.Found, int] | None:
    """What :meth:`Board.to_move` finds (and records on the board), with the moves of the
    player found: their search for a move is the one that says they can move."""

    def moves(p: int) -> tuple[anchor_fits.Found, int] | None:
        blocked, used = board.occupied | board.adj[p], board.used[p]  # (Board.blocked)
        # (Board.anchors: a free tile diagonal to the colour, or a free start for a first)
        anchors = board.diag[p] & ~blocked if used else board.starts[p] & ~board.occupied
        found, count = fits[p].update(blocked, used, anchors)
        return (found, count) if count else None

    player = board.next_player(moves)
    return None if player is None else player[1]
