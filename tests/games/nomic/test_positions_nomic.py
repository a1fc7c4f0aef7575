"""Positions of the exploration nomic you can play: copies that share nothing, a
position notation that carries the whole game mechanics, legal moves at every kind
of point (rolls, reveals, proposals, votes, rulings, and with checks switched off),
event values, and the illegal-move text."""
from __future__ import annotations

import copy
import dataclasses
import random

import pytest

from notation.core.tree import GameNode
import notation
from notation.core.ast import EventNode, Tag
from notation.games.nomic import events as ev
from notation.games.nomic.legal import TEXT

from conftest import SAMPLES

NOMIC = notation.get_game("nomic")


def sample_records() -> list[notation.GameNode]:
    return [r for path in sorted((SAMPLES / "nomic").glob("*.nomic")) for r in notation.load(path)]


def mechanics(position: notation.Position) -> dict:
    """A state's ``replay --json`` object without what the position notation leaves out
    (free texts, rule histories)."""
    state = dict(NOMIC.state_json(position.state))
    state["rules"] = [{k: v for k, v in rule.items() if k not in ("text", "history")}
                      for rule in state["rules"]]
    return state


def at_ply(text: str, ply: int) -> notation.Position:
    record = notation.parse(text, game="nomic")[0]
    position = notation.Position.from_record(record, 0)
    for event in record.events[:ply]:
        position.push(event)
    return position


EX1 = (SAMPLES / "nomic" / "example-1.nomic").read_text()
EX2 = (SAMPLES / "nomic" / "example-2.nomic").read_text()


# -- copies ---------------------------------------------------------------------------------

def _spoil(value: object) -> None:
    """Change a mutable value in place, whatever it is."""
    if isinstance(value, list):
        value.append("spoilt")
    elif isinstance(value, dict):
        value.clear()
    elif hasattr(value, "__dict__"):
        for part in vars(value).values():
            _spoil(part)


@pytest.mark.parametrize("ply", [8, 25, 29, 47])
def test_a_copy_shares_no_mutable_part_with_its_state(ply):
    # Ply 25: an invocation answered, 29: votes in, 47: an amendment pending.
    state = at_ply(EX2, ply).state
    pristine = copy.deepcopy(state)
    other = NOMIC.copy(state)
    mutable = [name for name, value in vars(other).items()
               if isinstance(value, (list, dict)) or hasattr(value, "__dict__")]
    assert {"players", "revealed", "rules", "pending", "members", "taken", "votes"} <= set(mutable)
    for name in mutable:
        _spoil(getattr(other, name))
    for rule in NOMIC.copy(state).rules.values():  # a rule is a value: never changed in place
        with pytest.raises(dataclasses.FrozenInstanceError):
            rule.status = "spoilt"
        assert isinstance(rule.history, tuple)
    assert vars(state) == vars(pristine)
    assert all(vars(r) == vars(pristine.rules[n]) for n, r in state.rules.items())


def test_a_copy_shares_its_rules_and_a_change_replaces_one():
    """A copy (one at every push) makes no rule anew; a rule the game changes is replaced
    in the state that changes it, with its history one event longer."""
    state = at_ply(EX2, 19).state  # the amendment of 109 pending
    other = NOMIC.copy(state)
    assert all(other.rules[n] is rule for n, rule in state.rules.items())
    NOMIC.apply(state, NOMIC.read_event("TURN", "turn Aaron"))  # the amendment takes effect
    assert state.rules[109].amended and not other.rules[109].amended
    assert other.rules[109].history == ("amend adopted round 1 turn Dana",)
    assert state.rules[109].history == (*other.rules[109].history,
                                        "amend effective round 2 turn Aaron")
    assert all(other.rules[n] is rule for n, rule in state.rules.items() if n != 109)


def test_a_state_object_does_not_change_as_the_game_goes_on():
    # The replay's step objects were live: a rule's history list was shared with them.
    position = at_ply(EX1, 6)
    shown = NOMIC.state_json(position.state)
    before = copy.deepcopy(shown)
    for event in notation.parse(EX1, game="nomic")[0].events[6:]:
        position.push(event)
    assert shown == before


def test_pop_gives_back_rules_pending_changes_and_the_turn_exactly():
    position = at_ply(EX2, 19)  # round 2, Aaron joined, the amendment of 109 pending
    before = (position.position(), NOMIC.state_json(position.state))
    position.push("turn Aaron")  # the amendment takes effect: 109's checks switch off
    assert position.state.checks_off() == [109]
    position.push("roll 4 5")
    position.pop()
    position.pop()
    assert (position.position(), NOMIC.state_json(position.state)) == before
    assert position.state.pending and position.state.checks_off() == []


# -- the position notation ------------------------------------------------------------------

def test_every_position_of_the_samples_reads_back_with_its_mechanics():
    for record in sample_records():
        position = notation.Position.from_record(record, 0)
        for ply, event in enumerate([*record.events, None]):
            text = position.position()
            back = notation.from_position("nomic", text)
            assert back.position() == text, (record.source, ply)
            assert mechanics(back) == mechanics(position), (record.source, ply)
            assert back.legal_moves == position.legal_moves, (record.source, ply)
            assert back.turn == position.turn, (record.source, ply)
            if event is None:
                break
            position.push(event)


def test_a_position_read_back_plays_the_rest_of_the_game_identically():
    record = notation.parse(EX2, game="nomic")[0]
    events = record.events
    for ply in (0, 19, 20, 22, 25, 27, 30):
        original = notation.Position.from_record(record, 0)
        for event in events[:ply]:
            original.push(event)
        back = notation.from_position("nomic", original.position())
        for event in events[ply:]:
            original.push(event)
            back.push(event)
            assert back.position() == original.position(), (ply, str(event))
        assert mechanics(back) == mechanics(original)


def test_the_position_names_how_far_the_turn_has_come():
    assert at_ply(EX2, 0).position() == "before game; Bob@(0,0) Dana@(0,0); -; next 201"
    assert at_ply(EX2, 8).position() == (
        "round 1 turn Bob; Bob@(-2,0) Dana@(0,0); (-2,0)Water; next 202; rules 201p; "
        "roll 2; moved; proposal enact 201; votes Bob yes Dana yes")
    assert at_ply(EX2, 25).position().endswith(
        "next 203; rules 109e* 201e 202ej; roll 4 5; moved")
    assert at_ply(EX2, 4).position().endswith("next 201; roll 2; moved; due (-2,0)")
    assert at_ply(EX2, 47).position().endswith(
        "rules 109e* 201e 202rj 203f; pending amend 201; ended")


def test_the_four_part_notation_still_reads():
    state = NOMIC.read_position("round 2; Ann@(1,2) Bea@(0,0); (1,2)Food; next 203")
    assert state.round == 2 and state.current is None and state.phase == "between turns"
    assert notation.from_position("nomic", "round 2; Ann@(1,2) Bea@(0,0); (1,2)Food; next 203"
                                  ).legal_moves == [ev.Turn("Ann"), ev.End()]


@pytest.mark.parametrize("bad", [
    "round 1 turn Zed; Ann@(0,0); -; next 201",          # the label's player is no player
    "round 1; Ann@(0,0); -; next 201; roll 3",            # a roll outside a turn
    "round 1 turn Ann; Ann@(0,0); -; next 201; roll 7",   # 109 holds: one die 1..6
    "round 1 turn Ann; Ann@(0,0); -; next 201; roll 4 5",
    "round 1; Ann@(0,0); -; next 201; rules 201e",        # next number not above rule 201
    "round 1; Ann@(0,0); -; next 202; rules 201x",        # no such status
    "round 1; Ann@(0,0); -; next 202; rules 109ej",       # an Initial Set rule is no judgment
    "round 1; Ann@(0,0); -; next 202; rules 201e 201r",
    "round 1; Ann@(0,0); -; next 201; pending enact",
    "round 1; Ann@(0,0); -; next 201; ended; ended",
    "round 1; Ann@(0,0); -; next 201; moved now",
    "round 1; Ann@(0,0); -; next 201; colour blue",
    "round 1 turn Ann; Ann@(0,0); -; next 201; due (0,0)",
    "round 1; Ann@(0,0) ann@(1,1); -; next 201",
    "round 1; Ann@(10001,0); -; next 201",
    "round 1; Ann@(0,0); -",
])
def test_positions_that_are_no_state_are_refused(bad):
    with pytest.raises(notation.NotationError):
        NOMIC.read_position(bad)


# -- legal moves ----------------------------------------------------------------------------

def texts(position: notation.Position) -> list[str]:
    return [str(m) for m in position.legal_moves]


def test_legal_moves_at_each_kind_of_point():
    assert texts(at_ply(EX1, 0)) == ["round 1", "end"]
    assert texts(at_ply(EX1, 1)) == ["turn Alice", "end"]
    assert texts(at_ply(EX1, 2)) == [f"roll {d}" for d in range(1, 7)]  # a chance point
    destinations = at_ply(EX1, 3).legal_moves  # a roll of 3 from the origin
    assert len(destinations) == 12 and ev.Move(None, (2, 1)) in destinations
    assert texts(at_ply(EX1, 4)) == [f"reveal (2,1) {r}" for r in
                                     ("Wood", "Metal", "Water", "Food")]  # a chance point
    proposals = texts(at_ply(EX1, 5))
    assert proposals[0] == f'propose enact 201 "{TEXT}"'
    assert proposals[1:16] == [f"propose repeal {n}" for n in range(101, 116)]
    assert proposals[16:] == [f'propose amend {n} "{TEXT}"' for n in range(101, 116)]
    assert texts(at_ply(EX1, 7)) == ["vote Bob yes", "vote Bob no", "vote Carol yes",
                                     "vote Carol no"]
    assert texts(at_ply(EX1, 9)) == ["adopted"]
    assert texts(at_ply(EX1, 10)) == ["turn Bob", "end"]
    assert texts(at_ply(EX1, 29)) == ["round 2", "end"]
    assert texts(at_ply(EX1, 40)) == []


def test_once_109_changed_a_move_goes_as_far_as_the_dice_total():
    destinations = at_ply(EX2, 21).legal_moves  # roll 4 5 under the amended 109
    assert ev.Move(None, (4, 5)) in destinations and len(destinations) == 36
    assert all(abs(m.to[0]) + abs(m.to[1]) == 9 for m in destinations)


def test_turns_out_of_order_and_late_joiners_are_part_of_the_position():
    players = "Ann@(0,0) Bea@(0,0) Cid@(0,0)"
    position = notation.from_position(
        "nomic", f"round 1 turn Ann; {players}; -; next 201; rules 101r 102r 112r")
    assert texts(position)[-3:] == ["turn Bea", "round 2", "end"]  # 102 off: a round any time
    position.push("turn Cid")   # 102 is off: Bea is skipped for now
    position.push("join Abe")   # 101 is off: a join during the round
    text = position.position()
    assert text.endswith("rules 101r 102r 112r; order Ann Bea Cid; played Ann Cid")
    back = notation.from_position("nomic", text)
    assert back.position() == text and mechanics(back) == mechanics(position)
    assert texts(back)[-3:] == texts(position)[-3:] == ["turn Bea", "round 2", "end"]
    for later in ("turn Bea", "round 2", "turn Abe"):
        back.push(later)
        position.push(later)
        assert back.position() == position.position()


def test_a_ruling_is_offered_while_one_is_owed():
    position = at_ply(EX2, 24)  # Bob has just invoked judgment in Aaron's turn
    assert texts(position) == [f'propose enact 202 "{TEXT}"'] + texts(position)[1:-1] + [
        f'judgment 202 Dana "{TEXT}"']
    for event in ["propose enact 202 \"x\"", "vote Aaron yes", "vote Bob yes", "vote Dana yes",
                  "adopted"]:
        position.push(event)
    assert texts(position) == [f'judgment 203 Dana "{TEXT}"']  # the turn cannot end without it
    position.push(position.legal_moves[0])
    assert texts(position) == ["turn Bob", "end"]


def test_a_move_listed_with_the_placeholder_takes_any_text():
    position = at_ply(EX1, 5)
    enact = position.legal_moves[0]
    assert position.push(enact._replace(text="Players may trade.")).text == "Players may trade."


def test_turn_names_whose_turn_it_is():
    assert at_ply(EX1, 0).turn == "Alice"
    assert at_ply(EX1, 7).turn == "Alice"   # the votes of Alice's turn
    assert at_ply(EX1, 10).turn == "Bob"    # Alice's outcome is in: Bob's turn comes
    assert at_ply(EX2, 29).turn == "Aaron"  # the votes are in, the outcome is not
    assert at_ply(EX2, 30).turn == "Bob"
    assert at_ply(EX1, 40).turn is None     # ended


def walk(position: notation.Position, rng: random.Random, plies: int, end_after: int) -> None:
    """Push random listed moves, checking every listed move is legal and the position
    reads back the same; ``end`` only after ``end_after`` plies, then as soon as listed."""
    for _ in range(plies):
        back = notation.from_position("nomic", position.position())
        assert back.position() == position.position() and mechanics(back) == mechanics(position)
        if position.is_over():
            return
        moves = position.legal_moves
        assert moves and position.turn is not None, position.position()
        assert back.legal_moves == moves and back.turn == position.turn
        for move in moves:
            assert position.is_legal(move), (position.position(), str(move))
        if position.ply >= end_after and ev.End() in moves:
            position.push(ev.End())
            return
        choices = [m for m in moves if m != ev.End()] or moves
        position.push(rng.choice(choices))


@pytest.mark.parametrize("seed", range(6))
def test_new_games_played_with_listed_moves_to_their_end_are_valid_records(seed):
    position = notation.new("nomic", players="Ann Bea Cid")
    walk(position, random.Random(seed), 2000, end_after=150)
    assert position.is_over() and position.result().tags == {"Result": "*"}
    outcome = notation.run(notation.parse(notation.format_record(GameNode.from_position(position)), "nomic")[0])
    assert outcome.valid, outcome.error
    assert outcome.plies == position.ply


@pytest.mark.slow
@pytest.mark.parametrize("changed", ["102r", "103r", "106r", "108e* 109e*", "109r", "112r",
                                     "114r", "101r 102r 103r 106r 109r 112r 114r"])
def test_listed_moves_stay_legal_once_checks_are_off(changed):
    for label in ("round 1", "round 1 turn Bea"):
        start = notation.from_position(
            "nomic", f"{label}; Ann@(0,0) Bea@(0,0) Cid@(0,0); -; next 201; rules {changed}")
        for seed in range(3):
            position = start.copy()
            walk(position, random.Random(seed), 120, end_after=100)
            assert position.ply >= 100


# -- events ---------------------------------------------------------------------------------

ALL_KINDS = ["round 2", "join Aaron", "turn Bob", "roll 4 5", "move EEN", "move to (1,-2)",
             "move to (1,1) via NE", "reveal (-2,0) Water", 'propose enact 201 "A \\"new\\" rule"',
             "propose repeal 201", 'propose amend 109 "Two dice."', "vote Dana no", "adopted",
             "failed", 'invoke Bob "Is it?"', 'judgment 202 Dana "Yes."', 'note "x"', "end"]


@pytest.mark.parametrize("text", ALL_KINDS)
def test_every_event_kind_parses_writes_and_shows_itself(text):
    event = notation.parse_event("nomic", text)
    kind = type(event)
    assert getattr(notation.nomic, kind.__name__) is kind
    assert kind.parse(text) == event and str(event) == text
    assert repr(event) == f"{kind.__name__}({text!r})"


def test_parse_is_strict_about_kind_and_form():
    with pytest.raises(notation.NotationError, match="is a Roll, not a Vote"):
        ev.Vote.parse("roll 3")
    for bad in ("vote Bob maybe", "3. roll 3", "roll 3 end"):
        with pytest.raises(notation.NotationError):
            ev.Roll.parse(bad) if bad.split()[0] != "vote" else ev.Vote.parse(bad)
    assert ev.Roll.parse("roll 3") == ev.Roll((3,)) and ev.Roll((3,)) != ev.Roll((3, 1))


# -- illegal moves --------------------------------------------------------------------------

def validate_says(record_text: str, ply: int, event: str) -> str:
    record = notation.parse(record_text, game="nomic")[0]
    events = [*record.events[:ply], notation.parse_event("nomic", event)]
    written = GameNode("nomic", [t for t in record.tags if t.key != "Result"],
                     [EventNode(e) for e in events])
    outcome = notation.run(notation.parse(notation.format_record(written), "nomic")[0])
    assert not outcome.valid
    return outcome.error.describe()


@pytest.mark.parametrize("text, ply, event", [
    (EX1, 2, "roll 7"),
    (EX1, 3, "move to (2,2)"),
    (EX1, 4, "propose enact 201 \"x\""),
    (EX1, 5, "propose enact 205 \"x\""),
    (EX1, 7, "vote Zed yes"),
    (EX1, 9, "failed"),
    (EX1, 10, "turn Carol"),
    (EX2, 24, 'judgment 202 Bob "No."'),
    (EX2, 21, "join Erin"),
])
def test_an_illegal_move_says_what_validate_says(text, ply, event):
    position = at_ply(text, ply)
    before = (position.position(), NOMIC.state_json(position.state))
    assert not position.is_legal(event)
    with pytest.raises(notation.IllegalMoveError) as caught:
        position.push(event)
    assert str(caught.value) == validate_says(text, ply, event)
    assert caught.value.rule  # the error names the rule it breaks
    assert (position.position(), NOMIC.state_json(position.state)) == before


def test_options_of_a_new_game_are_its_tags():
    position = notation.new("nomic", players="Cid Ann")
    assert position.state.order() == ["Ann", "Cid"] and position.tags["Players"] == "Cid Ann"
    with pytest.raises(notation.Error, match="option players"):
        notation.new("nomic", players="Ann 9x")
    with pytest.raises(notation.Error, match="no option 'colour'"):
        notation.new("nomic", colour="red")


def test_events_of_two_types_with_equal_fields_are_not_equal():
    """``join Bob`` and ``turn Bob`` are both one name: as plain tuples they compared (and
    hashed) equal, so a merge could join them into one node."""
    join, turn = notation.nomic.Join.parse("join Bob"), notation.nomic.Turn.parse("turn Bob")
    assert join != turn and len({join, turn}) == 2
    assert join == notation.nomic.Join.parse("join  Bob") and repr(join) == "Join('join Bob')"
