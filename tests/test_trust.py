"""Regression tests for the trust review: each case failed (crash, wrong answer, leak) before."""
from __future__ import annotations

import io
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import notation
from notation.core import registry
from notation.core.errors import InputError

from conftest import HANG_BREAKER, SAMPLES, invoke, notation_exe, run_cli

TILEWE = '[Game "tilewe"]\n[Players "2"]\n\n'
DECKS = SAMPLES / "sanguine" / "decks"


def no_traceback(result) -> None:
    text = (getattr(result, "stderr", "") or "") + (getattr(result, "stdout", "") or "")
    assert "Traceback" not in text and "internal error" not in text, text


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


# -- security -------------------------------------------------------------------------------

SANGUINE = ('[Game "Sanguine"]\n[Rows "1"]\n[Cols "3"]\n[HandSize "1"]\n'
            '[RedDeck "{red}"]\n[BlueDeck "skirmish.deck"]\n\n')


@pytest.mark.parametrize("deck", [
    "../../../../proc/self/environ", "../../etc/shadow", "../../dev/zero", "/etc/passwd",
    "/proc/self/environ", "sub/../../outside.deck", "a\\\\b.deck",
])
def test_deck_paths_cannot_leave_the_records_folder(tmp_path, deck):
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "skirmish.deck").write_text((DECKS / "skirmish.deck").read_text())
    (tmp_path / "outside.deck").write_text("SECRET 1 1\nXXXXX\nXXXXX\nXXCXX\nXXXXX\nXXXXX\n")
    path = write(folder, "x.sanguine", SANGUINE.format(red=deck) + "R pass\n")
    result = run_cli("validate", "--json", str(path))
    assert result.returncode == 1
    assert "SECRET" not in result.stdout and "PATH=" not in result.stdout and "root:" not in result.stdout
    assert "record's folder" in result.stdout or "not a usable relative path" in result.stdout


def test_symlink_out_of_the_folder_is_refused(tmp_path):
    folder = tmp_path / "records"
    folder.mkdir()
    (tmp_path / "secret.deck").write_text("SECRET 1 1\nnot a grid\n")
    (folder / "red.deck").symlink_to(tmp_path / "secret.deck")
    path = write(folder, "x.sanguine", SANGUINE.format(red="red.deck"))
    result = run_cli("validate", str(path))
    assert result.returncode == 1 and "leads out of the record's folder" in result.stdout
    assert "SECRET" not in result.stdout


def test_deck_inside_the_folder_is_named_but_never_quoted(tmp_path):
    (tmp_path / "skirmish.deck").write_text((DECKS / "skirmish.deck").read_text())
    write(tmp_path, "bad.deck", "PRIVATE-WORD 1 1\nnot a grid row\n")
    path = write(tmp_path, "x.sanguine", SANGUINE.format(red="bad.deck"))
    result = run_cli("validate", str(path))
    assert result.returncode == 1 and "'bad.deck' is not a valid deck" in result.stdout
    assert "PRIVATE-WORD" not in result.stdout and "not a grid row" not in result.stdout


def test_deck_files_are_regular_and_size_capped(tmp_path):
    (tmp_path / "skirmish.deck").write_text((DECKS / "skirmish.deck").read_text())
    os.mkfifo(tmp_path / "fifo.deck")
    write(tmp_path, "huge.deck", b"X" * (2 << 20))
    for name, words in (("fifo.deck", "not a regular file"), ("huge.deck", "larger than")):
        path = write(tmp_path, "x.sanguine", SANGUINE.format(red=name))
        result = run_cli("validate", str(path))
        assert result.returncode == 1 and words in result.stdout, result.stdout


def test_records_from_stdin_cannot_name_deck_files():
    text = SANGUINE.format(red="skirmish.deck")
    result = run_cli("validate", "-", "--game", "sanguine", input=text)
    assert result.returncode == 1 and "standard input cannot name a file" in result.stdout


def test_control_characters_are_escaped_in_messages(tmp_path):
    path = write(tmp_path, "x.tilewe", TILEWE + '1. W5n-a1a1 2. \x1b]0;owned\x07\n')
    for args in (("validate",), ("validate", "--color")):
        result = run_cli(*args, str(path))
        assert "\x1b]0" not in result.stdout and "\x07" not in result.stdout
        assert "\\x1b]0" in result.stdout
    bad_tag = write(tmp_path, "y.tilewe", '[Game "tilewe"]\n[Players "\x1b[2J"]\n')
    result = run_cli("validate", str(bad_tag))
    assert "\x1b[2J" not in result.stdout and "\\x1b[2J" in result.stdout


# -- crashes --------------------------------------------------------------------------------

@pytest.mark.parametrize("name, text, words", [
    ("a.tilewe", TILEWE + "1. W5n-a11a1\n", "contact a11 of W5n is outside the piece"),
    ("b.tilewe", TILEWE + "1. I2n-a11t1\n", "contact a11 of I2n"),
    ("c.tilewe", TILEWE + "1" * 5000 + ". W5n-a1a1\n", "is too large"),
    ("d.tilewe", TILEWE + "1" * 5000 + ".\n", "is not followed by an event"),
    ("e.tilewe", '[Game "tilewe"]\n[Players "' + "2" * 5000 + '"]\n', "1 to 4 players"),
    ("f.tilewe", '[Game "tilewe"]\n[Players "²"]\n', "1 to 4 players"),
    ("g.flows", '[Game "flows"]\n[Seats "²"]\n', "side numbers"),
    ("h.flows", '[Game "flows"]\n[Players "' + "3" * 5000 + '"]\n', "2 to 6 players"),
    ("i.flows", '[Game "flows"]\n\nP' + "1" * 70000 + "\n", "is not a Flows move"),
    ("j.sanguine", '[Game "Sanguine"]\n[Rows "' + "1" * 5000 + '"]\n', "too large"),
    ("k.nomic", '[Game "nomic"]\n\nround ' + "1" * 5000 + "\n", "too large"),
    ("l.nomic", '[Game "nomic"]\n[Players "A"]\n\nround 1\nturn A\nroll ' + "9" * 5000 + "\n",
     "too large"),
    ("m.nomic", '[Game "nomic"]\n[Players "A"]\n\nround 1\nturn A\nroll 3\nmove to ('
     + "1" * 5000 + ",0)\n", "too large"),
    ("n.sanguine", '[Game "Sanguine"]\n\nR place Spark (' + "1" * 5000 + ",0)\n", "too large"),
    ("o.sanguine", '[Game "Sanguine"]\n\nresult ' + "1" * 5000 + "-0 red\n", "too large"),
])
def test_inputs_that_crashed_are_errors_at_their_position(tmp_path, name, text, words):
    path = write(tmp_path, name, text)
    after = write(tmp_path, "z-after.tilewe", TILEWE + "1. W5n-a1a1\n")
    result = run_cli("validate", str(path), str(after))
    no_traceback(result)
    assert result.returncode == 1 and words in result.stdout, result.stdout
    assert f"{path}:" in result.stdout and "z-after.tilewe: game 1: ok, 1 ply" in result.stdout


@pytest.mark.parametrize("deck, words", [
    ("Spark 1 ²\nXXXXX\nXXIXX\nXICIX\nXXIXX\nXXXXX\n", "value must be a whole number"),
    ("Spark\u00a01 1\nXXXXX\nXXIXX\nXICIX\nXXIXX\nXXXXX\n", "expected a card header"),
    ("Spark 1 1\nXXXXX\nXXIXX\fXICIX\nXXIXX\nXXXXX\n", "error"),
    ("Spark 1 " + "7" * 5000 + "\nXXXXX\nXXIXX\nXICIX\nXXIXX\nXXXXX\n", "at most 1,000 digits"),
])
def test_bad_deck_values_and_lines_are_errors(tmp_path, deck, words):
    path = write(tmp_path, "x.deck", deck)
    result = run_cli("deck", "check", str(path))
    no_traceback(result)
    assert result.returncode == 1 and words in result.stdout


@pytest.mark.parametrize("blank", ["\u00a0", "\f", "\v"])
def test_leading_blanks_of_any_kind_are_blanks_in_decks(tmp_path, blank):
    path = write(tmp_path, "x.deck", blank + "Spark 1 1\nXXXXX\nXXIXX\nXICIX\nXXIXX\nXXXXX\n")
    result = run_cli("deck", "check", str(path))
    no_traceback(result)
    assert result.returncode == 0 and ": ok, 1 card" in result.stdout


def test_nul_in_a_deck_path_and_unknown_or_text_encodings(tmp_path):
    path = write(tmp_path, "x.sanguine", SANGUINE.format(red="a\\u0000b"))
    text = path.read_text().replace("a\\u0000b", "a\0b")
    path.write_text(text)
    result = run_cli("validate", str(path))
    no_traceback(result)
    assert result.returncode == 1
    tw = write(tmp_path, "t.tilewe", TILEWE)
    for encoding, words in (("rot13", "not a text encoding"), ("no-such", "unknown encoding"),
                            ("hex", "not a text encoding")):
        result = run_cli("validate", "--encoding", encoding, str(tw))
        no_traceback(result)
        assert result.returncode == 2 and words in result.stderr


def test_an_internal_bug_in_one_record_spares_the_others(tmp_path, monkeypatch):
    from notation.games.tilewe import rules
    play = rules.play

    def broken(state, move):
        if move.piece == 0:
            raise ZeroDivisionError("boom")
        play(state, move)

    monkeypatch.setattr(rules, "play", broken)
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


# -- silent wrong answers ---------------------------------------------------------------------

def test_fmt_and_convert_refuse_any_record_with_a_problem(tmp_path):
    text = TILEWE + "1. W5n-a1a1 2. I2n-a1t1 4. O1n-a1a20\n"
    path = write(tmp_path, "x.tilewe", text)
    for args in (("fmt", "-i"), ("fmt",), ("fmt", "--check")):
        result = run_cli(*args, str(path))
        assert result.returncode == 1 and "event number 4. should be 3." in result.stderr
        assert "nothing was written" in result.stderr and path.read_text() == text
    dup = write(tmp_path, "d.tilewe", '[Game "tilewe"]\n[Players "2"]\n[Players "3"]\n')
    result = run_cli("fmt", "-i", str(dup))
    assert result.returncode == 1 and "given twice" in result.stderr
    illegal = write(tmp_path, "i.flows", '[Game "flows"]\n\nP2A1T0N\n')
    result = run_cli("convert", "--perspective", "P2", str(illegal))
    assert result.returncode == 1 and result.stdout == ""


def test_tag_values_with_line_breaks_are_written_back_escaped():
    record = notation.parse(TILEWE + "1. W5n-a1a1\n", "tilewe")[0]
    record.tags.append(notation.Tag("Note", 'line one\rline two\n"quoted" \\ end'))
    text = notation.format(record)
    again = notation.parse(text, "tilewe")[0]
    assert again.tag_dict["Note"] == 'line one\rline two\n"quoted" \\ end'
    assert notation.run(again).valid


def test_diff_with_a_directory_is_a_usage_error(tmp_path):
    path = write(tmp_path, "x.tilewe", TILEWE)
    for args in ((str(path), str(tmp_path)), (str(tmp_path), str(tmp_path))):
        result = run_cli("diff", *args)
        assert result.returncode == 2 and "is a directory" in result.stderr


def test_lone_cr_line_ends_end_comments(tmp_path):
    text = TILEWE.replace("\n", "\r") + "1. W5n-a1a1 ; a comment\r2. Q9n-a1a1\r"
    path = write(tmp_path, "x.tilewe", text)
    result = run_cli("validate", str(path))
    assert result.returncode == 1 and "x.tilewe:5:4: error: game 1, ply 2 (Q9n-a1a1)" in result.stdout


def test_an_unclosed_brace_does_not_swallow_the_next_games(tmp_path):
    text = (TILEWE + "1. W5n-a1a1 { never closed\nmore text\n\n" + TILEWE
            + "1. Q5n-a1a1 {a closed comment}\n")
    path = write(tmp_path, "x.tilewe", text)
    result = run_cli("validate", str(path))
    assert "game 1, ply 2: comment opened with '{' is never closed; 2 lines skipped, from here to the next tag line" \
        in result.stdout
    assert "x.tilewe:10:4: error: game 2, ply 1 (Q5n-a1a1): unknown piece" in result.stdout


@pytest.mark.parametrize("data", [b"", b"\xef\xbb\xbf", b"\n\n  \n"])
def test_empty_input_is_a_warning(tmp_path, data):
    path = write(tmp_path, "x.tilewe", data)
    result = run_cli("validate", str(path))
    assert result.returncode == 0 and f"{path}: warning: no games" in result.stderr
    result = run_cli("validate", "--game", "tilewe", "-", input="")
    assert result.returncode == 0 and "<stdin>: warning: no games" in result.stderr


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


def _split_at(path: Path, game_name: str, ply: int) -> tuple[str, str]:
    """A record that starts from the position after ``ply`` with the remaining events."""
    record = notation.load(path)[0]
    game = notation.get_game(game_name)
    positions, events = [], []
    for step in notation.replay(record):  # the state is live: take each position as it passes
        positions.append(game.position(step.state))
        events.append(step.event)
    start = positions[ply - 1]
    rest = [notation.EventNode(e) for e in events[ply:]]
    tags = [t for t in record.tags if t.key in ("Game", "Perspective")]
    tags.append(notation.Tag("Position", start))
    setup = notation.Record(game.name, tags, rest)
    return notation.format(setup), positions[-1]


@pytest.mark.parametrize("game, sample, ply", [
    ("tilewe", "tw-sample-2.tilewe", 20), ("flows", "flows-150.flows", 12),
    ("flows", "flows-090.flows", 5),
])
def test_set_up_positions_for_tilewe_and_flows(game, sample, ply):
    text, final = _split_at(SAMPLES / game / sample, game, ply)
    record = notation.parse(text, game)[0]
    outcome = notation.run(record)
    assert outcome.valid, outcome.error
    assert notation.get_game(game).position(outcome.state) == final


@pytest.mark.parametrize("game", ["sanguine", "nomic"])
def test_position_tag_refused_where_there_is_no_setup(game):
    records = notation.parse(f'[Game "{game}"]\n[Position "anything"]\n', game)
    outcome = notation.run(records[0])
    assert outcome.error.rule == "tag Position" and "cannot start from" in outcome.error.message


def test_tag_name_case_mistakes_are_named():
    outcome = notation.run(notation.parse('[game "TILEWE"]\n[players "2"]\n\n1. W5n-a1a1\n', "tilewe")[0])
    messages = [p.message for p in outcome.problems]
    assert any("unknown tag [game]; did you mean [Game]?" in m for m in messages)
    assert any("did you mean [Players]?" in m for m in messages)
    assert notation.run(notation.parse('[Game "TileWe"]\n\n1. W5n-a1a1\n')[0]).valid


# -- resource limits and hangs --------------------------------------------------------------

def test_nomic_world_is_bounded():
    text = ('[Game "nomic"]\n[Players "A B"]\n\nround 1\nturn A\nroll 3\nmove to (100000000,0)\n')
    outcome = notation.run(notation.parse(text, "nomic")[0])
    assert outcome.error.rule == "limits" and "beyond" in outcome.error.message
    text = ('[Game "nomic"]\n[Players "A B"]\n\nround 1\nturn A\nroll 1000000000\n')
    outcome = notation.run(notation.parse(text, "nomic")[0])
    assert not outcome.valid


def test_fifos_are_skipped_and_unreadable_folders_reported(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    write(folder, "a.tilewe", TILEWE)
    os.mkfifo(folder / "b.tilewe")
    result = run_cli("validate", str(folder))
    assert result.returncode == 0 and "b.tilewe: warning: not a regular file; skipped" in result.stderr
    result = run_cli("validate", str(folder / "b.tilewe"))
    assert result.returncode == 2 and "not a regular file (a FIFO)" in result.stderr
    if os.geteuid() != 0:  # root reads any folder
        locked = folder / "locked"
        locked.mkdir()
        locked.chmod(0)
        try:
            result = run_cli("validate", str(folder))
            assert result.returncode == 2 and "cannot read folder" in result.stderr
        finally:
            locked.chmod(0o755)


def test_unreadable_folder_is_an_input_error(tmp_path, monkeypatch):
    from cli.inputs import Inputs
    folder = tmp_path / "games"
    (folder / "sub").mkdir(parents=True)
    real_scandir = os.scandir

    def scandir(path):
        if str(path).endswith("sub"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    inputs = Inputs()
    list(inputs.expand((str(folder),)))
    assert any("sub: error: cannot read folder: Permission denied" in e for e in inputs.input_errors)


# -- in-place writes ------------------------------------------------------------------------

def _unformatted(tmp_path: Path, name: str = "x.tilewe") -> Path:
    return write(tmp_path, name, '[Players "2"]\n[Game "tilewe"]\n\n1.   W5n-a1a1\n')


def test_in_place_writes_through_a_symlink_keeping_the_mode(tmp_path):
    target = _unformatted(tmp_path)
    target.chmod(0o640)
    link = tmp_path / "link.tilewe"
    link.symlink_to(target)
    result = run_cli("fmt", "-i", str(link))
    assert result.returncode == 0
    assert link.is_symlink() and target.read_text().startswith('[Game "tilewe"]')
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert not list(tmp_path.glob(".notation-*"))


def test_in_place_refuses_read_only_and_hard_linked_files(tmp_path):
    ro = _unformatted(tmp_path, "ro.tilewe")
    ro.chmod(0o444)
    linked = _unformatted(tmp_path, "hl.tilewe")
    os.link(linked, tmp_path / "other-name.tilewe")
    before = {p: p.read_text() for p in (ro, linked)}
    result = run_cli("fmt", "-i", str(ro), str(linked))
    assert result.returncode == 2
    assert "ro.tilewe: error: not reformatted: the file is read-only" in result.stderr
    assert "hl.tilewe: error: not reformatted: the file has 2 hard links" in result.stderr
    assert all(p.read_text() == text for p, text in before.items())
    assert not list(tmp_path.glob(".notation-*"))


def test_in_place_failure_leaves_the_file_and_no_temporary(tmp_path, monkeypatch):
    from notation.archive import output
    path = _unformatted(tmp_path)
    before = path.read_text()

    def full_disk(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(output.os, "fsync", full_disk)
    with pytest.raises(output.WriteError, match="No space left"):
        output.write_atomically(str(path), "new text", "utf-8")
    assert path.read_text() == before and not list(tmp_path.glob(".notation-*"))


def test_in_place_into_a_folder_it_cannot_write(tmp_path, monkeypatch):
    # Root writes into read-only folders, so the refusal is simulated where it happens.
    from notation.archive import output
    path = _unformatted(tmp_path)

    def refused(**kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(output.tempfile, "mkstemp", refused)
    with pytest.raises(output.WriteError, match="cannot create a temporary file beside it"):
        output.write_atomically(str(path), "new", "utf-8")


# -- signals and pipes ----------------------------------------------------------------------

def test_broken_pipe_is_quiet():
    proc = subprocess.Popen(notation_exe() + ["random", "tilewe", "--count", "100000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=HANG_BREAKER) == 141 and err == ""


def test_full_output_and_closed_output(tmp_path):
    path = write(tmp_path, "x.tilewe", TILEWE + "1. W5n-a1a1\n")
    with open("/dev/full", "w") as full:
        result = subprocess.run(notation_exe() + ["validate", str(path)], stdout=full,
                                stderr=subprocess.PIPE, text=True, timeout=HANG_BREAKER)
    assert result.returncode == 2
    assert result.stderr == "notation: error: cannot write to standard output: No space left on device\n"
    result = subprocess.run(notation_exe() + ["validate", str(path)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, timeout=HANG_BREAKER,
                            preexec_fn=lambda: os.close(1))
    assert result.returncode == 0 and "standard output is closed" in result.stderr
    no_traceback(result)


# Ctrl-C and SIGTERM: tests/test_signals.py (no test there depends on timing).


# -- polish ---------------------------------------------------------------------------------

@pytest.mark.slow
def test_colour_switches_and_no_color(tmp_path):
    path = write(tmp_path, "x.tilewe", TILEWE + "1. Q5n-a1a1\n")
    assert "\x1b[31m" in run_cli("validate", "--color", str(path)).stdout
    assert "\x1b[" not in run_cli("validate", "--no-color", str(path)).stdout
    for command in (["games"], ["fmt", str(path)], ["legal", str(path)], ["diff", str(path), str(path)],
                    ["convert", "--perspective", "P1", str(path)], ["deck", "check", str(DECKS)],
                    ["coords", "P2A4", "--to", "P1"], ["random", "tilewe", "--seed", "1"]):
        assert "no such option" not in run_cli(*command, "--no-color").stderr, command
    env = dict(os.environ, NO_COLOR="1")
    from cli.common import wants_color

    class Tty(io.StringIO):
        def isatty(self):
            return True

    assert wants_color(None, Tty())
    os.environ["NO_COLOR"] = "1"
    try:
        assert not wants_color(None, Tty()) and wants_color(True, Tty())
    finally:
        del os.environ["NO_COLOR"]
    assert env  # NO_COLOR is read from the environment at each call


def test_deck_check_takes_folders_and_stdin():
    result = run_cli("deck", "check", str(DECKS))
    assert result.returncode == 0 and result.stdout.count(": ok, ") == 4
    result = run_cli("deck", "check", "-", input=(DECKS / "skirmish.deck").read_text())
    assert result.returncode == 0 and result.stdout.startswith("<stdin>: ok, ")


def test_one_ply_is_singular(tmp_path):
    path = write(tmp_path, "x.tilewe", TILEWE + "1. W5n-a1a1\n")
    assert "ok, 1 ply\n" in run_cli("validate", str(path)).stdout


def test_load_accepts_paths_strings_and_open_files():
    path = SAMPLES / "tilewe" / "tw-sample-3.tilewe"
    expected = [r.events for r in notation.load(path)]
    assert [r.events for r in notation.load(str(path))] == expected
    with open(path, encoding="utf-8") as fh:
        assert [r.events for r in notation.load(fh)] == expected
    with open(path, "rb") as fh:
        records = notation.load(fh)
    assert [r.events for r in records] == expected and records.source == str(path)
    assert [r.events for r in notation.load(io.BytesIO(path.read_bytes()), "tilewe")] == expected
    with pytest.raises(InputError):
        notation.load(SAMPLES)


def test_replay_error_carries_source_line_and_column():
    record = notation.parse(TILEWE + "1. W5n-a1a1\n2. W5n-a1t1\n", "tilewe", source="g.tilewe")[0]
    with pytest.raises(notation.ReplayError) as info:
        list(notation.replay(record))
    err = info.value
    assert (err.source, err.line, err.column, err.index) == ("g.tilewe", 5, 4, 1)
    assert str(err).startswith("g.tilewe:5:4: ply 2 (W5n-a1t1)")


@pytest.mark.parametrize("game", ["tilewe", "flows", "philosophy", "sanguine", "nomic"])
def test_state_repr_shows_the_position(game):
    sample = {"tilewe": "tw-sample-1.tilewe", "flows": "flows-090.flows",
              "philosophy": "phil-0009.philosophy", "sanguine": "example-1.sanguine",
              "nomic": "example-1.nomic"}[game]
    outcome = notation.run(notation.load(SAMPLES / game / sample)[0])
    text = repr(outcome.state)
    assert " object at 0x" not in text
    assert notation.get_game(game).position(outcome.state) in text


def test_announced_extensions_match_the_games():
    from importlib.metadata import entry_points
    announced = [point.load() for point in entry_points(group="notation.games")]
    assert {plugin.name for plugin in announced} >= {"tilewe", "flows", "philosophy",
                                                     "sanguine", "nomic"}
    for plugin in announced:
        assert registry.get(plugin.name).extensions == plugin.extensions


def test_cli_start_loads_only_the_game_it_reads(tmp_path):
    path = write(tmp_path, "x.tilewe", TILEWE)
    code = ("import sys; from notation.cli.main import run\n"
            "try:\n    run(['validate', sys.argv[1]])\nexcept SystemExit: pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('notation.games.') "
            "and m.endswith('.game')))")
    result = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                            text=True, timeout=HANG_BREAKER)
    assert result.stdout.strip().endswith("['notation.games.tilewe.game']"), result.stdout
