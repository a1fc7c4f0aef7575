"""The eight symmetries of the Tilewe board, applied to moves and records.

The rules are geometric (corners, edges, diagonals) and the four start corners
map onto each other, so a game transformed move by move is a legal game whose
board is the transformed board at every ply. A move is transformed by the
cells it covers: their images are covered by exactly one orientation of the
same piece, placed with the image of its contact tile on the image of its
target.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache, partial

from notation.core.ast import Record, map_events
from notation.core.errors import NotationError

from .events import SIZE, Move
from .options import TRANSFORM_NAMES
from .pieces import ORIENTATIONS, Cell, orientation

_LAST = SIZE - 1
#: name -> (x, y) -> (x, y), with x the file (a = 0) and y the rank - 1; rotations
#: are clockwise as the board is drawn (rank 20 at the top).
TRANSFORMS: dict[str, Callable[[int, int], tuple[int, int]]] = {
    "identity": lambda x, y: (x, y),
    "rot90": lambda x, y: (y, _LAST - x),
    "rot180": lambda x, y: (_LAST - x, _LAST - y),
    "rot270": lambda x, y: (_LAST - y, x),
    "flip-h": lambda x, y: (_LAST - x, y),      # files mirrored (a <-> t)
    "flip-v": lambda x, y: (x, _LAST - y),      # ranks mirrored (1 <-> 20)
    "flip-d": lambda x, y: (y, x),              # about the a1-t20 diagonal
    "flip-a": lambda x, y: (_LAST - y, _LAST - x),  # about the a20-t1 diagonal
}
NAMES = TRANSFORM_NAMES  # (a test holds them equal to TRANSFORMS but the identity)


def square(transform: str, target: int) -> int:
    """The image of board tile ``x + 20*y``."""
    x, y = TRANSFORMS[transform](target % SIZE, target // SIZE)
    return x + SIZE * y


@lru_cache(maxsize=None)
def _shape_image(transform: str, piece: int, o: int, contact: Cell) -> tuple[int, Cell]:
    """(orientation, contact) of the image of one oriented piece.

    Worked out on cells relative to the contact, so it holds for any target.
    """
    f = TRANSFORMS[transform]
    shape = orientation(piece, o)
    cx, cy = f(*contact)
    moved = {(x - cx, y - cy) for x, y in (f(*cell) for cell in shape.cells)}
    for candidate in ORIENTATIONS[piece]:
        for ax, ay in candidate.contacts:
            if {(x - ax, y - ay) for x, y in candidate.cells} == moved:
                return candidate.index, (ax, ay)
    raise AssertionError("a symmetry image is always an orientation of the piece")  # pragma: no cover


def transform_move(transform: str, move: Move) -> Move:
    """The move that covers the images of the cells ``move`` covers."""
    o, contact = _shape_image(transform, move.piece, move.orientation, move.contact)
    return Move(move.piece, o, contact, square(transform, move.target))


def transform_record(transform: str, record: Record) -> Record:
    """The same game on the turned or mirrored board: every move, in every variation too,
    rewritten; numbers, annotations and comments kept."""
    if "Position" in record.tag_dict:
        raise NotationError("a record set up from a [Position] cannot be transformed here")
    return record.rewritten(map_events(record.items, partial(transform_move, transform)))


def least_image(moves: Sequence[Move]) -> list[str]:
    """The moves' text in the one of the board's 8 images that sorts first (``dedupe
    --symmetric``: games equal up to a symmetry get one key)."""
    return min([str(transform_move(name, move)) for move in moves] for name in TRANSFORMS)
