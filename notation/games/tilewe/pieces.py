"""Tilewe pieces, orientations and contact tiles.

Everything is derived from the 21 default shapes with the two elementary
transforms of the rules (quarter turn clockwise, left-right mirror), so the
tables cannot drift from the geometry. Cells are ``(x, y)`` pairs inside the
oriented piece's bounding box, ``(0, 0)`` being its bottom-left cell (``a1``).
"""
from __future__ import annotations

from collections.abc import Iterable

from notation.core.hand_dataclass import hand_dataclass

Cell = tuple[int, int]

#: Piece names in index order, with their default (``n``) cells.
DEFAULT_SHAPES: tuple[tuple[str, tuple[Cell, ...]], ...] = (
    ("O1", ((0, 0),)),
    ("I2", ((0, 0), (0, 1))),
    ("I3", ((0, 0), (0, 1), (0, 2))),
    ("L3", ((0, 0), (1, 0), (0, 1))),
    ("O4", ((0, 0), (1, 0), (0, 1), (1, 1))),
    ("I4", ((0, 0), (0, 1), (0, 2), (0, 3))),
    ("L4", ((0, 0), (1, 0), (0, 1), (0, 2))),
    ("Z4", ((1, 0), (2, 0), (0, 1), (1, 1))),
    ("T4", ((1, 0), (0, 1), (1, 1), (2, 1))),
    ("F5", ((1, 0), (0, 1), (1, 1), (1, 2), (2, 2))),
    ("I5", ((0, 0), (0, 1), (0, 2), (0, 3), (0, 4))),
    ("L5", ((0, 0), (1, 0), (0, 1), (0, 2), (0, 3))),
    ("N5", ((0, 0), (0, 1), (0, 2), (1, 2), (1, 3))),
    ("P5", ((0, 0), (0, 1), (1, 1), (0, 2), (1, 2))),
    ("T5", ((1, 0), (1, 1), (0, 2), (1, 2), (2, 2))),
    ("U5", ((0, 0), (1, 0), (2, 0), (0, 1), (2, 1))),
    ("V5", ((0, 0), (1, 0), (2, 0), (2, 1), (2, 2))),
    ("W5", ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2))),
    ("X5", ((1, 0), (0, 1), (1, 1), (2, 1), (1, 2))),
    ("Y5", ((1, 0), (1, 1), (0, 2), (1, 2), (1, 3))),
    ("Z5", ((1, 0), (2, 0), (1, 1), (0, 2), (1, 2))),
)

PIECE_NAMES: tuple[str, ...] = tuple(name for name, _ in DEFAULT_SHAPES)
PIECE_INDEX: dict[str, int] = {name: i for i, name in enumerate(PIECE_NAMES)}
ORIENTATION_NAMES: tuple[str, ...] = ("n", "e", "s", "w", "nf", "ef", "sf", "wf")
ORIENTATION_INDEX: dict[str, int] = {name: i for i, name in enumerate(ORIENTATION_NAMES)}
FILES = "abcdefghijklmnopqrst"


def cell_name(cell: Cell) -> str:
    """``(1, 2)`` -> ``"b3"``: the rules reuse board tile names inside a piece."""
    return f"{FILES[cell[0]]}{cell[1] + 1}"


def _row_major(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    """Rank 1 upward, left to right: the order the rules' tables list cells in."""
    return tuple(sorted(cells, key=lambda c: (c[1], c[0])))


def _turn(cells: tuple[Cell, ...]) -> tuple[Cell, ...]:
    m = max(x for x, _ in cells)
    return _row_major((y, m - x) for x, y in cells)


def _mirror(cells: tuple[Cell, ...]) -> tuple[Cell, ...]:
    m = max(x for x, _ in cells)
    return _row_major((m - x, y) for x, y in cells)


def _contacts(cells: tuple[Cell, ...]) -> tuple[Cell, ...]:
    """Cells with at most one neighbour, or two neighbours at a right angle."""
    present = set(cells)
    found = []
    for x, y in cells:
        horizontal = [(x + d, y) for d in (-1, 1) if (x + d, y) in present]
        vertical = [(x, y + d) for d in (-1, 1) if (x, y + d) in present]
        count = len(horizontal) + len(vertical)
        if count <= 1 or (count == 2 and len(horizontal) == 1):
            found.append((x, y))
    return tuple(found)


@hand_dataclass(frozen=True, slots=True)
class Orientation:
    """One distinct oriented shape of a piece, under its canonical name."""

    piece: int
    index: int  # canonical orientation index (0..7)
    cells: tuple[Cell, ...]
    contacts: tuple[Cell, ...]
    aliases: tuple[int, ...]  # other orientation indices giving the same cells

    def __init__(self, piece: int, index: int, cells: tuple[Cell, ...],
                 contacts: tuple[Cell, ...], aliases: tuple[int, ...]) -> None:
        setting = object.__setattr__
        setting(self, "piece", piece)
        setting(self, "index", index)
        setting(self, "cells", cells)
        setting(self, "contacts", contacts)
        setting(self, "aliases", aliases)

    @property
    def name(self) -> str:
        return ORIENTATION_NAMES[self.index]

    @property
    def width(self) -> int:
        return max(x for x, _ in self.cells) + 1

    @property
    def height(self) -> int:
        return max(y for _, y in self.cells) + 1


def _build() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[Orientation, ...], ...]]:
    canonical_of: list[tuple[int, ...]] = []
    orientations: list[tuple[Orientation, ...]] = []
    for piece, (_, default) in enumerate(DEFAULT_SHAPES):
        shapes = [_row_major(default)]
        for _ in range(3):
            shapes.append(_turn(shapes[-1]))
        shapes += [_mirror(s) for s in shapes[:4]]
        first_index: dict[tuple[Cell, ...], int] = {}
        for index, shape in enumerate(shapes):
            first_index.setdefault(shape, index)
        canonical_of.append(tuple(first_index[s] for s in shapes))
        distinct = []
        for shape, index in first_index.items():
            aliases = tuple(i for i, s in enumerate(shapes) if s == shape and i != index)
            distinct.append(Orientation(piece, index, shape, _contacts(shape), aliases))
        orientations.append(tuple(distinct))
    return tuple(canonical_of), tuple(orientations)


#: ``CANONICAL[piece][orientation]`` -> the canonical orientation index.
#: ``ORIENTATIONS[piece]`` -> the piece's distinct orientations, canonical order.
CANONICAL, ORIENTATIONS = _build()
PIECE_SIZES: tuple[int, ...] = tuple(len(cells) for _, cells in DEFAULT_SHAPES)


def orientation(piece: int, index: int) -> Orientation:
    """The distinct orientation that ``index`` (canonical or alias) denotes."""
    canonical = CANONICAL[piece][index]
    for o in ORIENTATIONS[piece]:
        if o.index == canonical:
            return o
    raise AssertionError("canonical orientation missing")  # pragma: no cover


#: A contact cell lies in the 5x5 box of its oriented piece.
_BOX = 5
#: How many spelling numbers there are (:func:`spelling_number`).
SPELLING_NUMBERS = len(PIECE_NAMES) * len(ORIENTATION_NAMES) * _BOX * _BOX


def spelling_number(piece: int, index: int, contact: Cell) -> int:
    """A spelling's (piece, orientation or an alias of it, contact cell) number below
    :data:`SPELLING_NUMBERS`: how the compiled modules' tables are indexed (``tilewe.h``)."""
    return ((piece * len(ORIENTATION_NAMES) + index) * _BOX + contact[0]) * _BOX + contact[1]
