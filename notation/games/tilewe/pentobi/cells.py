"""A Pentobi move (the cells a piece covers, ``a17,b17,a18``) <-> a Tilewe :class:`Move`.

Many Tilewe spellings place the same cells (one per contact tile of the piece that lands on
a legal target). The one chosen, the canonical spelling of a placement read from a Pentobi
file: the piece and its canonical orientation from the cells' shape, then the first contact
tile, in the oriented piece's own order (row by row from its bottom-left cell), whose board
cell is a legal target for the colour at that point (an anchor: its own corner for a first
piece, else a free cell diagonal to the colour); when none is (the placement is illegal, and
the replay says why), the first contact tile.
"""
from __future__ import annotations

from notation.core.errors import NotationError

from ..bitboard import move_mask, squares
from ..events import SIZE, Move, parse_square, square_name
from ..pieces import ORIENTATIONS, Cell, Orientation

#: Every oriented shape (cells from its bottom-left, row by row) -> its orientation.
_SHAPES: dict[tuple[Cell, ...], Orientation] = {
    oriented.cells: oriented for piece in ORIENTATIONS for oriented in piece}


def read_cells(values: list[str]) -> list[int]:
    """The board cells of a move's values (``a17,b17`` or one cell a value, legacy), any
    case; :class:`NotationError` for a cell off the board or given twice."""
    found: list[int] = []
    for value in values:
        for name in value.split(","):
            word = name.strip().lower()
            try:
                found.append(parse_square(word))
            except NotationError:
                raise NotationError(f"{name[:12]!r} is off the board (cells are a1 to t20)") from None
    if len(set(found)) != len(found):
        raise NotationError("a cell is given twice")
    if not found:
        raise NotationError("a move with no cells")
    return found


def placement(cells: list[int], anchors: int) -> Move:
    """The canonical Tilewe move covering exactly ``cells`` (see the module), or
    :class:`NotationError` when they are no piece."""
    xs = [c % SIZE for c in cells]
    ys = [c // SIZE for c in cells]
    left, bottom = min(xs), min(ys)
    shape = tuple(sorted(((x - left, y - bottom) for x, y in zip(xs, ys)),
                         key=lambda c: (c[1], c[0])))
    oriented = _SHAPES.get(shape)
    if oriented is None:
        names = ",".join(square_name(c) for c in sorted(cells))
        raise NotationError(f"the cells {names} are no Blokus piece")
    targets = [left + x + SIZE * (bottom + y) for x, y in oriented.contacts]
    chosen = next((i for i, t in enumerate(targets) if anchors >> t & 1), 0)
    return Move(oriented.piece, oriented.index, oriented.contacts[chosen], targets[chosen])


def cells_of(move: Move) -> str:
    """The cells ``move`` covers as a Pentobi value, sorted as Pentobi's document asks
    (a1, b1, ..., a2, b2, ...); :class:`NotationError` for a move off the board."""
    mask = move_mask(move)
    if not mask:
        raise NotationError(f"{move} puts part of its piece off the board")
    return ",".join(square_name(s) for s in squares(mask))
