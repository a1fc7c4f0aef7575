"""The board as bits of Python ints, and where pieces fit on it.

Tiles are bits (bit ``x + 20*y``). Every orientation of every piece is
precomputed once as a mask, so placing a piece is a shift and checking it a
handful of integer ``&``s; the searches below are bit-parallel (one shift per
cell of a 5x5 box, not one test per tile). Nothing here knows whose turn it
is: the state and the rules ask.
"""
from __future__ import annotations


from .events import SIZE, Move
from .pieces import CANONICAL, ORIENTATIONS, PIECE_NAMES, Cell, Orientation

N_PIECES = len(PIECE_NAMES)
FULL = (1 << SIZE * SIZE) - 1
_COL_A = sum(1 << (SIZE * y) for y in range(SIZE))
NOT_A = FULL ^ _COL_A
NOT_T = FULL ^ (_COL_A << (SIZE - 1))
#: The four board corners a1, t1, a20, t20, where first pieces go.
CORNERS = (1 | 1 << (SIZE - 1) | 1 << (SIZE * (SIZE - 1)) | 1 << (SIZE * SIZE - 1))


def edge_neighbours(m: int) -> int:
    """Tiles edge-adjacent to any tile of ``m`` (not wrapping around the board)."""
    return (((m << 1) & NOT_A) | ((m >> 1) & NOT_T) | (m << SIZE) | (m >> SIZE)) & FULL


def diagonal_neighbours(m: int) -> int:
    """Tiles diagonally adjacent to any tile of ``m``."""
    return (((m << (SIZE + 1)) & NOT_A) | ((m << (SIZE - 1)) & NOT_T)
            | ((m >> (SIZE - 1)) & NOT_A) | ((m >> (SIZE + 1)) & NOT_T)) & FULL


def squares(m: int) -> list[int]:
    """The set bits of ``m``, ascending."""
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


#: An origin (b2) where a shape's neighbours never leave the board or wrap a row.
REFERENCE = SIZE + 1


class Shape:
    """One distinct orientation of a piece, ready for bit-parallel search.

    ``cells`` and ``contacts`` index the 25 offsets ``x + 5*y`` of a 5x5 box;
    ``valid`` has a bit at every origin (bottom-left corner) that keeps the
    whole bounding box on the board, so shifted masks never wrap a row.
    """

    __slots__ = ("piece", "orientation", "mask", "cells", "contacts", "valid", "edges",
                 "diagonals", "clip")

    def __init__(self, oriented: Orientation) -> None:
        self.piece, self.orientation = oriented.piece, oriented.index
        self.mask = sum(1 << (x + SIZE * y) for x, y in oriented.cells)
        self.cells = tuple(x + 5 * y for x, y in oriented.cells)
        #: (index into the 25 offsets, offset on the board, contact cell), by x + 20*y
        self.contacts: tuple[tuple[int, int, Cell], ...] = tuple(sorted(
            ((x + 5 * y, x + SIZE * y, (x, y)) for x, y in oriented.contacts),
            key=lambda contact: contact[1]))
        row = (1 << (SIZE - oriented.width + 1)) - 1
        self.valid = sum(row << (SIZE * y) for y in range(SIZE - oriented.height + 1))
        #: The tiles beside and diagonal to the shape placed at origin ``REFERENCE``, where
        #: none wraps a row: shifted to an origin in file x and ANDed with ``clip[x]``, they
        #: are its neighbours there (``rules.play``).
        self.edges = edge_neighbours(self.mask << REFERENCE)
        self.diagonals = diagonal_neighbours(self.mask << REFERENCE)
        #: clip[x]: the tiles a shifted neighbour mask keeps at an origin in file x; one
        #: beside the first file wraps to the last and one beside the last to the first.
        last = SIZE - oriented.width  # (the last file an origin may be in)
        self.clip = tuple(FULL & (NOT_T if x == 0 else FULL) & (NOT_A if x == last else FULL)
                          for x in range(last + 1))


#: SHAPES[piece]: the piece's distinct orientations, canonical order.
SHAPES: tuple[tuple[Shape, ...], ...] = tuple(
    tuple(Shape(o) for o in oriented) for oriented in ORIENTATIONS)
#: (piece, canonical orientation, contact cell) -> (shape, contact's board offset)
SPELLING: dict[tuple[int, int, Cell], tuple[Shape, int]] = {
    (shape.piece, shape.orientation, contact): (shape, offset)
    for shapes in SHAPES for shape in shapes for _, offset, contact in shape.contacts}


#: ``SPELLING`` under every orientation index, an alias too (a move built by hand may
#: carry one): ``rules.play`` looks a move's first three fields up as they are.
PLACING: dict[tuple[int, int, Cell], tuple[Shape, int]] = {
    (piece, alias, contact): (shape, offset)
    for (piece, _, contact), (shape, offset) in SPELLING.items()
    for alias, canonical in enumerate(CANONICAL[piece]) if canonical == shape.orientation}


def placement_mask(shape: Shape, offset: int, target: int) -> int:
    """Tiles covered with the contact (at ``offset`` in the piece) on ``target``; 0 if off the board."""
    origin = target - offset
    x0 = target % SIZE - offset % SIZE
    if x0 < 0 or origin < 0 or not shape.valid >> origin & 1:
        return 0
    return shape.mask << origin


def move_mask(move: Move) -> int | None:
    """The tiles ``move`` covers (0 if it leaves the board); None if its contact is no
    contact tile (a move built by hand, not read)."""
    spelling = SPELLING.get((move.piece, CANONICAL[move.piece][move.orientation], move.contact))
    return None if spelling is None else placement_mask(spelling[0], spelling[1], move.target)


def anchors(occupied: int, adjacent: int, diagonal: int, first: bool) -> int:
    """Tiles where a player's next contact tile may go: an empty corner of the board for a
    first piece, else a free tile diagonal to the colour and not beside it."""
    if first:
        return CORNERS & ~occupied
    return diagonal & ~(occupied | adjacent)


def fits(blocked: int, used: int, anchor_mask: int) -> bool:
    """Whether some piece in hand fits with a contact tile on an anchor (stops at the first)."""
    if not anchor_mask:
        return False
    if not used & 1:  # O1 still in hand fits on any anchor
        return True
    # Any other piece covers a tile beside its contact: an anchor with none free is dead.
    anchor_mask &= edge_neighbours(FULL & ~blocked)
    from .anchor_fits import any_fit  # (start-up: 0.8 ms of tables the compiled rules never use)
    return bool(anchor_mask) and any_fit(blocked, used, anchor_mask)


def placements(blocked: int, used: int, anchor_mask: int) -> list[Move]:
    """Every move spelling that fits, in the reference's order (target, piece, orientation,
    contact): the spellings that fit at each anchor, lowest anchor first (``anchor_fits``)."""
    from .anchor_fits import AnchorFits, moves
    return moves(AnchorFits().update(blocked, used, anchor_mask)[0])
