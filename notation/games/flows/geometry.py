"""Flows board geometry: hexes, directions, sides, edges, perspectives.

Internal coordinates are the seed's ``(row, col)``, both 0..6 with
``|col - row| <= 3``; row 0 is the bottom. Directions are numbered clockwise:
0 SW, 1 W, 2 NW, 3 NE, 4 E, 5 SE. Side ``k`` is the bottom side turned
``k * 60`` degrees clockwise.
"""
from __future__ import annotations

import re

from notation.core.errors import NotationError

HEXES: tuple[tuple[int, int], ...] = tuple(
    (r, c) for r in range(7) for c in range(7) if abs(c - r) <= 3)
INDEX: dict[tuple[int, int], int] = {h: i for i, h in enumerate(HEXES)}
N_HEXES = len(HEXES)  # 37

DIRECTION_NAMES = ("SW", "W", "NW", "NE", "E", "SE")
STEP = ((-1, -1), (0, -1), (1, 0), (1, 1), (0, 1), (-1, 0))


def neighbour(h: int, d: int) -> int | None:
    r, c = HEXES[h]
    dr, dc = STEP[d]
    return INDEX.get((r + dr, c + dc))


def _turn_cw(r: int, c: int) -> tuple[int, int]:
    """Rotate a hex 60 degrees clockwise about the centre."""
    dr, dc = r - 3, c - 3
    return dr - dc + 3, dr + 3


def _turn_ccw(r: int, c: int) -> tuple[int, int]:
    dr, dc = r - 3, c - 3
    return dc + 3, dc - dr + 3


def turned(r: float, c: float, k: int) -> tuple[float, float]:
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


def _edge_ids() -> tuple[tuple[int, ...], int]:
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

# -- perspectives ------------------------------------------------------------------

ORIENTATIONS = ("N", "NE", "SE", "S", "SW", "NW")
ROWS = "ABCDEFG"


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
            view[h] = f"{ROWS[letter]}{c + 1}"
        views.append(view)
    return tuple(views)


VIEWS = _views()
LABELS: tuple[dict[str, int], ...] = tuple({label: h for h, label in v.items()} for v in VIEWS)


def label_of(hex_index: int, side: int) -> str:
    return VIEWS[side][hex_index]


def hex_of(label: str, side: int) -> int:
    """The hex a label names in side ``side``'s view; NotationError if off the board."""
    try:
        return LABELS[side][label]
    except KeyError:
        raise NotationError(f"{label} is off the board in the view of side {side} "
                            f"(its hexes are {', '.join(valid_numbers(side))})") from None


def valid_numbers(side: int) -> list[str]:
    rows = {}
    for label in sorted(LABELS[side], key=lambda s: (s[0], int(s[1:]))):
        rows.setdefault(label[0], []).append(int(label[1:]))
    return [f"{r}{min(v)}..{r}{max(v)}" for r, v in rows.items()]


def rotation_from_name(name: str, side: int) -> int:
    """Board rotation (0..5) of an orientation name written from ``side``."""
    return (ORIENTATIONS.index(name) + side % 3) % 6


def name_of_rotation(rotation: int, side: int) -> str:
    return ORIENTATIONS[(rotation - side % 3) % 6]


_INTERNAL = re.compile(r"\s*\(?\s*([0-6])\s*,\s*([0-6])\s*\)?\s*\Z")


def parse_internal(text: str) -> int:
    """``"6,3"`` or ``"(6,3)"`` -> hex index; NotationError when not a board hex."""
    m = _INTERNAL.match(text)
    if not m or (int(m.group(1)), int(m.group(2))) not in INDEX:
        raise NotationError(f"{text!r} is not an internal hex (row,col with |col-row| <= 3)")
    return INDEX[(int(m.group(1)), int(m.group(2)))]
