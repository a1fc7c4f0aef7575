"""``notation merge``: annotated copies of one game merged into one tree, with known
answers (tests/data/merge), merging a record with itself, the order of the copies, and
random trees split into copies that merge back to every line of both.
"""
from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import notation
from notation.archive.merge import Conflict, MergeError, merge_trees
from notation.cli.main import cli
from notation.core.ast import Comment, EventNode, Item, Variation
from notation.core.tree import GameNode, tree_of

from conftest import DATA, invoke
from test_positions import GAMES
from test_tree import lines, nodes, written
from test_variations import random_tree

ANN, BEA, MERGED = (DATA / "merge" / name for name in ("ann.tilewe", "bea.tilewe",
                                                          "merged.tilewe"))
WARNINGS = [
    f"{BEA}:4:1: warning: game 1: [Annotator \"Bea\"] differs from [Annotator \"Ann\"], "
    f"which is kept",
    f"{BEA}:7:37: warning: game 1, ply 3 (F5e-a2d4): [%clk 0:04:31] differs from "
    f"[%clk 0:04:30], which is kept",
]


def merged(*paths: Path | str):
    """``notation merge PATH...`` through the command line's own group."""
    return CliRunner().invoke(cli, ["merge", *(str(p) for p in paths)])


def tree(path: Path, index: int = 0) -> GameNode:
    return tree_of(notation.load(path)[index])


# -- known answers -------------------------------------------------------------------------

def test_two_annotated_copies_merge_into_the_tree_written_by_hand():
    result = merged(ANN, BEA)
    assert result.exit_code == 0, result.output
    assert result.stdout == MERGED.read_text()
    assert result.stderr.splitlines() == WARNINGS


def test_the_library_gives_the_same_tree_and_leaves_the_copies_alone():
    copies = [tree(ANN), tree(BEA)]
    before = [written(copy) for copy in copies]
    tree_, conflicts = merge_trees(copies)
    assert written(tree_) == MERGED.read_text()
    assert [c.describe() for c in conflicts] == WARNINGS
    assert [written(copy) for copy in copies] == before
    assert notation.run(tree_.to_record()).valid


def test_an_archive_of_copies_merges_into_one_game(tmp_path: Path):
    archive = tmp_path / "copies.tilewe"
    archive.write_text(ANN.read_text() + "\n" + BEA.read_text())
    result = merged(archive)
    assert result.exit_code == 0 and result.stdout == MERGED.read_text()
    assert len(result.stderr.splitlines()) == 2


def test_the_output_file_is_written_whole(tmp_path: Path):
    out = tmp_path / "out.tilewe"
    out.write_text("old\n")
    result = merged(ANN, BEA, "-o", out)
    assert result.exit_code == 0 and result.stdout == ""
    assert out.read_text() == MERGED.read_text()
    assert [p.name for p in tmp_path.iterdir()] == ["out.tilewe"]  # no temporary left


@pytest.mark.parametrize("game", GAMES)
def test_a_record_merged_with_itself_is_fmt_of_it(game, tmp_path: Path):
    record = random_tree(game, 7)
    text = notation.format_record(record)
    itself = tree_of(record)
    tree_, conflicts = merge_trees([itself, itself])
    assert written(tree_) == text and conflicts == []
    path = tmp_path / f"twice.{game}"
    path.write_text(text + "\n" + text)
    result = merged(path, path)
    assert result.exit_code == 0, result.output
    assert result.stdout == text == invoke("fmt", str(path)).output.split("\n\n[Game")[0] + "\n"
    assert result.stderr == ""


def test_merge_is_the_same_whatever_the_order_up_to_variation_order():
    """Merging Bea's copy first gives the same lines, each move with the same annotations
    (as a set), comments and command keys; only the order of variations and annotations
    differs, and the conflicts keep Bea's tag and clock instead of Ann's."""
    ann_first, _ = merge_trees([tree(ANN), tree(BEA)])
    bea_first, conflicts = merge_trees([tree(BEA), tree(ANN)])
    one, other = lines(ann_first), lines(bea_first)
    assert set(one) == set(other)
    for path, (nags, comment, starting, commands) in one.items():
        their_nags, their_comment, their_starting, their_commands = other[path]
        assert sorted(nags) == sorted(their_nags), path
        assert (comment, starting) == (their_comment, their_starting), path
        assert commands.keys() == their_commands.keys(), path
    third = ("W5n-a1a1", "I2n-a1t1", "F5e-a2d4")
    assert one[third][0] == [5, 1] and other[third][0] == [1, 5]
    assert one[third][3]["clk"] == "0:04:30" and other[third][3]["clk"] == "0:04:31"
    assert bea_first.headers["Annotator"] == "Bea"
    assert [str(n.move) for n in ann_first.next().variations] == [
        "I2n-a1t1", "O1n-a1t1", "I2e-b1t1"]
    assert [str(n.move) for n in bea_first.next().variations] == [
        "I2n-a1t1", "I2e-b1t1", "O1n-a1t1"]
    assert [c.source for c in conflicts] == [str(ANN)] * 2


def split(items: list[Item], rng: random.Random) -> tuple[list[Item], list[Item]]:
    """Two copies of a line: each variation goes to one copy or (split again) to both;
    each move's annotations and each comment to one copy or both."""
    first: list[Item] = []
    second: list[Item] = []
    for item in items:
        where = rng.choice(["first", "second", "both"])
        if isinstance(item, Variation):
            if where == "both":
                mine, theirs = split(item.items, rng)
                first.append(Variation(mine))
                second.append(Variation(theirs))
            else:
                (first if where == "first" else second).append(item)
        elif isinstance(item, EventNode):
            first.append(item if where != "second" else replace(item, nags=()))
            second.append(item if where != "first" else replace(item, nags=()))
        elif isinstance(item, Comment):
            if where != "second":
                first.append(item)
            if where != "first":
                second.append(item)
        else:  # set-up lines: both
            first.append(item)
            second.append(item)
    return first, second


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6))
def test_random_trees_split_in_two_copies_merge_back_to_every_line_of_both(game, seed):
    record = random_tree(game, seed)
    mine, theirs = split(record.items, random.Random(seed))
    copies = [tree_of(record.rewritten(items)) for items in (mine, theirs)]
    whole = lines(tree_of(record))
    for order in (copies, copies[::-1]):
        tree_, conflicts = merge_trees(order)
        assert conflicts == []
        assert lines(tree_) == whole  # every line, each move with all that was said of it
        assert set(lines(order[0])) | set(lines(order[1])) == set(whole)
        assert len(nodes(tree_)) == len(whole)
        assert notation.run(notation.parse(written(tree_), game)[0]).valid


# -- what is refused -----------------------------------------------------------------------

def test_another_game_or_another_start_is_refused_and_nothing_written(tmp_path: Path):
    other_start = tmp_path / "four.tilewe"
    other_start.write_text('[Game "tilewe"]\n[Players "4"]\n\n1. W5n-a1a1\n')
    other_game = tmp_path / "game.nomic"
    other_game.write_text('[Game "nomic"]\n[Players "Ann Bea"]\n\nround 1\n')
    out = tmp_path / "out.tilewe"
    result = merged(ANN, other_start, other_game, BEA, "-o", out)
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f"{other_start}:1:1: error: game 1: it starts from another position than {ANN} "
        f"game 1: not merged",
        f"{other_game}:1:1: error: game 1: a nomic game, not tilewe as {ANN} game 1: "
        f"not merged",
        "merge: not merged: 2 games refused (listed above); nothing was written"]
    assert not out.exists()
    with pytest.raises(MergeError) as caught:
        merge_trees([tree(ANN), tree(other_start)])
    assert caught.value.refusals == [Conflict(str(other_start), 1, 1, caught.value.refusals[0]
                                              .message)]


def test_a_copy_with_a_problem_is_refused_and_nothing_written(tmp_path: Path):
    bad = tmp_path / "bad.tilewe"
    bad.write_text(BEA.read_text().replace("(2. I2e-b1t1", "(2. I3n-a1s3"))
    out = tmp_path / "out.tilewe"
    out.write_text("kept\n")
    result = merged(ANN, bad, "-o", out)
    assert result.exit_code == 1
    assert f"{bad}:7:5: error: game 1, ply 2 (I3n-a1s3) in variation 1 after ply 1" in (
        result.stderr)
    assert result.stderr.endswith("1 game refused (listed above); nothing was written\n")
    assert out.read_text() == "kept\n"


def test_a_copy_the_tree_cannot_hold_is_refused_saying_where(tmp_path: Path):
    path = tmp_path / "seed.flows"
    path.write_text("Game: 2-player, Standard Rules\nP1A1T0N\nP2A4T1NE (P2A4T1N ...)\n")
    result = merged(path)
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.splitlines()[0] == (
        f"{path}:3:19: error: game 1: a set-up line inside a variation")


def test_usage_and_input_errors_exit_2_and_write_nothing(tmp_path: Path):
    out = tmp_path / "out.tilewe"
    assert merged().exit_code == 2  # no PATH
    missing = merged(ANN, tmp_path / "missing.tilewe", "-o", out)
    assert missing.exit_code == 2 and "missing.tilewe: error: cannot read" in missing.stderr
    assert not out.exists()
    empty = tmp_path / "empty.tilewe"
    empty.write_text("")
    nothing = merged(empty)
    assert nothing.exit_code == 2 and "merge: error: no games to merge" in nothing.stderr
    unwritable = merged(ANN, "-o", tmp_path / "no" / "such" / "folder.tilewe")
    assert unwritable.exit_code == 2 and "error: not written" in unwritable.stderr
    with pytest.raises(ValueError):
        merge_trees([])
