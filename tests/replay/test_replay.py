"""Replaying records: a problem stands at its event, a bug confined to the record or the
event it met, and result and score tags checked against where the replay ends (``fmt
--fix-results`` writing them, ``random`` games carrying them)."""
from __future__ import annotations

import pytest

import notation

from conftest import SAMPLES, TILEWE, invoke, run_cli, write

DECKS = SAMPLES / "sanguine" / "decks"


# -- problems at their events --------------------------------------------------------------

def test_replay_error_carries_source_line_and_column():
    record = notation.parse(TILEWE + "1. W5n-a1a1\n2. W5n-a1t1\n", "tilewe", source="g.tilewe")[0]
    with pytest.raises(notation.ReplayError) as info:
        list(notation.replay(record))
    err = info.value
    assert (err.source, err.line, err.column, err.index) == ("g.tilewe", 5, 4, 1)
    assert str(err).startswith("g.tilewe:5:4: ply 2 (W5n-a1t1)")


# -- bugs ----------------------------------------------------------------------------------

def test_an_internal_bug_in_one_record_spares_the_others(tmp_path, monkeypatch):
    from functools import partial

    from notation.core import registry
    game = registry.get("tilewe")
    play = game.apply

    def broken(state, move):
        if move.piece == 0:
            raise ZeroDivisionError("boom")
        play(state, move)

    # the game's apply (bound once, the full replay's) and its fast path's applier; the
    # fast path's compiled replays of a whole game's words or body say they cannot now
    monkeypatch.setattr(game, "apply", broken)
    monkeypatch.setattr(game, "applier", lambda state: partial(broken, state))
    monkeypatch.setattr(game, "replay_words", lambda state, words: None)
    monkeypatch.setattr(game, "replay_body", lambda state, body: None)
    bad = write(tmp_path, "a.tilewe", TILEWE + "1. W5n-a1a1 2. O1n-a1t1\n")
    good = write(tmp_path, "b.tilewe", TILEWE + "1. W5n-a1a1\n")
    result = invoke("validate", str(bad), str(good))
    assert f"{bad}:4:16: internal error: game 1, ply 2 (O1n-a1t1)" in result.output
    assert "b.tilewe: game 1: ok, 1 ply" in result.output
    assert result.exit_code == 2


def test_a_bug_while_reading_an_event_is_that_events_problem(monkeypatch):
    from notation.games.tilewe import events
    monkeypatch.setattr(events, "_SQUARES", {})
    records = notation.parse(TILEWE + "1. W5n-a1a1\n", "tilewe")
    outcome = notation.run(records[0])
    assert not outcome.valid and "internal error while reading this event" in outcome.error.message


# -- result tags ---------------------------------------------------------------------------

@pytest.mark.parametrize("name, tags, words", [
    ("x.tilewe", '[Result "yellow"]\n[Scores "5 1"]', '[Result "yellow"] but the record stops'),
    ("x.tilewe", '[Scores "5 2"]', '[Scores "5 2"] but the record stops'),
    ("x.flows", '[Result "flow P1"]', "[Result"),
    ("x.philosophy", '[Result "Te"]', "[Result"),
    ("x.nomic", '[Result "Alice"]', "[Result"),
])
def test_result_tags_are_checked(tmp_path, name, tags, words):
    src = {
        "x.tilewe": TILEWE + "1. W5n-a1a1 2. O1n-a1t1\n",
        "x.flows": (SAMPLES / "flows" / "flows-090.flows").read_text(),
        "x.philosophy": (SAMPLES / "philosophy" / "phil-0148.philosophy").read_text(),
        "x.nomic": (SAMPLES / "nomic" / "example-1.nomic").read_text(),
    }[name]
    lines = [line for line in src.split("\n") if not line.startswith("[Result")]
    text = lines[0] + "\n" + tags + "\n" + "\n".join(lines[1:])
    path = write(tmp_path, name, text)
    result = run_cli("validate", str(path))
    assert result.returncode == 1 and words in result.stdout and "[rule: " in result.stdout


@pytest.mark.slow
def test_fix_results_fills_in_and_corrects_result_tags(tmp_path):
    path = write(tmp_path, "x.tilewe", '[Game "tilewe"]\n[Players "2"]\n[Result "red"]\n\n'
                                       '1. W5n-a1a1 2. O1n-a1t1\n')
    result = run_cli("fmt", "-i", "--fix-results", str(path))
    assert result.returncode == 0, result.stderr
    text = path.read_text()
    assert '[Result "*"]' in text and '[Scores "5 1"]' in text
    assert run_cli("validate", str(path)).returncode == 0
    broken = write(tmp_path, "y.tilewe", TILEWE + "1. W5n-a1a1 2. W5n-a1t1\n")
    result = run_cli("fmt", "--fix-results", str(broken))
    assert result.returncode == 1 and "each piece once" not in result.stdout


@pytest.mark.parametrize("game", ["tilewe", "flows", "philosophy", "sanguine", "nomic"])
def test_random_games_carry_correct_result_tags(game):
    args = ["random", game, "--seed", "3", "--count", "2"]
    if game == "sanguine":
        args += ["--red", str(DECKS / "legion.deck"), "--blue", str(DECKS / "legion.deck")]
    result = run_cli(*args)
    assert result.returncode == 0 and "[Result " in result.stdout
    records = notation.parse(result.stdout, game)
    assert len(records) == 2 and all(notation.run(r).valid for r in records)


def test_a_wrong_score_tag_of_an_unfinished_game_does_not_say_it_ended():
    record = notation.parse('[Game "tilewe"]\n[Players "2"]\n[Scores "7 1"]\n\n1. W5n-a1a1\n',
                            "tilewe")[0]
    message = notation.run(record).error.message
    assert message == '[Scores "7 1"] but the record stops before the game is over (expected "5 0")'
