"""Flows board geometry: hexes, directions, sides, edges, labels in each side's view.

Internal coordinates are the seed's ``(row, col)``, both 0..6 with
``|col - row| <= 3``; row 0 is the bottom. Directions are numbered clockwise:
0 SW, 1 W, 2 NW, 3 NE, 4 E, 5 SE. Side ``k`` is the bottom side turned
``k * 60`` degrees clockwise.
"""
from __future__ import annotations

import re
from typing import TypeVar

from notation.core.errors import NotationError

HEXES: tuple[tuple[int, int], ...] = tuple(
    (r, c) for r in range(7) for c in range(7) if abs(c - r) <= 3)
INDEX: dict[tuple[int, int], int] = {h: i for i, h in enumerate(HEXES)}
N_HEXES = len(HEXES)  # 37

DIRECTION_NAMES = ("SW", "W", "NW", "NE", "E", "SE")
STEP = ((-1, -1), (0, -1), (1, 0), (1, 1), (0, 1), (-1, 0))


def neighbour(h: int, d: int) -> int | None:
    """The hex next to ``h`` in direction ``d``, None off the board."""
    r, c = HEXES[h]
    dr, dc = STEP[d]
    return INDEX.get((r + dr, c + dc))


def _turn_cw(r: int, c: int) -> tuple[int, int]:
    """Rotate a hex 60 degrees clockwise about the centre."""
    dr, dc = r - 3, c - 3
    return dr - dc + 3, dr + 3


#: A hex's coordinates (int) or any point's, such as an edge's middle (float).
Coordinate = TypeVar("Coordinate", int, float)


def _turn_ccw(r: Coordinate, c: Coordinate) -> tuple[Coordinate, Coordinate]:
    dr, dc = r - 3, c - 3
    return dc + 3, dc - dr + 3


def turned(r: Coordinate, c: Coordinate, k: int) -> tuple[Coordinate, Coordinate]:
    """``(r, c)`` turned ``k`` times 60 degrees counter-clockwise about the centre (any
    point, on the board or not): where a picture turned for a view puts it."""
    for _ in range(k):
        r, c = _turn_ccw(r, c)
    return r, c


# Side 0's seven perimeter hex-edges (the rules' table); side k is side 0 turned
# k times. The corner edge shared by sides k and k+1 belongs to side k (the
# reference TypeScript's choice).
_SIDE0 = ((0, 0, 0), (0, 0, 5), (0, 1, 0), (0, 1, 5), (0, 2, 0), (0, 2, 5), (0, 3, 0))


def _sides() -> tuple[tuple[tuple[int, int], ...], ...]:
    sides = []
    for k in range(6):
        edges = []
        for r, c, d in _SIDE0:
            for _ in range(k):
                r, c = _turn_cw(r, c)
            edges.append((INDEX[(r, c)], (d + k) % 6))
        sides.append(tuple(edges))
    return tuple(sides)


#: SIDE_EDGES[k]: side k's 7 perimeter hex-edges as (hex index, direction).
SIDE_EDGES = _sides()


def _edge_ids() -> tuple[tuple[tuple[int, ...], ...], int]:
    """Number every distinct hex edge: a shared edge gets one id for both hexes."""
    ids: dict[tuple[int, int], int] = {}
    table = []
    for h in range(N_HEXES):
        row = []
        for d in range(6):
            key = (h, d)
            if key not in ids:
                q = neighbour(h, d)
                ids[key] = len(set(ids.values()))
                if q is not None:
                    ids[(q, (d + 3) % 6)] = ids[key]
            row.append(ids[key])
        table.append(tuple(row))
    return tuple(table), len(set(ids.values()))


#: EDGE[h][d]: the id of hex h's edge in direction d (132 edges in all).
EDGE, N_EDGES = _edge_ids()


def _stepping() -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Moves between hexes, as ``h * 6 + d`` = "entering hex h through its edge d".

    ``STEP_OUT[h * 6 + e]`` is the node entered by leaving h through edge e, or
    ``-1 - side`` when that edge is on the perimeter (``side`` owns it).
    """
    owner = {}
    for side, edges in enumerate(SIDE_EDGES):
        for h, d in edges:
            owner[(h, d)] = side
    out = []
    for h in range(N_HEXES):
        for e in range(6):
            q = neighbour(h, e)
            out.append(q * 6 + (e + 3) % 6 if q is not None else -1 - owner[(h, e)])
    starts = tuple(tuple(h * 6 + d for h, d in edges) for edges in SIDE_EDGES)
    return tuple(out), starts


#: Where a path goes next (see ``_stepping``), and the nodes where each side's paths begin.
STEP_OUT, SIDE_STARTS = _stepping()

# -- perspectives ------------------------------------------------------------------

#: Orientation names in rotation order (the grammar's PLACEMENT terminal spells them too;
#: a test holds the two to the same names).
ORIENTATIONS = ("N", "NE", "SE", "S", "SW", "NW")
#: A label is a row letter and a column number, in the writer's view.
ROWS = "ABCDEFG"
COLUMNS = "1234567"


def _views() -> tuple[dict[int, str], ...]:
    """VIEWS[side][hex] -> label such as "A4", per the rules' section 5."""
    views = []
    for side in range(6):
        k = side % 3
        view = {}
        for h, (r, c) in enumerate(HEXES):
            for _ in range(k):
                r, c = _turn_ccw(r, c)
            letter = r if side < 3 else 6 - r
            view[h] = f"{ROWS[letter]}{COLUMNS[c]}"
        views.append(view)
    return tuple(views)


VIEWS = _views()
LABELS: tuple[dict[str, int], ...] = tuple({label: h for h, label in v.items()} for v in VIEWS)


def label_of(hex_index: int, side: int) -> str:
    """The label of a hex in side ``side``'s view."""
    return VIEWS[side][hex_index]


def hex_of(label: str, side: int) -> int:
    """The hex a label names in side ``side``'s view; NotationError if off the board."""
    try:
        return LABELS[side][label]
    except KeyError:
        raise NotationError(f"{label} is off the board in the view of side {side} "
                            f"(its hexes are {', '.join(valid_numbers(side))})") from None


def is_label(text: str) -> bool:
    """Whether ``text`` is shaped like a label (on the board in some view or not)."""
    return len(text) == 2 and text[0] in ROWS and text[1] in COLUMNS


def valid_numbers(side: int) -> list[str]:
    """Each row's first and last label in side ``side``'s view, for messages."""
    rows: dict[str, list[int]] = {}
    for label in sorted(LABELS[side], key=lambda s: (s[0], int(s[1:]))):
        rows.setdefault(label[0], []).append(int(label[1:]))
    return [f"{r}{min(v)}..{r}{max(v)}" for r, v in rows.items()]


def rotation_from_name(name: str, side: int) -> int:
    """Board rotation (0..5) of an orientation name written from ``side``."""
    return (ORIENTATIONS.index(name) + side % 3) % 6


def name_of_rotation(rotation: int, side: int) -> str:
    """The orientation name side ``side`` writes for a board rotation."""
    return ORIENTATIONS[(rotation - side % 3) % 6]


_INTERNAL = re.compile(r"\s*\(?\s*([0-6])\s*,\s*([0-6])\s*\)?\s*\Z")


def parse_internal(text: str) -> int:
    """``"6,3"`` or ``"(6,3)"`` -> hex index; NotationError when not a board hex."""
    m = _INTERNAL.match(text)
    if not m or (int(m.group(1)), int(m.group(2))) not in INDEX:
        raise NotationError(f"{text!r} is not an internal hex (row,col with |col-row| <= 3)")
    return INDEX[(int(m.group(1)), int(m.group(2)))]
