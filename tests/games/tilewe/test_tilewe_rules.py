"""Tilewe rules (sections 7-11 of the rules file), each with a test that fails when wrong."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import notation
from notation.core.errors import RuleError
from notation.games.tilewe import rules
from notation.games.tilewe.bitboard import move_mask, squares
from notation.games.tilewe.events import Move, parse_square, square_name
from notation.games.tilewe.pieces import PIECE_INDEX
from notation.games.tilewe import state
from notation.games.tilewe.state import COLORS, Board

from conftest import reference_games


def cells(board: Board, move: str) -> set[str]:
    return {square_name(s) for s in squares(move_mask(Move.parse(move)))}


def play(players: int, *moves: str) -> Board:
    board = Board(players)
    for m in moves:
        rules.play(board, Move.parse(m))
    return board


def anchors(board: Board, player: int = 0) -> set[str]:
    return {square_name(s) for s in squares(board.anchors(player))}


def rule_of(board: Board, move: str) -> str:
    with pytest.raises(RuleError) as info:
        rules.play(board, Move.parse(move))
    return info.value.rule


# -- worked examples (section 11) ---------------------------------------------------

def test_example_1_first_piece_and_its_open_corners():
    board = play(1, "W5n-a1a1")
    assert {square_name(s) for s in squares(board.own[0])} == {"a1", "b1", "b2", "c2", "c3"}
    assert anchors(board) == {"d1", "a3", "b4", "d4"}


def test_example_2_f5_east_on_d4():
    board = play(1, "W5n-a1a1")
    assert cells(board, "F5e-a2d4") == {"d4", "e4", "f4", "e5", "f3"}
    rules.play(board, Move.parse("F5e-a2d4"))
    assert board.scores() == [10]


@pytest.mark.parametrize("move, covered", [
    ("Z5n-a3a20", {"a20", "b20", "b19", "b18", "c18"}),
    ("T4e-b3t20", {"t20", "t19", "t18", "s19"}),
    ("T4n-a2a20", {"a20", "b20", "c20", "b19"}),
    ("Z5e-a1a1", {"a1", "a2", "b2", "c2", "c3"}),
])
def test_example_3_first_moves_in_any_corner(move, covered):
    board = Board(4)
    assert cells(board, move) == covered
    rules.play(board, Move.parse(move))


@pytest.mark.parametrize("move", ["Z5n-a3a1", "I2s-a2a1", "X5ef-b1t20"])
def test_examples_4_and_6_placements_off_the_board(move):
    assert rule_of(Board(4), move) == "on the board"


def test_example_7_two_legal_spellings_of_one_placement():
    board = play(1, "L4w-c1t1")
    assert {square_name(s) for s in squares(board.own[0])} == {"r1", "s1", "t1", "t2"}
    assert anchors(board) == {"q2", "s3"}
    legal = {str(m) for m in rules.legal_moves(board)}
    assert {"F5ef-a1q2", "F5ef-c2s3"} <= legal
    assert cells(board, "F5ef-a1q2") == cells(board, "F5ef-c2s3") == {"q2", "q3", "r3", "s3", "r4"}
    for spelling in ("F5ef-a2q3", "F5ef-b3r4"):  # same cells, target not an open corner
        assert spelling not in legal
        assert rule_of(board.copy(), spelling) == "contact on an open corner"


def test_example_8_first_move_counts():
    board = Board(4)
    counts = []
    for move in ("W5n-a1a1", "I2n-a1t1", "I2n-a2a20"):
        counts.append(len(rules.legal_moves(board)))
        rules.play(board, Move.parse(move))
    counts.append(len(rules.legal_moves(board)))
    assert counts == [232, 174, 116, 58]
    assert len(rules.legal_moves(Board(1))) == len(rules.legal_moves(Board(2))) == 232


# -- each legality rule ----------------------------------------------------------------

def test_rule_1_each_piece_once():
    board = play(1, "W5n-a1a1")
    assert rule_of(board, "W5n-a1d4") == "each piece once"


def test_rule_3_tiles_must_be_empty_and_occupied_tiles_are_named():
    board = play(2, "I5e-a1a1")  # blue a1..e1; yellow's first piece on a1 is refused
    with pytest.raises(RuleError) as info:
        rules.play(board, Move.parse("O1n-a1a1"))
    assert info.value.rule == "empty tiles" and "a1 (blue)" in str(info.value)


def test_rule_4_no_edge_contact_with_own_colour():
    board = play(1, "I5e-a1a1")  # a1..e1
    with pytest.raises(RuleError) as info:
        rules.play(board, Move.parse("O1n-a1f1"))  # f1 touches e1 along an edge
    assert info.value.rule == "no edge contact with own colour"
    assert "at f1" in str(info.value)


def test_rule_4_edge_contact_with_another_colour_is_allowed():
    board = play(2,
                 "I4e-a1a1",   # blue a1..d1
                 "I4e-d1t1",   # yellow q1..t1
                 "I5e-a1e2",   # blue e2..i2 (e2 diagonal to d1)
                 "I5e-e1p2",   # yellow l2..p2 (p2 diagonal to q1)
                 "O1n-a1j3")   # blue j3 (diagonal to i2)
    rules.play(board, Move.parse("O1n-a1k3"))  # yellow k3: edge to blue j3, diagonal to l2
    assert board.color_at(parse_square("k3")) == 1
    assert board.scores() == [10, 10]


def test_rule_5_first_piece_must_cover_a_board_corner():
    assert rule_of(Board(2), "W5n-a1b1") == "first piece in a corner"
    board = play(2, "W5n-a1a1")
    assert rule_of(board, "F5e-a2d4") == "first piece in a corner"  # yellow, not blue


def test_rule_5_later_pieces_anchor_at_the_named_target():
    board = play(1, "W5n-a1a1")
    assert rule_of(board.copy(), "O1n-a1e5") == "contact on an open corner"
    rules.play(board, Move.parse("O1n-a1d4"))


def test_corners_lose_their_status_after_the_first_piece():
    board = play(1, "W5n-a1a1")
    assert rule_of(board, "O1n-a1t20") == "contact on an open corner"


# -- turn order, skipping and the end ---------------------------------------------------

def brute_force_next(board: Board, last: int) -> int | None:
    """Section 8 literally: the next colour after the mover that has a legal move."""
    n = board.players
    for step in range(1, n + 1):
        p = (last + step) % n
        if rules.legal_moves(board, p):
            return p
    return None


@pytest.mark.parametrize("players, seed", [(2, 0), (2, 1), (3, 2), (4, 3), (4, 4), (3, 6)])
def test_turn_order_and_skipping_match_the_literal_rule(players, seed, tilewe):
    rng = random.Random(seed)
    board = Board(players)
    last = players - 1
    movers = []
    while True:
        expected = brute_force_next(board, last)
        assert board.to_move() == expected
        if expected is None:
            break
        move = rng.choice(rules.legal_moves(board))
        rules.play(board, move)
        last = expected
        movers.append(expected)
    assert tilewe.is_over(board) and rules.legal_moves(board) == []
    if players == 2:  # these seeds end with one player stuck and the other moving again
        assert movers[-1] == movers[-2]


def test_one_player_keeps_moving_until_stuck():
    rec = reference_games("tilewe")[3]
    assert rec["n_players"] == 1
    board = play(1, *rec["moves"])
    assert board.to_move() is None and board.scores() == [89]


def test_a_move_after_the_end_is_refused():
    rec = reference_games("tilewe")[3]
    board = play(1, *rec["moves"])
    assert rule_of(board, "O1n-a1a1") == "game end"


def test_skipped_players_are_found_lazily_but_correctly():
    rec = reference_games("tilewe")[0]  # players 1 and 2 drop out near the end
    board = Board(4)
    for move, mover in zip(rec["moves"], rec["movers"]):
        assert board.to_move() == mover
        rules.play(board, Move.parse(move))
    assert board.out != 0b1111  # nobody has asked yet: the end is found on demand
    assert board.to_move() is None
    assert board.out == 0b1111 and board.over


def test_illegal_for_the_player_to_move_even_if_legal_for_another():
    # yellow to move; I2n-a1b2 would be fine for blue (diagonal to a1), not for yellow
    board = play(2, "O1n-a1a1")
    assert rule_of(board, "I2n-a1b2") == "first piece in a corner"


def test_scores_and_winners():
    board = Board(4)
    assert rules.winners(board) == [0, 1, 2, 3]
    board = play(2, "I5e-a1a1", "I4e-d1t1")
    assert board.scores() == [5, 4] and rules.winners(board) == [0]
    rules.play(board, Move.parse("O1n-a1f2"))
    rules.play(board, Move.parse("I2n-a1p2"))
    assert board.scores() == [6, 6] and rules.winners(board) == [0, 1]


# -- the reference games ----------------------------------------------------------------

@pytest.mark.parametrize("ref", reference_games("tilewe"), ids=lambda r: r["id"])
def test_reference_game_ply_by_ply(ref):
    board = Board(ref["n_players"])
    for i, text in enumerate(ref["moves"]):
        moves = rules.legal_moves(board)
        assert board.to_move() == ref["movers"][i], f"mover before ply {i + 1}"
        assert len(moves) == ref["legal_counts"][i], f"legal count before ply {i + 1}"
        placements = {(m.piece, move_mask(m)) for m in moves}
        assert len(placements) == ref["legal_placements"][i]
        move = Move.parse(text)
        assert move in moves
        rules.play(board, move)
    game = notation.get_game("tilewe")
    assert game.state_json(board)["board"] == ref["final_board"]
    assert board.scores() == ref["scores"] and rules.winners(board) == ref["winners"]
    assert board.ply == ref["plies"] and game.is_over(board)


def test_a_move_built_by_hand_whose_contact_is_no_contact_tile_is_refused():
    move = Move(PIECE_INDEX["I3"], 0, (0, 1), 0)  # the middle of I3 has two opposite neighbours
    with pytest.raises(RuleError) as info:
        rules.play(Board(1), move)
    assert info.value.rule == "notation" and "not a contact tile" in str(info.value)


def test_a_board_shows_its_position():
    board = play(2, "W5n-a1a1")
    assert repr(board) == f"<tilewe position {board.position()!r}>"


def test_the_transform_names_are_the_symmetries_but_the_identity():
    from notation.games.tilewe import symmetry
    assert set(symmetry.NAMES) == set(symmetry.TRANSFORMS) - {"identity"}


def test_a_board_copy_is_every_slot_copied_and_shares_no_list() -> None:
    """``Board.copy`` written out slot by slot equals its definition (each slot copied,
    each list a new one) on boards part-way through games with Blokus tags too: a slot
    added to the board and left out of the copy fails here."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from notation.core.new_games import random_record

    @settings(max_examples=40, deadline=None)
    @given(seed=st.integers(0, 2**32), players=st.integers(1, 4), cut=st.floats(0, 1),
           corners=st.sampled_from(["any", "fixed"]), scoring=st.sampled_from(["tiles", "blokus"]))
    def check(seed: int, players: int, cut: float, corners: str, scoring: str) -> None:
        game = notation.get_game("tilewe")
        record = random_record(game, random.Random(seed),
                               {"players": players, "corners": corners, "scoring": scoring})
        board = rules.start(record)
        events = list(record.events)
        for move in events[:int(cut * len(events))]:
            rules.play(board, move)
        if seed % 2:
            board.to_move()
        defined = board.copied_slot_by_slot()
        for copied in (board.copy(), board.copied_slots()):  # (compiled, where built; Python)
            assert type(copied) is Board
            for name in Board.__slots__:
                value = getattr(copied, name)
                assert value == getattr(defined, name) == getattr(board, name), name
                if isinstance(value, list):
                    assert value is not getattr(board, name), name

    check()


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 80))
def test_the_facts_count_each_colours_tiles_and_pieces_in_hand(seed: int, plies: int) -> None:
    """``stats``' facts at any ply of a random game: each colour's tiles, and the pieces
    it has not placed (counted from its bits; ``remaining`` lists them)."""
    from notation.core.new_games import random_record
    from notation.core import registry
    game = registry.require("tilewe")
    record = random_record(game, random.Random(seed), {})
    board = game.start(record)
    for move in record.events[:plies]:
        game.apply(board, move)
    facts = board.facts()
    for p, colour in enumerate(COLORS[:board.players]):
        assert facts[f"{colour} score"] == bin(board.own[p]).count("1")
        assert facts[f"{colour} pieces left"] == len(board.remaining(p))


BLOKUS_RULES = [{}, {"Scoring": "blokus"}, {"Owners": "1 2 1 2"},
                {"Owners": "1 2 3 shared", "Scoring": "blokus"}]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 90), st.integers(1, 4),
       st.sampled_from(BLOKUS_RULES))
def test_the_plain_tally_of_points_and_winners_is_blokus_count(seed: int, plies: int,
                                                               players: int,
                                                               blokus_tags: dict[str, str]
                                                               ) -> None:
    """Each colour its own player, tiles scored: points and winners counted at once, as
    Blokus's general count (any owners, any scoring) finds them, at any ply of a game;
    under other rules, the general count itself."""
    from notation.core.new_games import random_record
    from notation.core import registry
    from notation.games.tilewe import blokus
    game = registry.require("tilewe")
    if "Owners" in blokus_tags:
        players = 4
    record = random_record(game, random.Random(seed), {"players": players})
    record.headers.update(blokus_tags)
    board = game.start(record)
    for move in record.events[:plies]:
        game.apply(board, move)
    assert rules._points(board) == (blokus.colour_points(board), blokus.winning_colours(board))
    assert rules.result(board).details["winners"] == blokus.winning_colours(board)


@pytest.mark.parametrize("players", ["1", "2", "3", "4", None])
def test_a_start_from_a_count_of_players_is_a_new_empty_board(players: str | None) -> None:
    """The empty board of a ``[Players]`` count is copied, never shared: two games started
    alike, one played, leave the other as it was."""
    tags = {} if players is None else {"Players": players}
    first, second = rules.start(tags), rules.start(tags)
    fresh = Board(int(players or 4))
    rules.play(first, Move.parse("O1n-a1a1"))
    assert [getattr(second, s) for s in Board.__slots__] == \
        [getattr(fresh, s) for s in Board.__slots__]
    assert rules.start(tags).occupied == 0


@pytest.mark.skipif(state.compiled_copy_board is None, reason="the compiled rules are not built")
def test_the_compiled_copy_takes_classes_of_slots_alone() -> None:
    copy_board = state.compiled_copy_board
    assert copy_board is not None

    class Slotted:
        __slots__ = ("items", "count", "unset")

    class More(Slotted):
        __slots__ = ("extra",)

    class Loose:
        pass

    class LooseSlots(Slotted):  # (a __dict__ of its own)
        pass

    more = More()
    more.items, more.count, more.extra = [1, [2]], 3, (4,)
    copied = copy_board(more)
    assert type(copied) is More and (copied.items, copied.count, copied.extra) == \
        ([1, [2]], 3, (4,))
    assert copied.items is not more.items and copied.items[1] is more.items[1]
    assert not hasattr(copied, "unset")
    class Weak:
        __slots__ = ("value", "__weakref__")

    weak = Weak()
    weak.value = [1]
    assert copy_board(weak).value == [1]
    import _random
    import zlib
    # (classes of C state: a copy of their slots alone would be another object's memory)
    for refused in (Loose(), LooseSlots(), 5, [1], object(), zlib.compressobj(),
                    _random.Random(5)):
        with pytest.raises(TypeError, match="slots alone"):
            copy_board(refused)
