"""Sanguine (rules file: sanguine.md): decks, the two worked examples, every rule and
error, views, perspective, random games."""
from __future__ import annotations

import json
import random
import re
import shutil
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import notation
import notation.games.sanguine.deck
from notation.core.errors import RuleError
from notation.core.limits import shorten
from notation.read.grammars import grammar_text, terminal_pattern
from notation.games.sanguine.deck import Card, DeckError, parse_deck
from notation.games.sanguine.events import Deal, Draw, Pass, Place, Result
from notation.core.new_games import random_record
from notation.games.sanguine.state import cell_token
from notation.games.sanguine.text import basic_view, full_view

from conftest import DATA, SAMPLES, invoke, run_cli

SANG = notation.get_game("sanguine")
DECKS = DATA / "sanguine"
VIEWS = json.loads((DECKS / "example-views.json").read_text())
SPARK = "Spark 1 1\nXXXXX\nXXIXX\nXICIX\nXXIXX\nXXXXX\n"
RIGHT = ("XXXXX", "XXXXX", "XXCIX", "XXXXX", "XXXXX")  # a grid: the cell to the right


def problems(text: str) -> list[tuple[int, str]]:
    with pytest.raises(DeckError) as info:
        parse_deck(text, "t.deck")
    return [(p.line, p.message) for p in info.value.problems]


# -- deck files (section 2) ------------------------------------------------------------------

def test_example_decks_parse():
    for name, size, designs in (("ember", 16, 8), ("tide", 15, 8), ("skirmish", 6, 6)):
        deck = notation.games.sanguine.deck.load_deck(str(DECKS / f"{name}.deck"))
        assert len(deck) == size and len(set(deck.cards)) == designs
    spark = parse_deck(SPARK).cards[0]
    assert spark == Card("Spark", 1, 1, ("XXXXX", "XXIXX", "XICIX", "XXIXX", "XXXXX"))
    assert spark.influences == ((-1, 0), (0, -1), (0, 1), (1, 0))


@pytest.mark.parametrize("text, expected", [
    (SPARK * 3, (13, "card Spark (cost 1, value 1) appears 3 times (lines 1, 7, 13); a deck may hold at most 2 copies")),
    ("Foo 1 1\nXXXXX\nXXCXX\nXXCXX\nXXXXX\nXXXXX\n", (1, "card Foo: the grid must contain exactly one C, at the centre")),
    ("Foo 1 1\nXXXXX\nXXXXX\nXXXXX\nXXXXX\nXXXXX\n", (1, "card Foo: the grid must contain exactly one C, at the centre")),
    ("Spark 4 1\nXXXXX\nXXIXX\nXICIX\nXXIXX\nXXXXX\n", (1, "cost must be 1, 2 or 3, got 4")),
    ("Spark 1 0\nXXXXX\nXXIXX\nXICIX\nXXIXX\nXXXXX\n", (1, "value must be a whole number of at least 1, got 0")),
    ("Spark 1 1\nXXIX\nXXIXX\nXICIX\nXXIXX\nXXXXX\n", (2, "grid row must be 5 characters from X, I, C: 'XXIX'")),
    ("Spark 1 1\nxxxxx\nXXIXX\nXICIX\nXXIXX\nXXXXX\n", (2, "grid row must be 5 characters from X, I, C: 'xxxxx'")),
    (SPARK + "Spark 1 2\nXXXXX\nXXIXX\nXICIX\nXXIXX\nXXXXX\n", (7, "card name Spark has two different definitions (lines 1 and 7)")),
    ("Spark 1 1\nXXXXX\nXXIXX\n", (1, "card Spark has 2 grid rows; 5 expected (the file ends inside the card)")),
    ("Spark 1 1\nXXXXX\n\nXXIXX\nXICIX\nXXIXX\nXXXXX\n", (3, "blank line inside card Spark: 5 grid rows expected")),
    ("# a comment\n" + SPARK, (1, "expected a card header NAME COST VALUE, got '# a comment'")),
])
def test_each_deck_error_has_its_message(text, expected):
    assert expected in problems(text)


def test_lenient_whitespace_and_blank_lines_between_cards():
    deck = parse_deck("\n  Spark 1 1  \r\nXXXXX\r\nXXIXX \nXICIX\nXXIXX\nXXXXX\n\n\n" + SPARK.rstrip("\n"))
    assert len(deck) == 2


card_st = st.builds(
    lambda name, cost, value, bits: Card(name, cost, value, tuple(
        "".join("C" if (i, j) == (2, 2) else "I" if bits >> (5 * i + j) & 1 else "X" for j in range(5))
        for i in range(5))),
    st.from_regex(r"[A-Za-z][A-Za-z0-9_!?'-]{0,8}", fullmatch=True), st.integers(1, 3),
    st.integers(1, 99), st.integers(0, 2**25 - 1))


@pytest.mark.slow
@given(st.lists(card_st, min_size=1, max_size=6, unique_by=lambda c: c.name))
def test_deck_format_then_parse_gives_the_same_cards(cards):
    deck = notation.games.sanguine.deck.Deck("x", cards)
    assert parse_deck(deck.text()).cards == cards


# -- the worked examples, turn by turn (sections 5 and 6) -------------------------------------

def views_after_each_turn(path):
    record = notation.load(path)[0]
    state = SANG.start(record)
    seen = {"Start": state.copy()}
    turn = 0
    for step in notation.replay(record):
        if isinstance(step.event, (Place, Pass)):
            turn += 1
            seen[f"T{turn}"] = step.state.copy()
    return seen, record


@pytest.mark.parametrize("example", ["example-1", "example-2"])
def test_worked_examples_reach_every_documented_board(example):
    states, record = views_after_each_turn(SAMPLES / "sanguine" / f"{example}.sanguine")
    for view in VIEWS[example]:
        state = states[view["label"]]
        assert basic_view(state).splitlines() == view["basic"], view["label"]
        cells = [" ".join(cell_token(c) for c in row) for row in state.board]
        assert cells == view["cells"], view["label"]
    out = notation.run(record)
    assert out.valid and out.state.over
    expected = {"example-1": ([9, 8], ["red"]), "example-2": ([5, 0], ["red"])}[example]
    assert (SANG.result_json(out.state)["scores"], SANG.result_json(out.state)["winners"]) == expected


def test_full_state_view_of_example_1_after_turn_7():
    states, _ = views_after_each_turn(SAMPLES / "sanguine" / "example-1.sanguine")
    assert full_view(states["T7"]).splitlines() == [
        "game sanguine 3x5 hand-size 3",
        "turn 8 to-move blue passes 0 status playing",
        "red  deck 9 hand Beacon Comet Forge",
        "blue deck 9 hand Drizzle Reef Undertow",
        "row 0: R:Torchbearer r1 b1 B:Surge B:Ripple | red 3 blue 5",
        "row 1: R:Spark R:Ember . . B:Current | red 3 blue 2",
        "row 2: R:Lantern r2 . b1 b1 | red 2 blue 0",
        "score red 5 blue 5",
    ]


# -- rules and their errors (section 7) ---------------------------------------------------------

def game(events: str, tmp_path, **tags) -> notation.Outcome:
    for name in ("ember", "tide", "skirmish"):
        shutil.copy(DECKS / f"{name}.deck", tmp_path / f"{name}.deck")
    head = {"Game": "Sanguine", "Rows": "3", "Cols": "5", "HandSize": "3",
            "RedDeck": "ember.deck", "BlueDeck": "tide.deck"}
    head.update(tags)
    text = "".join(f'[{k} "{v}"]\n' for k, v in head.items()) + "\n" + events + "\n"
    path = tmp_path / "g.sanguine"
    path.write_text(text)
    return notation.run(notation.load(path)[0])


START = "R deal Spark Lantern Forge\nB deal Ripple Current Surge\n"


@pytest.mark.parametrize("events, rule, words", [
    ("R draw Spark", "deal first", "both players are dealt before the first turn (red and blue not yet)"),
    (START + "R deal Spark Lantern Forge", "one deal each", "red has already been dealt"),
    (START + "R draw Torchbearer\nB deal Reef", "deal first", "deals come before the first turn"),
    ("R deal Spark Lantern", "hand size", "exactly 3 cards, got 2"),
    ("R deal Spark Spark Spark", "cards from the deck", "no Spark left"),
    ("R deal Spark Lantern Nova", "cards from the deck", "no card named Nova"),
    (START + "B draw Drizzle", "turn order", "out of turn: it is red's turn, line is for blue"),
    (START + "R place Spark (1,0)", "draw every turn", "red must draw first (deck has 13 cards)"),
    (START + "R draw Torchbearer\nR draw Beacon", "one draw a turn", "already drawn"),
    (START + "R draw Torchbearer\nR place Comet (1,0)", "card in hand", "red holds Forge Lantern Spark Torchbearer, not Comet"),
    (START + "R draw Torchbearer\nR place Spark (3,0)", "on the board", "position (3,0) is outside the 3x5 board (rows 0-2, columns 0-4)"),
    (START + "R draw Torchbearer\nR place Spark (1,2)", "own pawns", "(1,2) is empty"),
    (START + "R draw Torchbearer\nR place Spark (1,4)", "own pawns", "(1,4) holds blue pawns; red may only place on its own pawns"),
    (START + "R draw Torchbearer\nR place Forge (1,0)", "cost", "Forge costs 3 but (1,0) holds 1 red pawn"),
    (START + "R draw Torchbearer\nR place Spark (1,0)\nB draw Drizzle\nB place Current (1,4)\n"
     "R draw Beacon\nR place Lantern (1,0)", "own pawns", "(1,0) already holds a red card (Spark)"),
    (START + "R draw Torchbearer\nR pass\nB draw Drizzle\nB pass\nR draw Beacon", "game end", "the game has ended"),
    (START + "R draw Torchbearer\nR pass\nB draw Drizzle\nB pass\nresult 1-0 red", "result", "result says 1-0 red, computed 0-0 tie"),
    (START + "R draw Torchbearer\nR pass\nresult 0-0 tie", "result", "only after the game is over"),
])
def test_rule_violations(events, rule, words, tmp_path):
    out = game(events, tmp_path)
    assert not out.valid and out.error.kind == "rule" and out.error.rule == rule
    assert words in out.error.message


def test_file_order(tmp_path):
    ok = game("R deal Outrider Warden\nB deal Warden Outrider\nR draw Lancer", tmp_path,
              Rows="2", Cols="3", HandSize="2", RedDeck="skirmish.deck", BlueDeck="skirmish.deck",
              Order="file")
    assert ok.valid
    out = game("R deal Outrider Warden\nB deal Outrider Warden\nR draw Keep", tmp_path,
               Rows="2", Cols="3", HandSize="2", RedDeck="skirmish.deck",
               BlueDeck="skirmish.deck", Order="file")
    assert out.error.rule == "file order"
    assert 'Order "file": red\'s next card is Lancer, record says Keep' in out.error.message
    out = game("R deal Outrider Lancer", tmp_path, Rows="2", Cols="3", HandSize="2",
               RedDeck="skirmish.deck", BlueDeck="skirmish.deck", Order="file")
    assert out.error.rule == "file order"


def test_draw_from_an_empty_deck_is_refused():
    text = (SAMPLES / "sanguine" / "example-2.sanguine").read_text()
    bad = text.replace("R pass                  # Red's deck is empty", "R draw Scout\nR pass  #")
    out = notation.run(notation.parse(bad, source=str(SAMPLES / "sanguine" / "x.sanguine"))[0])
    assert out.error.rule == "draw every turn" and "red's deck is empty" in out.error.message


@pytest.mark.parametrize("tags, key, words", [
    ({"Cols": "4"}, "Cols", "Cols must be odd and at least 3, got 4"),
    ({"Rows": "0"}, "Rows", "Rows must be at least 1, got 0"),
    ({"Rows": "4"}, "RedDeck", "red deck has 16 cards; a 4x5 board needs at least 20"),
    ({"HandSize": "6"}, "HandSize", "HandSize 6 must be at least 1 and at most a third of the red deck (16 cards, max 5)"),
    ({"HandSize": "0"}, "HandSize", "at least 1"),
    ({"RedDeck": "missing.deck"}, "RedDeck", "cannot read"),
    ({"Order": "shuffled"}, "Order", '"recorded" or "file"'),
    ({"Result": "nine"}, "Result", "expected"),
    ({"Rows": "x"}, "Rows", "whole number"),
])
def test_setup_errors(tags, key, words, tmp_path):
    out = game(START, tmp_path, **tags)
    assert out.error.rule == f"tag {key}" and words in out.error.message and out.error.ply == 0


def test_bad_deck_file_is_reported_at_its_line(tmp_path):
    (tmp_path / "bad.deck").write_text(SPARK * 3)
    out = game(START, tmp_path, RedDeck="bad.deck")
    # The deck is named by the record: its place is given, its content never quoted.
    assert "red deck 'bad.deck' is not a valid deck (1 problem, line 13)" in out.error.message
    assert "notation deck check" in out.error.message and "Spark" not in out.error.message


def test_result_tag_must_match(tmp_path):
    events = START + "R draw Torchbearer\nR pass\nB draw Drizzle\nB pass"
    assert game(events, tmp_path, Result="0-0 tie").valid
    out = game(events, tmp_path, Result="1-0 red")
    assert out.error.rule == "Result tag" and 'ended "0-0 tie"' in out.error.message
    out = game(START, tmp_path, Result="1-0 red")
    assert "stops before the game is over" in out.error.message
    assert game(START, tmp_path, Result="*").valid
    # Rules 4.2 / 7.1.8: "*" says unfinished; a finished game tagged "*" does not match.
    out = game(events, tmp_path, Result="*")
    assert not out.valid and out.error.rule == "Result tag"
    assert 'the game is over: "0-0 tie"' in out.error.message


def test_influence_cap_conversion_mirroring_and_cards_immune(tmp_path):
    ex2 = notation.load(SAMPLES / "sanguine" / "example-2.sanguine")[0]
    states = {s.ply: s.state.copy() for s in notation.replay(ex2)}
    # T5: Red's Grapple hits (1,0) holding 3 red pawns: it stays 3 (the cap)
    assert states[12].board[1][0] == (0, 3)
    ex1 = notation.load(SAMPLES / "sanguine" / "example-1.sanguine")[0]
    states = {s.ply: s.state.copy() for s in notation.replay(ex1)}
    # T2: Blue's Current mirrors (-1,+1),(+1,+1) to the left: (0,3) and (2,3) get blue pawns
    assert states[6].board[0][3] == (1, 1) and states[6].board[2][3] == (1, 1)
    # T6: Blue's Surge converts red's pawn on (0,1), keeping its count
    assert states[14].board[0][1] == (1, 1)
    # T4: Ripple's influence on (1,4), which holds a card, does nothing
    assert states[10].board[1][4][1].name == "Current"


def test_inline_decks(tmp_path):
    ember = (DECKS / "ember.deck").read_text()
    tide = (DECKS / "tide.deck").read_text()
    text = ('[Game "Sanguine"]\n[Rows "3"]\n[Cols "5"]\n[HandSize "3"]\n[RedDeck "inline"]\n'
            f'[BlueDeck "inline"]\n\ndeck R\n{ember}enddeck\ndeck B\n{tide}enddeck\n{START}')
    out = notation.run(notation.parse(text)[0])
    assert out.valid and out.plies == 2
    bad = text.replace("deck B\n", "").replace(f"{tide}enddeck\n", "")
    assert "needs exactly one deck B block" in notation.run(notation.parse(bad)[0]).error.message


# -- records: grammar, views, perspective, random games ------------------------------------------

def test_malformed_lines_are_one_error_each(tmp_path):
    out = game(START + "R place Spark\nB pas", tmp_path)
    assert out.error.kind == "syntax" and "expected R place NAME (ROW,COL)" in out.error.message


events_st = st.one_of(
    st.builds(Deal, st.integers(0, 1), st.lists(st.sampled_from(["Spark", "pass", "Lantern", "x-1"]), min_size=1, max_size=4).map(tuple)),
    st.builds(Draw, st.integers(0, 1), st.sampled_from(["Spark", "draw", "Tsunami"])),
    st.builds(Place, st.integers(0, 1), st.sampled_from(["Spark", "place"]), st.integers(0, 9), st.integers(0, 9)),
    st.builds(Pass, st.integers(0, 1)),
    st.builds(Result, st.integers(0, 50), st.integers(0, 50), st.sampled_from(["red", "blue", "tie"])),
)


@pytest.mark.slow
@given(st.lists(events_st, max_size=8))
def test_record_format_then_parse_gives_the_same_events(events):
    text = notation.format_events(SANG, {"Game": "Sanguine"}, events)
    assert notation.parse(text)[0].events == events


def test_perspective_blue_round_trip(tmp_path):
    path = SAMPLES / "sanguine" / "example-1.sanguine"
    blue = invoke("convert", "--perspective", "blue", str(path)).output
    assert '[Perspective "blue"]' in blue and "R place Spark (1,4)" in blue
    (tmp_path / "decks").mkdir()
    for name in ("ember", "tide"):
        shutil.copy(DECKS / f"{name}.deck", tmp_path / "decks" / f"{name}.deck")
    conv = tmp_path / "blue.sanguine"
    conv.write_text(blue)
    a, b = notation.run(notation.load(path)[0]), notation.run(notation.load(conv)[0])
    assert b.valid and SANG.position(a.state) == SANG.position(b.state)
    back = invoke("convert", "--perspective", "red", str(conv)).output
    assert back == notation.format_record(notation.load(path)[0])


def test_views_in_the_cli():
    path = str(SAMPLES / "sanguine" / "example-1.sanguine")
    assert invoke("replay", "--view", "basic", "--ply", "0", path).output.endswith(
        "0 1___1 0\n0 1___1 0\n0 1___1 0\n")
    full = invoke("replay", path).output
    assert "result 9-8 red" in full and "row 2: R:Lantern R:Comet R:Spark R:Kindling B:Drizzle | red 6 blue 1" in full
    out = json.loads(invoke("replay", "--json", path).output)
    assert out["result"] == {"over": True, "scores": [9, 8], "winners": ["red"]}
    assert out["state"]["board"][1][0] == {"owner": "red", "card": "Spark"}
    assert out["state"]["row_scores"] == [[3, 8], [3, 2], [6, 1]]


def test_diff_shows_cells_hands_and_row_scores(tmp_path):
    path = str(SAMPLES / "sanguine" / "example-1.sanguine")
    assert invoke("diff", "--ply", "4", path, path).exit_code == 0
    (tmp_path / "decks").mkdir()
    for name in ("ember", "tide"):
        shutil.copy(DECKS / f"{name}.deck", tmp_path / "decks" / f"{name}.deck")
    other = tmp_path / "other.sanguine"
    other.write_text((SAMPLES / "sanguine" / "example-1.sanguine").read_text().replace(
        "R place Spark (1,0)", "R place Spark (0,0)"))
    result = invoke("diff", "--ply", "4", path, str(other))
    assert result.exit_code == 1
    assert "first difference at ply 4: R place Spark (1,0) | R place Spark (0,0)" in result.output
    assert "(1,0): R:Spark | r2" in result.output
    assert "row 1 scores: red 1 blue 0 | red 0 blue 0" in result.output
    assert "red hand: Forge Lantern Torchbearer | Forge Lantern Torchbearer" not in result.output


def test_deck_commands():
    result = invoke("deck", "check", str(DECKS / "ember.deck"), str(DECKS / "skirmish.deck"))
    assert result.exit_code == 0 and "ember.deck: ok, 16 cards (8 designs)" in result.output
    shown = invoke("deck", "show", str(DECKS / "skirmish.deck")).output
    assert "Outrider  cost 1  value 2\n  . . . . .\n  . . . . .\n  . . # * .\n  . . * . ." in shown
    mirrored = invoke("deck", "show", "--blue", str(DECKS / "skirmish.deck")).output
    assert "  . * # . ." in mirrored


def test_deck_check_reports_every_problem(tmp_path):
    bad = tmp_path / "bad.deck"
    bad.write_text(SPARK * 3 + "Foo 4 1\nXXXXX\nXXXXX\nXXCXX\nXXXXX\nXXXXX\n")
    result = invoke("deck", "check", str(bad))
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"{bad}:13:1: error: card Spark (cost 1, value 1) appears 3 times (lines 1, 7, 13); a deck may hold at most 2 copies",
        f"{bad}:19:1: error: cost must be 1, 2 or 3, got 4",
    ]
    assert invoke("deck", "check", str(tmp_path / "none.deck")).exit_code == 2


def test_random_games_replay_identically_in_library_and_cli(tmp_path):
    args = ["random", "sanguine", "--red", str(DECKS / "ember.deck"), "--blue", str(DECKS / "tide.deck"),
            "--rows", "3", "--cols", "5", "--seed", "3", "--count", "3"]
    text = invoke(*args).output
    assert text == invoke(*args).output  # the same seed, the same games
    path = tmp_path / "r.sanguine"
    path.write_text(text)
    outs = [json.loads(line) for line in run_cli("replay", "--json", str(path)).stdout.splitlines()]
    assert len(outs) == 3
    for rec, out in zip(notation.load(path), outs):
        lib = notation.run(rec)
        assert out["valid"] and out["result"]["over"] and out["plies"] == lib.plies
        assert out["position"] == SANG.position(lib.state)
        assert out["state"] == SANG.state_json(lib.state)
    assert invoke("random", "sanguine", "--red", "nosuch.deck").exit_code == 2


def test_legal_moves_after_a_draw():
    path = str(SAMPLES / "sanguine" / "example-1.sanguine")
    first = invoke("legal", "--ply", "2", path).output  # Red must draw: the cards left
    assert "red to move" in first and "R draw Beacon" in first
    after = invoke("legal", "--ply", "3", path).output  # after the draw: placements and pass
    assert "R place Spark (1,0)" in after and "R pass" in after and "R place Forge" not in after


def test_the_step_by_step_replay_runs_the_end_of_record_checks_too(tmp_path):
    game(START, tmp_path, Result="1-0 red")
    record = notation.load(tmp_path / "g.sanguine")[0]
    with pytest.raises(notation.ReplayError) as info:
        list(notation.replay(record))
    assert info.value.problem.rule == "Result tag"


def test_a_rejected_deal_takes_no_card(tmp_path):
    game("", tmp_path)
    record = notation.load(tmp_path / "g.sanguine")[0]
    state = SANG.start(record)
    before = (dict(state.left[0]), dict(state.hands[0]))
    with pytest.raises(RuleError):
        SANG.apply(state, Deal(0, ("Spark", "Lantern", "Nova")))  # the third is not in the deck
    assert (dict(state.left[0]), dict(state.hands[0])) == before and not state.dealt[0]


@pytest.mark.slow
@pytest.mark.parametrize("tags", ['[Cols "five"]\n', ""])
def test_convert_needs_a_readable_cols_tag(tmp_path, tags):
    path = tmp_path / "x.sanguine"
    path.write_text(f'[Game "Sanguine"]\n{tags}\nR pass\n')
    result = run_cli("convert", "--perspective", "blue", str(path))
    # A record with a problem is never converted: the problem is listed, exit 1.
    assert result.returncode == 1 and "tag is required" in result.stderr and result.stdout == ""
    assert "nothing was written" in result.stderr
    assert "internal error" not in result.stderr


# -- the notation's edges follow the rules file (issue: fidelity) ---------------------------

def test_result_line_ignores_blanks_between_its_tokens(tmp_path):
    events = START + "R draw Torchbearer\nR pass\nB draw Drizzle\nB pass\n"
    for line in ("result 0-0 tie", "result 0 - 0 tie", "result 0\t-  0   tie"):
        assert game(events + line, tmp_path).valid, line


@pytest.mark.parametrize("line, ply", [("R pass B pass", 4), ("R pass pass", 4),
                                       ("R draw Vale Vale", 3)])
def test_one_event_per_line(tmp_path, line, ply):
    events = START + "R draw Torchbearer\n" + line if line != "R draw Vale Vale" else START + line
    out = game(events, tmp_path)
    assert not out.valid and out.error.kind == "syntax" and out.error.ply == ply
    assert out.error.event == line  # the whole line, reported at the ply of its first event
    if line != "R draw Vale Vale":
        assert "more than one event" in out.error.message


def test_a_card_called_enddeck_does_not_end_an_inline_block(tmp_path):
    deck = (DECKS / "skirmish.deck").read_text()
    named = "enddeck 1 1\nXXXXX\nXXIXX\nXICIX\nXXIXX\nXXXXX\n" + deck
    text = ('[Game "Sanguine"]\n[Rows "1"]\n[Cols "3"]\n[HandSize "1"]\n[RedDeck "inline"]\n'
            '[BlueDeck "inline"]\n\ndeck R\n' + named + "enddeck\ndeck B\n" + deck + "enddeck\n")
    outcome = notation.run(notation.parse(text, "sanguine")[0])
    assert outcome.valid, outcome.error
    assert "enddeck" in outcome.state.left[0]
    unclosed = text.rsplit("enddeck", 1)[0]
    outcome = notation.run(notation.parse(unclosed, "sanguine")[0])
    assert not outcome.valid and "never closed" in outcome.error.message


# -- card names: any name a deck file can hold (rules 2.2 NAMECHAR, 4.6 CARD) ------------------

#: Names that begin with, or hold, the marks records use themselves (move annotations,
#: comments, tags): each is a card's name wherever a name stands.
MARKED = ["$5", "!x", "?", ";a", "{b}", "[c]", "a;b", "}", "$"]
PLUS = ("XXXXX", "XXIXX", "XICIX", "XXIXX", "XXXXX")


def marked_deck(names: list[str]) -> str:
    """Two copies of a plus-shaped card (cost 1, value 1) of each name."""
    return "".join(Card(name, 1, 1, PLUS).text() + "\n" for name in names for _ in range(2))


#: A 1x3 game with MARKED cards: deals, draws and placements of every kind of name.
MARKED_EVENTS = """R deal $5 !x
B deal ? ;a
R draw {b}
R place $5 (0,0)
B draw [c]
B place ? (0,2)
R draw a;b
R pass
B draw }
B place ;a (0,1)
R draw $
R pass
B draw $5
B pass
result 0-2 blue
"""


def marked_record(red: str, blue: str, decks: str = "") -> str:
    return (f'[Game "Sanguine"]\n[Rows "1"]\n[Cols "3"]\n[HandSize "2"]\n[RedDeck "{red}"]\n'
            f'[BlueDeck "{blue}"]\n[Result "0-2 blue"]\n\n{decks}{MARKED_EVENTS}')


@pytest.mark.slow
@pytest.mark.parametrize("where", ["inline", "file"])
def test_any_name_a_deck_can_hold_is_dealt_drawn_and_placed(tmp_path, where):
    """"$5" once read as a "$N" annotation, so a deck naming it was refused: every name
    a deck file holds is a card's name in a record, whatever its first character."""
    deck = marked_deck(MARKED)
    (tmp_path / "marked.deck").write_text(deck)
    if where == "inline":
        text = marked_record("inline", "inline", f"deck R\n{deck}enddeck\ndeck B\n{deck}enddeck\n")
    else:
        text = marked_record("marked.deck", "marked.deck")
    path = tmp_path / "marked.sanguine"
    path.write_text(text)
    (record,) = notation.load(path)
    assert [str(e) for e in record.events] == MARKED_EVENTS.splitlines()
    assert record.events[0] == Deal(0, ("$5", "!x")) and record.events[4] == Draw(1, "[c]")
    assert not [i for i in record.items if isinstance(i, notation.Comment)]
    assert all(not i.nags for i in record.items if isinstance(i, notation.EventNode))
    full = notation.run(record)
    assert full.valid, full.error
    assert full.state.hand(0) == ["!x", "$", "a;b", "{b}"] and full.state.hand(1) == ["$5", "[c]", "}"]
    assert full.state.board[0][2][1].name == "?" and full.state.board[0][1][1].name == ";a"
    # the fast path reads it too, to the same state; so do the command line and a position
    from notation.read.reading import source_records
    (fast,) = source_records(path, checked=True)
    assert fast.outcome is not None and fast.outcome.plies == full.plies == 15  # (valid)
    assert SANG.full_position(fast.outcome.state) == SANG.full_position(full.state)
    replayed = json.loads(run_cli("replay", "--json", str(path)).stdout)
    assert replayed["valid"] and replayed["state"] == SANG.state_json(full.state)
    end = notation.Position.from_record(record)
    assert notation.from_position("sanguine", end.position()).position() == end.position()
    checked = run_cli("deck", "check", str(tmp_path / "marked.deck"))
    assert checked.returncode == 0 and "ok, 18 cards (9 designs)" in checked.stdout
    written = notation.parse(notation.format_record(record), "sanguine", source=str(path))
    assert notation.run(written[0]).valid


def test_a_cards_name_is_one_terminal_in_both_grammars():
    """The deck grammar's CARD is the only spelling of a name: headers, draws and
    placements use it, and a deal's possessive repeat writes out its very class."""
    card = re.search(r"^CARD: /(.*)/$", grammar_text("sanguine_deck.lark"), re.M).group(1)
    records = grammar_text("sanguine.lark")
    assert "%import .sanguine_deck (CARD)" in records and not re.search(r"(?m)^CARD\b", records)
    for where, terminal in [("sanguine_deck.lark", "HEADER"), ("sanguine.lark", "DEAL"),
                            ("sanguine.lark", "DRAW"), ("sanguine.lark", "PLACE")]:
        assert card in terminal_pattern(where, terminal).pattern, terminal


def parts(line: str) -> tuple[list[str], list[tuple[int, ...]], list[str]]:
    """A body line's events, their annotations and the comments after them."""
    (record,) = notation.parse(f'[Game "Sanguine"]\n\n{line}\n', "sanguine")
    nodes = [i for i in record.items if isinstance(i, notation.EventNode)]
    return ([str(n.event) for n in nodes], [n.nags for n in nodes],
            [i.text for i in record.items if isinstance(i, notation.Comment)])


@pytest.mark.parametrize("line, events, nags, comments", [
    ("R draw $5 $5", ["R draw $5"], [(5,)], []),
    ("R draw $5", ["R draw $5"], [()], []),
    ("R draw !x !", ["R draw !x"], [(1,)], []),
    ("R draw x! !?", ["R draw x!"], [(5,)], []),
    ("R draw ;a ;a", ["R draw ;a"], [()], ["a"]),
    ("R draw a;b", ["R draw a;b"], [()], []),
    ("R draw {b} {b}", ["R draw {b}"], [()], ["b"]),
    ("R draw } # a", ["R draw }"], [()], [" a"]),
    ("R place $5 (0,0) $5", ["R place $5 (0,0)"], [(5,)], []),
    ("R place [c](0,0) ?", ["R place [c] (0,0)"], [(2,)], []),
    ("B place ? (0,2)!", [], [], []),  # after a placement too, a blank comes first
    # a deal's names run to the end of the line or a "#" (rules 4.6)
    ("R deal $5 !x", ["R deal $5 !x"], [()], []),
    ("R deal A ;b {c} $ ! $7 # d", ["R deal A ;b {c} $ ! $7"], [()], [" d"]),
    ("R deal A B\n!? $7\n{c}", ["R deal A B"], [(5, 7)], ["c"]),
])
def test_an_annotation_or_a_comment_follows_only_a_complete_event(line, events, nags, comments):
    assert parts(line) == (events, nags, comments)


@pytest.mark.parametrize("line", ["R deal A B (", "R deal A ;b,c", "R draw {b} c", "R draw a;b(",
                                  "R place {b}", "R place ;a (0,0) x ;y"])
def test_a_line_with_a_name_in_it_that_is_no_event_is_one_error(tmp_path, line):
    out = game(START + line, tmp_path)
    assert not out.valid and len(out.problems) == 1 and out.error.kind == "syntax"
    expected = line if line != "R place ;a (0,0) x ;y" else "R place ;a (0,0) x"
    assert out.error.event == expected, out.error
    verb = line.split()[1]
    assert f"is not a {verb} line" in out.error.message


def test_fmt_writes_a_deals_annotations_and_comments_on_the_lines_after_it():
    """Nothing but a "#" comment may follow a deal on its line: a ";" or a "{" there
    would be read back as a card's name."""
    text = marked_record("inline", "inline", f"deck R\n{marked_deck(MARKED)}enddeck\n"
                         f"deck B\n{marked_deck(MARKED)}enddeck\n")
    text = text.replace("R deal $5 !x\n", "R deal $5 !x # kept\n!? $7 {after the deal}\n; and this\n")
    (record,) = notation.parse(text, "sanguine")
    written = notation.format_record(record)
    body = written.split("enddeck\n")[-1].splitlines()
    assert body[:4] == ["R deal $5 !x", "!? $7 # kept", "{after the deal} ; and this",
                        "B deal ? ;a"]
    plain = notation.format_record(notation.parse(text.replace("!? $7 {after the deal}\n; and this\n",
                                                        ""), "sanguine")[0])
    assert "\nR deal $5 !x # kept\nB deal ? ;a\n" in plain  # a "#" comment stays on the line
    (again,) = notation.parse(written, "sanguine")
    assert notation.run(again).valid and again.events == record.events
    assert [i.nags for i in again.items if isinstance(i, notation.EventNode)][0] == (5, 7)
    assert notation.format_record(again) == written


@pytest.mark.slow
@pytest.mark.parametrize("option", ["red", "blue"])
def test_random_games_write_any_name_and_read_it_back(tmp_path, option):
    deck = tmp_path / "marked.deck"
    deck.write_text(marked_deck(MARKED))
    result = run_cli("random", "sanguine", f"--{option}", str(deck), "--rows", "1", "--cols", "3",
                     "--seed", "5", "--count", "3")
    assert result.returncode == 0, result.stderr
    path = tmp_path / "r.sanguine"
    path.write_text(result.stdout)
    outs = [json.loads(line) for line in run_cli("replay", "--json", str(path)).stdout.splitlines()]
    assert len(outs) == 3 and all(out["valid"] for out in outs)
    played = {e.card for r in notation.load(path) for e in r.events if isinstance(e, (Draw, Place))}
    assert played & set(MARKED)


card_names = st.text(st.one_of(st.sampled_from(list("$!?;{}[]%/\\'<&")),
                               st.characters(blacklist_categories=("Cs",),
                                             blacklist_characters='#"(),')
                               .filter(lambda c: not c.isspace())), min_size=1, max_size=5)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.lists(card_names, min_size=3, max_size=8, unique=True), st.integers(0, 2**32),
       st.sampled_from(["inline", "file"]))
def test_generated_names_play_alike_on_the_full_and_fast_paths(tmp_path_factory, names, seed,
                                                              where):
    """Names drawn from the deck format's alphabet (rules 2.2: anything but blanks and
    # " ( ) ,), a deck of them, a random game on it: written, then read by the full parse
    and the fast path to the same state, its position read back, its deck checked clean."""
    folder = tmp_path_factory.mktemp("names")
    cards = [Card(name, 1, 1 + i % 3, PLUS if i % 2 else RIGHT)
             for i, name in enumerate(names)] * 2
    deck = notation.games.sanguine.deck.Deck("x", cards)
    assert [c.name for c in parse_deck(deck.text()).cards] == names * 2
    (folder / "n.deck").write_text(deck.text(), encoding="utf-8")
    record = random_record("sanguine", random.Random(seed),
                           {"red": str(folder / "n.deck"), "blue": str(folder / "n.deck"),
                            "rows": 1, "cols": 3})
    text = notation.format_record(record)
    if where == "file":  # the same game naming the deck file
        text = re.sub(r"(?s)\ndeck R\n.*?\nenddeck\ndeck B\n.*?\nenddeck\n", "\n", text)
        text = text.replace('Deck "inline"', 'Deck "n.deck"')
    path = folder / "g.sanguine"
    path.write_text(text, encoding="utf-8")
    (full,) = notation.load(path)
    assert full.events == record.events
    outcome = notation.run(full)
    assert outcome.valid, outcome.error
    from notation.read.reading import source_records
    (fast,) = source_records(path, checked=True)
    assert fast.outcome is not None, "a well-formed game takes the fast path"
    assert fast.outcome.plies == outcome.plies
    assert SANG.full_position(fast.outcome.state) == SANG.full_position(outcome.state)
    assert SANG.state_json(fast.outcome.state) == SANG.state_json(outcome.state)
    for event in record.events:  # each event's text, read alone, is the event
        assert type(event).parse(str(event)) == event
    end = notation.Position.from_record(full)
    assert notation.from_position("sanguine", end.position()).position() == end.position()


#: Names made of the marks records use (move annotations, comments, tags), in the order
#: the cards of a game are first met; none holds "/", "%" or ",", so a position's cell
#: is the name as written.
WEIRD = [mark + suffix for suffix in ("", "1", "!", "$2") for mark in "$!?;{}[]"]


def renamed_case(record: notation.GameNode, folder, index: int) -> tuple[dict[str, str], list,
                                                                        list[str]]:
    """``record``'s game with every card renamed: its two decks as files in ``folder``
    (``red-N.deck``, ``blue-N.deck``), the names' map, its events and its tag lines."""
    from notation.games.sanguine import rules
    decks = [rules.record_deck(record, side) for side in (0, 1)]
    names: dict[str, str] = {}
    for card in decks[0].cards + decks[1].cards:
        names.setdefault(card.name, WEIRD[len(names)])
    for side, deck in zip(("red", "blue"), decks):
        renamed = [Card(names[c.name], c.cost, c.value, c.grid) for c in deck.cards]
        (folder / f"{side}-{index}.deck").write_text("".join(c.text() + "\n" for c in renamed))

    def rename(event):
        if isinstance(event, Deal):
            return Deal(event.side, tuple(names[n] for n in event.cards))
        if isinstance(event, (Draw, Place)):
            return event._replace(card=names[event.card])
        return event

    tags = {**{t.key: t.value for t in record.tags if t.key not in ("Result", "Seed")},
            "RedDeck": f"red-{index}.deck", "BlueDeck": f"blue-{index}.deck"}
    return names, [rename(e) for e in record.events], [f'[{k} "{v}"]' for k, v in tags.items()]


def renamed_view(names: dict[str, str], state) -> dict:
    """What ``replay --json`` says of ``state`` (a game of the original names) once its
    cards are renamed: hands sorted again, cells holding the new names."""
    view = SANG.state_json(state)
    for row in view["board"]:
        for cell in row:
            if cell and "card" in cell:
                cell["card"] = names[cell["card"]]
    view["hands"] = {side: sorted(names[n] for n in hand) for side, hand in view["hands"].items()}
    cells = [[f"{c[:2]}{names[c[2:]]}" if c[:2] in ("R:", "B:") else c for c in row.split(",")]
             for row in SANG.position(state).split(" ")[0].split("/")]
    rest = SANG.position(state).split(" ", 1)[1]
    return {"state": view, "position": "/".join(",".join(row) for row in cells) + " " + rest}


def test_games_with_renamed_cards_replay_alike_in_the_cross_check_shape(tmp_path):
    """The shape of the reference cases (shared/tools/crosscheck.py): every prefix of each
    game a record of its own, every other one numbered, decks in files beside the record,
    one multi-game file through ``replay --json``; here each sample game's cards are
    renamed to names that begin with "$", "!", "?", ";", "{", "}", "[" or "]". Each
    state must be the original's, renamed; an illegal event is refused at its ply."""
    cases, texts = [], []
    for number, sample in enumerate(("example-1", "example-2", "random-5x7")):
        record = notation.load(SAMPLES / "sanguine" / f"{sample}.sanguine")[0]
        names, events, head = renamed_case(record, tmp_path, number)
        states = [step.state.copy() for step in notation.replay(record)]
        for k in range(1, len(events) + 1):
            lines = [f"{i + 1}. {e}" if k % 2 else str(e) for i, e in enumerate(events[:k])]
            texts.append("\n".join([*head, "", *lines]) + "\n")
            cases.append((k, renamed_view(names, states[k - 1])))
        for k in (3, 8, 15):  # a card the deck does not hold, then one not in the hand
            side = states[k - 1].to_move
            bad = Draw(side, "$404") if states[k - 1].draw_due() else Place(side, "$404", 0, 0)
            texts.append("\n".join([*head, "", *map(str, events[:k]), str(bad)]) + "\n")
            cases.append((k + 1, None))
    path = tmp_path / "crosscheck.sanguine"
    path.write_text("\n".join(texts))
    result = run_cli("replay", "--json", str(path))
    assert "Traceback" not in result.stderr
    outs = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(outs) == len(cases) > 80
    for (ply, expected), out in zip(cases, outs):
        if expected is None:
            assert not out["valid"] and out["error"]["ply"] == ply, out["error"]
            assert "$404" in out["error"]["message"]
            continue
        assert out["valid"] and out["plies"] == ply, out["error"]
        assert {"state": out["state"], "position": out["position"]} == expected, ply


# -- card values: any positive integer (rules 1.1), up to 1,000 digits ---------------------------

BIG = 10 ** 20


def big_example_2(value: int, result: int | str) -> str:
    """Example 2 (section 6) with both decks inline and Red's Outrider worth ``value``;
    ``result``: Red's total as the record says it (Blue scores 0)."""
    skirmish = (DECKS / "skirmish.deck").read_text()
    red = skirmish.replace("Outrider 1 2\n", f"Outrider 1 {value}\n")
    head, events = (SAMPLES / "sanguine" / "example-2.sanguine").read_text().split("\n\n", 1)
    head = head.replace("decks/skirmish.deck", "inline")
    events = events.replace("result 5-0 red", f"result {result}-0 red")
    return (f'{head}\n[Result "{result}-0 red"]\n\ndeck R\n{red}enddeck\n'
            f"deck B\n{skirmish}enddeck\n{events}")


def test_a_card_worth_ten_to_the_twentieth_scores_exactly(tmp_path):
    """Red's row 0 holds Outrider (10**20) and Lancer (3): 10**20 + 3, which a float
    would round to 10**20."""
    card = parse_deck(SPARK.replace("Spark 1 1", f"Spark 1 {BIG}")).cards[0]
    assert card.value == BIG
    red = BIG + 3
    path = tmp_path / "big.sanguine"
    path.write_text(big_example_2(BIG, red))
    outcome = notation.run(notation.load(path)[0])
    assert outcome.valid, outcome.error
    assert SANG.result_json(outcome.state) == {"over": True, "scores": [red, 0],
                                               "winners": ["red"]}
    full = full_view(outcome.state).splitlines()
    assert f"row 0: R:Outrider R:Lancer B:Lancer | red {red} blue 3" in full
    assert f"score red {red} blue 0" in full and f"result {red}-0 red" in full
    assert basic_view(outcome.state).splitlines()[0] == f"{red} RRB 3"
    picture = str(SANG.drawing(outcome.state))
    assert f">{BIG}<" in picture and f">{red}<" in picture and f"game over: {red}-0 red" in picture
    replayed = json.loads(invoke("replay", "--json", str(path)).output)
    assert replayed["result"]["scores"] == [red, 0]
    assert replayed["state"]["row_scores"] == [[red, 3], [3, 3]]
    wrong = notation.run(notation.parse(big_example_2(BIG, BIG))[0])
    assert wrong.error.message == (f"result says {BIG}-0 red, computed {red}-0 red")


def test_card_values_have_at_most_a_thousand_digits(tmp_path):
    widest = int("9" * 1000)
    assert parse_deck(SPARK.replace("Spark 1 1", f"Spark 1 {widest}")).cards[0].value == widest
    too_long = "1" * 1001
    message = ("value must be a whole number of at least 1 and at most 1,000 digits, got "
               f"{shorten(too_long)}")
    assert message.endswith("...(1,001 characters)")
    assert problems(SPARK.replace("Spark 1 1", f"Spark 1 {too_long}")) == [(1, message)]
    (tmp_path / "x.deck").write_text(SPARK.replace("Spark 1 1", f"Spark 1 {too_long}"))
    result = run_cli("deck", "check", str(tmp_path / "x.deck"))
    assert result.returncode == 1 and message in result.stdout and "Traceback" not in result.stderr
    # A score is a sum of such values: a result line may be a little longer, no more.
    out = notation.run(notation.parse(big_example_2(widest, widest + 3))[0])
    assert out.valid and SANG.result_json(out.state)["scores"] == [widest + 3, 0]
    out = notation.run(notation.parse(big_example_2(widest, "1" * 1019))[0])
    assert "red score 1111" in out.error.message and "(at most 1,018 digits)" in out.error.message


def _deck_cpu(text: str) -> float:
    """CPU seconds to read a deck, valid or not: the least of three reads (each of a new
    text, so that no cache answers)."""
    best = float("inf")
    for trial in range(3):
        began = time.process_time()
        try:
            parse_deck(text + "\n" * (trial + 1))
        except DeckError:
            pass
        best = min(best, time.process_time() - began)
    return best


def _wide_deck(cards: int) -> str:
    """``cards`` cards (two copies of each design), each worth a number of 1,000 digits."""
    return "".join(SPARK.replace("Spark 1 1", f"S{i // 2} 1 {'7' * 1000}") for i in range(cards))


@pytest.mark.slow
def test_card_values_are_read_in_linear_time():
    """Four times the cards of 1,000 digits, or a value four times as long (refused):
    about four times the time (quadratic: 16)."""
    assert len(parse_deck(_wide_deck(8))) == 8
    small, large = _deck_cpu(_wide_deck(200)), _deck_cpu(_wide_deck(800))
    assert large / small < 8, f"{small:.3f} s for 200 cards, {large:.3f} s for 800"
    small, large = (_deck_cpu(SPARK.replace("Spark 1 1", f"Spark 1 {'7' * size}"))
                    for size in (1 << 20, 1 << 22))
    assert large / small < 8, f"{small:.3f} s for a value of 1 M digits, {large:.3f} s for 4 M"


@pytest.mark.parametrize("passes", ["\u00b2", "9" * 5000])
def test_a_position_with_a_strange_pass_count_is_a_usage_error(passes):
    """Unicode digits and 5,000 digits once ended in an internal error (int() refused them)."""
    result = run_cli("diff", "--position", "--game", "sanguine", f"r1,.,b1 red {passes}",
                     "r1,.,b1 red 0")
    assert result.returncode == 2 and "bad position" in result.stderr
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr


# -- the game as its parts ---------------------------------------------------------------------

def test_the_game_is_its_parts_and_words_its_refusals_as_ever():
    """Sanguine is the parts of its modules (pictures, conversions and scores, no board
    symmetries nor coordinates); a terminal the grammar has not is refused in the core's
    one way, by one token's reading and by a reader alike."""
    assert SANG.capabilities() == ["pictures", "conversion", "scores"]
    assert SANG.winner_names == ("red", "blue") and not SANG.compact_is_full and SANG.counts_time
    with pytest.raises(notation.Error, match="^sanguine has no event terminal NOPE$"):
        SANG.read_event("NOPE", "R pass")
    with pytest.raises(notation.Error, match="^sanguine has no event terminal NOPE$"):
        SANG.event_reader("NOPE")("R pass")
    state = SANG.start(notation.GameNode.from_position(notation.new("sanguine", seed=1)))
    with pytest.raises(notation.Error, match=r"legal moves take no options \(tile\)"):
        SANG.legal_moves(state, tile=1)
    with pytest.raises(notation.Error, match="--view basic or --view full"):
        SANG.render(state, view="wide")
    with pytest.raises(notation.Error, match="--perspective red or blue"):
        SANG.drawing(state, perspective="green")
