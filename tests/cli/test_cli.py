"""The `notation` command line: outputs, exit codes, and never a traceback."""
from __future__ import annotations

import importlib
import io
import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

import notation
from notation.cli.main import COMMANDS

from conftest import (HANG_BREAKER, SAMPLES, TILEWE, invoke, notation_exe, reference_games,
                      run_cli, write)

GAME = '[Game "tilewe"]\n[Players "2"]\n\n'
DECKS = SAMPLES / "sanguine" / "decks"
JSON_KEYS = {"file", "game", "index", "tags", "valid", "plies", "error", "errors", "position", "state",
             "result"}


@pytest.fixture
def files(tmp_path: Path):
    good = tmp_path / "good.tilewe"
    good.write_text(GAME + "1. W5n-a1a1 2. I2n-a1t1 3. F5e-a2d4\n")
    bad = tmp_path / "bad.tilewe"
    bad.write_text(GAME + "1. W5n-a1a1 2. F5e-a2d4\n3. Q5n-a1a1\n")
    return good, bad


# -- validate ----------------------------------------------------------------------------

def test_validate_ok_line_and_exit_0(files):
    good, _ = files
    result = invoke("validate", str(good))
    assert result.exit_code == 0
    assert result.output == f"{good}: game 1: ok, 3 plies\n"


def test_validate_error_lines_name_file_position_ply_event_and_rule(files):
    _, bad = files
    result = invoke("validate", str(bad))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == (f"{bad}:4:16: error: game 1, ply 2 (F5e-a2d4): yellow's first piece must "
                        "put its contact tile on an empty board corner (a1, t1, a20, t20), not d4 "
                        "[rule: first piece in a corner]")
    assert lines[1].startswith(f"{bad}:5:4: error: game 1, ply 3 (Q5n-a1a1): unknown piece 'Q5'")
    assert len(lines) == 2


def test_validate_quiet_and_json(files):
    good, bad = files
    result = invoke("validate", "--quiet", str(good), str(bad))
    assert result.exit_code == 1 and str(good) not in result.output
    result = invoke("validate", "--json", str(good), str(bad))
    objs = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o["valid"] for o in objs] == [True, False]
    assert objs[1]["errors"][0]["ply"] == 2 and objs[1]["errors"][0]["kind"] == "rule"


def test_validate_json_errors_carry_their_rule_catalogue_anchor(files):
    """An editor links a rule error to its entry in the handbook's catalogue
    (docs/catalogue.md, whose anchors tests/project/test_docs.py holds to the code's rule
    names); a syntax error has no rule and no anchor."""
    _, bad = files
    (obj,) = [json.loads(line) for line in invoke("validate", "--json", str(bad)).stdout.splitlines()]
    rule, syntax = obj["errors"]
    assert (rule["rule"], rule["anchor"]) == ("first piece in a corner",
                                              "rule-first-piece-in-a-corner")
    assert (syntax["kind"], syntax["rule"], syntax["anchor"]) == ("syntax", None, None)
    assert notation.core.errors.rule_anchor("112.4") == "rule-112-4"


def test_validate_walks_directories_for_known_extensions(tmp_path, files):
    (tmp_path / "notes.txt").write_text("not a record")
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "x.tilewe").write_text(GAME + "W5n-a1a1\n")
    result = invoke("validate", str(tmp_path))
    names = [line.split(":")[0] for line in result.stdout.splitlines()]
    assert sorted(set(names)) == sorted({str(files[0]), str(files[1]), str(sub / "x.tilewe")})
    assert result.exit_code == 1


def test_validate_samples_directory_is_green():
    result = invoke("validate", str(SAMPLES))
    assert result.exit_code == 0, result.output
    assert "error" not in result.output


def test_stdin_needs_a_game(files):
    result = invoke("validate", "--game", "tilewe", "-", input="W5n-a1a1 I2n-a1t1")
    assert result.exit_code == 0 and "<stdin>: game 1: ok, 2 plies" in result.output
    result = invoke("validate", "-", input="W5n-a1a1")
    assert result.exit_code == 1 and "cannot tell which game" in result.output


def test_io_errors_exit_2_and_other_files_still_run(tmp_path, files):
    good, _ = files
    missing = tmp_path / "missing.tilewe"
    result = run_cli("validate", str(missing), str(good))
    assert result.returncode == 2
    assert f"{missing}: error: cannot read" in result.stderr
    assert f"{good}: game 1: ok" in result.stdout
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_undecodable_input_names_the_byte_offset_and_option(tmp_path):
    path = tmp_path / "latin.tilewe"
    path.write_bytes(GAME.encode() + b"{caf\xe9} W5n-a1a1\n")
    result = run_cli("validate", str(path))
    assert result.returncode == 2
    assert "byte 0xe9 at offset" in result.stderr and "--encoding" in result.stderr
    result = run_cli("validate", "--encoding", "latin-1", str(path))
    assert result.returncode == 0, result.stdout + result.stderr


def test_unreadable_file(tmp_path):
    if os.geteuid() == 0:
        path = tmp_path  # root reads everything; a directory given as a file is unreadable
        result = run_cli("fmt", str(path / "nothere"))
    else:  # pragma: no cover - depends on the user
        path = tmp_path / "locked.tilewe"
        path.write_text(GAME)
        path.chmod(0)
        result = run_cli("validate", str(path))
    assert result.returncode == 2 and "error" in result.stderr


def test_usage_errors_exit_2():
    assert invoke("validate", "--game", "chess", "x").exit_code == 2
    assert invoke("nonsense").exit_code == 2
    assert invoke("random", "chess").exit_code == 2
    assert invoke("random", "tilewe", "--players", "5").exit_code == 2


def test_moves_of_another_game_are_one_line_naming_that_game(tmp_path):
    """Every registered game is tried on a record none of whose moves its game reads: the
    one that reads them all is named, with the tag that says so, instead of one error per
    move; a record with a mere typo keeps its own errors."""
    flows = (SAMPLES / "flows" / "flows-000.flows").read_text()
    named = tmp_path / "moves.tilewe"
    named.write_text(flows.replace('[Game "flows"]\n', ""))
    result = invoke("validate", str(named))
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"{named}:1:1: error: game 1: these moves are flows's, not tilewe's: "
        f'add [Game "flows"]']
    tagged = tmp_path / "tagged.flows"
    tagged.write_text((SAMPLES / "tilewe" / "tw-sample-1.tilewe").read_text().replace(
        '[Game "tilewe"]', '[Game "flows"]'))
    assert invoke("validate", str(tagged)).output.splitlines() == [
        f"{tagged}:1:1: error: game 1: these moves are tilewe's, not flows's: "
        f'change [Game "flows"] to [Game "tilewe"]']
    nomic = tmp_path / "nomic.philosophy"
    nomic.write_text((SAMPLES / "nomic" / "example-1.nomic").read_text().replace(
        '[Game "Nomic"]\n', ""))
    assert invoke("validate", "--json", str(nomic)).output.count('"kind"') == 1
    typo = tmp_path / "typo.tilewe"
    typo.write_text(GAME + "1. Q5n-a1a1 2. Q5n-a1t1\n")
    assert len(invoke("validate", str(typo)).output.splitlines()) == 2


@pytest.mark.slow
def test_garbage_never_gives_a_traceback(tmp_path):
    path = tmp_path / "junk.tilewe"
    path.write_bytes(b'[Game "tilewe"]\n[[[ ]]] {{ }} ;;\n\x00\x01 1. 2. 3.. "" [Players\n')
    for command in ("validate", "replay", "legal", "fmt"):
        result = run_cli(command, str(path))
        assert result.returncode in (1, 2), (command, result.stderr)
        assert "Traceback" not in result.stdout + result.stderr


# -- replay ------------------------------------------------------------------------------

def test_replay_json_has_exactly_the_contract_keys(files):
    good, bad = files
    result = invoke("replay", "--json", str(good), str(bad))
    a, b = (json.loads(line) for line in result.stdout.splitlines())
    assert set(a) == set(b) == JSON_KEYS
    assert a["valid"] and a["plies"] == 3 and a["error"] is None and a["errors"] == []
    assert a["result"] == {"over": False, "scores": [10, 2], "winners": [0]}
    assert len(a["state"]["board"]) == 20 and a["state"]["board"][-1] == "00.................1"
    assert not b["valid"] and b["plies"] == 1
    assert b["error"] == {"kind": "rule", "line": 4, "column": 16, "ply": 2, "event": "F5e-a2d4",
                          "message": b["error"]["message"], "rule": "first piece in a corner",
                          "anchor": "rule-first-piece-in-a-corner"}
    assert len(b["errors"]) == 2
    assert b["state"]["board"][-1] == "00.................."  # state before the bad event
    assert result.exit_code == 1


def test_replay_text_at_a_ply_and_every_ply(files):
    good, _ = files
    result = invoke("replay", "--ply", "1", str(good))
    assert result.exit_code == 0
    assert "after ply 1:" in result.output
    assert "  1 b b . ." in result.output and "yellow to move" in result.output
    result = invoke("replay", "--every", str(good))
    assert result.output.count("after ply") == 3 and "start:" in result.output
    assert "after ply 3 (F5e-a2d4):" in result.output
    result = invoke("replay", "--ply", "99", str(good))
    assert "only 3 plies" in result.output


@pytest.mark.parametrize("command", [["replay"], ["replay", "--json"], ["legal"],
                                     ["legal", "--count"], ["render"], ["diff", "{path}"]],
                         ids=" ".join)
def test_a_ply_past_the_end_is_the_end_with_one_warning_everywhere(files, command):
    """One rule in every command that takes --ply: the record's end, said once on standard
    error (standard output as at the end), and the exit status of a valid record."""
    good, _ = files
    args = [str(good) if part == "{path}" else part for part in command]
    past, end = invoke(*args, "--ply", "99", str(good)), invoke(*args, str(good))
    assert past.exit_code == end.exit_code == 0, past.output
    warning = f"{good}: warning: game 1 has only 3 plies; --ply 99 is past its end"
    assert past.stderr.splitlines() == [warning] * (2 if command[0] == "diff" else 1)
    assert past.stdout == end.stdout
    assert invoke(*args, "--ply", "3", str(good)).stderr == ""  # the last ply: no warning


def test_replay_reference_games_through_the_cli():
    refs = reference_games("tilewe")
    result = invoke("replay", "--json", *(str(SAMPLES / "tilewe" / f"{r['id']}.tilewe") for r in refs))
    for ref, line in zip(refs, result.stdout.splitlines()):
        out = json.loads(line)
        assert out["valid"] and out["plies"] == ref["plies"]
        assert out["state"]["board"] == ref["final_board"]
        assert out["result"] == {"over": True, "scores": ref["scores"], "winners": ref["winners"]}


def test_colour_only_when_asked_or_on_a_terminal(files):
    good, _ = files
    assert "\x1b[" not in invoke("replay", str(good)).output
    assert "\x1b[" in invoke("replay", "--color", str(good)).output


# -- diff ---------------------------------------------------------------------------------

def test_diff_same_and_different(tmp_path, files):
    good, _ = files
    same = tmp_path / "same.tilewe"
    same.write_text(GAME + "W5n-a1a1 I2sf-a1t1 F5e-a2d4")  # alias spelling: same moves
    result = invoke("diff", str(good), str(same))
    assert result.exit_code == 0 and "same events" in result.output
    other = tmp_path / "other.tilewe"
    other.write_text(GAME + "W5n-a1a1 I2n-a1t1 W5n-a1a1")  # not legal at ply 3: stops there
    third = tmp_path / "third.tilewe"
    third.write_text(GAME + "W5n-a1a1 I2n-a1t1 O1n-a1d1")
    result = invoke("diff", str(good), str(third))
    assert result.exit_code == 1
    assert "first difference at ply 3: F5e-a2d4 | O1n-a1d1" in result.output
    assert "  d1: - | blue" in result.output and "  e5: blue | -" in result.output
    result = invoke("diff", "--ply", "2", str(good), str(third))
    assert "0 differences after ply 2" in result.output


def test_diff_positions():
    empty = "/".join(["20"] * 20) + " b 1fffff"
    one = "/".join(["20"] * 19) + "/b19 b 1ffffe"
    result = invoke("diff", "--position", "--game", "tilewe", empty, one)
    assert result.exit_code == 1 and "a1: - | blue" in result.output
    assert "blue pieces left" in result.output
    assert invoke("diff", "--position", "--game", "tilewe", empty, empty).exit_code == 0
    assert invoke("diff", "--position", empty, one).exit_code == 2
    assert invoke("diff", "--position", "--game", "tilewe", "x", one).exit_code == 2


# -- fmt ------------------------------------------------------------------------------------

def test_fmt_writes_canonical_text(tmp_path):
    path = tmp_path / "messy.tilewe"
    path.write_text('[Players "1"]\n[Game "tilewe"]\nW5ef-a1a1   {nice}\n  F5e-a2d4 ; done\n')
    result = invoke("fmt", str(path))
    assert result.exit_code == 0
    assert result.output == ('[Game "tilewe"]\n[Players "1"]\n\n'
                             "1. W5n-a1a1 {nice} 2. F5e-a2d4 ; done\n")


def test_fmt_check_and_in_place_rewrite_atomically(tmp_path):
    path = tmp_path / "messy.tilewe"
    path.write_text('[Game "tilewe"]\n[Players "1"]\nW5ef-a1a1 F5e-a2d4\n')
    path.chmod(0o640)
    assert invoke("fmt", "--check", str(path)).exit_code == 1
    result = invoke("fmt", "--in-place", str(path))
    assert result.exit_code == 0 and "reformatted" in result.output
    assert path.read_text().endswith("1. W5n-a1a1 2. F5e-a2d4\n")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["messy.tilewe"]  # no temporary left
    assert invoke("fmt", "--check", str(path)).exit_code == 0
    assert invoke("fmt", "--check", "--in-place", str(path)).exit_code == 2


def test_fmt_refuses_records_with_syntax_errors_and_leaves_them_alone(tmp_path, files):
    _, bad = files
    before = bad.read_text()
    result = invoke("fmt", "--in-place", str(bad))
    assert result.exit_code == 1 and "not reformatted" in result.output
    assert bad.read_text() == before


def test_fmt_output_reads_back_to_the_same_games(tmp_path):
    for sample in sorted((SAMPLES / "tilewe").glob("*.tilewe")):
        text = invoke("fmt", str(sample)).output
        assert text == sample.read_text(), sample  # samples are kept canonical


# -- legal, random, games ------------------------------------------------------------------

def test_legal_moves_of_the_player_to_move(files):
    good, _ = files
    result = invoke("legal", "--ply", "0", str(good))
    assert result.exit_code == 0
    assert "after ply 0: blue to move, 232 legal moves" in result.output
    assert "O1n-a1a1" in result.output
    result = invoke("legal", "--count", str(good))
    board = notation.run(notation.load(good)[0]).state
    moves = notation.get_game("tilewe").legal_moves(board)
    assert result.output == f"{len(moves)}\n"  # a bare number, one line per game
    assert len(moves) > 0


def test_legal_after_the_end():
    path = SAMPLES / "tilewe" / "tw-sample-4.tilewe"
    result = invoke("legal", str(path))
    assert "the game is over, no legal moves" in result.output


def test_random_is_reproducible_and_valid(tmp_path):
    a = invoke("random", "tilewe", "--players", "3", "--seed", "11", "--count", "2").output
    b = invoke("random", "tilewe", "--players", "3", "--seed", "11", "--count", "2").output
    assert a == b and a.count('[Game "tilewe"]') == 2
    path = tmp_path / "r.tilewe"
    path.write_text(a)
    result = invoke("replay", "--json", str(path))
    for line in result.stdout.splitlines():
        out = json.loads(line)
        assert out["valid"] and out["result"]["over"]


def test_convert_to_a_format_of_one_game_a_file_warns_of_several_and_takes_index(tmp_path):
    """Pentobi reads one game a file: several games written as one text get a warning that
    says so and names --split; --index K writes game K alone, as on the other commands."""
    archive = tmp_path / "blokus.tilewe"
    made = invoke("random", "tilewe", "--corners", "fixed", "--scoring", "blokus", "--seed",
                  "2", "--count", "3", "-o", str(archive))
    assert made.exit_code == 0 and made.output == ""
    every = invoke("convert", "--to", "blksgf", str(archive))
    assert every.exit_code == 0 and every.stdout.count("(;GM[Blokus]") == 3
    assert every.stderr.splitlines() == [
        f"{archive}: warning: 3 games written one after another; Pentobi reads one game a "
        f"file (the first), and pentobi-thumbnailer refuses a file of several: --split "
        f"writes one file a game"]
    second = invoke("convert", "--to", "blksgf", "--index", "2", str(archive))
    assert second.exit_code == 0 and second.stderr == ""
    assert second.stdout == every.stdout.splitlines(keepends=True)[1]
    assert invoke("convert", "--to", "json", str(archive)).stderr == ""  # JSON Lines: any number
    assert invoke("convert", "--index", "4", str(archive)).exit_code == 2
    assert invoke("convert", "-i", "--index", "1", str(archive)).exit_code == 2


def test_games_lists_every_registered_game_with_extensions_and_tags():
    result = invoke("games")
    heads = [line.split("  ")[0] for line in result.output.splitlines() if not line.startswith(" ")]
    assert result.exit_code == 0 and heads == ["flows", "nomic", "philosophy", "sanguine", "tilewe"]
    assert "tilewe  (.tilewe)" in result.output and "flows  (.flows)" in result.output
    assert "[Players]" in result.output and "[Seats]" in result.output


def test_python_dash_m_and_version():
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-m", "notation", "--version"], capture_output=True,
                         text=True)
    assert out.returncode == 0 and out.stdout.startswith("notation, version ")
    # Which path ran: every compiled module is built wherever the install has a compiler.
    assert out.stdout.splitlines()[1] == ("compiled: flows routes, tilewe position text, "
                                          "tilewe rules, position keys, tag lines")


@pytest.mark.parametrize("text", [
    '[Game "tilewe"]\n[Players "9"]\nW5n-a1a1\n',               # a bad tag value
    '[Game "tilewe"]\n[Players "2"]\n[Players "2"]\nW5n-a1a1\n',  # a tag given twice
    '[Game "tilewe"]\nW5n-a1a1 Q5n-a1a1\n',                      # an unreadable event
])
def test_replay_every_reports_problems_instead_of_crashing(tmp_path, text):
    path = tmp_path / "bad.tilewe"
    path.write_text(text)
    result = run_cli("replay", "--every", str(path))
    assert result.returncode == 1 and "internal error" not in result.stderr
    assert f"{path}:" in result.stdout and "error:" in result.stdout


@pytest.mark.slow
def test_the_parsers_are_built_once_and_cached_across_runs(tmp_path):
    """Lark's parser cache must be hit by the next run: a cache key that changed with every
    process rebuilt every grammar on every start and left a new file in $TMPDIR each time.
    The terminal tables are cached apart from the user's, which tests beside this one may
    empty or fill between its runs (a table missing then is one more Lark load)."""
    env = {**os.environ, "TMPDIR": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "tables")}
    varied = tmp_path / "varied.tilewe"  # a variation: the full parse, which needs Lark
    varied.write_text('[Game "tilewe"]\n[Players "2"]\n\n1. W5n-a1a1 (1. I2n-a1a1) 2. I2n-a1t1\n')
    samples = [str(SAMPLES / game) for game in ("tilewe", "flows", "philosophy", "nomic")]
    samples.append(str(varied))
    counts = []
    for _ in range(3):
        done = subprocess.run(notation_exe() + ["validate", *samples], env=env,
                              capture_output=True, text=True, timeout=HANG_BREAKER)
        assert done.returncode == 0, done.stderr
        counts.append(len(list(tmp_path.glob(".lark_cache*"))))
    assert counts[0] > 0 and counts[0] == counts[1] == counts[2], counts


# -- validate: what it says, what it reads -------------------------------------------------

def test_one_ply_is_singular(tmp_path):
    path = write(tmp_path, "x.tilewe", TILEWE + "1. W5n-a1a1\n")
    assert "ok, 1 ply\n" in run_cli("validate", str(path)).stdout


@pytest.mark.parametrize("data", [b"", b"\xef\xbb\xbf", b"\n\n  \n"])
def test_empty_input_is_a_warning(tmp_path, data):
    path = write(tmp_path, "x.tilewe", data)
    result = run_cli("validate", str(path))
    assert result.returncode == 0 and f"{path}: warning: no games" in result.stderr
    result = run_cli("validate", "--game", "tilewe", "-", input="")
    assert result.returncode == 0 and "<stdin>: warning: no games" in result.stderr


@pytest.mark.slow
def test_control_characters_are_escaped_in_messages(tmp_path):
    path = write(tmp_path, "x.tilewe", TILEWE + '1. W5n-a1a1 2. \x1b]0;owned\x07\n')
    for args in (("validate",), ("validate", "--color")):
        result = run_cli(*args, str(path))
        assert "\x1b]0" not in result.stdout and "\x07" not in result.stdout
        assert "\\x1b]0" in result.stdout
    bad_tag = write(tmp_path, "y.tilewe", '[Game "tilewe"]\n[Players "\x1b[2J"]\n')
    result = run_cli("validate", str(bad_tag))
    assert "\x1b[2J" not in result.stdout and "\\x1b[2J" in result.stdout


@pytest.mark.slow
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


@pytest.mark.slow
def test_quiet_prints_only_problems(tmp_path):
    result = run_cli("validate", "-q", str(SAMPLES / "tilewe"))
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    bad = tmp_path / "bad.tilewe"
    bad.write_text('[Game "tilewe"]\n[Players "2"]\n\n1. Q5n-a1a1\n')
    result = run_cli("validate", "-q", str(SAMPLES / "tilewe"), str(bad))
    assert result.returncode == 1 and result.stderr == ""
    assert result.stdout.count("\n") == 1 and "error:" in result.stdout


# -- fmt, convert and diff refuse ----------------------------------------------------------

@pytest.mark.slow
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


@pytest.mark.slow
def test_diff_with_a_directory_is_a_usage_error(tmp_path):
    path = write(tmp_path, "x.tilewe", TILEWE)
    for args in ((str(path), str(tmp_path)), (str(tmp_path), str(tmp_path))):
        result = run_cli("diff", *args)
        assert result.returncode == 2 and "is a directory" in result.stderr


# -- colour --------------------------------------------------------------------------------

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


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_command_s_one_line_help_is_written_once(name):
    """The summary is ``main.COMMANDS``'s (what ``notation --help`` lists without loading
    the command); the command's own help starts with it and its docstring does not say it
    again."""
    module, attribute, summary = COMMANDS[name]
    command = getattr(importlib.import_module(f"notation.cli.{module}"), attribute)
    doc = " ".join((command.callback.__doc__ or "").split())
    assert summary.rstrip(".").lower() not in doc.lower()
    shown = invoke(name, "--help").output
    assert " ".join(shown.split("\n\n")[1].split()) == summary
    assert invoke(name, "--help").output == shown  # (asked twice: said once)
