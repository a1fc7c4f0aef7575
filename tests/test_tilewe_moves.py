"""The Tilewe move notation (rules section 6 and 10)."""
from __future__ import annotations

import pytest

import notation
from notation.core.errors import NotationError
from notation.games.tilewe.moves import Move, parse_square, square_name


def test_square_names():
    assert parse_square("a1") == 0 and parse_square("t1") == 19
    assert parse_square("a20") == 380 and parse_square("t20") == 399
    assert square_name(189) == "j10"
    for bad in ("a01", "a21", "u5", "A1", "a0", "a"):
        with pytest.raises(NotationError):
            parse_square(bad)


@pytest.mark.parametrize("text", ["W5n-a1a1", "F5e-a2d4", "I2e-b1h5", "L5wf-d1n19", "T4e-b3t20"])
def test_examples_round_trip(text):
    assert str(Move.parse(text)) == text


@pytest.mark.parametrize("alias, canonical", [
    ("W5ef-a1a1", "W5n-a1a1"), ("X5ef-b1t20", "X5n-b1t20"), ("I2s-a2a1", "I2n-a2a1"),
    ("O1wf-a1k10", "O1n-a1k10"), ("L3nf-b2c3", "L3w-b2c3"),
])
def test_alias_rotations_fold_to_the_canonical_move(alias, canonical):
    assert Move.parse(alias) == Move.parse(canonical)
    assert str(Move.parse(alias)) == canonical


def test_tile_boundary_is_unambiguous():
    assert square_name(Move.parse("I5n-a1a10").target) == "a10"
    assert Move.parse("I5n-a5a10").contact == (0, 4)


@pytest.mark.parametrize("text, words", [
    ("Z5n-a1a1", "not a cell"),
    ("O1n-b1a1", "outside the piece"),
    ("I3n-b1a1", "outside the piece"),
    ("L3e-e4p19", "outside the piece"),
    ("I3n-a2a1", "not a contact tile"),
    ("W5nf-a1a1", "the same cells as W5e"),
    ("Q5n-a1a1", "unknown piece 'Q5'"),
    ("F5x-a2d4", "unknown rotation 'x'"),
    ("F5e-a2u4", "off the board"),
    ("F5e-a2a01", "off the board"),
    ("F5e-a2a21", "off the board"),
    ("f5e-a2d4", "unknown piece"),
    ("F5ea2d4", "expected [Piece][Rotation]-[Contact][Target]"),
    ("F5e-a2d4x", "not a Tilewe move"),
])
def test_ill_formed_moves_are_rejected_with_the_reason(text, words):
    with pytest.raises(NotationError) as info:
        Move.parse(text)
    assert words in str(info.value)
    rec = notation.parse(f'[Game "tilewe"]\n{text}')[0]
    problem = rec.run().error
    assert problem.kind == "syntax" and words in problem.message and problem.event == text


def test_whitespace_inside_a_move_is_not_accepted():
    out = notation.parse('[Game "tilewe"]\nF5e - a2d4')[0].run()
    assert not out.valid
