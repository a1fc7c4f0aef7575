"""The eight symmetries of the Tilewe board, applied to moves and records.

The rules are geometric (corners, edges, diagonals) and the four start corners
map onto each other, so a game transformed move by move is a legal game whose
board is the transformed board at every ply. A move is transformed by the
cells it covers: their images are covered by exactly one orientation of the
same piece, placed with the image of its contact tile on the image of its
target.

Here too is what takes the symmetries into account: the Symmetries part, the Conversion
part (``convert --transform``) and the Identity part (a start's identity under
``dedupe --symmetric``; the moves' own identity is ``identity.py``'s).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache, partial
from operator import itemgetter
from typing import Any

from notation.core.tree import GameNode
from notation.core.ast import map_events
from notation.core.errors import NotationError

from . import blokus
from .events import SIZE, Move
from .identity import (canonical_spelling as canonical_event, placement_key,
                       placement_key as event_identity, quick_keys as quick_keys)
from . import TRANSFORM_NAMES
from .pieces import ORIENTATIONS, Cell, orientation
from .position import RANK_ITEM
from .state import Board, written_rank

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


transform_event = transform_move


def transform_record(transform: str, record: GameNode) -> GameNode:
    """The same game on the turned or mirrored board: every move, in every variation too,
    rewritten; numbers, annotations and comments kept."""
    if "Position" in record.headers:
        raise NotationError("a record set up from a [Position] cannot be transformed here")
    return record.rewritten(map_events(record.items, partial(transform_move, transform)))


def convert(record: GameNode, /, **options: Any) -> GameNode:
    """``transform``: the same game on a turned or mirrored board (comments kept)."""
    name = options.pop("transform", None)
    if name not in NAMES or options:
        raise NotationError(f"tilewe converts with --transform {'|'.join(NAMES)}")
    return transform_record(name, record)


def symmetric_keys(record: GameNode, transforms: Sequence[str] | None = None, /) -> list[str]:
    """The record's moves' placements (``identity.placement_key``) in the one of the
    board's 8 images (or of ``transforms``, those that take a set-up start to its least
    image) that sorts first (``dedupe --symmetric``: games equal up to a symmetry, however
    their moves are spelled, get one key)."""
    moves = record.events
    return min([placement_key(transform_move(name, move)) for move in moves]
               for name in (TRANSFORMS if transforms is None else transforms))


@lru_cache(maxsize=None)
def _sources(transform: str) -> Callable[[str], tuple[str, ...]]:
    """What takes a board's cells (one a tile, ``x + 20*y`` first) to the image's under
    ``transform``, each image tile from the board's tile that lands there."""
    found = [0] * (SIZE * SIZE)
    for tile in range(SIZE * SIZE):
        found[square(transform, tile)] = tile
    return itemgetter(*found)


def _cells(ranks: str) -> str:
    """TPN ranks (rank 20 first) as one cell a tile, tile ``x + 20*y`` first ("." empty)."""
    return "".join("".join("." * int(item) if item.isdigit() else item
                           for item in RANK_ITEM.findall(rank))
                   for rank in reversed(ranks.split("/")))


def position_images(text: str) -> dict[str, str]:
    """A TPN position under each of the board's eight transforms, by name (hands and
    turn do not move with the board). Each image takes its cells through a table of
    where each tile comes from, and writes its ranks as the board's text is written."""
    ranks, _, rest = text.partition(" ")
    cells = _cells(ranks)
    images = {}
    for name in TRANSFORMS:
        image = "".join(_sources(name)(cells))
        written = written_rank("/".join(image[SIZE * y:SIZE * (y + 1)]
                                        for y in range(SIZE - 1, -1, -1)))
        images[name] = f"{written} {rest}"
    return images


def least_image(text: str, /) -> tuple[str, tuple[str, ...]]:
    """A TPN position's image that sorts first, and every transform that gives it (all
    eight for the empty board)."""
    images = position_images(text)
    least = min(images.values())
    return least, tuple(name for name, image in images.items() if image == least)


def setup_identity(board: Board, symmetric: bool = False, /) -> str:
    """The start's full position (its least image, ``symmetric``), then the Blokus rules
    that TPN does not hold."""
    position = board.position()
    return f"{least_image(position)[0] if symmetric else position} {blokus.rules_text(board)}"
