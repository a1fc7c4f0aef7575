"""Philosophy's twelve tile kinds (rules file section 3): how each may face and what
its activation does to the tile it targets."""
from __future__ import annotations

from typing import NamedTuple

from .geometry import CARDINAL, CELL, DIAGONAL, DIRECTIONS, step


class TileKind(NamedTuple):
    name: str
    facings: tuple[str, ...]  # the facings it may be placed with
    distance: int             # how far away its target is
    moves: int | None         # the turn (in eighths) of the target's move; None: a choice
    steps: int = 1            # how far the target moves


TILES: dict[str, TileKind] = {
    "Pu": TileKind("Push", CARDINAL, 1, 0),
    "Cp": TileKind("Corner Push", DIAGONAL, 1, 0),
    "Ls": TileKind("Long Shot", CARDINAL, 2, 0),
    "Cl": TileKind("Corner Long Shot", DIAGONAL, 2, 0),
    "Sl": TileKind("Slide Left", CARDINAL, 1, -2),
    "Sr": TileKind("Slide Right", CARDINAL, 1, 2),
    "Pl": TileKind("Pull Left", CARDINAL, 1, 5),
    "Pr": TileKind("Pull Right", CARDINAL, 1, 3),
    "To": TileKind("Toss", CARDINAL, 1, 4, 2),
    "Pe": TileKind("Persuade", CARDINAL, 1, 4),
    "De": TileKind("Decision", DIAGONAL, 1, None),
    "Re": TileKind("Rephrase", DIAGONAL, 1, None),
}
TILE_CODES = tuple(TILES)
#: How many facings every tile kind allows (four cardinal or four diagonal).
FACINGS = 4
assert all(len(kind.facings) == FACINGS for kind in TILES.values())
#: Every (tile, facing) a tile may be placed with: one look-up for a placement's checks.
PLACEABLE = frozenset((tile, facing) for tile, kind in TILES.items() for facing in kind.facings)


#: The space each tile targets from each space and facing (None: off the board), worked
#: out once for the chain reaction, which looks a target up for every tile of the mover.
TARGETS: dict[tuple[str, str, str], str | None] = {
    (space, tile, facing): step(space, facing, kind.distance)
    for space in CELL for tile, kind in TILES.items() for facing in DIRECTIONS}


def target_of(space: str, tile: str, facing: str) -> str | None:
    """The space a tile on ``space`` targets (None when that is off the board)."""
    key = (space, tile, facing)
    if key in TARGETS:
        return TARGETS[key]
    return step(space, facing, TILES[tile].distance)
