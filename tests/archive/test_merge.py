"""``notation merge``: annotated copies of one game merged into one tree, with known
answers (tests/data/merge), merging a record with itself (a variation replaying the move
beside it folds into it), the order of the copies, random trees split into copies that
merge back to every line of both, and what is refused (another game, start, rules or
notation; a merged tree no record can hold), so that what is written always validates.
"""
from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import notation
from notation.archive.merge import Conflict, MergeError, merge_trees, merged_text
from notation.cli.main import cli
from notation.core.ast import Comment, EventNode, Item, Tag, Variation
from notation.core.tree import ChildNode, GameNode, Node
from notation.games.tilewe.bitboard import move_mask
from notation.games.tilewe.pieces import PIECE_SIZES

from conftest import DATA, SAMPLES, invoke
from test_positions import GAMES
from test_tilewe_moves import pentobi_games
from test_tree import lines, nodes, written
from test_variations import annotations_for, random_tree

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
    return notation.load(path)[index]


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
    assert notation.run(tree_).valid


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
    itself = record.copy()
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


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6))
def test_random_trees_split_in_two_copies_merge_back_to_every_line_of_both(game, seed):
    record = random_tree(game, seed)
    # (an alternative that is another spelling of the move it replaces folds into it:
    # the merging-with-itself tests hold those)
    merged = merge_trees([record.copy()])[0]
    assume(len(nodes(merged)) == len(nodes(record.copy())))
    mine, theirs = split(record.items, random.Random(seed))
    copies = [(record.rewritten(items)).copy() for items in (mine, theirs)]
    whole = lines(record.copy())
    for order in (copies, copies[::-1]):
        tree_, conflicts = merge_trees(order)
        assert conflicts == []
        assert lines(tree_) == whole  # every line, each move with all that was said of it
        assert set(lines(order[0])) | set(lines(order[1])) == set(whole)
        assert len(nodes(tree_)) == len(whole)
        assert notation.run(notation.parse(written(tree_), game)[0]).valid


# -- merging a record with itself ----------------------------------------------------------

def clocked(rng: random.Random) -> dict[str, str]:
    return {"clk": f"0:0{rng.randrange(10)}:{rng.randrange(10)}0"} if rng.random() < 0.6 else {}


def echoed(items: list[Item], rng: random.Random) -> list[Item]:
    """``items`` with, after some events, a variation that plays the same event again (as
    one written beside the mainline would): with a comment before it, after it, a glyph,
    a ``$N``, a clock, and going on as the line goes on (now and then the whole of it)."""
    out: list[Item] = []
    for at, item in enumerate(items):
        out.append(Variation(echoed(item.items, rng)) if isinstance(item, Variation) else item)
        if not isinstance(item, EventNode) or rng.random() > 0.35:
            continue
        inner: list[Item] = []
        if rng.random() < 0.5:
            inner.append(Comment.make(f"opening{at}", clocked(rng)))
        inner.append(EventNode(item.event, nags=annotations_for(rng)))
        if rng.random() < 0.5:
            inner.append(Comment.make(rng.choice(["", f"echo{at}"]), clocked(rng)))
        rest = [i for i in items[at + 1:] if isinstance(i, (EventNode, Comment, Variation))]
        inner += rest if rng.random() < 0.3 else rest[:rng.randrange(4)]
        out.append(Variation(inner))
    return out


def said_at(root: GameNode) -> dict[tuple[str, ...], list[Node]]:
    """Every node by its path of moves (``Game.event_identity``), several where a line
    plays a move twice."""
    identity = root.rules.event_identity
    found: dict[tuple[str, ...], list[Node]] = {}
    for node in nodes(root):
        found.setdefault(tuple(map(identity, node.path())), []).append(node)
    return found


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6))
def test_merging_a_record_with_itself_is_merging_it_alone(game, seed):
    """merge(x, x) == merge(x) for trees whose variations replay the move beside them: such
    a variation folds into that move whole, every word of it kept at that move (none moves
    to another, once written and read back), and what is written validates."""
    rng = random.Random(seed)
    record = random_tree(game, seed)
    record = record.rewritten(echoed(record.items, rng))
    original = notation.parse(notation.format_record(record), game)[0]
    alone, _ = merge_trees([original])
    text = written(alone)
    assert written(merge_trees([original, original])[0]) == text
    assert written(merge_trees([original, original, original])[0]) == text
    assert merged_text(alone) == text
    (read_back,) = notation.parse(text, game)
    assert notation.run(read_back).valid
    before, after = said_at(original), said_at(read_back)
    assert before.keys() == after.keys()  # the same lines, each once
    assert all(len(found) == 1 for found in after.values())
    for path, found in before.items():
        (merged_node,) = after[path]
        words = f"{merged_node.starting_comment} {merged_node.comment}"
        for node in found:
            assert node.comment in words and node.starting_comment in words, (path, text)
            assert set(node.nags) <= set(merged_node.nags)
            assert node.commands.keys() <= merged_node.commands.keys()


def test_a_variation_of_the_mainline_s_own_move_folds_into_it(tmp_path: Path):
    path = tmp_path / "echo.tilewe"
    path.write_text('[Game "tilewe"]\n[Players "2"]\n\n'
                    '1. W5n-a1a1 {main} (1. W5n-a1a1! {[%clk 0:01:00] other} 2. I2n-a1t1)\n'
                    '( {opening} 1. W5n-a1a1 {third}) 2. I2n-a1t1 3. F5e-a2d4\n')
    expected = ('[Game "tilewe"]\n[Players "2"]\n\n'
                '1. W5n-a1a1! { [%clk 0:01:00] main other opening third } 2. I2n-a1t1\n'
                '3. F5e-a2d4\n')
    for copies in ([path], [path, path]):
        result = merged(*copies)
        assert result.exit_code == 0 and result.stdout == expected and result.stderr == ""


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


def fixed_corners_game() -> str:
    """A whole random game under Blokus's rules (``[Corners "fixed"]``), with its result."""
    record = notation.parse(pentobi_games(11, 1), "tilewe")[0]
    outcome = notation.run(record)
    record.tags += [Tag(k, v) for k, v in outcome.game.result_tags(outcome.state).items()]
    return notation.format_record(record)


def refused(result, path: Path, message: str) -> None:
    """``merge`` refused one copy in one line (and its closing count), wrote nothing."""
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f"{path}:{message}", "merge: not merged: 1 game refused (listed above); nothing was "
                             "written"]


def test_copies_under_other_rules_are_refused(tmp_path: Path):
    """Blokus's corners on one copy only: the same moves, under other rules."""
    fixed, plain = tmp_path / "fixed.tilewe", tmp_path / "plain.tilewe"
    fixed.write_text(fixed_corners_game())
    plain.write_text(fixed.read_text().replace('[Corners "fixed"]\n', ""))
    assert invoke("validate", str(fixed), str(plain)).exit_code == 0
    refused(merged(fixed, plain), plain, f"1:1: error: game 1: no [Corners] tag, but "
            f"[Corners \"fixed\"] in {fixed} game 1 (a tag tilewe reads: its rules, set-up or "
            f"notation): not merged")
    refused(merged(plain, fixed), fixed, f"3:1: error: game 1: [Corners \"fixed\"], but no "
            f"[Corners] tag in {plain} game 1 (a tag tilewe reads: its rules, set-up or "
            f"notation): not merged")


#: Copies' tags that spell one start: a default given or left out, a number's spelling,
#: a tag the game keeps only for people (Philosophy's players are who joins).
SAME_START = [
    ("tilewe", "", '[Players "4"]\n', "1. W5n-a1a1 2. I2n-a1t1\n"),
    ("tilewe", '[Players "4"]\n', '[Players "04"]\n', "1. W5n-a1a1 2. I2n-a1t1\n"),
    ("tilewe", '[Corners "any"]\n', "", "1. W5n-a1a1 2. I2n-a1t1\n"),
    ("tilewe", '[Players "2"]\n[Owners "1 2"]\n[Scoring "tiles"]\n', '[Players "2"]\n',
     "1. W5n-a1a1 2. I2n-a1t1\n"),
    ("philosophy", '[Players "2"]\n', '[Players "3"]\n', "1. In+:indigo 2. Sa+\n"),
    ("flows", '[Perspective "P1"]\n', '[Perspective "side:0"]\n',
     "Game: 2-player, Standard Rules\n1. P1A1T0N\n"),
]


@pytest.mark.parametrize("game, mine, theirs, moves", SAME_START)
def test_copies_whose_tags_spell_one_start_merge(tmp_path: Path, game, mine, theirs, moves):
    """The start is compared by what it means, not by the tags' text."""
    paths = tmp_path / f"a.{game}", tmp_path / f"b.{game}"
    for path, tags in zip(paths, (mine, theirs)):
        path.write_text(f'[Game "{game}"]\n{tags}\n{moves}')
        assert invoke("validate", str(path)).exit_code == 0, path.read_text()
    for copies in (paths, paths[::-1]):
        result = merged(*copies)
        assert result.exit_code == 0, result.output
        assert "error" not in result.stderr and notation.run(
            notation.parse(result.stdout, game)[0]).valid


def test_copies_from_other_set_ups_stay_refused_in_one_line(tmp_path: Path):
    """The same moves under other rules, or for another number of players; the same game
    written from another side (its moves read otherwise)."""
    moves = "1. W5n-a1a1 2. I2n-a1t1\n"
    plain = tmp_path / "plain.tilewe"
    plain.write_text(f'[Game "tilewe"]\n[Players "4"]\n\n{moves}')
    scoring = tmp_path / "scoring.tilewe"
    scoring.write_text(f'[Game "tilewe"]\n[Scoring "blokus"]\n\n{moves}')
    owners = tmp_path / "owners.tilewe"
    owners.write_text(f'[Game "tilewe"]\n[Owners "1 2 1 2"]\n\n{moves}')
    two = tmp_path / "two.tilewe"
    two.write_text(f'[Game "tilewe"]\n[Players "2"]\n\n{moves}')
    for path in (scoring, owners):
        key = path.read_text().splitlines()[1]
        refused(merged(plain, path), path, f"2:1: error: game 1: {key}, but no "
                f"[{key[1:key.index(' ')]}] tag in {plain} game 1 (a tag tilewe reads: its "
                f"rules, set-up or notation): not merged")
    refused(merged(plain, two), two, f"1:1: error: game 1: it starts from another position "
            f"than {plain} game 1: not merged")
    original, viewed = SAMPLES / "flows" / "flows-000.flows", SAMPLES / "flows" / (
        "flows-000.as-P2.flows")  # one game, its moves written from another side
    refused(merged(original, viewed), viewed, f"8:1: error: game 1: [Perspective \"P2\"], but "
            f"no [Perspective] tag in {original} game 1 (a tag flows reads: its rules, set-up "
            f"or notation): not merged")


def test_a_start_is_built_once_for_every_copy_of_one_set_up(tmp_path: Path, monkeypatch):
    """Forty copies, each with its own [Event] but one set-up: a handful of starts built,
    not one a copy."""
    rules = notation.get_game("tilewe")
    built = []
    start = type(rules).start
    monkeypatch.setattr(type(rules), "start", lambda self, record: built.append(1) or start(
        self, record))
    copies = [record for record in notation.parse("\n".join(
        f'[Game "tilewe"]\n[Event "round {n}"]\n[Players "{"04" if n % 2 else "4"}"]\n\n'
        f'1. W5n-a1a1 2. I2n-a1t1\n' for n in range(40)), "tilewe")]
    merge_trees(copies)
    assert len(built) <= 6


def test_a_copy_given_twice_says_each_conflict_once(tmp_path: Path):
    """``merge x x``: the second copy of x meets the same conflicts: each said once."""
    archive = tmp_path / "copies.tilewe"
    archive.write_text(ANN.read_text() + "\n" + BEA.read_text())
    twice = merged(archive, archive)
    assert twice.exit_code == 0 and twice.stdout == MERGED.read_text()
    after = ANN.read_text().count("\n") + 1  # lines before Bea's copy in the archive
    assert twice.stderr.splitlines() == [
        warning.replace(f"{BEA}:4:", f"{archive}:{4 + after}:")
        .replace(f"{BEA}:7:", f"{archive}:{7 + after}:").replace("game 1", "game 2")
        for warning in WARNINGS]
    again = merged(ANN, BEA, BEA)
    assert again.exit_code == 0 and again.stderr.splitlines() == WARNINGS


def test_a_copy_in_another_notation_of_the_game_is_refused(tmp_path: Path):
    original = SAMPLES / "flows" / "flows-000.flows"
    dialect = tmp_path / "app.flows"
    dialect.write_text(invoke("convert", "--to", "quortextt", str(original)).stdout)
    assert invoke("validate", str(dialect)).exit_code == 0
    result = merged(original, dialect)
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.splitlines()[0].startswith(
        f"{dialect}:8:1: error: game 1: [Dialect \"quortextt\"], but no [Dialect] tag in "
        f"{original} game 1")


def test_result_tags_say_where_the_merged_mainline_ends(tmp_path: Path):
    """A copy of the first three moves (``[Result "*"]``) merged with the whole game, in
    either order: the merged mainline is the whole game, and so are its result tags."""
    whole = tmp_path / "whole.tilewe"
    whole.write_text(fixed_corners_game())
    (game,) = notation.load(whole)
    opening = tmp_path / "opening.tilewe"
    opening.write_text(notation.format_record(game.without_variations().rewritten(
        [EventNode(e) for e in game.events[:3]],
        [Tag(t.key, "*" if t.key == "Result" else t.value) for t in game.tags
         if t.key != "Scores"])))
    assert invoke("validate", str(opening)).exit_code == 0
    for copies in ([opening, whole], [whole, opening]):
        result = merged(*copies, "-o", tmp_path / "merged.tilewe")
        assert result.exit_code == 0 and result.stderr == "", result.output
        assert invoke("validate", str(tmp_path / "merged.tilewe")).exit_code == 0
        (out,) = notation.load(tmp_path / "merged.tilewe")
        assert out.events == game.events
        assert out.headers["Result"] == game.headers["Result"] != "*"
    assert merged(opening, whole).stdout.index("[Scores") > merged(
        opening, whole).stdout.index("[Result")  # a tag the first copy lacked comes after


def test_a_pentobi_file_merges_with_its_tilewe_copy(tmp_path: Path):
    """The merged game is read back as Tilewe text, whatever the first copy's file was."""
    tilewe, sgf = tmp_path / "game.tilewe", tmp_path / "game.blksgf"
    tilewe.write_text(fixed_corners_game())
    sgf.write_text(invoke("convert", "--to", "blksgf", str(tilewe)).stdout)
    out = tmp_path / "merged.tilewe"
    for copies in ([sgf, tilewe], [sgf, sgf]):
        result = merged(*copies, "-o", out)
        assert result.exit_code == 0, result.output
        assert invoke("validate", str(out)).exit_code == 0
        rules = notation.get_game("tilewe")
        assert rules.event_keys(notation.load(out)[0]) == rules.event_keys(
            notation.load(tilewe)[0])
        assert notation.load(out)[0].events == notation.load(sgf)[0].events  # as first spelled


def deep_copies(tmp_path: Path) -> tuple[Path, Path]:
    """Two copies of one Tilewe line of 65 moves, each with a dead-end alternative to
    each of its moves (but the first ones of B): in A the alternatives go first for 33
    moves (it ends there), in B for the 32 after those. Each nests its line 33 or 32
    variations deep; A laid first, then B, nests it 65 deep."""
    line = long_line(65)
    a, b = read_tree('[Game "tilewe"]\n\n'), read_tree('[Game "tilewe"]\n\n')
    node_a: Node = a
    node_b: Node = b
    for ply, (move, other) in enumerate(line):
        if ply < 33:
            node_a.add_variation(other)
            node_a = node_a.add_variation(move)
        else:
            node_b.add_variation(other)
        node_b = node_b.add_variation(move)
    paths = tmp_path / "a.tilewe", tmp_path / "b.tilewe"
    for path, tree_ in zip(paths, (a, b)):
        path.write_text(written(tree_))
        assert invoke("validate", str(path)).exit_code == 0
    return paths


def long_line(plies: int) -> list[tuple[object, object]]:
    """A legal 4-player Tilewe line of ``plies`` moves (the largest pieces first make long
    games), each with another move that could have been played instead."""
    for seed in range(50):
        rng, position, line = random.Random(seed), notation.new("tilewe", players=4), []
        while not position.is_over() and len(line) < plies:
            moves = position.legal_moves
            largest = max(PIECE_SIZES[m.piece] for m in moves)
            move = rng.choice([m for m in moves if PIECE_SIZES[m.piece] == largest])
            others = [m for m in moves if move_mask(m) != move_mask(move)]
            if not others:
                break
            line.append((move, others[0]))
            position.push(move)
        if len(line) == plies:
            return line
    raise AssertionError("no line that long")


def read_tree(text: str) -> GameNode:
    return notation.parse(text)[0]


def test_a_merge_nesting_deeper_than_a_reader_reads_is_refused(tmp_path: Path):
    a, b = deep_copies(tmp_path)
    out = tmp_path / "merged.tilewe"
    result = merged(a, b, "-o", out)
    assert result.exit_code == 1 and result.stdout == "" and not out.exists()
    assert result.stderr.splitlines() == [
        f"{a}:1:1: error: game 1: the merged game cannot be written: variations nested "
        f"deeper than 64 levels (a reader reads no deeper): not merged"]
    other_way = merged(b, a, "-o", out)  # B's line first: A's alternatives one level down
    assert other_way.exit_code == 0, other_way.output
    assert invoke("validate", str(out)).exit_code == 0


def test_a_merged_tree_that_would_not_validate_is_not_written():
    """The last guard: what merged_text would write is read back and replayed first."""
    broken = tree(ANN)
    ChildNode(broken.end(), notation.tilewe.Move.parse("W5n-a1a1"))  # unchecked: placed
    with pytest.raises(MergeError) as caught:
        merged_text(broken)
    (refusal,) = caught.value.refusals
    assert refusal.describe("error") == (
        f"{ANN}:1:1: error: game 1: the merged game would not validate (line 8 of it: "
        f"blue has already placed W5): not merged")


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
    (tmp_path / "a-file").write_text("")
    unwritable = merged(ANN, "-o", tmp_path / "a-file" / "out.tilewe")  # no folder there
    assert unwritable.exit_code == 2 and "error: not written" in unwritable.stderr
    with pytest.raises(ValueError):
        merge_trees([])


def test_copies_at_one_node_are_matched_in_linear_work(monkeypatch: pytest.MonkeyPatch):
    """Each copy's move is looked up among the moves laid at its node so far, not compared
    with each of them: the identities worked out grow with the copies, not with their
    square (a node of 200 different first moves), and each comment is kept once."""
    game = notation.get_game("tilewe")
    start = notation.new("tilewe", players=2)
    moves = list(start.legal_moves)[:200]
    assert len(moves) == 200
    text = "\n".join(f'[Game "tilewe"]\n[Players "2"]\n\n1. {game.format_event(move)} '
                     f'{{seen {index % 7}}}\n' for index, move in enumerate(moves))
    copies = notation.parse(text, game, "copies.tilewe")
    calls = 0
    identity = type(game).event_identity

    def counted(self: object, event: object) -> str:
        nonlocal calls
        calls += 1
        return identity(self, event)  # type: ignore[arg-type]

    monkeypatch.setattr(type(game), "event_identity", counted)
    tree, conflicts = merge_trees(copies)
    assert len(tree.variations) == 200 and not conflicts
    assert calls <= 2 * 200  # (one a move laid, and the index of a node's first children)
    assert sorted(node.comment for node in tree.variations) == sorted(
        f"seen {index % 7}" for index in range(200))
