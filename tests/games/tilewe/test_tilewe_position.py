"""The Tilewe position notation (TPN) reads and writes round trip."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import notation
from notation.core.errors import NotationError
from notation.games.tilewe import position, rules
from notation.games.tilewe.events import Move
from notation.games.tilewe.state import Board

from conftest import drawn_square_by_square, reference_games

EMPTY = "/".join(["20"] * 20)


def test_start_position():
    assert Board(2).position() == f"{EMPTY} b 1fffff,1fffff"
    assert Board(4).position().endswith(" b 1fffff,1fffff,1fffff,1fffff")


def test_small_example():
    board = Board(1)
    rules.play(board, Move.parse("W5n-a1a1"))
    text = board.position()
    assert text.split()[0].split("/")[-3:] == ["2b17", "1bb17", "bb18"]
    assert text.endswith(" b 1dffff")  # W5 is piece 17: bit 17 cleared


@pytest.mark.parametrize("ref", reference_games("tilewe"), ids=lambda r: r["id"])
def test_round_trip_after_every_ply(ref):
    board = Board(ref["n_players"])
    for text in ref["moves"]:
        rules.play(board, Move.parse(text))
        written = board.position()
        again = position.read(written)
        assert again.position() == written
        assert rules.legal_moves(again) == rules.legal_moves(board)
        assert again.scores() == board.scores()
    assert board.position().split()[1] == "-"


@pytest.mark.parametrize("text, words", [
    ("20/20 b 1fffff", "ranks given"),
    (f"{EMPTY} b", "three fields"),
    (f"{EMPTY} y 1fffff", "player to move"),
    (f"{EMPTY} b 1fffff,1fffff,1fffff,1fffff,1fffff", "1 to 4 players"),
    (f"{EMPTY} b zz", "hexadecimal"),
    (f"{EMPTY} b 3fffff", "beyond Z5"),
    (f"{EMPTY} b 1ffffe", "placed pieces make 1"),
    ("b19/" + "/".join(["20"] * 19) + " b 1fffff", "placed pieces"),
    ("x19/" + "/".join(["20"] * 19) + " b 1fffff", "unexpected 'x'"),
    ("19/" + "/".join(["20"] * 19) + " b 1fffff", "describes 19 tiles"),
    ("y19/" + "/".join(["20"] * 19) + " b 1fffff", "yellow tile in a 1-player game"),
    (f"{EMPTY} - 1fffff", "nobody can move"),
])
def test_bad_positions_are_rejected(text, words):
    with pytest.raises(NotationError) as info:
        position.read(text)
    assert words in str(info.value)


def test_player_to_move_must_be_able_to_move():
    board = Board(2)
    for text in reference_games("tilewe")[2]["moves"]:
        rules.play(board, Move.parse(text))
    ranks, mover, hands = board.position().split()
    assert mover == "-"
    with pytest.raises(NotationError) as info:
        position.read(f"{ranks} b {hands}")
    assert "blue cannot move here" in str(info.value)


def test_a_set_up_record_is_not_transformed(tilewe):
    board = Board(1)
    rules.play(board, Move.parse("W5n-a1a1"))
    record = notation.parse(f'[Game "tilewe"]\n[Position "{board.position()}"]\n\n'
                            f'1. O1n-a1d4\n')[0]
    with pytest.raises(NotationError, match="cannot be transformed"):
        tilewe.convert(record, transform="rot90")
    with pytest.raises(NotationError, match="converts with --transform"):
        tilewe.convert(record, transform="rot45")


@pytest.mark.slow
@given(st.integers(0, 2**32), st.integers(1, 4), st.integers(0, 60))
@settings(max_examples=40, deadline=None)
def test_the_board_text_is_right_at_every_ply_and_on_copies(seed, players, branch):
    """At every ply of a random game, and on a copy taken part way that goes its own way,
    the board's text is the one drawn square by square (no rank stale, nothing shared
    between copies)."""
    rng = random.Random(seed)
    board = Board(players)
    other: Board | None = None
    while True:
        assert board.board_text() == drawn_square_by_square(board)
        if other is not None:
            assert other.board_text() == drawn_square_by_square(other)
        if board.ply == branch:
            other = board.copy()
        moves = [m for m in (rules.legal_moves(board) if not board.over else [])]
        if not moves:
            break
        rules.play(board, rng.choice(moves))
        if other is not None and not other.over:
            choices = rules.legal_moves(other)
            if choices:
                rules.play(other, rng.choice(choices))


def test_a_board_that_lost_tiles_is_drawn_again_whole():
    """Rules only add tiles, but a board changed another way must not show stale ranks."""
    board = Board(2)
    rules.play(board, Move.parse("W5n-a1a1"))
    board.board_text()
    taken = board.own[0]
    board.own[0], board.occupied = 0, board.occupied & ~taken
    assert board.board_text() == drawn_square_by_square(board) == EMPTY
