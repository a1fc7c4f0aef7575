"""The Tilewe move notation (rules section 6 and 10)."""
from __future__ import annotations

import pytest

import notation
from notation.core.errors import NotationError
from notation.core.grammars import terminal_pattern
from notation.games.tilewe.events import Move, are_canonical, parse_square, read_move, square_name
from notation.games.tilewe.pieces import ORIENTATION_NAMES, PIECE_NAMES, cell_name, orientation


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
    problem = notation.run(rec).error
    assert problem.kind == "syntax" and words in problem.message and problem.event == text


def test_whitespace_inside_a_move_is_not_accepted():
    out = notation.run(notation.parse('[Game "tilewe"]\nF5e - a2d4')[0])
    assert not out.valid


# -- the grammar's terminal, the tables of the hot path and the writer agree -------------

def test_the_grammar_knows_every_piece_and_rotation_of_the_tables():
    """The reader takes a move apart with the MOVE terminal's named groups."""
    pattern = terminal_pattern("tilewe.lark", "MOVE")
    for piece in PIECE_NAMES:
        for rotation in ORIENTATION_NAMES:
            m = pattern.fullmatch(f"{piece}{rotation}-a1t20")
            assert m is not None
            assert (m["piece"], m["rotation"], m["contact"], m["target"]) == (
                piece, rotation, "a1", "t20")


def test_the_hot_path_reads_every_spelling_as_the_grammar_path_does():
    for piece, name in enumerate(PIECE_NAMES):
        for index, rotation in enumerate(ORIENTATION_NAMES):
            for x, y in orientation(piece, index).contacts:
                for target in ("a1", "k10", "t20"):
                    text = f"{name}{rotation}-{cell_name((x, y))}{target}"
                    assert read_move(text) == Move.parse(text)
                    assert are_canonical([text]) == (str(Move.parse(text)) == text)


@pytest.mark.parametrize("text", ["I3n-a2a1", "O1n-b1a1", "F5e-a12d4"])
def test_the_hot_path_explains_what_it_cannot_read(text):
    with pytest.raises(NotationError):
        read_move(text)
    assert not are_canonical([text])


def test_canonical_words():
    assert are_canonical([]) and are_canonical(["W5n-a1a1", "F5e-a2d4", "W5n-a1a1"])
    for word in ("W5ef-a1a1", "F5e-a2d4x", "1.", "F5E-a2d4", "hello", "F5e-a2u4"):
        assert not are_canonical(["W5n-a1a1", word])
