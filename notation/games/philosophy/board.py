"""Philosophy's board and tiles (rules file sections 1 and 3).

37 named spaces in a 7x7 box (row 0 at the top); only the nine C spaces take
new tiles. Directions are the eight two-letter codes in clockwise order, so a
turn of k * 45 degrees is an index shift of k.
"""
from __future__ import annotations

from typing import NamedTuple

_LAYOUT = (
    "-- -- N1 N2 N3 -- --",
    "-- NW N4 N5 N6 NE --",
    "W1 W2 C1 C2 C3 E1 E2",
    "W3 W4 C4 C5 C6 E3 E4",
    "W5 W6 C7 C8 C9 E5 E6",
    "-- SW S1 S2 S3 SE --",
    "-- -- S4 S5 S6 -- --",
)
CELL: dict[str, tuple[int, int]] = {}
for _r, _row in enumerate(_LAYOUT):
    for _c, _name in enumerate(_row.split()):
        if _name != "--":
            CELL[_name] = (_r, _c)
NAME_AT: dict[tuple[int, int], str] = {rc: name for name, rc in CELL.items()}

#: The board-state notation's space order (section 11).
ORDER: tuple[str, ...] = (
    tuple(f"C{i}" for i in range(1, 10)) + ("NW",) + tuple(f"N{i}" for i in range(1, 7))
    + ("NE",) + tuple(f"E{i}" for i in range(1, 7)) + ("SE",) + tuple(f"S{i}" for i in range(1, 7))
    + ("SW",) + tuple(f"W{i}" for i in range(1, 7)))
RANK: dict[str, int] = {name: i for i, name in enumerate(ORDER)}
CENTRE = frozenset(f"C{i}" for i in range(1, 10))

DIRECTIONS = ("No", "Ne", "Ea", "Se", "So", "Sw", "We", "Nw")
DIR_INDEX = {d: i for i, d in enumerate(DIRECTIONS)}
_DELTA = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
CARDINAL = ("No", "Ea", "So", "We")
DIAGONAL = ("Ne", "Se", "Sw", "Nw")


def turn(direction: str, eighths: int) -> str:
    """``direction`` turned clockwise by ``eighths`` * 45 degrees."""
    return DIRECTIONS[(DIR_INDEX[direction] + eighths) % 8]


def step(space: str, direction: str, distance: int = 1) -> str | None:
    """The space ``distance`` steps away, or None off the board."""
    r, c = CELL[space]
    dr, dc = _DELTA[DIR_INDEX[direction]]
    return NAME_AT.get((r + dr * distance, c + dc * distance))


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


def target_of(space: str, tile: str, facing: str) -> str | None:
    """The space a tile on ``space`` targets (None when that is off the board)."""
    return step(space, facing, TILES[tile].distance)


def _lines() -> tuple[tuple[str, str, str], ...]:
    """Every line of three neighbouring spaces: rows, columns and both diagonals."""
    found = []
    for name, (r, c) in CELL.items():
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            cells = [NAME_AT.get((r + dr * i, c + dc * i)) for i in range(3)]
            if all(cells):
                found.append(tuple(cells))
    return tuple(found)


LINES = _lines()
