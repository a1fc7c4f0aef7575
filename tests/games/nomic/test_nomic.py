"""The exploration nomic (rules file: nomic.md): the worked examples, every check and
its switch-off, the notation, random games."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from notation.core.tree import GameNode
import notation
from notation.core.ast import Tag
from notation.read.grammars import terminal_pattern
from notation.games.nomic import events as ev

from conftest import SAMPLES, invoke, run_cli

NOMIC = notation.get_game("nomic")
EX1 = (SAMPLES / "nomic" / "example-1.nomic").read_text()
EX2 = (SAMPLES / "nomic" / "example-2.nomic").read_text()


def run(text: str):
    return notation.run(notation.parse(text, game="nomic")[0])


def altered(text: str, old: str, new: str) -> notation.Problem:
    assert old in text
    out = run(text.replace(old, new, 1))
    assert not out.valid
    return out.error


def test_example_1_final_state():
    out = run(EX1)
    assert out.valid and out.plies == 40
    s = out.state
    assert s.players == {"Carol": (1, 1), "Alice": (2, 0), "Bob": (-2, -3)}
    assert s.order() == ["Alice", "Bob", "Carol"]  # alphabetical, not tag order
    assert s.revealed == {(2, 1): "Wood", (-2, -3): "Metal", (1, 1): "Water", (2, 0): "Food"}
    assert [(n, s.rules[n].status) for n in (201, 202, 203)] == [
        (201, "repealed"), (202, "failed"), (203, "adopted, pending")]
    assert s.counter == 204 and s.pending == [("enact", 203, s.rules[203].text)]
    assert all(s.rules[n].in_effect for n in range(101, 116)) and s.checks_off() == []


def test_example_1_step_by_step_effects():
    record = notation.parse(EX1, game="nomic")[0]
    states = {step.ply: NOMIC.copy(step.state) for step in notation.replay(record)}
    assert states[10].rules[201].status == "adopted, pending"  # adopted: not in effect yet
    assert not states[10].rules[201].in_effect
    assert states[11].rules[201].in_effect  # turn Bob: in effect
    assert states[29].rules[201].in_effect  # repeal adopted, still in effect this turn
    assert not states[31].rules[201].in_effect  # next turn: repealed
    assert (1, 0) not in states[5].revealed and (2, 0) not in states[5].revealed  # passed through


def test_example_2_final_state_and_switched_off_checks():
    out = run(EX2)
    assert out.valid and out.plies == 47
    s = out.state
    assert s.players == {"Dana": (0, 0), "Bob": (-3, -3), "Aaron": (4, 5)}
    assert s.revealed == {(-2, 0): "Water", (-3, -3): "Food", (4, 5): "Metal"}
    assert s.rules[109].amended and s.rules[109].in_effect and s.checks_off() == [109]
    assert s.rules[202].origin == "judgment" and s.rules[202].status == "repealed"
    assert s.rules[203].status == "failed" and s.counter == 204
    assert s.pending[0][:2] == ("amend", 201)
    assert "checks off: 109 (amended)" in NOMIC.render(s)


# The altered records of the rules file's section 6, each with the error it must give.
@pytest.mark.parametrize("old, new, rule, words", [
    ('judgment 202 Dana', 'judgment 202 Bob', "114",
     "the judge for Aaron's turn is Dana (the player before Aaron in turn order), not Bob"),
    ('judgment 202 Dana', 'judgment 203 Dana', "114", "next rule number is 202, not 203"),
    ('move SSSW\n', 'move SSSW\nreveal (-3,-3) Food\n', "106", "(-3,-3) is already known (Food); nothing to reveal"),
    ('roll 2\nmove WW', 'roll 4 5\nmove WW', "109", "exactly one die value 1..6 expected"),
    ('roll 2\nmove WW', 'roll 2\nmove ENW', "108", "path goes back on itself (E then W)"),
    ('turn Aaron\n', 'turn Aaron\njoin Erin\n', "101.2", "players may join only before the game begins or at the start of a round"),
    ('join Aaron\nturn Aaron', 'join Aaron\nturn Dana', "102.2", "next turn belongs to Aaron (alphabetical order)"),
    ('vote Aaron no\nvote Bob yes\nvote Dana yes\nfailed', 'vote Aaron no\nvote Bob yes\nfailed', "112.4", "no vote from Dana"),
    ('vote Aaron no\nvote Bob yes\nvote Dana yes\nfailed', 'vote Aaron no\nvote Bob yes\nvote Dana yes\nadopted', "112.3", "not unanimous, the proposal fails"),
    ('propose repeal 202', 'propose repeal 203', "112", "rule 203 is not in effect; only rules in effect can be repealed or amended"),
])
def test_the_documented_errors(old, new, rule, words):
    problem = altered(EX2, old, new)
    assert problem.kind == "rule" and problem.rule == rule and words in problem.message


def test_roll_and_destination_are_checked_while_109_is_untouched():
    problem = altered(EX1, "roll 3\nmove EEN", "roll 3\nmove to (2,2)")
    assert problem.message == "rule 109: destination (2,2) is 4 away from (0,0), roll was 3"
    assert altered(EX1, "roll 3\n", "roll 7\n").rule == "109"


@pytest.mark.parametrize("old, new, rule, words", [
    ("round 2\n", "round 3\n", "102", "round 2 comes next, not round 3"),
    ("turn Carol\n", "round 2\nturn Carol\n", "102", "round 1 is not complete: Carol has not had a turn"),
    ("move EEN\nreveal (2,1) Wood\n", "move EEN\n", "106", "its reveal comes right after the move, before 'propose"),
    ("reveal (2,1) Wood", "reveal (2,0) Wood", "106", "the space landed on is (2,1), not (2,0)"),
    ("move to (1,1) via NE", "move to (1,2) via NE", "108", "ends at (1,1), not (1,2)"),
    ('propose enact 201 ', 'propose enact 205 ', "112.2", "next rule number is 201, not 205"),
    ("vote Carol yes\nadopted\nturn Bob", "vote Carol yes\nvote Carol yes\nadopted\nturn Bob", "112.4", "Carol has already voted"),
    ("vote Carol yes\nadopted\nturn Bob", "vote Carol yes\nvote Zed yes\nadopted\nturn Bob", "112.4", "Zed is not a player"),
    ("adopted\nturn Bob", "turn Bob", "112", "Alice's turn is not complete before 'turn Bob': the outcome (adopted or failed) missing"),
    ("roll 3\nmove EEN", "move EEN", "109", "roll before moving"),
    ("vote Alice yes\nvote Bob yes\nvote Carol yes\nadopted\nturn Bob", "vote Alice yes\nvote Bob yes\nvote Carol yes\nfailed\nturn Bob", "112.3", "the vote is unanimous, the proposal is adopted"),
    ("end\n", "end\nround 3\n", "end", "nothing may follow"),
    ('turn Alice\nroll 3', 'turn Alice\ninvoke Bob "?"\njudgment 201 Bob "x"\nroll 3', "114",
     "the judge for Alice's turn is Carol (the player before Alice in turn order), not Bob"),
])
def test_more_checks(old, new, rule, words):
    problem = altered(EX1, old, new)
    assert problem.rule == rule and words in problem.message


def test_judge_wraps_around_and_judgments_take_effect_at_once():
    out = run(EX2.split("propose enact 203")[0])
    assert out.valid and out.state.rules[202].in_effect  # no vote, no waiting


def test_invocation_needs_a_ruling_before_the_turn_moves_on():
    text = EX1.replace("turn Bob\n", 'invoke Bob "?"\nturn Bob\n', 1)
    assert "no ruling yet" in run(text).error.message


def test_joiners_start_at_the_origin_and_take_a_turn_in_order():
    out = run(EX2.split("turn Aaron")[0])
    assert out.state.players["Aaron"] == (0, 0) and out.state.next_turn() == "Aaron"


def test_bad_lines_and_tags():
    out = run('[Game "Nomic"]\n[Players "Al"]\nround 1\nturn Al\nroll three\n')
    assert out.error.kind == "syntax" and "expected roll D [D ...]" in out.error.message
    # a roll whose last die is broken is one bad line, not "roll 3" and a stray "4x"
    out = run('[Game "Nomic"]\n[Players "Al"]\nround 1\nturn Al\nroll 3 4x\n')
    assert [(p.column, p.event, p.message) for p in out.problems] == [
        (1, "roll 3 4x", "'roll 3 4x' is not a roll line; expected roll D [D ...]")]
    out = run('[Game "Nomic"]\n[Players "Al al"]\n')
    assert out.error.rule == "tag Players" and "named twice" in out.error.message
    out = run('[Game "Nomic"]\n[Ruleset "Suber"]\n')
    assert out.error.rule == "tag Ruleset"


texts = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=20)
names = st.from_regex(r"[A-Za-z][A-Za-z0-9_-]{0,6}", fullmatch=True).filter(
    lambda n: n not in ("to", "yes", "no"))
coords = st.tuples(st.integers(-9, 9), st.integers(-9, 9))
events_st = st.one_of(
    st.builds(ev.Round, st.integers(1, 9)), st.builds(ev.Join, names), st.builds(ev.Turn, names),
    st.builds(ev.Roll, st.lists(st.integers(1, 6), min_size=1, max_size=3).map(tuple)),
    st.builds(ev.Move, st.from_regex(r"[NESW]{1,6}", fullmatch=True), st.none()),
    st.builds(ev.Move, st.none() | st.from_regex(r"[NESW]{1,6}", fullmatch=True), coords),
    st.builds(ev.Reveal, coords, st.sampled_from(["Wood", "Metal", "Water", "Food"])),
    st.builds(ev.Propose, st.sampled_from(["enact", "amend"]), st.integers(101, 300), texts),
    st.builds(lambda n: ev.Propose("repeal", n), st.integers(101, 300)),
    st.builds(ev.Vote, names, st.booleans()), st.builds(ev.Outcome, st.booleans()),
    st.builds(ev.Invoke, names, texts), st.builds(ev.Judgment, st.integers(201, 300), names, texts),
    st.builds(ev.Note, texts), st.just(ev.End()),
)


@pytest.mark.parametrize("text, event", [
    ("round 12", ev.Round(12)), ("join Zo_e-2", ev.Join("Zo_e-2")), ("turn Bob", ev.Turn("Bob")),
    ("roll 3", ev.Roll((3,))), ("roll\t4  -5", ev.Roll((4, -5))), ("move NNE", ev.Move("NNE", None)),
    ("move to( -1 , 2 )", ev.Move(None, (-1, 2))), ("move to (0,-3) via SWS", ev.Move("SWS", (0, -3))),
    ("reveal(4,5)  Metal", ev.Reveal((4, 5), "Metal")),
    ('propose enact 201 "a \\"b\\" \\\\ c\\nd"', ev.Propose("enact", 201, 'a "b" \\ c\nd')),
    ('propose amend 109 ""', ev.Propose("amend", 109, "")), ("propose repeal 7", ev.Propose("repeal", 7)),
    ("vote Al no", ev.Vote("Al", False)), ("failed", ev.Outcome(False)), ("adopted", ev.Outcome(True)),
    ('invoke Bo "why?"', ev.Invoke("Bo", "why?")), ('judgment 202 Dana "r"', ev.Judgment(202, "Dana", "r")),
    ('note "x  y"', ev.Note("x  y")), ("end", ev.End()),
])
def test_each_event_is_read_from_its_terminals_groups(text, event):
    [record] = notation.parse('[Game "Nomic"]\n\n' + text + "\n", game="nomic")
    assert record.events == [event] and type(record.events[0]) is type(event)
    kind = "END_EVENT" if isinstance(event, ev.End) else type(event).__name__.upper()
    assert ev.read(kind, text) == event


def test_bad_line_words_are_the_words_of_events_with_a_form():
    bad_line = terminal_pattern(ev.GRAMMAR, "BAD_LINE")
    for word, form in ev.FORMS.items():
        assert (bad_line.match(word + " ?") is not None) == (form is not None), word
    assert NOMIC.diagnose("roll x") == "'roll x' is not a roll line; expected roll D [D ...]"
    assert NOMIC.diagnose("end x").endswith("(round, join, turn, roll, move, reveal, propose, "
                                            "vote, adopted, failed, invoke, judgment, note, end)")
    with pytest.raises(notation.NotationError, match="not a vote line"):
        NOMIC.read_event("VOTE", "vote Al maybe")


def test_positions_read_back_and_show_in_the_repr():
    state = run(EX1).state
    text = NOMIC.position(state)
    again = NOMIC.read_position(text)
    assert NOMIC.position(again) == text and again.players == state.players
    assert repr(again) == f"<nomic position {text!r}>"
    copy = NOMIC.copy(state)
    copy.players["Alice"] = (9, 9)
    copy.rules[201] = copy.rules[201].changed("x")
    assert state.players["Alice"] == (2, 0) and "x" not in state.rules[201].history
    for bad in ("r; 9A@(1,2); -; next 1", "r; A@(1, 2); -; next 1", "r; A@(1,2); (1,2)wood; next 1",
                "r; A@(1,2); -; next -1", "r; a@b@(1,2); -; next 1"):
        with pytest.raises(notation.NotationError):
            NOMIC.read_position(bad)


@pytest.mark.slow
@given(st.lists(events_st, max_size=10))
def test_format_then_parse_gives_the_same_events(events):
    text = notation.format_events(NOMIC, {"Game": "Nomic"}, events)
    assert notation.parse(text)[0].events == events


def test_random_games_replay_identically_in_library_and_cli(tmp_path):
    path = tmp_path / "r.nomic"
    path.write_text(invoke("random", "nomic", "--players", "3", "--seed", "5", "--count", "3").output)
    outs = [json.loads(line) for line in run_cli("replay", "--json", str(path)).stdout.splitlines()]
    assert len(outs) == 3
    for rec, out in zip(notation.load(path), outs):
        lib = notation.run(rec)
        assert out["valid"], out["error"]
        assert out["plies"] == lib.plies and out["state"] == NOMIC.state_json(lib.state)
        assert out["position"] == NOMIC.position(lib.state)


@pytest.mark.parametrize("seed", range(8))
def test_random_games_are_valid(seed):
    tags = NOMIC.random_tags({"players": 1 + seed % 4})
    events = NOMIC.random_events(random.Random(seed), GameNode("nomic", [Tag(k, v) for k, v in tags.items()]))
    text = notation.format_events(NOMIC, tags, events)
    assert run(text).valid


def test_legal_options_and_json():
    path = SAMPLES / "nomic" / "example-1.nomic"
    after_roll = invoke("legal", "--ply", "3", str(path)).output  # Alice rolled 3
    assert after_roll.count("move to") == 12 and "move to (2,1)" in after_roll
    votes = invoke("legal", "--ply", "7", str(path)).output
    assert "vote Bob yes" in votes and "vote Alice" not in votes
    state = json.loads(invoke("replay", "--json", str(path)).output)["state"]
    assert state["next_rule_number"] == 204 and state["players"][0] == {"name": "Alice", "at": [2, 0]}
    assert {"number": 201, "status": "repealed"}.items() <= state["rules"][15].items()


def test_diff_shows_moves_reveals_and_rule_changes(tmp_path):
    other = tmp_path / "o.nomic"
    other.write_text(EX1.replace("reveal (2,0) Food", "reveal (2,0) Water"))
    result = invoke("diff", str(SAMPLES / "nomic" / "example-1.nomic"), str(other))
    assert result.exit_code == 1 and "space (2,0): Food | Water" in result.output


def test_a_repealed_rule_switches_its_checks_off():
    # Repeal 102 in Carol's turn (round 1). It takes effect as the next turn begins
    # (Alice, round 2, still chosen under 102); after that turns need not be alphabetical.
    head = EX1.split("propose enact 203")[0].replace("propose repeal 201", "propose repeal 102")
    votes = "vote Alice yes\nvote Bob yes\nvote Carol yes\n"
    text = (head + 'propose enact 203 "x"\n' + votes + "adopted\n"
            + "turn Carol\nroll 1\nmove N\nreveal (1,2) Food\n")
    out = run(text)
    assert out.valid, out.error
    assert out.state.checks_off() == [102] and not out.state.rules[102].in_effect
    assert "checks off: 102 (repealed)" in NOMIC.render(out.state)
    # while 102 is in effect the same out-of-order turn is refused
    problem = altered(EX1, "adopted\nend", "adopted\nturn Carol\nend")
    assert problem.rule == "102.2" and "next turn belongs to Bob" in problem.message


# -- every check of a changed rule switches off together (issue: fidelity) -----------------

def changed(*rules: int, amend: bool = False) -> str:
    """A two-player game in which Ann's first turn changes ``rules``; Bea moves next."""
    lines = ['[Game "Nomic"]', '[Players "Ann Bea"]', "", "round 1", "turn Ann", "roll 1",
             "move E", "reveal (1,0) Wood"]
    assert len(rules) == 1
    rule = rules[0]
    lines.append(f'propose amend {rule} "changed"' if amend else f"propose repeal {rule}")
    lines += ["vote Ann yes", "vote Bea yes", "adopted", "turn Bea"]
    return "\n".join(lines) + "\n"


def problems_name_no_switched_off_rule(outcome) -> None:
    off = {str(n) for n in outcome.state.checks_off()} if outcome.state is not None else set()
    for problem in outcome.problems:
        assert problem.rule.split(".")[0] not in off, (problem.rule, problem.message, off)


@pytest.mark.parametrize("rule", [103, 112])
def test_reveal_is_due_whatever_follows_the_move(rule):
    # 103 changed: the proposal may come first; 112 changed: a turn may have no proposal.
    head = changed(rule) + "roll 2\nmove to (0,-2)\n"
    for after, where in (('propose enact 201 "x"\n', "propose"), ("round 2\n", "round 2"),
                         ("vote Ann yes\n", "vote"), ("end\n", "end")):
        outcome = run(head + after)
        assert not outcome.valid, after
        assert outcome.error.rule == "106" and f"before '{where}" in outcome.error.message
        assert outcome.error.ply == head.count("\n") - 3 + 1  # the event after the move
    assert run(head + "reveal (0,-2) Food\nend\n").valid or rule == 103
    # notes and judgments may stand anywhere in a turn (section 7.3)
    assert run(head + 'note "hm"\nreveal (0,-2) Food\n').state.revealed[(0, -2)] == "Food"


def test_reveal_is_not_required_once_106_is_changed():
    outcome = run(changed(106) + "roll 2\nmove to (0,-2)\n" + 'propose enact 201 "x"\n')
    assert outcome.valid and (0, -2) not in outcome.state.revealed


def test_repeal_and_amend_targets_are_unchecked_once_112_is_changed():
    text = changed(112) + "roll 2\nmove to (0,-2)\nreveal (0,-2) Food\npropose repeal 999\n"
    outcome = run(text + "vote Ann yes\nvote Bea yes\nadopted\nround 2\nturn Ann\n")
    assert outcome.valid, outcome.error
    problems_name_no_switched_off_rule(outcome)
    assert 999 not in outcome.state.rules  # a change of a rule that never was changes nothing
    outcome = run(text.replace("propose repeal 999", 'propose amend 201 "x"'))
    assert outcome.valid, outcome.error


@pytest.mark.parametrize("rule, tail", [
    (103, "roll 2\nroll 3\nmove to (0,-3)\nreveal (0,-3) Food\n"),          # a second roll
    (101, "join Cat\n"),                                                      # a join mid-round
    (112, "roll 2\nmove to (0,-2)\nreveal (0,-2) Food\nvote Zed yes\nfailed\n"),
    (114, 'roll 2\nmove to (0,-2)\nreveal (0,-2) Food\ninvoke Zed "?"\njudgment 250 Bea "r"\n'),
    (109, "move to (3,3)\nreveal (3,3) Food\n"),                             # no roll, any distance
    (108, "roll 2\nmove to (1,1) via N\nreveal (1,1) Food\n"),               # via disagrees with to
])
def test_a_changed_rule_has_all_its_checks_off(rule, tail):
    for amend in (False, True):
        outcome = run(changed(rule, amend=amend) + tail)
        problems_name_no_switched_off_rule(outcome)
        assert outcome.valid, (rule, amend, outcome.error)


def test_structural_limits_stay_and_name_no_rule():
    outcome = run(changed(101) + "join bea\n")
    assert outcome.error.rule == "names" and "cannot share a name" in outcome.error.message
    outcome = run(changed(112) + 'roll 2\nmove to (0,-2)\nreveal (0,-2) Food\n'
                  'propose enact 101 "x"\n')
    assert outcome.error.rule == "rule numbers"


def test_nomic_world_is_bounded():
    text = ('[Game "nomic"]\n[Players "A B"]\n\nround 1\nturn A\nroll 3\nmove to (100000000,0)\n')
    outcome = notation.run(notation.parse(text, "nomic")[0])
    assert outcome.error.rule == "limits" and "beyond" in outcome.error.message
    text = ('[Game "nomic"]\n[Players "A B"]\n\nround 1\nturn A\nroll 1000000000\n')
    outcome = notation.run(notation.parse(text, "nomic")[0])
    assert not outcome.valid
