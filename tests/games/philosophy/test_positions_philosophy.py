"""Philosophy positions you can play: event values, exact copies, the whole-game position
notation, legal moves at joins, leaves, choices and stalls, illegal-move words, and the
generator's lazy placements."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from notation.core.new_games import random_record
from notation.core.tree import GameNode
import notation
from notation.core.ast import Tag
from notation.core.errors import NotationError
from notation.games.philosophy import legal
from notation.games.philosophy.events import (
    Choice, Join, Leave, Placement, Respect, RuleChange,
)
from notation.games.philosophy.game import JOINING
from notation.games.philosophy.state import PhilosophyState
from notation.games.philosophy.tiles import TILE_CODES, TILES

from conftest import SAMPLES, reference_games

PHIL = notation.get_game("philosophy")


def records() -> list[notation.GameNode]:
    """Every sample record that replays without a problem."""
    found = []
    for path in sorted((SAMPLES / "philosophy").glob("*.philosophy")):
        found += [r for r in notation.load(path) if notation.run(r).valid]
    return found


def reference_records() -> list[GameNode]:
    """The reference games of tests/data (joins, choices, leaves), as records."""
    return [notation.parse("\n".join(["[Game \"philosophy\"]", "", *ref["events"]]))[0]
            for ref in reference_games("philosophy")]


def states(record: GameNode) -> list[PhilosophyState]:
    """The state before the first event and after every event, each a copy."""
    shots = [PHIL.start(record)]
    shots += [step.state.copy() for step in notation.replay(record)]
    return shots


def play(text: str, **tags: str) -> notation.Position:
    """A position after the events of ``text`` (space-separated), from the tags given."""
    record = GameNode("philosophy", [Tag("Game", "philosophy"),
                                   *(Tag(k, v) for k, v in tags.items())])
    position = notation.Position.from_record(record, 0)
    for word in text.split():
        position.push(word)
    return position


# -- event values ------------------------------------------------------------------------------

@pytest.mark.parametrize("kind, text", [
    (Placement, "Te:C7ReNe[We]"), (Placement, "In:C6DeSw[C4(EaNoSoWe)"),
    (Placement, "Am:C2ReNw(EaNoSoWe)"), (Placement, "Te:C9PeNo.."), (Choice, "OO"),
    (Choice, "NW"), (Join, "In+"), (Join, 'In+:"Indiana Jones"'), (Leave, "Sa-"),
    (Respect, "R:Te"), (RuleChange, "rule:leave:effect:remove_their_tiles"),
])
def test_each_event_type_parses_writes_and_shows_its_notation(kind, text):
    event = kind.parse(text)
    assert type(event) is kind and str(event) == text
    assert repr(event) == f"{kind.__name__}({text!r})"
    assert getattr(notation.philosophy, kind.__name__) is kind


def test_parse_is_strict_about_the_kind_and_the_text():
    with pytest.raises(NotationError, match="is a Leave, not a Respect"):
        Respect.parse("In-")
    for bad in ("Te:C7ReNx", "3. In+", "In+ Te+", ""):
        with pytest.raises(NotationError):
            Join.parse(bad)


def test_events_of_different_types_are_never_equal():
    assert Leave("In") != Respect("In") and not Leave("In") == Respect("In")
    assert Leave("In") == Leave.parse("In-") and hash(Leave("In")) == hash(Leave.parse("In-"))
    assert len({Leave("In"), Respect("In"), Choice("In")}) == 3
    assert Respect("In") not in [Leave("In")]
    assert Placement.parse("Te:C7ReNe[We]") != Placement.parse("Te:C7ReNe")


# -- exact copies ------------------------------------------------------------------------------

def _busy_state() -> PhilosophyState:
    """A state with every mutable part filled: Sa left (its tiles removed), Te must choose."""
    position = play("Te+:teal In+ Sa+ R:Sa rule:leave:permitted:anytime "
                    "rule:leave:effect:remove_their_tiles Te:C7PuNo In:C3SlNo Sa:C9PuSo Sa- "
                    "Te:C4DeNe", Position="C2:InPuNo", ColorIn="Indiana")
    state = position.state
    assert state.pending is not None and state.before_last_placement is not None
    assert state.touched_own and state.activated and state.colour_tags
    assert state.hands["Sa"] == set(TILE_CODES) - {"Pu"}  # the leave removed Sa's Push
    return state


@pytest.mark.parametrize("change", [
    lambda s: s.board.clear(),
    lambda s: s.hands["Te"].clear(),
    lambda s: s.hands.clear(),
    lambda s: s.order.reverse(),
    lambda s: s.names.clear(),
    lambda s: s.colour_tags.clear(),
    lambda s: s.variants.clear(),
    lambda s: s.touched_own.clear(),
    lambda s: s.touched_other.add("C9"),
    lambda s: s.activated.clear(),
    lambda s: s.before_last_placement[0].clear(),
    lambda s: s.before_last_placement[1]["Te"].clear(),
], ids=["board", "hand", "hands", "order", "names", "colours", "rules", "touched A",
        "touched B", "activated", "last board", "last hands"])
def test_a_copy_shares_no_mutable_part(change):
    state = _busy_state()
    copy = PHIL.copy(state)
    assert copy == state and copy is not state
    change(copy)
    assert copy != state
    assert state == _busy_state()


def test_pop_goes_back_through_leaves_rule_changes_and_open_choices():
    position = play("Te+ In+ Sa+ rule:leave:permitted:anytime "
                    "rule:leave:effect:remove_their_tiles Te:C7PuNo In:C3SlNo Sa:C9PuSo",
                    Position="C2:InPuNo")
    shots = [PHIL.copy(position.state)]
    for event in ("R:In", "Sa-", "rule:join:permitted:between_turns",
                  "rule:join:where:after_a_full_turn", "Am+", "Te:C4DeNe", "In-",
                  "rule:leave:effect:rollback_placement", "Am-"):
        position.push(event)
        shots.append(PHIL.copy(position.state))
    assert not position.is_over() and position.state.board != shots[0].board
    while position.ply > 8:
        position.pop()
        assert position.state == shots[position.ply - 8]


# -- the position notation ---------------------------------------------------------------------

def test_the_board_alone_is_a_set_up_board_nobody_has_joined():
    state = PHIL.read_position("C3:InSlNo/C6:InSrNo")
    assert state.order == [] and state.set_up and state.placements == 0
    assert state.hands == {"In": set(TILE_CODES) - {"Sl", "Sr"}}
    assert PHIL.position(state) == "C3:InSlNo/C6:InSrNo"
    assert PHIL.full_position(state) == "C3:InSlNo/C6:InSrNo - 0"
    assert PHIL.full_position(PHIL.read_position("")) == "- - 0"


def test_the_seats_of_a_set_up_board_are_its_owners_in_board_order():
    """Not in the order of a set of codes, which the hash seed shuffles from run to run
    (``explore`` listed a set-up game's seats either way round)."""
    owners = ["In", "Te", "Am", "Sa", "Aa", "Bb", "Cc", "Dd"]
    board = "/".join(f"C{i}:{owner}PuNo" for i, owner in enumerate(owners, 1))
    assert PHIL.seats(PHIL.read_position(board)) == owners
    assert PHIL.seats(PHIL.read_position(f"{board} - 0")) == owners


@pytest.mark.parametrize("record", records() + reference_records(),
                         ids=lambda r: f"{Path(r.source).name}:{r.index}")
def test_the_whole_game_notation_reads_back_the_same_state_at_every_ply(record):
    for ply, state in enumerate(states(record)):
        text = PHIL.full_position(state)
        again = PHIL.read_position(text)
        assert again == state, (ply, text)
        assert PHIL.full_position(again) == text
        assert PHIL.position(again) == PHIL.position(state)  # the board part is the board


@pytest.mark.parametrize("record", records(), ids=lambda r: f"{Path(r.source).name}:{r.index}")
def test_a_game_set_up_from_its_notation_plays_on_identically(record):
    events = record.events
    full = states(record)
    for ply in range(len(events) + 1):
        text = PHIL.full_position(full[ply])
        position = notation.from_position("philosophy", text)
        assert position.legal_moves == PHIL.legal_moves(full[ply])
        assert position.turn == PHIL.to_move(full[ply])
        for later, event in enumerate(events[ply:], ply + 1):
            position.push(event)
            assert position.state == full[later], (ply, later)
        written = notation.format_record(GameNode.from_position(position))  # [Position] holds the text
        outcome = notation.run(notation.parse(written, "philosophy")[0])
        assert outcome.valid and PHIL.position(outcome.state) == PHIL.position(full[-1])


def test_names_with_spaces_and_quotes_survive_the_notation():
    position = play("", ColorSa="Sage of the Hills")
    position.push(Join.parse('In+:"Indiana \\"Indy\\" Jones"'))
    position.push("Te+")
    text = PHIL.full_position(position.state)
    assert 'In+:"Indiana \\"Indy\\" Jones"' in text and 'ColorSa:"Sage of the Hills"' in text
    again = PHIL.read_position(text)
    assert again.names["In"] == 'Indiana "Indy" Jones'
    assert again.colour_tags == {"Sa": "Sage of the Hills"}


@pytest.mark.parametrize("text, words", [
    ("C3:InSlNo TeIn", "turn order and the number of placements"),
    ("- TeTe 0", "names a player twice"),
    ("- Te 0 Te+:x Te+:y", "said twice"),
    ("- Te x", "not a number of placements"),
    ("- Te 0 In+:indigo", "for a player in the game"),
    ("- Te 0 hand:Te:PuPu", "holds a tile twice"),
    # the first unknown tile as written, not the first of a set (the hash seed's order)
    ("- Te 0 hand:Te:Pu" + "".join(f"Q{c}" for c in "abcdefghijklmnopqrstuvwxyz"),
     "unknown tile 'Qa'"),
    ("C1:TePuNo Te 1 hand:Te:Pu", "on the board"),
    ("- Te 0 rule:join:permitted:sometimes", "not a rule variant's value"),
    ("- Te 0 wibble", "not an item of a position"),
    ('- Te 0 Te+:"open', "unbalanced quote"),
    ("C1:TePuNo/C2:InPuNo TeIn 1 choice:In:rephrase:C1:EaNoSoWe", "the head of the turn"),
    ("C1:TePuNo/C2:InPuNo InTe 1 choice:In:rephrase:C1:NeNwSeSw", "facings of the target"),
    ("C5:TePuNo/C6:InPuNo InTe 1 choice:In:decision:C5:C2C4", "opposite sides"),
    ("C5:TePuNo/C6:InPuNo InTe 1 choice:In:decision:C5:C4N5", "N5 is not next to C5"),
    ("C1:TePuNo/C2:InPuNo InTe 1 choice:In:candidate:-:C1C2", "the mover's tile"),
    ("C1:TePuNo TeIn 1 touched:C1/-", "a turn with a choice open"),
    ("C1:TePuNo/C2:InPuNo TeIn 1 choice:Te:rephrase:C2:EaNoSoWe result:Te", "not over"),
])
def test_a_wrong_position_says_what_is_wrong(text, words):
    with pytest.raises(NotationError, match=words):
        PHIL.read_position(text)


# -- legal moves -------------------------------------------------------------------------------

def _accepted(position: notation.Position) -> None:
    """Every listed move is legal; the position is as it was afterwards."""
    before = PHIL.full_position(position.state)
    for move in position.legal_moves:
        assert position.is_legal(move), move
    assert PHIL.full_position(position.state) == before


def test_a_new_game_starts_with_joins_and_a_new_player_to_act():
    position = notation.new("philosophy")
    assert position.turn == JOINING and [str(m) for m in position.legal_moves] == [
        "In+", "Te+", "Am+", "Sa+"]
    position.push("Sa+")
    assert position.turn == JOINING
    assert [str(m) for m in position.legal_moves] == ["In+", "Te+", "Am+", "Sa-"]
    position.push("In+")
    moves = position.legal_moves
    assert position.turn == "Sa" and len(moves) == 8 * 12 * 4 + 4  # not C5 first
    assert [str(m) for m in moves[-4:]] == ["Te+", "Am+", "Sa-", "In-"]
    _accepted(position)


def test_joins_and_leaves_after_the_start_follow_the_rule_variants():
    position = play("In+ Te+ In:C1PuNo")
    assert not any(isinstance(m, (Join, Leave)) for m in position.legal_moves)
    position = play("In+ Te+ rule:join:permitted:between_turns rule:leave:permitted:anytime "
                    "In:C1PuNo")
    kinds = [m for m in position.legal_moves if isinstance(m, (Join, Leave))]
    assert [str(m) for m in kinds] == ["Am+", "Sa+", "Te-", "In-"]
    _accepted(position)


def test_an_incomplete_move_then_its_choices_are_legal_moves():
    position = play("Te+ In+ rule:join:permitted:between_turns", Position="C2:InPuNo")
    placement = Placement.parse("Te:C4DeNe")
    assert placement in position.legal_moves
    position.push(placement)  # a decision opens: the options, then joins
    assert position.turn == "Te"
    assert position.legal_moves == [Choice("C6"), Choice("N4"), Join("Am"), Join("Sa")]
    _accepted(position)
    position.push("N4")
    assert PHIL.position(position.state) == "C4:TeDeNe/N4:InPuNo" and position.turn == "In"


def test_a_stalled_game_offers_rule_changes_and_respect_passes():
    centre = "/".join(f"C{i}:{'In' if i % 2 else 'Te'}{t}No" for i, t in
                      zip(range(1, 10), ("Pu", "Pu", "Sl", "Sl", "Sr", "Sr", "Ls", "Ls", "To")))
    position = play("", Position=f"{centre} InTe 9")  # past the first placement
    assert not list(legal.Placements(position.state))
    assert position.legal_moves == [
        RuleChange("join", "permitted", "between_turns"),
        RuleChange("join", "where", "after_a_full_turn"),
        RuleChange("leave", "permitted", "never"), RuleChange("leave", "permitted", "anytime"),
        RuleChange("leave", "effect", "rollback_placement"),
        RuleChange("leave", "effect", "remove_their_tiles"), Respect("In"), Respect("Te")]
    position.push("rule:leave:permitted:anytime")
    assert position.legal_moves == [Leave("In"), Leave("Te")]
    position.push("Te-")
    assert position.is_over() and position.result().tags == {"Result": "none"}


@pytest.mark.parametrize("seed", range(12))
def test_random_bots_play_new_games_to_the_end_and_their_records_validate(seed):
    rng = random.Random(seed)
    position = notation.new("philosophy", color_in="Indiana", join_permitted="between_turns")
    while not position.is_over():
        moves = position.legal_moves
        assert moves and position.turn is not None
        position.push(rng.choice(moves))
    text = notation.format_record(GameNode.from_position(position, Event="bots"))
    outcome = notation.run(notation.parse(text, "philosophy")[0])
    assert outcome.valid and outcome.plies == position.ply
    assert '[ColorIn "Indiana"]' in text and '[JoinPermitted "between_turns"]' in text


def test_a_new_game_s_display_names_come_after_the_base_game_s_tags():
    record = PHIL.setup({"color_in": "Indiana Jones", "join_where": "after_a_full_turn",
                         "color_xy": 7})
    assert [(t.key, t.value) for t in record.tags] == [
        ("Game", "philosophy"), ("JoinWhere", "after_a_full_turn"),
        ("ColorIn", "Indiana Jones"), ("ColorXy", "7")]
    with pytest.raises(notation.Error, match="no option 'colour_in'; its options are color_xx,"):
        PHIL.setup({"colour_in": "Indiana"})


def test_placements_are_a_lazy_sequence_in_the_reference_order():
    position = play("In+ Te+ In:C1PuNo Te:C9ClSw")
    state = position.state
    naive = [Placement("In", space, tile, facing)
             for space in ("C2", "C3", "C4", "C5", "C6", "C7", "C8")
             for tile in TILE_CODES if tile in state.hands["In"]
             for facing in TILES[tile].facings]
    placements = legal.Placements(state)
    assert len(placements) == len(naive) == 7 * 11 * 4 and list(placements) == naive
    assert placements[-1] == naive[-1] and placements[5:9] == naive[5:9]
    with pytest.raises(IndexError):
        placements[len(naive)]


# -- illegal moves -----------------------------------------------------------------------------

@pytest.mark.parametrize("events, move", [
    ("In+ Te+", "In:C5PuNo"),      # the first placement is not on C5
    ("In+ Te+", "Te:C1PuNo"),      # not Te's turn
    ("In+", "In:C1PuNo"),          # two players first
    ("In+ Te+ In:C1PuNo", "Am+"),  # joining only before any placement
    ("In+ Te+", "In:C1PuNe"),      # a Push faces a cardinal direction
    ("In+ Te+", "C4"),             # no choice is open
])
def test_an_illegal_move_says_what_validate_says(events, move):
    position = play(events)
    before = PHIL.full_position(position.state)
    with pytest.raises(notation.IllegalMoveError) as caught:
        position.push(move)
    assert PHIL.full_position(position.state) == before
    written = '[Game "philosophy"]\n\n' + " ".join([*events.split(), move])
    outcome = notation.run(notation.parse(written, "philosophy")[0])
    assert str(caught.value) == outcome.error.describe()
    assert caught.value.rule == outcome.error.rule


# -- the generator -----------------------------------------------------------------------------

def test_random_games_are_legal_and_end_as_their_result_says():
    for seed in range(30):
        players = 2 + seed % 3
        record = random_record(PHIL, random.Random(seed), {"players": players})
        kinds = [type(event) for event in record.events[:players + 1]]
        assert kinds[:players] == [Join] * players and kinds[players] is not Join
        position = notation.Position.from_record(record, 0)
        for event in record.events:
            position.push(event)
        assert position.result().tags["Result"] == PHIL.result_tags(position.state)["Result"]


def test_placements_iterate_as_they_index():
    """``Placements.__iter__`` builds them straight: the same list, in the same order, as
    indexing one by one (the reference order the generator relies on)."""
    from notation.core import registry
    game = registry.get("philosophy")
    for seed in range(5):
        record = random_record(game, random.Random(seed), {})
        state = game.start(record)
        for event in record.events:
            placements = legal.Placements(state)
            assert list(placements) == [placements[i] for i in range(len(placements))]
            game.apply(state, event)


def test_a_state_repr_is_the_common_one():
    state = PhilosophyState()
    assert repr(state) == f"<philosophy position {state.position()!r}>"
