"""Sanguine's deck files as records name them: a path never leads out of the record's
folder, a deck is a regular file of a bounded size, named but never quoted when it is
wrong; values and lines of a deck checked; ``deck check`` on folders and standard input;
the bundled decks played by ``random``."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.games.sanguine.deck import scanned_lines as deck_lines
from notation.games.sanguine.deck import grammar_lines

from conftest import SAMPLES, TILEWE, no_traceback, run_cli, write

DECKS = SAMPLES / "sanguine" / "decks"


# -- deck paths and files ------------------------------------------------------------------

SANGUINE = ('[Game "Sanguine"]\n[Rows "1"]\n[Cols "3"]\n[HandSize "1"]\n'
            '[RedDeck "{red}"]\n[BlueDeck "skirmish.deck"]\n\n')


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
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


# -- deck values and lines, deck check -----------------------------------------------------

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


@pytest.mark.slow
def test_deck_check_takes_folders_and_stdin():
    result = run_cli("deck", "check", str(DECKS))
    assert result.returncode == 0 and result.stdout.count(": ok, ") == 4
    result = run_cli("deck", "check", "-", input=(DECKS / "skirmish.deck").read_text())
    assert result.returncode == 0 and result.stdout.startswith("<stdin>: ok, ")


# -- the bundled decks ---------------------------------------------------------------------

@pytest.mark.slow
def test_random_sanguine_plays_the_bundled_decks(tmp_path):
    """samples/ (with its decks) ships in the wheel; random sanguine needs no deck files."""
    made = run_cli("random", "sanguine", "--seed", "3", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    path = tmp_path / "g.sanguine"
    path.write_text(made.stdout)
    assert run_cli("validate", str(path)).returncode == 0
    named = run_cli("random", "sanguine", "--seed", "3", "--red", "legion", "--blue", "legion",
                    cwd=tmp_path)
    assert named.stdout == made.stdout
    missing = run_cli("random", "sanguine", "--red", "nosuch", cwd=tmp_path)
    assert missing.returncode == 2 and "nosuch" in missing.stderr


#: Pieces deck lines are made of: grid rows (good and near), headers (good, odd costs and
#: values, names with every allowed character), junk, and the blanks the grammar ignores.
DECK_PIECES = st.sampled_from([
    "XXCXX", "XXIXX", "IIIII", "XXXXX", "XXCX", "XXCXXX", "xxcxx", "XX CXX",
    "Guard 1 2", "$5 2 3", "Ha\u00e9 3 10", "name 1", "a b c d", "Fire 4 0", "#x 1 2",
    "junk", "(x)", "\"q\"", "a,b 1 2", "0", "",
    " ", "\t", "\r", "\u00a0", "\u2003", "\x0c", "\x0b",
])


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(lines=st.lists(st.lists(DECK_PIECES, max_size=4).map("".join), max_size=12),
       ending=st.sampled_from(["", "\n", "\r\n"]))
def test_the_deck_scanner_reads_every_text_as_the_grammar_does(lines, ending):
    """The deck reader scans lines with the grammar's own terminals (no Lark at start-up);
    the grammar's parser is the definition it must agree with, token for token."""
    text = "\n".join(lines) + ending
    assert deck_lines(text) == grammar_lines(text)


def test_reading_a_deck_loads_no_parser(tmp_path):
    """A record's decks are read at every start: reading one must not import Lark, once
    a first run has kept the grammar's terminals (in a cache of the test's own: the
    user's may be cold, or made cold by another test, whatever the order)."""
    code = ("import sys; from notation.games.sanguine.deck import load_deck; "
            f"load_deck({str(DECKS / 'ember.deck')!r}); "
            "print(sorted(m for m in sys.modules if m == 'lark' or m.startswith('lark.')))")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    for _ in range(2):  # the first run may derive the terminals; the second reads them
        found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                               check=True, env=env)
    assert found.stdout.strip() == "[]", found.stdout
