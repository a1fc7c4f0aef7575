"""``notation strip``: pgn-extract's -V, -C, -N (and --commands) with known answers."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import notation
from notation.archive import Strip
from notation.core.ast import Comment, Directive, EventNode, Variation

from conftest import SAMPLES, invoke
from test_positions import GAMES
from test_variations import random_tree

TREE = """[Game "tilewe"]
[Players "2"]

1. W5n-a1a1! $14 {[%clk 0:01:30] [%eval 0.3] sharp} (1. I2n-a1a1?? {[%clk 0:01:00]})
2. I2n-a1t1 ; a line comment
"""
HEAD = '[Game "tilewe"]\n[Players "2"]\n\n'

EXPECTED = {
    ("-V",): HEAD + "1. W5n-a1a1! $14 {[%clk 0:01:30] [%eval 0.3] sharp} 2. I2n-a1t1\n"
                    "; a line comment\n",
    ("-C",): HEAD + "1. W5n-a1a1! $14 (1. I2n-a1a1??) 2. I2n-a1t1\n",
    ("-N",): HEAD + "1. W5n-a1a1 {[%clk 0:01:30] [%eval 0.3] sharp} (1. I2n-a1a1 {[%clk 0:01:00]})\n"
                    "2. I2n-a1t1 ; a line comment\n",
    ("--commands",): HEAD + "1. W5n-a1a1! $14 { sharp } (1. I2n-a1a1??) 2. I2n-a1t1 ; a line comment\n",
    ("-V", "-C", "-N"): HEAD + "1. W5n-a1a1 2. I2n-a1t1\n",
}


@pytest.mark.parametrize("flags", list(EXPECTED), ids=" ".join)
def test_strip_known_answers(tmp_path: Path, flags):
    path = tmp_path / "tree.tilewe"
    path.write_text(TREE)
    result = invoke("strip", *flags, str(path))
    assert result.exit_code == 0, result.output
    assert result.output == EXPECTED[flags]
    assert path.read_text() == TREE  # printed, not rewritten


def test_strip_in_place_and_check(tmp_path: Path):
    path = tmp_path / "tree.tilewe"
    path.write_text(TREE)
    assert invoke("strip", "-V", "--check", str(path)).exit_code == 1
    assert invoke("strip", "-V", "-i", str(path)).exit_code == 0
    assert path.read_text() == EXPECTED[("-V",)]
    assert invoke("strip", "-V", "--check", str(path)).exit_code == 0


def test_a_bad_variation_is_no_obstacle_to_removing_it_but_is_to_anything_else(tmp_path: Path):
    path = tmp_path / "bad.tilewe"
    path.write_text(HEAD + "1. W5n-a1a1 2. I2n-a1t1 (2. I3n-a1s3) 3. F5e-a2d4\n")
    kept = invoke("strip", "-N", str(path))
    assert kept.exit_code == 1 and "in variation 1 after ply 1" in kept.output
    assert "nothing was written" in kept.output
    gone = invoke("strip", "-V", str(path))
    assert gone.exit_code == 0 and gone.output == HEAD + "1. W5n-a1a1 2. I2n-a1t1 3. F5e-a2d4\n"


def test_strip_needs_something_to_remove(tmp_path: Path):
    path = tmp_path / "tree.tilewe"
    path.write_text(TREE)
    result = invoke("strip", str(path))
    assert result.exit_code == 2 and "say what to strip" in result.output


def test_line_games_keep_their_set_up_lines_and_lose_their_comment_lines():
    text = ('[Game "nomic"]\n[Players "Ann Bea"]\n\nround 1 # first\nturn Ann\nroll 2 !\n'
            '(\nroll 4 ?\n{[%eval 1]}\nmove EEEE\n)\nmove EE\n')
    (record,) = notation.parse(text)
    stripped = Strip(variations=True, comments=True, annotations=True).record(record)
    assert notation.format_record(stripped) == (
        '[Game "nomic"]\n[Players "Ann Bea"]\n\nround 1\nturn Ann\nroll 2\nmove EE\n')
    (played,) = notation.parse((SAMPLES / "sanguine" / "example-1.sanguine").read_text())
    assert any(isinstance(i, Comment) for i in played.items)
    assert (Strip(comments=True).record(played).items
            == [i for i in played.items if not isinstance(i, Comment)])
    (decks,) = notation.parse(notation.format_record(random_tree("sanguine", 3)))
    kept = Strip(variations=True, comments=True).record(decks).items
    assert [i for i in kept if isinstance(i, Directive)] == [
        i for i in decks.items if isinstance(i, Directive)] != []


def count(items: list, kind: type) -> int:
    return sum((isinstance(i, kind)) + (count(i.items, kind) if isinstance(i, Variation) else 0)
               for i in items)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6))
def test_stripping_random_trees_removes_exactly_what_was_asked(game, seed):
    tree = random_tree(game, seed)
    (read,) = notation.parse(notation.format_record(tree), game)
    bare = Strip(variations=True, comments=True, annotations=True).record(read)
    assert bare.events == read.events and notation.run(bare).valid
    assert count(bare.items, Variation) == count(bare.items, Comment) == 0
    assert not any(i.nags for i in bare.items if isinstance(i, EventNode))
    no_commands = Strip(commands=True).record(read)
    assert count(no_commands.items, Variation) == count(read.items, Variation)
    assert not any(isinstance(i, Comment) and i.commands for i in no_commands.items)
    assert Strip().record(read) is read
