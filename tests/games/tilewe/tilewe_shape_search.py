"""Tilewe's former move search, shape by shape: the definition the anchor tables
(``anchor_fits``) are held to, and the way random moves were drawn before them (the
games a seed gave). The library no longer uses it; the tests do."""
from __future__ import annotations

from collections.abc import Iterator

from notation.games.tilewe.bitboard import N_PIECES, SHAPES, Shape
from notation.games.tilewe.events import SIZE, Move
from notation.games.tilewe.pieces import Cell

#: The 25 board offsets of a 5x5 box, indexed by x + 5*y (a shape's cells and contacts).
OFFSETS = tuple(x + SIZE * y for y in range(5) for x in range(5))


def free_origins(blocked: int, used: int) -> Iterator[tuple[Shape, int]]:
    """``(shape, origins)`` for each orientation of a piece in hand that fits somewhere.

    ``used`` has bit i set for piece i placed. The origins where no cell of a
    shape is ``blocked`` are ``valid & ~OR(blocked >> cell offset)``.
    """
    shifted_blocked = [blocked >> off for off in OFFSETS]
    for piece in range(N_PIECES):
        if used >> piece & 1:
            continue
        for shape in SHAPES[piece]:
            hit = 0
            for i in shape.cells:
                hit |= shifted_blocked[i]
            free = shape.valid & ~hit
            if free:
                yield shape, free


#: ``(targets, shape, contact)``: one spelling of a piece and the anchors where it fits.
Spelling = tuple[int, Shape, Cell]


def fitting_spellings(blocked: int, used: int, anchor_mask: int) -> list[Spelling]:
    """``(targets, shape, contact)`` for each orientation and contact tile of a piece in hand
    that fits on some anchor, in piece, orientation and contact order; ``targets`` has a bit
    at each anchor where that spelling fits. A contact on an anchor is one ``&`` of the free
    origins with the anchors shifted by the contact's offset."""
    if not anchor_mask:
        return []
    shifted_anchors = [anchor_mask >> off for off in OFFSETS]
    found = []
    for shape, free in free_origins(blocked, used):
        for i, offset, contact in shape.contacts:
            hits = free & shifted_anchors[i]
            if hits:
                found.append((hits << offset, shape, contact))
    return found


def nth_placement(spellings: list[Spelling], anchor_mask: int, n: int) -> Move:
    """``placements(...)[n]`` from the ``fitting_spellings`` on ``anchor_mask``, without building
    the list (a random game needs one move of a few hundred): the moves at each anchor, from
    the lowest up, are the spellings that fit there, in their own order."""
    while anchor_mask:
        low = anchor_mask & -anchor_mask
        anchor_mask ^= low
        here = [spelling for spelling in spellings if spelling[0] & low]
        if n < len(here):
            _, shape, contact = here[n]
            return Move(shape.piece, shape.orientation, contact, low.bit_length() - 1)
        n -= len(here)
    raise IndexError("no such placement")
