"""The moves at each anchor as one int of spellings, kept from one turn of a player to the next.

A move is a spelling (a shape and its contact cell) at an anchor. Numbering the spellings
in the order ``bitboard.placements`` lists the moves at one target (piece, orientation,
contact), the spellings that fit at an anchor are the bits of one int: every spelling,
less those covering a blocked tile within reach (four steps) of the anchor, less those of
pieces already placed. A player's anchors mostly outlive a turn, and between two of the
player's turns only a few tiles are blocked anew, so :class:`AnchorFits` takes away only
what those tiles rule out; ``random`` then counts and indexes the moves without listing
them (a few hundred a ply, of which it keeps one).
"""
from __future__ import annotations

from functools import lru_cache

from .events import SIZE, Move
from .pieces import ORIENTATIONS, PIECE_NAMES, Cell

N_PIECES = len(PIECE_NAMES)

#: Tiles within reach of an anchor: a piece of five cells spans at most four steps.
REACH = 4
#: Bias that makes ``tile - anchor`` a list index (the reach's lowest is -REACH*(SIZE+1)).
_BIAS = REACH * (SIZE + 1)

#: Every (piece, orientation, contact, cells) in placements' order at one target: piece,
#: orientation, then contact by board offset (``x + SIZE*y``, as ``bitboard.Shape`` sorts).
SPELLINGS: tuple[tuple[int, int, Cell, tuple[Cell, ...]], ...] = tuple(
    (oriented.piece, oriented.index, contact, oriented.cells)
    for orientations in ORIENTATIONS for oriented in orientations
    for contact in sorted(oriented.contacts, key=lambda cell: cell[0] + SIZE * cell[1]))
#: Each spelling's (piece, orientation, contact): a move less its target.
HEADS = tuple(spelling[:3] for spelling in SPELLINGS)
ALL = (1 << len(SPELLINGS)) - 1
#: Builds a Move without the named tuple's Python-level ``__new__`` (see ``events``).
_new_tuple = tuple.__new__
#: ``(anchor, spellings that fit there)``, lowest anchor first.
Found = list[tuple[int, int]]


def _steps() -> list[tuple[int, int]]:
    """The (dx, dy) steps from an anchor within reach, rank by rank."""
    return [(dx, dy) for dy in range(-REACH, REACH + 1) for dx in range(-REACH, REACH + 1)
            if abs(dx) + abs(dy) <= REACH]


def _covering() -> tuple[dict[tuple[int, int], int], list[int]]:
    """(dx, dy) from the anchor -> the spellings covering that tile; and each piece's spellings."""
    covering = {step: 0 for step in _steps()}
    of_piece = [0] * N_PIECES
    for index, (piece, _, (cx, cy), cells) in enumerate(SPELLINGS):
        bit = 1 << index
        of_piece[piece] |= bit
        for x, y in cells:
            covering[(x - cx, y - cy)] |= bit
    return covering, of_piece


COVERING, PIECE_SPELLINGS = _covering()
#: COVERED[tile - anchor + _BIAS]: the spellings covering that tile (tiles within reach only).
COVERED = [0] * (2 * _BIAS + 1)
for (_dx, _dy), _spellings in COVERING.items():
    COVERED[_dx + SIZE * _dy + _BIAS] = _spellings


#: Blocked tiles are read a rank of the reach at a time, from the board shifted up by PAD
#: (so that no shift is negative): bit dx + REACH of a rank's bits is the tile dx across.
PAD = 2 * _BIAS


@lru_cache(maxsize=1)
def rank_tables() -> tuple[list[int], ...]:
    """``rank_tables()[dy + REACH][bits]``: the spellings covering a blocked tile of ``bits``,
    a rank ``dy`` from the anchor (each table built from its smaller entries: one OR each)."""
    tables = []
    for dy in range(-REACH, REACH + 1):
        table = [0] * (1 << (2 * REACH + 1))
        for bits in range(1, len(table)):
            low = bits & -bits
            table[bits] = table[bits ^ low] | COVERING.get(
                (low.bit_length() - 1 - REACH, dy), 0)
        tables.append(table)
    return tuple(tables)


#: Per rank of the reach: (how far to shift the padded board, which bits are tiles, table).
Ranks = tuple[tuple[int, int, list[int]], ...]


@lru_cache(maxsize=SIZE * SIZE)
def reach(anchor: int) -> tuple[int, int, Ranks]:
    """(the board tiles within reach of ``anchor``, the spellings that would leave the
    board, and how to read each of its ranks on the board)."""
    x, y = anchor % SIZE, anchor // SIZE
    tiles = off_board = 0
    for (dx, dy), spellings in COVERING.items():
        if 0 <= x + dx < SIZE and 0 <= y + dy < SIZE:
            tiles |= 1 << (anchor + dx + SIZE * dy)
        else:
            off_board |= spellings
    ranks = []
    # (nearest ranks first: they rule out the most, and ``any_fit`` may stop early)
    for dy in sorted(range(-REACH, REACH + 1), key=abs):
        if 0 <= y + dy < SIZE:
            across = REACH - abs(dy)
            bits = sum(1 << (dx + REACH) for dx in range(-across, across + 1)
                       if 0 <= x + dx < SIZE)
            ranks.append((anchor + SIZE * dy - REACH + PAD, bits, rank_tables()[dy + REACH]))
    return tiles, off_board, tuple(ranks)


#: ``in_hand`` reads the pieces placed in two parts, the low ``_LOW_PIECES`` and the rest.
_LOW_PIECES = 11


@lru_cache(maxsize=1)
def hand_tables() -> tuple[list[int], list[int]]:
    """The spellings of every set of the low pieces, and of every set of the others (each
    entry one OR of a smaller one)."""
    tables = []
    for first, count in ((0, _LOW_PIECES), (_LOW_PIECES, N_PIECES - _LOW_PIECES)):
        table = [0] * (1 << count)
        for pieces in range(1, len(table)):
            low = pieces & -pieces
            table[pieces] = table[pieces ^ low] | PIECE_SPELLINGS[first + low.bit_length() - 1]
        tables.append(table)
    return tables[0], tables[1]


def in_hand(used: int) -> int:
    """The spellings of the pieces not yet placed (``used``: bit i for piece i placed)."""
    low, high = hand_tables()
    return ALL & ~(low[used & (1 << _LOW_PIECES) - 1] | high[used >> _LOW_PIECES])


def fresh(anchor: int, padded: int, hand: int) -> int:
    """The spellings of ``hand`` that fit with their contact on ``anchor``; ``padded`` is
    the blocked tiles shifted up by ``PAD``."""
    _, ruled_out, ranks = reach(anchor)
    for shift, bits, table in ranks:
        ruled_out |= table[padded >> shift & bits]
    return hand & ~ruled_out


def any_fit(blocked: int, used: int, anchor_mask: int) -> bool:
    """Whether some spelling in hand fits on some anchor (stops at the first anchor found)."""
    hand = in_hand(used)
    padded = blocked << PAD
    while anchor_mask:
        low = anchor_mask & -anchor_mask
        anchor_mask ^= low
        _, ruled_out, ranks = reach(low.bit_length() - 1)
        for shift, bits, table in ranks:  # (as ``fresh``, stopping once nothing is left)
            ruled_out |= table[padded >> shift & bits]
            if not hand & ~ruled_out:
                break
        else:
            return True
    return False


def moves(found: Found) -> list[Move]:
    """Every move ``found`` lists, in placements' order (anchor, then spelling)."""
    listed = []
    for anchor, spellings in found:
        while spellings:
            low = spellings & -spellings
            spellings ^= low
            listed.append(_new_tuple(Move, (*HEADS[low.bit_length() - 1], anchor)))
    return listed


def move_at(anchor: int, spellings: int, n: int) -> Move:
    """The move of the ``n``-th (from 0) set bit of ``spellings`` at ``anchor``."""
    for _ in range(n):
        spellings &= spellings - 1
    piece, orientation, contact, _ = SPELLINGS[(spellings & -spellings).bit_length() - 1]
    return Move(piece, orientation, contact, anchor)


class AnchorFits:
    """One player's fitting spellings at each of their anchors, brought up to date each turn.

    Blocked tiles and placed pieces only ever grow, and an anchor once lost (covered, or
    beside the colour) never comes back: so what fitted at a kept anchor and is still not
    ruled out by the tiles blocked since still fits, and an anchor where nothing fits stays so.
    """

    __slots__ = ("blocked", "fits", "dead")

    def __init__(self) -> None:
        self.blocked = 0
        self.fits: dict[int, int] = {}
        self.dead = 0  # anchors where nothing fits (nothing ever will)

    def update(self, blocked: int, used: int, anchor_mask: int) -> tuple[Found, int]:
        """``(anchor, spellings)`` for each anchor, lowest first, now that the board is
        ``blocked`` and the pieces ``used`` (anchors where nothing fits left out); and how
        many moves that is."""
        hand = in_hand(used)
        new = blocked & ~self.blocked
        self.blocked = blocked
        before = self.fits
        padded = blocked << PAD
        found = []
        count = 0
        anchor_mask &= ~self.dead
        while anchor_mask:
            low = anchor_mask & -anchor_mask
            anchor_mask ^= low
            anchor = low.bit_length() - 1
            spellings = before.get(anchor)
            if spellings is None:
                spellings = fresh(anchor, padded, hand)
            else:
                spellings &= hand
                near = new & reach(anchor)[0]
                while near:
                    tile = near & -near
                    near ^= tile
                    spellings &= ~COVERED[tile.bit_length() - 1 - anchor + _BIAS]
            if spellings:
                found.append((anchor, spellings))
                count += spellings.bit_count()
            else:
                self.dead |= low
        self.fits = dict(found)
        return found, count


def nth_move(found: Found, n: int) -> Move:
    """The ``n``-th (from 0) of the moves ``found`` lists, in placements' order."""
    for anchor, spellings in found:
        count = spellings.bit_count()
        if n < count:
            return move_at(anchor, spellings, n)
        n -= count
    raise IndexError("no such placement")
