"""Tilewe positions you can play: what ``tests/replay/test_positions.py`` asks of every
game, checked where Tilewe can get it wrong (its move repr, each part of the board a
snapshot must copy, the position notation at every ply, the legal-move search and the
random games drawn from it, and the words of an illegal move)."""
from __future__ import annotations

import collections.abc
import random
from pathlib import Path

import pytest

from notation.core.new_games import random_record
import notation
from notation.games.tilewe import generate, rules
from notation.games.tilewe.events import Move, read_move
from notation.games.tilewe.state import Board

import tilewe_shape_search as shape_search
from conftest import SAMPLES, invoke

GAME = notation.get_game("tilewe")
#: The parts of a board that are lists: a snapshot that shares one is not a snapshot.
LISTS = ("own", "adj", "diag", "used")


def sample_records() -> list[notation.GameNode]:
    return [record for path in sorted((SAMPLES / "tilewe").glob("*.tilewe"))
            for record in notation.load(path)]


def slots(board: Board) -> dict[str, object]:
    """Everything a board holds, lists copied."""
    held = {}
    for name in Board.__slots__:
        value = getattr(board, name)
        held[name] = value[:] if isinstance(value, list) else value
    return held


def everything(position: notation.Position) -> tuple[object, ...]:
    """What two positions that continue alike agree on."""
    return (position.position(), GAME.state_json(position.state), position.turn,
            position.is_over(), position.result(), [str(m) for m in position.legal_moves])


# -- the event type -------------------------------------------------------------------

def test_a_move_reads_like_the_notation():
    move = notation.tilewe.Move.parse("F5e-a2d4")
    assert notation.tilewe.Move is Move
    assert repr(move) == "Move('F5e-a2d4')"
    assert repr([move, Move.parse("O1n-a1a1")]) == "[Move('F5e-a2d4'), Move('O1n-a1a1')]"
    assert move == read_move("F5e-a2d4") and hash(move) == hash(read_move("F5e-a2d4"))
    assert move != Move.parse("F5e-a2d5")


def test_an_alias_rotation_reads_as_the_canonical_move():
    # I2 turned south is the same cells as I2 north: one move, written one way
    move = Move.parse("I2s-a1t1")
    assert move == Move.parse("I2n-a1t1")
    assert repr(move) == "Move('I2n-a1t1')" and str(move) == "I2n-a1t1"


@pytest.mark.parametrize("text", ["F5e-a2d4 ", "1. F5e-a2d4", "F5e-a2", "pass"])
def test_move_parse_is_strict(text):
    with pytest.raises(notation.NotationError):
        Move.parse(text)


# -- copies and pop -------------------------------------------------------------------

def played(*moves: str, players: int = 2) -> Board:
    board = Board(players)
    for text in moves:
        rules.play(board, Move.parse(text))
    return board


@pytest.mark.parametrize("part", LISTS)
def test_a_copy_shares_no_list_with_its_board(part):
    board = played("I5e-a1a1", "I4e-d1t1", "O1n-a1f2")
    before = slots(board)
    copy = board.copy()
    assert slots(copy) == before
    getattr(copy, part)[0] ^= 1 << 399  # change the copy's list in place
    assert slots(board) == before
    getattr(board, part)[1] ^= 1 << 398
    assert getattr(copy, part)[1] == getattr(played("I5e-a1a1", "I4e-d1t1", "O1n-a1f2"), part)[1]


def test_a_copy_keeps_every_part_of_the_board():
    board = played("I5e-a1a1", "I4e-d1t1")
    board.to_move()  # the lazily found turn is state as well
    assert slots(board.copy()) == slots(board)
    assert set(Board.__slots__) >= {*LISTS, "occupied", "turn", "turn_known", "out", "over",
                                    "ply", "last_mover", "last", "players"}


def test_pop_gives_back_every_part_of_the_board_at_every_ply():
    # a four-player game where yellow and red drop out near the end (lazy skips and the end)
    record = notation.load(SAMPLES / "tilewe" / "tw-sample-1.tilewe")[0]
    position = notation.Position.from_record(record, 0)
    before = []
    for event in record.events:
        before.append(slots(position.state))
        position.push(event)
    assert position.is_over() and position.state.over
    for ply in range(len(before) - 1, -1, -1):
        position.pop()
        assert slots(position.state) == before[ply], ply


def test_a_position_copy_is_independent_of_the_original():
    position = notation.new("tilewe", players=3)
    position.push("I5e-a1a1")
    copy = position.copy()
    copy.push("I4e-d1t1")
    assert position.ply == 1 and position.turn == "yellow" and copy.turn == "red"
    assert position.state.occupied != copy.state.occupied
    copy.pop()
    copy.pop()
    assert copy.ply == 0 and position.moves == [Move.parse("I5e-a1a1")]
    assert position.position() != copy.position()


# -- the position notation ------------------------------------------------------------

@pytest.mark.parametrize("record", sample_records(),
                         ids=lambda r: f"{Path(r.source).stem}-{r.index}")
def test_every_ply_read_back_from_its_notation_plays_on_alike(record):
    events = record.events
    position = notation.Position.from_record(record, 0)
    for ply in range(len(events) + 1):
        again = notation.from_position("tilewe", position.position())
        assert everything(again) == everything(position), ply
        if ply < len(events):
            position.push(events[ply])
    # the last position read back from the one after the first ply, played to the end
    start = notation.Position.from_record(record, 0)
    start.push(events[0])
    again = notation.from_position("tilewe", start.position())
    for event in events[1:]:
        again.push(event)
    assert everything(again) == everything(position)


def test_a_set_up_position_records_itself_and_the_record_validates():
    position = notation.new("tilewe", players=2)
    for move in ("I5e-a1a1", "I4e-d1t1", "O1n-a1f2"):
        position.push(move)
    text = position.position()
    again = notation.from_position("tilewe", text)
    assert again.turn == "yellow"
    for _ in range(6):
        again.push(again.legal_moves[0])
    record = notation.GameNode.from_position(again)
    assert record.headers["Position"] == text
    written = notation.format_record(record)
    outcome = notation.run(notation.parse(written, "tilewe")[0])
    assert outcome.valid and outcome.plies == 6
    assert notation.new("tilewe", position=text).position() == text


def test_the_notation_says_who_moves_when_someone_is_skipped():
    record = notation.load(SAMPLES / "tilewe" / "tw-sample-1.tilewe")[0]
    position = notation.Position.from_record(record, 0)
    movers = []
    for event in record.events:
        movers.append(position.turn)
        assert position.position().split()[1] == position.turn[0]
        position.push(event)
    assert movers[-4:] != ["blue", "yellow", "red", "green"]  # someone was skipped
    assert position.turn is None and position.position().split()[1] == "-"


# -- legal moves ----------------------------------------------------------------------

def brute_force(board: Board) -> list[Move]:
    """Every move of the notation (each spelling on each of the 400 tiles) that the rules
    accept, tried one by one: no search of ours."""
    legal = []
    for text in notation.tilewe.canonical_moves():
        move = read_move(text)
        trial = board.copy()
        try:
            rules.play(trial, move)
        except notation.RuleError:
            continue
        legal.append(move)
    return legal


@pytest.mark.slow
def test_legal_moves_are_what_the_rules_accept_in_the_reference_order():
    record = notation.load(SAMPLES / "tilewe" / "tw-sample-1.tilewe")[0]
    position = notation.Position.from_record(record, 0)
    for event in record.events[:24]:
        position.push(event)
    board = position.state
    found = position.legal_moves
    assert sorted(found) == sorted(brute_force(board))
    offset = lambda m: m.contact[0] + 20 * m.contact[1]  # noqa: E731 - the contact on the board
    assert found == sorted(found, key=lambda m: (m.target, m.piece, m.orientation, offset(m)))


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_a_new_game_is_played_to_its_end_from_its_legal_moves(players):
    position = notation.new("tilewe", players=players)
    corners = {0, 19, 380, 399}
    assert position.turn == "blue" and {m.target for m in position.legal_moves} == corners
    rng = random.Random(players)
    while not position.is_over():
        moves = position.legal_moves
        assert moves and position.turn in ("blue", "yellow", "red", "green")[:players]
        assert all(position.is_legal(m) for m in rng.sample(moves, min(5, len(moves))))
        position.push(rng.choice(moves))
    assert position.legal_moves == [] and position.turn is None
    outcome = notation.run(notation.parse(notation.format_record(notation.GameNode.from_position(position)), "tilewe")[0])
    assert outcome.valid and outcome.plies == position.ply
    assert position.result().scores == position.state.scores()


# -- random games -----------------------------------------------------------------------

def test_picking_the_nth_placement_is_indexing_the_legal_moves():
    rng = random.Random(4)
    board = Board(4)
    checked = 0
    while (player := board.to_move()) is not None:
        anchors = board.anchors(player)
        spellings = shape_search.fitting_spellings(board.blocked(player), board.used[player], anchors)
        moves = rules.legal_moves(board)
        if rng.random() < 0.2:
            assert [shape_search.nth_placement(spellings, anchors, n)
                    for n in range(len(moves))] == moves
            checked += 1
        assert sum(t.bit_count() for t, _, _ in spellings) == len(moves)
        with pytest.raises(IndexError):
            shape_search.nth_placement(spellings, anchors, len(moves))
        rules.play(board, rng.choice(moves))
    assert checked > 3


@pytest.mark.parametrize("seed", range(4))
def test_a_random_move_is_the_one_choice_over_the_legal_moves_makes(seed):
    board = Board(1 + seed)
    draws, choices = random.Random(seed), random.Random(seed)
    while (player := board.to_move()) is not None:
        move = generate.random_move(draws, board, player)
        assert move == choices.choice(rules.legal_moves(board))
        rules.play(board, move)
    assert draws.random() == choices.random()  # the two streams are still in step


#: ``notation random tilewe --players 1 --seed 3``, as docs/rules/tilewe.md shows it (example 2).
SEED_3 = ("I2e-b1t1 P5wf-c1r2 W5e-b1s4 I5e-e1o3 L4s-b1t6 V5s-a1r9 N5w-d1q8 T5w-a1m10 T4w-b2j4 "
          "Z4n-b2h2 L5w-d1l13 Y5e-d1m8 L3e-a1h14 F5sf-c1i9 I4e-a1j6 O4n-a1j16 I3n-a1n13 "
          "U5n-a1l18 Z5e-c2g16 X5n-c2g13 O1n-a1k10")


def test_a_seed_gives_the_game_it_always_gave():
    record = random_record(GAME, random.Random(3), {"players": 1})
    assert " ".join(map(str, record.events)) == SEED_3


# -- illegal moves --------------------------------------------------------------------

ILLEGAL = [  # (moves before, the illegal move, its rule)
    (["I5e-a1a1", "I4e-d1t1"], "I5n-a1b2", "each piece once"),
    (["I5e-a1a1", "I4e-d1t1"], "I3n-a1t19", "on the board"),
    (["I5e-a1a1", "I4e-d1t1"], "O4n-a1b2", "no edge contact with own colour"),
    (["I5e-a1a1", "I4e-d1t1"], "O1n-a1k10", "contact on an open corner"),
    (["I5e-a1a1"], "I2n-a1b2", "first piece in a corner"),
    (["I5e-a1a1", "I4e-d1t1", "O1n-a1f2"], "I2n-a1e1", "empty tiles"),
]


@pytest.mark.parametrize("before, move, rule", ILLEGAL, ids=[rule for _, _, rule in ILLEGAL])
def test_an_illegal_move_says_what_validate_says(tmp_path, before, move, rule):
    position = notation.new("tilewe", players=2)
    for text in before:
        position.push(text)
    shown = position.position()
    with pytest.raises(notation.IllegalMoveError) as caught:
        position.push(move)
    error = caught.value
    assert error.rule == rule and position.position() == shown and position.ply == len(before)
    assert not position.is_legal(move)
    path = tmp_path / "illegal.tilewe"
    path.write_text(notation.format_events(GAME, {"Game": "tilewe", "Players": "2"},
                                           [*map(Move.parse, before), Move.parse(move)]))
    outcome = notation.run(notation.load(path)[0])
    assert str(error) == outcome.error.describe()
    printed = invoke("validate", str(path)).output
    assert f"ply {len(before) + 1} ({move}): {error.message}" in printed


def test_a_word_that_is_no_move_says_what_is_wrong_with_it():
    position = notation.new("tilewe", players=2)
    with pytest.raises(notation.InvalidEventError) as caught:
        position.push("Q5e-a2d4")
    assert "unknown piece 'Q5'" in str(caught.value)
    assert caught.value.problem.kind == notation.ProblemKind.SYNTAX
    assert position.ply == 0


def test_legal_moves_is_one_list_a_position_that_takes_text_in_any_spelling():
    position = notation.new("tilewe", players=4)
    legal = position.legal_moves
    assert position.legal_moves is legal  # worked out once for the position
    assert isinstance(legal, collections.abc.Sequence) and len(legal) == len(list(legal))
    assert legal == position.game.legal_moves(position.state) and legal[0] in legal
    assert "W5n-a1a1" in legal and "W5n-a1t1" not in legal and "zz" not in legal
    assert 17 not in legal and legal.index("W5n-a1a1") == list(legal).index(
        notation.tilewe.Move.parse("W5n-a1a1"))
    with pytest.raises(ValueError):
        legal.index("W5n-a1t1")
    position.push("W5n-a1a1")
    assert position.legal_moves is not legal and "W5n-a1a1" not in position.legal_moves
    position.pop()
    assert "W5n-a1a1" in position.legal_moves
    position.state = position.game.copy(position.state)  # a state set by hand: asked anew
    assert position.legal_moves is not legal


def test_a_legal_move_is_in_legal_moves_in_each_of_its_spellings():
    position = notation.new("tilewe", players=1)
    position.push("O1n-a1t1")
    position.push("I3n-a1s2")
    legal = position.legal_moves  # (one U5 over r5 t5 r6 s6 t6, by either end of its row)
    assert "U5s-c1t5" in legal and "U5s-a1r5" in legal
    assert legal.index("U5s-c1t5") == legal.index("U5s-a1r5")
    assert "U5s-a1t5" not in legal
