"""The ways a Flows placement is spelled: the seed's notation and the quortextt app's.

The app (the reference implementation) writes ``P1A3T1SE`` too, but means
another hex and orientation by it: its board is axial, each player's edge is
numbered the other way round, columns count from the right, and orientations
are offset. A :class:`Notation` is one such spelling, as tables per side, so
reading and writing a placement costs what it costs in the seed's notation.
``[Dialect "quortextt"]`` on a record picks the app's current spelling;
``quortextt-v1`` is the app's earlier one (columns from the left, another
orientation offset), read from the app's history.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from notation.core.errors import NotationError

from .events import Placement
from .geometry import HEXES, LABELS, ORIENTATIONS, ROWS, VIEWS, valid_numbers

SEED = "seed"
QUORTEXTT = "quortextt"
QUORTEXTT_V1 = "quortextt-v1"


@dataclass(frozen=True, slots=True)
class Notation:
    """One spelling of placements: each side's label of every hex, and the shift from a
    board rotation to the index of its orientation name in that side's view."""

    name: str
    title: str
    labels: tuple[dict[int, str], ...]
    hexes: tuple[dict[str, int], ...]
    shifts: tuple[int, ...]

    def hex_of(self, label: str, side: int) -> int:
        """The hex ``label`` names seen from ``side``; NotationError when off the board."""
        try:
            return self.hexes[side][label]
        except KeyError:
            raise NotationError(f"{label} is off the board in the view of side {side} "
                                f"(its hexes are {', '.join(self.row_ranges(side))})") from None

    def row_ranges(self, side: int) -> list[str]:
        """Each row's first and last label seen from ``side``, for messages."""
        if self.name == SEED:
            return valid_numbers(side)
        counts = {row: 0 for row in ROWS}
        for label in self.hexes[side]:
            counts[label[0]] += 1
        return [f"{row}1..{row}{n}" for row, n in counts.items()]

    def locate(self, event: Placement, side: int) -> tuple[int, int]:
        """(hex, board rotation) of a placement written from ``side``."""
        index = ORIENTATIONS.index(event.orientation)
        return self.hex_of(event.label, side), (index - self.shifts[side]) % 6

    def spell(self, player: int, tile: int, h: int, rotation: int, side: int) -> Placement:
        """The placement of 1-based ``player`` as written from ``side``."""
        return Placement(player, self.labels[side][h], tile,
                         ORIENTATIONS[(rotation + self.shifts[side]) % 6])


def app_edge(side: int) -> int:
    """The app's number for our side ``side``: it counts edges the other way round."""
    return (6 - side) % 6


def app_axial(h: int, edge: int) -> tuple[int, int]:
    """Hex ``h`` in the app's axial coordinates, turned to the view of its ``edge``."""
    row, col = HEXES[h]
    r, c = row - 3, col - row
    for _ in range(edge):
        r, c = -c, r + c
    return r, c


def right_to_left(r: int, c: int) -> int:
    """The app's current column: counted from the right end of the row, from 1."""
    return min(3, 3 - r) - c + 1


def left_to_right(r: int, c: int) -> int:
    """The app's earlier column: counted from the left end of the row, from 1."""
    return c - max(-3, -3 - r) + 1


def app_notation(name: str, title: str, column: Callable[[int, int], int],
                 offset: int) -> Notation:
    """An app spelling: its column rule, and orientation = rotation - edge + ``offset``."""
    labels = []
    for side in range(6):
        edge = app_edge(side)
        view = {}
        for h in range(len(HEXES)):
            r, c = app_axial(h, edge)
            view[h] = f"{ROWS[r + 3]}{column(r, c)}"
        labels.append(view)
    return Notation(name, title, tuple(labels),
                    tuple({label: h for h, label in v.items()} for v in labels),
                    tuple((offset - app_edge(side)) % 6 for side in range(6)))


SEED_NOTATION = Notation(SEED, "the seed's notation", VIEWS, LABELS,
                         tuple(-(side % 3) % 6 for side in range(6)))

NOTATIONS: dict[str, Notation] = {
    SEED: SEED_NOTATION,
    QUORTEXTT: app_notation(QUORTEXTT, "the quortextt app's notation", right_to_left, 3),
    QUORTEXTT_V1: app_notation(QUORTEXTT_V1, "the quortextt app's earlier notation "
                               "(columns from the left)", left_to_right, 0),
}


def notation_named(name: str) -> Notation:
    """The notation a ``[Dialect]`` value names; NotationError for an unknown one."""
    try:
        return NOTATIONS[name]
    except KeyError:
        raise NotationError(f"dialect {name!r} is not one of {', '.join(NOTATIONS)}") from None
