"""Tilewe geometry against the rules file (sections 3-5, 12, 13)."""
from __future__ import annotations

import pytest

from notation.games.tilewe.pieces import (
    CANONICAL, ORIENTATION_INDEX, ORIENTATIONS, PIECE_INDEX, PIECE_NAMES, PIECE_SIZES,
    cell_name, orientation,
)


def names(cells):
    return " ".join(cell_name(c) for c in cells)


def oriented(piece: str, rot: str):
    return orientation(PIECE_INDEX[piece], ORIENTATION_INDEX[rot])


def test_handy_numbers():
    assert len(PIECE_NAMES) == 21
    assert sum(PIECE_SIZES) == 89
    assert sum(len(o) for o in ORIENTATIONS) == 91
    assert sum(len(x.contacts) for o in ORIENTATIONS for x in o) == 309


# Section 4.2: aliases per piece (alias -> canonical).
ALIASES = {
    ("O1", "O4", "X5"): {r: "n" for r in ("e", "s", "w", "nf", "ef", "sf", "wf")},
    ("I2", "I3", "I4", "I5"): {"s": "n", "nf": "n", "sf": "n", "w": "e", "ef": "e", "wf": "e"},
    ("L3",): {"nf": "w", "ef": "s", "sf": "e", "wf": "n"},
    ("Z4", "Z5"): {"s": "n", "w": "e", "sf": "nf", "wf": "ef"},
    ("T4", "T5", "U5"): {"nf": "n", "ef": "w", "sf": "s", "wf": "e"},
    ("V5", "W5"): {"nf": "e", "ef": "n", "sf": "w", "wf": "s"},
    ("L4", "F5", "L5", "N5", "P5", "Y5"): {},
}


@pytest.mark.parametrize("pieces, aliases", list(ALIASES.items()))
def test_alias_table(pieces, aliases):
    for piece in pieces:
        for rot, index in ORIENTATION_INDEX.items():
            want = aliases.get(rot, rot)
            got = CANONICAL[PIECE_INDEX[piece]][index]
            assert got == ORIENTATION_INDEX[want], (piece, rot)


# Rows of section 13 (cells and contacts in the oriented piece's coordinates).
TABLE = [
    ("F5", "n", "b1 a2 b2 b3 c3", "b1 a2 b3 c3"),
    ("F5", "e", "c1 a2 b2 c2 b3", "c1 a2 c2 b3"),
    ("F5", "ef", "a1 a2 b2 c2 b3", "a1 a2 c2 b3"),
    ("V5", "n", "a1 b1 c1 c2 c3", "a1 c1 c3"),
    ("V5", "e", "a1 b1 c1 a2 a3", "a1 c1 a3"),
    ("V5", "s", "a1 a2 a3 b3 c3", "a1 a3 c3"),
    ("V5", "w", "c1 c2 a3 b3 c3", "c1 a3 c3"),
    ("W5", "e", "b1 c1 a2 b2 a3", "b1 c1 a2 b2 a3"),
    ("I3", "n", "a1 a2 a3", "a1 a3"),
    ("L4", "ef", "c1 a2 b2 c2", "c1 a2 c2"),
    ("N5", "wf", "a1 b1 c1 c2 d2", "a1 c1 c2 d2"),
    ("Y5", "sf", "b1 a2 b2 b3 b4", "b1 a2 b4"),
    ("Z5", "ef", "c1 a2 b2 c2 a3", "c1 a2 c2 a3"),
    ("X5", "n", "b1 a2 b2 c2 b3", "b1 a2 c2 b3"),
    ("T4", "s", "a1 b1 c1 b2", "a1 c1 b2"),
    ("P5", "wf", "a1 b1 c1 b2 c2", "a1 c1 b2 c2"),
]


@pytest.mark.parametrize("piece, rot, cells, contacts", TABLE)
def test_orientation_table_rows(piece, rot, cells, contacts):
    o = oriented(piece, rot)
    assert o.name == rot
    assert names(o.cells) == cells
    assert names(o.contacts) == contacts


def test_every_cell_of_small_pieces_is_a_contact():
    for piece in ("O1", "I2", "L3", "O4", "Z4", "W5"):
        for o in ORIENTATIONS[PIECE_INDEX[piece]]:
            assert o.contacts == o.cells


def test_distinct_orientation_counts():
    counts = {PIECE_NAMES[i]: len(o) for i, o in enumerate(ORIENTATIONS)}
    assert counts["O1"] == counts["O4"] == counts["X5"] == 1
    assert counts["I5"] == 2 and counts["T5"] == 4 and counts["F5"] == 8
