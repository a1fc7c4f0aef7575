"""Sanguine positions: new games from decks and a seed, chance points (deals and draws),
copies that share nothing a rule changes, and a position notation that holds everything
a game needs to go on (hands, decks, card definitions, the step of the turn)."""
from __future__ import annotations

import random
from collections import Counter
from copy import deepcopy
from itertools import combinations

import pytest

import notation
from notation.games.sanguine import rules as chance_points
from notation.games.sanguine.deck import Card, load_deck, parse_deck
from notation.games.sanguine.events import Deal, Draw, Pass, Place, Result

from conftest import SAMPLES

GAME = notation.get_game("sanguine")
DECKS = SAMPLES / "sanguine" / "decks"
SAMPLE_FILES = ("example-1", "example-2", "random-5x7")
OPTIONS = {"rows": 3, "cols": 5, "hand_size": 3, "red_deck": DECKS / "ember.deck",
           "blue_deck": DECKS / "tide.deck"}


def sample(name: str) -> notation.GameNode:
    return notation.load(SAMPLES / "sanguine" / f"{name}.sanguine")[0]


def snapshot(position: notation.Position) -> tuple[str, object, list[str]]:
    return (position.position(), GAME.state_json(position.state),
            [str(m) for m in position.legal_moves])


def validates(setup: notation.GameNode, events: list) -> notation.Outcome:
    """``events`` written after the tags and inline decks of ``setup``, then validated."""
    record = notation.GameNode("sanguine", setup.tags,
                             [*setup.items, *(notation.EventNode(e) for e in events)])
    return notation.run(notation.parse(notation.format_record(record), "sanguine")[0])


# -- event values ----------------------------------------------------------------------------

@pytest.mark.parametrize("kind, text, value", [
    (Deal, "R deal Spark Lantern Forge", Deal(0, ("Spark", "Lantern", "Forge"))),
    (Draw, "B draw Tsunami", Draw(1, "Tsunami")),
    (Place, "R place Spark (1,0)", Place(0, "Spark", 1, 0)),
    (Pass, "B pass", Pass(1)),
    (Result, "result 9-8 red", Result(9, 8, "red")),
])
def test_each_event_reads_writes_and_shows_its_line(kind, text, value):
    assert kind.parse(text) == value and kind.parse(f"  {text} ") == value
    assert str(value) == text and repr(value) == f"{kind.__name__}({text!r})"
    assert getattr(notation.sanguine, kind.__name__) is kind


@pytest.mark.parametrize("kind, text", [(Draw, "R pass"), (Pass, "R draw Spark"),
                                        (Place, "R place Spark"), (Deal, "R deal"),
                                        (Result, "result 1-2"), (Pass, "R pass B pass")])
def test_an_event_type_reads_only_a_line_of_its_own_kind(kind, text):
    with pytest.raises(notation.NotationError):
        kind.parse(text)


# -- copies ------------------------------------------------------------------------------------

def mid_game() -> notation.Position:
    """Example 1 after 9 plies: cards on the board, in hands and left in decks."""
    position = notation.Position.from_record(sample("example-1"), 0)
    for event in sample("example-1").events[:9]:
        position.push(event)
    return position


@pytest.mark.parametrize("change", [
    lambda s: s.board[0].__setitem__(1, (1, 3)),
    lambda s: s.hands[0].update(["Forge"]),
    lambda s: s.left[1].subtract(["Reef"]),
    lambda s: s.taken.__setitem__(0, 9),
    lambda s: s.dealt.__setitem__(1, False),
    lambda s: setattr(s, "to_move", 1 - s.to_move),
    lambda s: setattr(s, "turn", 99),
    lambda s: setattr(s, "drawn", not s.drawn),
    lambda s: setattr(s, "passes", 1),
    lambda s: setattr(s, "over", True),
    lambda s: setattr(s, "result_written", True),
], ids=["board", "hands", "decks left", "taken", "dealt", "to move", "turn", "drawn",
        "passes", "over", "result written"])
def test_a_copy_shares_no_part_a_rule_changes(change):
    state = mid_game().state
    before = (GAME.position(state), GAME.state_json(state), deepcopy(vars(state)))
    other = GAME.copy(state)
    assert vars(other) == before[2]
    change(other)
    assert vars(other) != before[2]  # the change took
    assert (GAME.position(state), GAME.state_json(state), vars(state)) == before


@pytest.mark.parametrize("name", SAMPLE_FILES)
def test_pop_gives_back_every_earlier_position_exactly(name):
    record = sample(name)
    position = notation.Position.from_record(record, 0)
    seen = [snapshot(position)]
    for event in record.events:
        position.push(event)
        seen.append(snapshot(position))
    while position.ply:
        position.pop()
        assert snapshot(position) == seen[position.ply]


# -- the position notation ---------------------------------------------------------------------

@pytest.mark.parametrize("name", SAMPLE_FILES)
def test_a_position_read_back_at_any_ply_goes_on_to_the_same_end(name):
    record = sample(name)
    events = record.events
    position = notation.Position.from_record(record, 0)
    end = snapshot(notation.Position.from_record(record))
    for ply in range(len(events) + 1):
        text = position.position()
        copy = notation.from_position("sanguine", text)
        assert copy.position() == text and snapshot(copy) == snapshot(position), ply
        for event in events[ply:]:
            copy.push(event)
        assert snapshot(copy) == end, ply
        if ply < len(events):
            position.push(events[ply])


def test_the_position_says_everything_the_turn_depends_on():
    record = sample("example-1")
    position = notation.Position.from_record(record, 0)
    fields = position.position().split(" ")
    assert fields[1:8] == ["red", "0", "1", "deal", "3", "recorded", "red"]
    assert fields[8] == "[]" and fields[11] == "[]"  # nobody dealt yet
    assert fields[10].startswith("[Spark(1,1,XXXXX/XXIXX/XICIX/XXIXX/XXXXX),Lantern(1,2,")
    steps = []
    for event in record.events:
        position.push(event)
        steps.append(position.position().split(" ")[4])
    assert steps[:6] == ["deal", "draw", "act", "draw", "act", "draw"]
    assert steps[-2:] == ["over", "result"]
    after_deals = notation.Position.from_record(record, 0)
    for event in record.events[:2]:
        after_deals.push(event)
    fields = after_deals.position().split(" ")
    assert fields[8] == "[Forge,Lantern,Spark]" and fields[11] == "[Current,Ripple,Surge]"
    assert fields[9].count(",") + 1 == 13 and fields[12].count(",") + 1 == 12


def test_file_order_decks_are_written_in_the_order_they_come():
    position = notation.Position.from_record(sample("example-2"), 0)
    fields = position.position().split(" ")
    assert fields[6] == "file"
    assert fields[9] == "[Outrider,Warden,Lancer,Grapple,Keep,Scout]"
    copy = notation.from_position("sanguine", position.position())
    assert [str(m) for m in copy.game.legal_moves(copy.state)] == [
        "R deal Outrider Warden", "B deal Outrider Warden"]  # (a record may deal either first)


def test_a_blue_perspective_position_keeps_its_columns():
    blue = GAME.convert(sample("example-1"), perspective="blue")
    blue.source = str(SAMPLES / "sanguine" / "example-1.sanguine")  # its decks lie there
    events = blue.events
    position = notation.Position.from_record(blue, 0)
    for event in events[:7]:  # up to Red's draw of turn 3
        position.push(event)
    copy = notation.from_position("sanguine", position.position())
    assert position.position().split(" ")[7] == "blue" and str(events[7]) == (
        "R place Torchbearer (0,4)")  # (0,0) seen from Blue's side
    assert str(events[7]) in [str(m) for m in copy.legal_moves]
    for event in events[7:]:
        copy.push(event)
    assert copy.position() == notation.Position.from_record(blue).position()


def test_card_names_with_slashes_and_percent_signs_survive_the_notation():
    text = load_deck(str(DECKS / "skirmish.deck")).text()
    text = text.replace("Outrider", "Out/rider").replace("Warden", "50%2F")
    setup = notation.GameNode(GAME, *GAME.setup({"rows": 2, "cols": 3, "hand_size": 2, "red_deck": text,
                        "blue_deck": text, "order": "file"}))
    position = notation.Position(GAME, GAME.start(setup), setup.headers)
    for event in ["R deal Out/rider 50%2F", "B deal Out/rider 50%2F", "R draw Lancer",
                  "R place Out/rider (0,0)"]:
        position.push(event)
        text = position.position()
        assert "Out%2Frider" in text and "50%252F" in text and "Out/rider" not in text
        assert snapshot(notation.from_position("sanguine", text)) == snapshot(position)


def test_the_short_form_is_still_a_board_to_diff():
    state = GAME.read_position("r1,.,b1/R:Spark,.,b2 blue 1")
    assert GAME.position(state) == "r1,.,b1/R:Spark,.,b2 blue 1"
    assert GAME.cells(state)["(1,0)"] == "R:Spark"


@pytest.mark.parametrize("change, words", [
    (lambda f: f[:5], "has 14 fields"),
    (lambda f: f[:4] + ["deal?"] + f[5:], "STEP must be"),
    (lambda f: f[:3] + ["0"] + f[4:], "TURN must be"),
    (lambda f: f[:5] + ["0"] + f[6:], "HAND-SIZE must be"),
    (lambda f: f[:6] + ["shuffled"] + f[7:], "ORDER is recorded or file"),
    (lambda f: f[:1] + ["-"] + f[2:], "go together"),
    (lambda f: f[:8] + ["Spark"] + f[9:], "in brackets"),
    (lambda f: f[:8] + ["[Nothing]"] + f[9:], "do not define"),
    (lambda f: f[:8] + ["[50%]"] + f[9:], "%25"),
    (lambda f: f[:10] + [f[10].replace("Spark(1,1,", "Spark(4,1,", 1)] + f[11:], "cost"),
    (lambda f: f[:10] + [f[10].replace("XICIX", "XIIIX", 1)] + f[11:], "C"),
    (lambda f: f[:10] + [f[10].replace("Lantern", "Spark", 1)] + f[11:], "twice"),
    (lambda f: [f[0].replace("r2", "R:Nobody", 1)] + f[1:], "CARDS have no Nobody"),
])
def test_a_broken_position_is_refused_saying_why(change, words):
    fields = mid_game().position().split(" ")
    with pytest.raises(notation.NotationError, match=words):
        notation.from_position("sanguine", " ".join(change(fields)))


# -- chance points -----------------------------------------------------------------------------

def test_before_the_first_turn_every_deal_of_each_side_is_legal():
    position = notation.Position.from_record(sample("example-1"), 0)
    moves = position.legal_moves()  # (what a record may write: either side's deal first)
    ember = [c.name for c in load_deck(str(DECKS / "ember.deck")).cards]
    hands = {tuple(sorted(h)) for h in combinations(ember, 3)}
    red = [m for m in moves if m.side == 0]
    assert [m.cards for m in red] == sorted(hands)  # each hand once, names and hands sorted
    assert all(isinstance(m, Deal) for m in moves) and len(moves) == len(red) + 105
    assert position.turn == "red" and position.is_legal("B deal Surge Surge Mist")
    position.push("R deal Spark Lantern Forge")
    assert position.turn == "blue" and {m.side for m in position.legal_moves} == {1}


def test_a_due_draw_offers_each_card_left_or_the_next_of_the_file():
    position = notation.Position.from_record(sample("example-1"), 0)
    for event in sample("example-1").events[:2]:
        position.push(event)
    assert [str(m) for m in position.legal_moves] == [
        "R draw Beacon", "R draw Comet", "R draw Ember", "R draw Forge", "R draw Kindling",
        "R draw Lantern", "R draw Spark", "R draw Torchbearer"]
    in_file_order = notation.Position.from_record(sample("example-2"), 0)
    for event in sample("example-2").events[:2]:
        in_file_order.push(event)
    assert [str(m) for m in in_file_order.legal_moves] == ["R draw Lancer"]


def test_deals_too_many_to_list_are_refused_not_listed():
    assert chance_points.deal_count([2] * 8, 3) == 112 and chance_points.deal_count([1, 1], 3) == 0
    big = "".join(f"C{i} 1 1\nXXXXX\nXXXXX\nXXCXX\nXXXXX\nXXXXX\n" for i in range(90))
    position = notation.new("sanguine", rows=3, cols=5, hand_size=30, red_deck=big,
                            blue_deck=big)
    with pytest.raises(notation.NotationError, match="too many to list"):
        position.legal_moves()
    position.push("R deal " + " ".join(f"C{i}" for i in range(30)))
    seeded = notation.new("sanguine", rows=3, cols=5, hand_size=30, red_deck=big,
                          blue_deck=big, seed=1)
    assert len(seeded.legal_moves()) == 2 and len(seeded.legal_moves) == 1  # (chance: Red's)


# -- new games ---------------------------------------------------------------------------------

def test_a_seed_shuffles_both_decks_and_the_game_follows_them():
    position = notation.new("sanguine", **OPTIONS, seed=7)
    rng = random.Random(7)
    order = []
    for deck in ("ember", "tide"):
        cards = [c.name for c in load_deck(str(DECKS / f"{deck}.deck")).cards]
        rng.shuffle(cards)
        order.append(cards)
    assert [str(m) for m in position.legal_moves()] == [
        "R deal " + " ".join(order[0][:3]), "B deal " + " ".join(order[1][:3])]
    assert position.tags["Order"] == "file" and position.tags["Seed"] == "7"
    for move in position.legal_moves():
        position.push(move)
    assert [str(m) for m in position.legal_moves] == [f"R draw {order[0][3]}"]
    again = notation.new("sanguine", **OPTIONS, seed="7")
    assert again.position() == notation.new("sanguine", **OPTIONS, seed=7).position()
    others = {notation.new("sanguine", **OPTIONS, seed=s).position() for s in range(5)}
    assert len(others) > 1


def test_a_new_game_played_out_validates_with_its_inline_decks():
    for seed in (None, 3):
        options = dict(OPTIONS) if seed is None else {**OPTIONS, "seed": seed}
        position = notation.new("sanguine", **options)
        rng = random.Random(seed)
        while not position.is_over():
            position.push(rng.choice(position.legal_moves))
        setup = notation.GameNode(GAME, *GAME.setup(options))
        assert setup.headers["RedDeck"] == "inline"
        outcome = validates(setup, position.moves)
        assert outcome.valid and outcome.plies == position.ply
        assert GAME.result_tags(outcome.state) == position.result().tags


@pytest.mark.parametrize("value", [
    DECKS / "ember.deck", str(DECKS / "ember.deck"), "ember",
    (DECKS / "ember.deck").read_text(), load_deck(str(DECKS / "ember.deck")),
    list(load_deck(str(DECKS / "ember.deck")).cards),
], ids=["path", "path text", "bundled name", "deck text", "Deck", "cards"])
def test_a_deck_option_takes_any_form_of_a_deck(value):
    position = notation.new("sanguine", rows=3, cols=5, red_deck=value, blue_deck="tide")
    assert position.position() == notation.new("sanguine", **OPTIONS).position()


def test_new_game_defaults_are_those_of_random_games():
    position = notation.new("sanguine")
    assert (position.state.rows, position.state.cols, position.state.hand_size) == (5, 7, 3)
    assert len(position.state.cards[0]) == len(load_deck(str(DECKS / "legion.deck")).by_name())


@pytest.mark.parametrize("options, words", [
    ({"sed": 1}, "no option 'sed'; its options are .*seed"),
    ({"seed": 1, "order": "recorded"}, "a seed fixes the order"),
    ({"seed": 1.5}, "whole number or a text"),
    ({"red_deck": 7}, "option red_deck: a deck file's path"),
    ({"blue_deck": "nosuch.deck"}, "option blue_deck: .*nosuch.deck"),
    ({"red_deck": "Spark 4 1\nXXXXX\nXXXXX\nXXCXX\nXXXXX\nXXXXX\n"},
     "option red_deck: .*cost must be 1, 2 or 3"),
    ({"red_deck": [Card("a,b", 1, 1, ("XXXXX", "XXXXX", "XXCXX", "XXXXX", "XXXXX"))]},
     "option red_deck: .*expected a card header NAME COST VALUE, got 'a,b 1 1'"),
    ({"rows": 9}, "option red_deck: red deck has 36 cards; a 9x7 board needs at least 63"),
])
def test_bad_options_are_refused_naming_the_option(options, words):
    with pytest.raises(notation.Error, match=words):
        notation.new("sanguine", **options)


def test_a_position_plays_and_writes_cards_named_with_the_records_marks():
    """Names beginning with "$", "!", "?", ";", "{" or "[" (once refused): pushed as text
    and as events, listed as legal moves, written in the position and the record."""
    marked = ["$5", "!x", "?", ";a", "{b}", "[c]", "a;b", "}", "$"]
    cards = [Card(name, 1, 1, ("XXXXX", "XXIXX", "XICIX", "XXIXX", "XXXXX")) for name in marked]
    position = notation.new("sanguine", rows=1, cols=3, hand_size=2, red_deck=cards * 2,
                            blue_deck=cards * 2)
    assert position.push("R deal $5 !x") == Deal(0, ("$5", "!x"))
    position.push(Deal(1, ("?", ";a")))
    assert position.push("R draw {b}") == Draw(0, "{b}")
    assert "R place $5 (0,0)" in [str(m) for m in position.legal_moves]
    position.push("R place $5 (0,0)")
    assert notation.from_position("sanguine", position.position()).position() == position.position()
    text = notation.format_record(notation.GameNode.from_position(position))
    assert "\nR deal $5 !x\nB deal ? ;a\nR draw {b}\nR place $5 (0,0)\n" in text
    outcome = notation.run(notation.parse(text, "sanguine")[0])
    assert outcome.valid and GAME.position(outcome.state) == GAME.position(position.state)


# -- illegal moves -----------------------------------------------------------------------------

@pytest.mark.parametrize("ply, move, words", [
    (0, "R deal Spark Lantern", "must be dealt exactly 3 cards"),
    (0, "R deal Tsunami Spark Forge", "no card named Tsunami"),
    (2, "R draw Tsunami", "no card named Tsunami"),
    (2, "B draw Reef", "out of turn"),
    (3, "R place Forge (1,0)", "costs 3"),
    (3, "R place Spark (3,0)", "outside the 3x5 board"),
    (32, "R pass", "the game has ended"),
    (32, "result 8-9 blue", "computed 9-8 red"),
])
def test_an_illegal_move_says_what_validate_says(ply, move, words):
    record = sample("example-1")
    position = notation.Position.from_record(record, 0)
    for event in record.events[:ply]:
        position.push(event)
    before = snapshot(position)
    with pytest.raises(notation.IllegalMoveError) as caught:
        position.push(move)
    assert words in str(caught.value) and snapshot(position) == before
    events = [*record.events[:ply], GAME.read_event(_kind(move), move)]
    tags = {k: v for k, v in record.headers.items() if k != "Result"}
    text = notation.format_record(notation.GameNode("sanguine", [notation.Tag(k, v) for k, v in
                                                               tags.items()],
                                                  [notation.EventNode(e) for e in events]))
    outcome = notation.run(notation.parse(text, "sanguine", source=record.source)[0])
    assert str(caught.value) == outcome.error.describe()


def _kind(text: str) -> str:
    return "RESULT" if text.startswith("result") else text.split()[1].upper()


def test_deals_and_draws_remove_what_they_take_and_pop_puts_it_back():
    position = notation.Position.from_record(sample("example-1"), 0)
    left = Counter(position.state.left[0])
    position.push("R deal Spark Spark Forge")
    assert position.state.left[0] == left - Counter(["Spark", "Spark", "Forge"])
    assert "R deal" not in " ".join(str(m) for m in position.legal_moves)
    position.pop()
    assert position.state.left[0] == left and not position.state.dealt[0]
    assert parse_deck((DECKS / "ember.deck").read_text()).by_name().keys() == left.keys()
