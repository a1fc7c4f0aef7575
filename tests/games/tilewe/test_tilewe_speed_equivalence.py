"""Tilewe's shortcuts held to plain definitions: the spellings that fit at an anchor (rank
tables, kept from turn to turn), the pieces in hand, the search for any fit, the legal
moves, the random games, the neighbours a placement adds, and the move reader."""
from __future__ import annotations

import random
from operator import attrgetter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.core.errors import RuleError
from notation.games.tilewe import anchor_fits, bitboard, generate, rules
from notation.games.tilewe.anchor_fits import PAD, PIECE_SPELLINGS, SPELLINGS, AnchorFits
from notation.games.tilewe.bitboard import (
    FULL, N_PIECES, PLACING, REFERENCE, SHAPES, diagonal_neighbours, edge_neighbours,
)
from notation.games.tilewe.events import SIZE, Move, read_move
from notation.games.tilewe.pieces import CANONICAL
from notation.games.tilewe.state import Board

import tilewe_shape_search as shape_search

ALL_USED = (1 << N_PIECES) - 1


# -- plain definitions ---------------------------------------------------------------------

def plain_in_hand(used: int) -> int:
    return sum(1 << i for i, (piece, _, _, _) in enumerate(SPELLINGS) if not used >> piece & 1)


def plain_fits_at(anchor: int, blocked: int, used: int) -> int:
    """The spellings whose every cell, with the contact on ``anchor``, is a free board tile."""
    ax, ay = anchor % SIZE, anchor // SIZE
    fitting = 0
    for index, (piece, _, (cx, cy), cells) in enumerate(SPELLINGS):
        if used >> piece & 1:
            continue
        tiles = [(ax + x - cx, ay + y - cy) for x, y in cells]
        if all(0 <= x < SIZE and 0 <= y < SIZE and not blocked >> (x + SIZE * y) & 1
               for x, y in tiles):
            fitting |= 1 << index
    return fitting


def plain_moves(blocked: int, used: int, anchor_mask: int) -> list[Move]:
    """Every fitting spelling at every anchor, lowest anchor first (the reference's order)."""
    found = []
    for anchor in bitboard.squares(anchor_mask):
        spellings = plain_fits_at(anchor, blocked, used)
        found += [Move(p, o, c, anchor) for i, (p, o, c, _) in enumerate(SPELLINGS)
                  if spellings >> i & 1]
    return found


def shape_placements(blocked: int, used: int, anchor_mask: int) -> list[Move]:
    """The legal moves as the shape-by-shape search lists them (the former definition)."""
    found = [Move(shape.piece, shape.orientation, contact, low.bit_length() - 1)
             for targets, shape, contact in
             shape_search.fitting_spellings(blocked, used, anchor_mask)
             for low in (1 << s for s in bitboard.squares(targets))]
    found.sort(key=attrgetter("target"))
    return found


def shape_random_move(rng: random.Random, board: Board, player: int) -> Move:
    """The random move as it was drawn before the anchor tables (the games a seed gives)."""
    anchors = board.anchors(player)
    spellings = shape_search.fitting_spellings(board.blocked(player), board.used[player], anchors)
    count = sum(targets.bit_count() for targets, _, _ in spellings)
    return shape_search.nth_placement(spellings, anchors, rng.randrange(count))


def positions(seed: int, players: int = 4) -> list[tuple[Board, int]]:
    """Every position of a random game, with the player to move."""
    rng = random.Random(seed)
    board, seen = Board(players), []
    while (player := board.to_move()) is not None:
        seen.append((board.copy(), player))
        rules.play(board, rng.choice(rules.legal_moves(board)))
    seen.append((board.copy(), 0))
    return seen


# -- tables --------------------------------------------------------------------------------

@given(st.integers(0, ALL_USED))
def test_the_pieces_in_hand_are_read_from_two_tables(used):
    assert anchor_fits.in_hand(used) == plain_in_hand(used)


def test_the_spellings_are_the_contacts_in_the_order_placements_lists_them():
    assert [(s.piece, s.orientation, contact) for shapes in SHAPES for s in shapes
            for _, _, contact in s.contacts] == [spelling[:3] for spelling in SPELLINGS]
    assert sum(PIECE_SPELLINGS) == (1 << len(SPELLINGS)) - 1


sparse = st.lists(st.integers(0, FULL), min_size=1, max_size=3).map(
    lambda masks: masks[0] & masks[1 % len(masks)] & masks[2 % len(masks)])


@pytest.mark.slow
@settings(max_examples=300)
@given(st.integers(0, SIZE * SIZE - 1), st.one_of(sparse, st.integers(0, FULL)),
       st.integers(0, ALL_USED))
def test_the_fits_at_an_anchor_read_by_ranks_are_the_plain_ones(anchor, blocked, used):
    blocked &= ~(1 << anchor)
    got = anchor_fits.fresh(anchor, blocked << PAD, anchor_fits.in_hand(used))
    assert got == plain_fits_at(anchor, blocked, used)


@pytest.mark.slow
@settings(max_examples=200)
@given(st.integers(0, FULL), st.one_of(sparse, st.integers(0, FULL)),
       st.integers(0, ALL_USED))
def test_any_fit_says_whether_some_anchor_has_a_fit(anchors, blocked, used):
    anchors &= ~blocked
    anchors &= sum(1 << s for s in random.Random(anchors).sample(range(400), 12))
    expected = any(plain_fits_at(a, blocked, used) for a in bitboard.squares(anchors))
    assert anchor_fits.any_fit(blocked, used, anchors) == expected
    assert bitboard.fits(blocked, used, anchors) == expected


# -- along games -------------------------------------------------------------------------

@pytest.mark.slow
@settings(max_examples=15)
@given(st.integers(0, 2**32), st.integers(1, 4))
def test_the_legal_moves_are_the_plain_ones_at_every_ply(seed, players):
    for board, player in positions(seed, players)[::3]:
        args = (board.blocked(player), board.used[player], board.anchors(player))
        assert bitboard.placements(*args) == plain_moves(*args) == shape_placements(*args)
        assert bitboard.fits(*args) == bool(plain_moves(*args))


@pytest.mark.slow
@settings(max_examples=20)
@given(st.integers(0, 2**32), st.integers(1, 4))
def test_fits_kept_from_turn_to_turn_are_the_fits_found_afresh(seed, players):
    kept = [AnchorFits() for _ in range(players)]
    for board, player in positions(seed, players)[:-1]:
        blocked, used, anchors = (board.blocked(player), board.used[player],
                                  board.anchors(player))
        found, count = kept[player].update(blocked, used, anchors)
        plain = [(a, f) for a in bitboard.squares(anchors)
                 if (f := plain_fits_at(a, blocked, used))]
        assert found == plain
        assert count == len(rules.legal_moves(board))
        assert anchor_fits.moves(found) == rules.legal_moves(board)


@settings(max_examples=25)
@given(st.integers(0, 2**32), st.integers(1, 4))
def test_a_seed_gives_the_same_game_as_the_shape_by_shape_draw(seed, players):
    board, rng = Board(players), random.Random(seed)
    before = []
    while (player := board.to_move()) is not None:
        before.append(shape_random_move(rng, board, player))
        rules.play(board, before[-1])
    drawn = random.Random(seed)
    assert generate.random_events(drawn, Board(players)) == before
    assert drawn.random() == rng.random()  # the two streams are still in step


@settings(max_examples=25)
@given(st.integers(0, 2**32))
def test_the_next_mover_is_the_boards_to_move(seed):
    board, rng = Board(4), random.Random(seed)
    fits = [AnchorFits() for _ in range(4)]
    while True:
        twin = board.copy()
        mover = generate.next_mover(board, fits)
        assert (board.turn if mover else None) == twin.to_move()
        assert (board.out, board.over) == (twin.out, twin.over)
        if mover is None:
            break
        found, count = mover
        rules.play(board, anchor_fits.nth_move(found, rng.randrange(count)))


# -- playing a move ----------------------------------------------------------------------

def test_shifted_reference_neighbours_are_the_neighbours_at_every_origin():
    for shapes in SHAPES:
        for shape in shapes:
            origin = shape.valid
            for o in bitboard.squares(origin):
                mask = shape.mask << o
                shifted = ((shape.edges << o - REFERENCE if o >= REFERENCE
                            else shape.edges >> REFERENCE - o) & shape.clip[o % SIZE],
                           (shape.diagonals << o - REFERENCE if o >= REFERENCE
                            else shape.diagonals >> REFERENCE - o) & shape.clip[o % SIZE])
                assert shifted == (edge_neighbours(mask), diagonal_neighbours(mask))


def test_every_spelling_and_alias_is_placed_where_its_cells_say():
    for (piece, alias, contact), (shape, offset) in PLACING.items():
        assert CANONICAL[piece][alias] == shape.orientation
        assert offset == contact[0] + SIZE * contact[1]
        for target in range(0, SIZE * SIZE, 7):
            move = Move(piece, alias, contact, target)
            tiles = [(target % SIZE + x - contact[0], target // SIZE + y - contact[1])
                     for x, y in ((c % 5, c // 5) for c in shape.cells)]
            on_board = all(0 <= x < SIZE and 0 <= y < SIZE for x, y in tiles)
            plain = sum(1 << (x + SIZE * y) for x, y in tiles) if on_board else 0
            assert bitboard.move_mask(move) == plain


@settings(max_examples=20)
@given(st.integers(0, 2**32), st.integers(1, 4))
def test_playing_adds_the_neighbours_of_the_colour(seed, players):
    for board, _ in positions(seed, players):
        for p in range(players):
            assert board.adj[p] == edge_neighbours(board.own[p])
            assert board.diag[p] == diagonal_neighbours(board.own[p])


@given(st.sampled_from(sorted(PLACING)), st.integers(0, SIZE * SIZE - 1))
def test_the_move_read_is_the_move_parsed(spelling, target):
    piece, orientation, contact = spelling
    text = str(Move(piece, CANONICAL[piece][orientation], contact, target))
    read = read_move(text)
    assert read == Move.parse(text) and type(read) is Move and str(read) == text


def test_play_covers_the_tiles_its_cells_say_or_says_off_the_board():
    for (piece, alias, contact), _ in PLACING.items():
        for target in range(0, SIZE * SIZE, 7):
            move = Move(piece, alias, contact, target)
            board = Board(1)
            board.starts = [1 << target]  # (a first piece with its contact there is legal)
            plain = bitboard.move_mask(move)
            if plain:
                rules.play(board, move)
                assert board.last == board.own[0] == plain
            else:
                with pytest.raises(RuleError, match="off the board"):
                    rules.play(board, move)
