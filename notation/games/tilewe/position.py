"""Reading the Tilewe position notation (TPN), a compact FEN-like string.

``<ranks> <to-move> <hands>``, for example the 2-player start::

    20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20 b 1fffff,1fffff

* ranks: rank 20 first, ``/`` between ranks; in a rank, ``b y r g`` are tiles
  of blue, yellow, red, green and a number is a run of empty tiles;
* to-move: the letter of the player to move, ``-`` once nobody can move;
* hands: one field per player, in colour order: the pieces still in hand as a
  hexadecimal bit mask, bit i standing for piece i of the rules' list
  (O1 = bit 0 ... Z5 = bit 20), so ``1fffff`` is a full hand and ``0`` an
  empty one. The number of fields is the number of players.

A board writes its own position (:meth:`~notation.games.tilewe.state.Board.position`,
so its ``repr`` can show it); reading one, with every check, is here.
"""
from __future__ import annotations

import re

from notation.core.errors import NotationError

from .bitboard import N_PIECES, diagonal_neighbours, edge_neighbours
from .events import SIZE
from .pieces import PIECE_SIZES
from .state import ALL_PIECES, COLOR_LETTERS, COLORS, Board

RANK_ITEM = re.compile(r"[byrg]|[1-9][0-9]?")


def read(text: str) -> Board:
    """Parse a position; every inconsistency raises :class:`NotationError`."""
    fields = text.split()
    if len(fields) != 3:
        raise NotationError("a Tilewe position has three fields: ranks, player to move, hands")
    ranks, mover, hands = fields
    hand_fields = hands.split(",")
    players = len(hand_fields)
    if not 1 <= players <= 4:
        raise NotationError(f"{players} hands given; Tilewe is for 1 to 4 players")
    board = Board(players)
    rows = ranks.split("/")
    if len(rows) != SIZE:
        raise NotationError(f"{len(rows)} ranks given; the board has {SIZE}")
    for i, row in enumerate(rows):
        y = SIZE - 1 - i
        x = 0
        pos = 0
        while pos < len(row):
            m = RANK_ITEM.match(row, pos)
            if not m:
                raise NotationError(f"rank {y + 1}: unexpected {row[pos]!r}")
            pos = m.end()
            item = m.group()
            if item.isdigit():
                x += int(item)
                continue
            player = COLOR_LETTERS.index(item)
            if player >= players:
                raise NotationError(f"rank {y + 1}: {COLORS[player]} tile in a {players}-player game")
            if x < SIZE:
                board.own[player] |= 1 << (x + SIZE * y)
            x += 1
        if x != SIZE:
            raise NotationError(f"rank {y + 1} describes {x} tiles, not {SIZE}")
    for p, field in enumerate(hand_fields):
        try:
            left = int(field, 16)
        except ValueError:
            raise NotationError(f"hand {field!r} of {COLORS[p]} is not a hexadecimal mask") from None
        if left >> N_PIECES:
            raise NotationError(f"hand {field!r} of {COLORS[p]} names pieces beyond Z5 (bit 20)")
        board.used[p] = ALL_PIECES & ~left
        placed = sum(PIECE_SIZES[i] for i in range(N_PIECES) if board.used[p] >> i & 1)
        if placed != board.own[p].bit_count():
            raise NotationError(f"{COLORS[p]} has {board.own[p].bit_count()} tiles on the board "
                                f"but the placed pieces make {placed}")
        board.occupied |= board.own[p]
        board.adj[p] = edge_neighbours(board.own[p])
        board.diag[p] = diagonal_neighbours(board.own[p])
    board.ply = sum(used.bit_count() for used in board.used)
    if mover == "-":
        able = board.to_move()
        if able is not None:
            raise NotationError(f"'-' says nobody can move, but {COLORS[able]} can")
        return board
    if len(mover) != 1 or mover not in COLOR_LETTERS[:players]:
        raise NotationError(f"player to move {mover!r} is not one of {COLOR_LETTERS[:players]}")
    board.turn = COLOR_LETTERS.index(mover)
    if board.to_move() != board.turn:
        raise NotationError(f"{COLORS[board.turn]} cannot move here, so cannot be the player to move")
    return board
