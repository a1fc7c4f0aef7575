"""Flows positions you can play: what ``tests/replay/test_positions.py`` asks of every
game, checked where Flows can get it wrong (each part of a state a snapshot must copy, the
position notation and its view at every ply, the moves of each tile that can be drawn,
the random mover, and the words of an illegal move)."""
from __future__ import annotations

import random

import pytest

import notation
from notation.core.errors import NotationError, RuleError
from notation.games.flows import generate
from notation.games.flows.events import Placement, Unplaceable
from notation.games.flows.rules import legal_placements
from notation.games.flows.state import FlowsState

from conftest import SAMPLES

GAME = notation.get_game("flows")


def sample_records() -> list[notation.GameNode]:
    return [record for path in sorted((SAMPLES / "flows").glob("*.flows"))
            for record in notation.load(path)]


def slots(state: FlowsState) -> dict[str, object]:
    """Everything a state holds, lists copied."""
    held = {}
    for name in FlowsState.__slots__:
        value = getattr(state, name)
        held[name] = value[:] if isinstance(value, list) else value
    return held


def everything(position: notation.Position) -> tuple[object, ...]:
    """What two positions that continue alike agree on."""
    return (position.position(), GAME.state_json(position.state), position.turn,
            position.is_over(), position.result(), str(position),
            [str(m) for m in position.legal_moves])


def at(name: str, ply: int) -> notation.Position:
    """The position after ``ply`` moves of a sample."""
    record = notation.load(SAMPLES / "flows" / name)[0]
    position = notation.Position.from_record(record, 0)
    for event in record.events[:ply]:
        position.push(event)
    return position


# -- event types -----------------------------------------------------------------------------

def test_events_read_and_write_like_the_notation():
    move = notation.flows.Placement.parse("P1A2T0N")
    assert notation.flows.Placement is Placement and notation.flows.Unplaceable is Unplaceable
    assert move == Placement(1, "A2", 0, "N") and str(move) == "P1A2T0N"
    assert repr([move, Unplaceable.parse("P2T3")]) == "[Placement('P1A2T0N'), Unplaceable('P2T3')]"
    assert move != Placement.parse("P1A2T0NE")
    for bad, kind in (("P2T3", Placement), ("P1A2T0N", Unplaceable), ("1. P1A2T0N", Placement),
                      ("P1A2T0W", Placement), ("P1A2T0N P2A3T0N", Placement)):
        with pytest.raises(NotationError):
            kind.parse(bad)


# -- copies ----------------------------------------------------------------------------------

def test_a_copy_holds_every_part_and_shares_no_list():
    state = at("flows-150.flows", 36).state  # over: winners, result, a constraint win
    copy = GAME.copy(state)
    assert slots(copy) == slots(state)
    for name in FlowsState.__slots__:
        value = getattr(state, name)
        if isinstance(value, list):
            assert getattr(copy, name) is not value, name


def test_playing_on_a_copy_leaves_the_original_as_it_was():
    position = at("flows-180.as-side3.flows", 10)
    before = slots(position.state)
    copy = GAME.copy(position.state)
    GAME.apply(copy, position.legal_moves[0])
    copy.tiles[0], copy.placed[0] = (3, 3), 99
    copy.winners.append(5)
    copy.view = None
    assert slots(position.state) == before


def test_pop_after_each_kind_of_ending_gives_back_the_position_before():
    for name in ("flows-150.flows", "flows-080.flows", "random-5p.flows", "flows-000.as-P2.flows"):
        record = notation.load(SAMPLES / "flows" / name)[0]
        position = notation.Position.from_record(record)
        last = record.events[-1]
        ended = everything(position)
        before = at(name, len(record.events) - 1)
        assert position.pop() == last
        assert everything(position) == everything(before)
        position.push(last)
        assert everything(position) == ended and position.is_over()


# -- the position notation -------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(p.name for p in (SAMPLES / "flows").glob("*.flows")))
def test_a_position_read_back_at_every_ply_continues_identically(name):
    for record in notation.load(SAMPLES / "flows" / name):
        events = record.events
        position = notation.Position.from_record(record, 0)
        for ply in range(len(events) + 1):
            copy = notation.from_position("flows", position.position())
            assert everything(copy) == everything(position), ply
            follow = position.copy()
            for event in events[ply:]:
                copy.push(str(event))
                follow.push(event)
                assert copy.position() == follow.position(), (ply, str(event))
            assert everything(copy) == everything(follow), ply
            if ply < len(events):
                position.push(events[ply])


def test_the_view_is_written_only_for_a_game_written_in_one():
    assert notation.new("flows", players=2).position().split()[4:] == []
    assert notation.new("flows", players=2, perspective="P2").position().endswith(" * side:3")
    assert at("flows-180.as-side3.flows", 4).position().endswith(" P5 0,1,2,3,4,5 * side:3")
    board = "..../...../....../......./....../...../.... P1 0,2 *"
    assert notation.from_position("flows", board + " P2").position() == board + " side:2"
    for bad in ("mover", "side:6", "P3", "north", "side:1 side:2"):
        with pytest.raises(NotationError):
            GAME.read_position(f"{board} {bad}")


def test_a_constraint_win_read_back_counts_the_tile_that_fits_nowhere():
    position = at("random-5p.flows", 35)
    copy = notation.from_position("flows", position.position())
    assert str(copy) == str(position) and "after 35 plies" in str(copy)


def test_a_game_from_a_position_records_itself_and_replays_in_its_view():
    start = at("flows-000.as-P2.flows", 6)
    position = notation.from_position("flows", start.position())
    while not position.is_over():
        position.push(position.legal_moves[-1])
    text = notation.format_record(notation.GameNode.from_position(position))
    outcome = notation.run(notation.parse(text, "flows")[0])
    assert outcome.valid and GAME.full_position(outcome.state) == position.position()
    # the same moves in every other view: the [Position] tag turns with them
    for view in ("mover", "P1", "side:4"):
        turned = GAME.convert(notation.parse(text, "flows")[0], perspective=view)
        again = notation.run(notation.parse(notation.format_record(turned), "flows")[0])
        assert again.valid, (view, again.error)
        assert GAME.position(again.state).split()[:4] == position.position().split()[:4]


def test_a_perspective_tag_must_agree_with_the_positions_view():
    board = at("flows-000.as-P2.flows", 3).position()
    assert board.endswith(" side:2")
    for perspective, valid in (("P2", True), ("side:2", True), ("P1", False), ("mover", False)):
        text = (f'[Game "flows"]\n[Position "{board}"]\n[Perspective "{perspective}"]\n\n'
                "1. P2E3T3NE\n")
        outcome = notation.run(notation.parse(text, "flows")[0])
        assert outcome.valid == valid, perspective
        if not valid:
            assert outcome.error.rule == "tag Perspective"


# -- legal moves: the tile drawn is part of the move -----------------------------------------

def test_legal_moves_are_each_tile_in_the_bags_placements():
    position = at("flows-080.flows", 31)  # all ten T0 are on the board
    state = position.state
    assert state.in_bag(0) == 0
    assert [str(m) for m in position.legal_moves] == ["T1", "T2", "T3"]  # chance draws first
    moves = position.game.legal_moves(state)  # what a record's next move may write
    assert {m.tile for m in moves} == {1, 2, 3}
    assert [m.tile for m in moves] == sorted(m.tile for m in moves)
    for tile in range(4):
        chosen = position.legal_moves(tile=tile)
        assert chosen == [m for m in moves if m.tile == tile]
        assert len(chosen) == (len(legal_placements(state, tile)) if state.in_bag(tile) else 0)
    assert all(position.is_legal(m) for m in moves)
    with pytest.raises(NotationError):
        position.legal_moves(tile=4)


def test_a_tile_that_fits_nowhere_is_the_move_it_is_drawn_as():
    position = at("flows-150.flows", 35)
    assert position.legal_moves(tile=3) == [Unplaceable(4, 3)]
    assert Unplaceable(4, 3) in position.game.legal_moves(position.state)
    assert not position.is_legal("P4T0")  # a T0 fits: it must be placed
    position.push("T3")  # (chance's draw, played ahead: the one move left is the record's)
    assert position.legal_moves == [Unplaceable(4, 3)]
    position.push("P4T3")
    assert position.result().tags == {"Result": "constraint P2 P4"}
    assert position.legal_moves == []


@pytest.mark.slow
def test_new_games_play_to_their_end_with_any_view_and_seating():
    for options in ({"players": 3}, {"players": 4, "perspective": "P2"},
                    {"players": 5}, {"seats": "1 4"}):
        position = notation.new("flows", **options)
        rng = random.Random(7)
        while not position.is_over():
            position.push(rng.choice(position.legal_moves))
        outcome = notation.run(notation.parse(notation.format_record(notation.GameNode.from_position(position)),
                                              "flows")[0])
        assert outcome.valid and outcome.plies == position.ply, options
        assert GAME.full_position(outcome.state) == position.position()


# -- the random mover ------------------------------------------------------------------------

@pytest.mark.parametrize("tries", [0, generate.TRIES, 1000])
def test_the_random_mover_picks_every_legal_placement_and_nothing_else(tries, monkeypatch):
    # 4 legal pairs of 30 for a T2 here: random tries fail often, and the mover then
    # lists the legal pairs (0 tries: always; 1000: never); each way must be uniform
    monkeypatch.setattr(generate, "TRIES", tries)
    position, tile = at("random-5p.flows", 32), 2
    legal = set(map(str, position.legal_moves(tile=tile)))
    empty = sum(t is None for t in position.state.tiles)
    assert len(legal) == 4 and empty * 6 == 30
    chosen = []
    for seed in range(60 * len(legal)):
        state = GAME.copy(position.state)
        chosen.append(str(generate.random_move(random.Random(seed), state, tile)))
        trial = position.copy(stack=False)
        trial.push(chosen[-1])
        assert GAME.full_position(state) == trial.position()
    assert set(chosen) == legal
    # uniform: 60 draws of each expected (sd 6.7), none drawn under 30 or over 90 times
    assert all(30 <= chosen.count(move) <= 90 for move in legal), sorted(map(chosen.count, legal))


def test_the_random_mover_plays_a_tile_that_fits_nowhere():
    state = GAME.copy(at("flows-150.flows", 35).state)
    assert generate.random_move(random.Random(1), state, 3) == Unplaceable(4, 3)
    assert state.over and state.win_type == "constraint"
    with pytest.raises(RuleError):
        generate.random_move(random.Random(1), state, 0)


# -- illegal moves ---------------------------------------------------------------------------

@pytest.mark.parametrize("name, ply, move, rule", [
    ("flows-000.flows", 1, "P1A1T0N", "turn order"),
    ("flows-000.flows", 2, "P1B4T0N", "empty hex"),
    ("flows-000.as-P2.flows", 2, "P1F6T0N", "empty hex"),
    ("flows-150.flows", 35, "P4T0", "mandatory placement"),
    ("flows-150.flows", 36, "P1A1T0N", "game end"),
    ("flows-080.flows", 31, "P2D5T0N", "10 tiles of each type"),
    ("flows-000.flows", 0, "P3A1T0N", "players"),
    ("flows-000.flows", 0, "P1A5T0N", "on the board"),
    ("flows-000.flows", 0, "P1H1T0N", ""),  # no move at all: validate's syntax error
])
def test_an_illegal_move_says_what_validate_says(name, ply, move, rule):
    record = notation.load(SAMPLES / "flows" / name)[0]
    position = at(name, ply)
    before = everything(position)
    # no event at all is invalid, an event the rules forbid illegal: neither is the other
    kind = notation.IllegalMoveError if rule else notation.InvalidEventError
    with pytest.raises(notation.MoveError) as caught:
        position.push(move)
    assert type(caught.value) is kind and isinstance(caught.value, ValueError)
    assert caught.value.rule == rule and everything(position) == before
    tags = "".join(f'[{k} "{v}"]\n' for k, v in record.headers.items() if k != "Result")
    moves = " ".join(map(str, [*record.events[:ply], move]))
    outcome = notation.run(notation.parse(f"{tags}\n{moves}\n", "flows")[0])
    assert str(caught.value) == outcome.error.describe()


def test_a_blocking_placement_is_refused_in_the_rules_words():
    position = at("flows-000.flows", 27)
    state = position.state
    refused = None
    for move in (f"P2{r}{c}T{t}{o}" for r in "ABCDEFG" for c in "1234567" for t in range(4)
                 for o in ("N", "NE", "SE", "S", "SW", "NW")):
        try:
            event = position.read(move)
        except notation.InvalidEventError:
            continue
        trial = GAME.copy(state)
        try:
            GAME.apply(trial, event)
        except RuleError as exc:
            if exc.rule == "every player keeps a route":
                refused = move
                break
    assert refused is not None
    with pytest.raises(notation.IllegalMoveError) as caught:
        position.push(refused)
    assert "no possible route" in str(caught.value) and refused in str(caught.value)
