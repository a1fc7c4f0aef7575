"""Philosophy's board (rules file section 1): 37 named spaces and eight directions.

The spaces sit in a 7x7 box (row 0 at the top); only the nine C spaces take
new tiles. Directions are the eight two-letter codes in clockwise order, so a
turn of k * 45 degrees is an index shift of k.
"""
from __future__ import annotations

_LAYOUT = (
    "-- -- N1 N2 N3 -- --",
    "-- NW N4 N5 N6 NE --",
    "W1 W2 C1 C2 C3 E1 E2",
    "W3 W4 C4 C5 C6 E3 E4",
    "W5 W6 C7 C8 C9 E5 E6",
    "-- SW S1 S2 S3 SE --",
    "-- -- S4 S5 S6 -- --",
)
#: Each space's (row, column) in the box.
CELL: dict[str, tuple[int, int]] = {
    name: (r, c)
    for r, row in enumerate(_LAYOUT)
    for c, name in enumerate(row.split())
    if name != "--"
}
NAME_AT: dict[tuple[int, int], str] = {rc: name for name, rc in CELL.items()}

#: The board-state notation's space order (section 11).
ORDER: tuple[str, ...] = (
    tuple(f"C{i}" for i in range(1, 10)) + ("NW",) + tuple(f"N{i}" for i in range(1, 7))
    + ("NE",) + tuple(f"E{i}" for i in range(1, 7)) + ("SE",) + tuple(f"S{i}" for i in range(1, 7))
    + ("SW",) + tuple(f"W{i}" for i in range(1, 7)))
RANK: dict[str, int] = {name: i for i, name in enumerate(ORDER)}
CENTRE = frozenset(f"C{i}" for i in range(1, 10))

#: Clockwise from north; the grammar's DIR terminal accepts exactly these codes.
DIRECTIONS = ("No", "Ne", "Ea", "Se", "So", "Sw", "We", "Nw")
DIR_INDEX = {d: i for i, d in enumerate(DIRECTIONS)}
_DELTA = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
CARDINAL = ("No", "Ea", "So", "We")
DIAGONAL = ("Ne", "Se", "Sw", "Nw")


def turn(direction: str, eighths: int) -> str:
    """``direction`` turned clockwise by ``eighths`` * 45 degrees."""
    return DIRECTIONS[(DIR_INDEX[direction] + eighths) % 8]


def _walk(space: str, direction: str, distance: int) -> str | None:
    r, c = CELL[space]
    dr, dc = _DELTA[DIR_INDEX[direction]]
    return NAME_AT.get((r + dr * distance, c + dc * distance))


#: Every space one and two steps away in every direction (None off the board), worked
#: out once: the chain reaction asks for them at every activation.
STEPS: dict[tuple[str, str, int], str | None] = {
    (space, direction, distance): _walk(space, direction, distance)
    for space in CELL for direction in DIRECTIONS for distance in (1, 2)}


def step(space: str, direction: str, distance: int = 1) -> str | None:
    """The space ``distance`` steps away, or None off the board."""
    key = (space, direction, distance)
    if key in STEPS:
        return STEPS[key]
    return _walk(space, direction, distance)


Line = tuple[str, str, str]


def _lines() -> tuple[Line, ...]:
    """Every line of three neighbouring spaces: rows, columns and both diagonals."""
    found: list[Line] = []
    for r, c in CELL.values():
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            a, b, z = (NAME_AT.get((r + dr * i, c + dc * i)) for i in range(3))
            if a is not None and b is not None and z is not None:
                found.append((a, b, z))
    return tuple(found)


#: The 84 lines a conclusion can be made on.
LINES = _lines()
#: For each space, the lines (indices into LINES) that start on it: a sparse board's
#: conclusions are found from its tiles alone.
LINES_FROM: dict[str, tuple[int, ...]] = {
    name: tuple(i for i, line in enumerate(LINES) if line[0] == name) for name in CELL}
#: For each space, each line that starts on it as (index, second space, third space):
#: the line's parts without a look-up in LINES.
LINE_ENDS_FROM: dict[str, tuple[tuple[int, str, str], ...]] = {
    name: tuple((i, LINES[i][1], LINES[i][2]) for i in indices)
    for name, indices in LINES_FROM.items()}
#: The same without the index: a turn's end asks only whether a player holds some line.
ENDS_FROM: dict[str, tuple[tuple[str, str], ...]] = {
    name: tuple((second, third) for _, second, third in ends)
    for name, ends in LINE_ENDS_FROM.items()}
#: For each space, the other two spaces of every line through it: a tile just placed
#: makes a line only with two of these.
THROUGH: dict[str, tuple[tuple[str, str], ...]] = {
    name: tuple((a, b) for a, b in ([s for s in line if s != name] for line in LINES
                                    if name in line))
    for name in CELL}
