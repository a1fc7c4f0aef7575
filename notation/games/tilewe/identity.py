"""What a Tilewe move is: the cells it covers, whichever contact tile names it.

A placement has one spelling per contact tile of its piece: ``U5s-c1t5`` and ``U5s-a1r5``
put the U5, turned ``s``, on the same five tiles. Both are one move, so a move's identity
(``Game.event_identity``) is what its cells are: the piece, its canonical orientation and
where the bottom-left corner of its bounding box lands, ``U5s@17,4`` (file and rank from
0; outside the board for a move that leaves it, which is never legal but still a move).

Of its spellings, the one ``fmt --canonical`` writes is the one the Pentobi reader makes of
the cells (``pentobi/cells.py``): the first contact tile, in the oriented piece's order,
that lands where the mover may place.
"""
from __future__ import annotations

from functools import lru_cache

from .bitboard import move_mask, squares
from .events import SIZE, Move, square_name
from .pentobi.cells import placement
from .pieces import CANONICAL, ORIENTATION_NAMES, ORIENTATIONS, PIECE_NAMES, cell_name, orientation
from .state import Board


def placement_key(move: Move) -> str:
    """The move's identity: ``U5s@17,4`` for every spelling of that placement."""
    piece, orientation, (x, y), target = move
    return (f"{PIECE_NAMES[piece]}{ORIENTATION_NAMES[CANONICAL[piece][orientation]]}"
            f"@{target % SIZE - x},{target // SIZE - y}")


@lru_cache(maxsize=1)
def placement_keys() -> dict[str, str]:
    """Every move in canonical spelling (about 124,000) -> its :func:`placement_key`, the
    spellings of one placement sharing one string (``dedupe``'s fast path: a word is
    looked up, not read)."""
    keys: dict[str, str] = {}
    shared: dict[str, str] = {}
    for oriented_piece in ORIENTATIONS:
        for oriented in oriented_piece:
            name = f"{PIECE_NAMES[oriented.piece]}{oriented.name}"
            for x, y in oriented.contacts:
                prefix = f"{name}-{cell_name((x, y))}"
                for target in range(SIZE * SIZE):
                    key = f"{name}@{target % SIZE - x},{target // SIZE - y}"
                    keys[prefix + square_name(target)] = shared.setdefault(key, key)
    return keys


def quick_keys(words: list[str], /) -> list[str] | None:
    """Each word's placement, when every one is a move in canonical spelling (None: read
    the moves)."""
    keys = placement_keys()
    try:
        return list(map(keys.__getitem__, words))
    except KeyError:
        return None


def canonical_spelling(board: Board, move: Move) -> Move:
    """The spelling of ``move`` the Pentobi reader writes for its cells, with ``board``
    the position it is played in; a move off the board (no cells to read) as it is.

    Worked out from the move's own orientation, whose cells its spelling covers: the first
    of its contact tiles that lands on an anchor of the mover, else its first
    (:func:`spelling_read_from_cells`, which reads the cells as Pentobi's reader does, is
    its definition: a test holds them equal; a fifth of ``explore``'s time went there)."""
    if not move_mask(move):
        return move
    mover = board.to_move()
    anchors = board.anchors(mover) if mover is not None else 0
    piece, _, (x, y), target = move
    oriented = orientation(piece, move.orientation)
    left, bottom = target % SIZE - x, target // SIZE - y
    for contact in oriented.contacts:
        landing = left + contact[0] + SIZE * (bottom + contact[1])
        if anchors >> landing & 1:
            return Move(piece, oriented.index, contact, landing)
    first = oriented.contacts[0]
    return Move(piece, oriented.index, first, left + first[0] + SIZE * (bottom + first[1]))


def spelling_read_from_cells(board: Board, move: Move) -> Move:
    """:func:`canonical_spelling`'s definition: the move's cells read back as the Pentobi
    reader reads them (``pentobi/cells.py``)."""
    mask = move_mask(move)
    if not mask:
        return move
    mover = board.to_move()
    return placement(squares(mask), board.anchors(mover) if mover is not None else 0)
