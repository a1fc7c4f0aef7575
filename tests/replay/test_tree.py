"""Game trees, python-chess's shape, in every game: a record read as a tree of nodes
(moves with comments, annotations and commands), walked, edited (every added move checked
against the rules) and written back to a record that formats, parses and replays to the
same tree.
"""
from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import notation
from notation.core.tree import ChildNode, GameNode, Node, TreeError, lenient_tree

from conftest import SAMPLES
from test_positions import GAMES, NEW_OPTIONS, snapshot
from test_variations import a_tree_with_variations, random_tree

HEAD = '[Game "tilewe"]\n[Players "2"]\n\n'


def nodes(root: Node) -> list[Node]:
    """Every node, depth first, main continuations first."""
    found, stack = [], [root]
    while stack:
        node = stack.pop()
        found.append(node)
        stack += reversed(node.variations)
    return found


def words(node: Node) -> tuple:
    return (list(node.nags), node.comment, node.starting_comment, dict(node.commands))


def lines(root: GameNode) -> dict[tuple[str, ...], tuple]:
    """Every node by its path of moves (as text), with what it says."""
    return {tuple(str(move) for move in node.path()): words(node) for node in nodes(root)}


def written(tree: GameNode) -> str:
    """The record written from its tree (walked first, so the nodes are the record)."""
    tree.variations
    return notation.format_record(tree)


def read(text: str, game: str | None = None) -> GameNode:
    (record,) = notation.parse(text, game)
    return record


# -- reading and writing -------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6))
def test_random_trees_go_to_a_tree_and_back_to_the_same_text(game, seed):
    record = random_tree(game, seed)
    text, events = notation.format_record(record), record.events
    assert written(record) == text
    again = read(text, game)
    assert written(again) == text
    assert lines(again) == lines(record)
    assert notation.run(again).valid  # the body written from the nodes replays
    assert again.mainline_moves() == events


@pytest.mark.parametrize("game", GAMES)
def test_sample_records_are_written_back_as_fmt_writes_them(game):
    for path in sorted((SAMPLES / game).glob(f"*.{game}")):
        for record in notation.load(path):
            if notation.run(record).valid:
                as_read = notation.format_record(record)
                assert written(record) == as_read, path


def test_how_comments_are_placed_in_the_tree():
    tree = read(HEAD + "{before the game} 1. W5n-a1a1! $14 {[%clk 0:01:30] first} ; second\n"
                "2. I2n-a1t1 {[%clk 0:01:20]} ( {why not} 2. O1n-a1t1?? {[%eval -1.5] no} )\n"
                "{after the variation} () ( {empty} ) 3. F5e-a2d4\n")
    assert tree.comment == "before the game"
    first = tree.next()
    assert first.nags == [1, 14]
    assert first.comment == "first second"  # several comments: joined with a space
    assert first.commands == {"clk": "0:01:30"} and first.clock() == 90.0
    second = first.next()
    assert second.comment == "after the variation empty"  # after ')' and in '()': its own
    assert second.commands == {"clk": "0:01:20"}
    other = first.variation(1)
    assert other.starting_comment == "why not" and other.comment == "no"
    assert other.nags == [4] and other.eval() == -1.5 and other.clock() is None
    assert written(tree) == HEAD + (
        "{before the game} 1. W5n-a1a1! $14 {[%clk 0:01:30] first} ; second\n"
        "2. I2n-a1t1 {[%clk 0:01:20]} {after the variation} {empty} ({why not}\n"
        "2. O1n-a1t1?? {[%eval -1.5] no}) 3. F5e-a2d4\n")
    assert lines(read(written(tree))) == lines(tree)


def test_an_alternative_to_a_variations_first_move_is_one_more_at_that_point():
    tree = read(HEAD + "1. W5n-a1a1 2. I2n-a1t1 (2. O1n-a1t1 (2. I2e-b1t1) 3. F5e-a2d4)\n")
    assert [str(n.move) for n in tree.next().variations] == ["I2n-a1t1", "O1n-a1t1", "I2e-b1t1"]
    assert written(tree) == HEAD + (
        "1. W5n-a1a1 2. I2n-a1t1 (2. O1n-a1t1 3. F5e-a2d4) (2. I2e-b1t1)\n")


def test_a_changed_node_is_written_afresh_and_reads_back_the_same():
    tree = read(HEAD + "1. W5n-a1a1 {fine} 2. I2n-a1t1\n")
    node = tree.next()
    node.comment = "a } brace and [%clk 1:00] text"  # no brace comment can hold this as text
    node.set_clock(61.25)
    node.set_eval(0.5)
    node.next().starting_comment = "moved"
    text = written(tree)
    assert text == HEAD + ("1. W5n-a1a1 { [%clk 0:01:01.25] [%eval 0.50] } "
                           "; a } brace and [%clk 1:00] text\n{ moved } 2. I2n-a1t1\n")
    again = read(text)
    # a main continuation's starting comment reads back as the move before's comment
    assert again.next().comment == "a } brace and [%clk 1:00] text moved"
    assert again.next().clock() == 61.25 and again.next().eval() == 0.5
    node.set_clock(None)
    node.set_eval(None)
    assert node.commands == {}
    node.commands["bad key"] = "x"
    with pytest.raises(notation.NotationError, match="cannot be written"):
        tree.items


def test_set_up_lines_stay_where_they_belong():
    text = ("Game: 2-player, Standard Rules\nP1A1T0N     ; no-sharp tile at A1\n"
            "P2A4T1NE\nP1D4T2SE\n...\n")  # the seed's own form (tests/data/flows)
    (record,) = notation.parse(text, "flows")
    assert notation.run(record).valid
    as_read = notation.format_record(record)
    tree = record
    assert [d.text for d in tree.directives] == ["Game: 2-player, Standard Rules"]
    assert [d.text for d in tree.trailer] == ["..."]
    assert written(tree) == as_read
    assert tree.end().position().position() == notation.Position.from_record(record).position()
    (inside,) = notation.parse(text.replace("P2A4T1NE\n", "P2A4T1NE (P2A4T1N ...)\n"), "flows")
    assert notation.run(inside).valid  # the replay reads set-up lines at the top only
    with pytest.raises(TreeError, match="a set-up line inside a variation"):
        inside.variations


@pytest.mark.parametrize("text, message, where", [
    (HEAD + "1. W5n-a1a1 2. X9z-zz\n", "X9z-zz", (4, 16)),
    (HEAD + "1. W5n-a1a1 (1. I2n-a1a1\n", "variation '(' is never closed", (4, 13)),
    (HEAD + "(1. I2n-a1a1) 1. W5n-a1a1\n", "must follow the event", (4, 1)),
    (HEAD.replace("\n\n", '\n[Players "3"]\n\n') + "1. W5n-a1a1\n", "given twice", (3, 1)),
    ('[Game "chess"]\n\n1. e4\n', "unknown game 'chess'", (1, 1)),
])
def test_a_record_the_tree_cannot_hold_is_refused_saying_where(text, message, where):
    (record,) = notation.parse(text, source="x.tilewe")
    with pytest.raises(TreeError, match=re.escape(message)) as caught:
        record.variations
    assert (caught.value.line, caught.value.column) == where
    assert str(caught.value).startswith(f"x.tilewe:{where[0]}:{where[1]}: ")


def test_a_lenient_tree_holds_what_the_tree_refuses():
    """The walk's reading: an unreadable event is a node (``unread``, ``move`` None) and
    the moves after it hang from it; a variation after no move and one never closed are
    read as far as they go; the record itself is not expanded."""
    text = HEAD + "(1. I2n-a1a1) 1. W5n-a1a1 2. X9z-zz 3. F5e-a2d4 (3. I3n-a1s3\n"
    (record,) = notation.parse(text, source="x.tilewe")
    root, lines = lenient_tree(record)
    assert not record.unread and record._children is None  # (not expanded)
    first = root.next()
    assert first is not None and str(first.move) == "W5n-a1a1"
    bad = first.next()
    assert bad is not None and bad.move is None and bad.unread.text == "X9z-zz"
    assert (bad.pos.line, bad.pos.column) == (4, 30)
    after, alternative = bad.variations
    assert [str(after.move), str(alternative.move)] == ["F5e-a2d4", "I3n-a1s3"]
    assert lines[id(record.items)] == [first, bad, after]
    assert len(root.variations) == 1  # the variation before any move is left out
    with pytest.raises(TreeError):
        record.variations  # the record's own tree still refuses


# -- walking -------------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_walking_a_tree(game):
    record, ply = a_tree_with_variations(game)
    events = record.events
    tree = record
    main = tree.mainline()
    assert [n.move for n in main] == tree.mainline_moves() == events == record.events
    assert tree.end() is main[-1] and main[-1].end() is main[-1] and main[-1].next() is None
    assert tree.root() is tree and tree.parent is None and tree.move is None and tree.ply() == 0
    for number, node in enumerate(main, 1):
        assert node.ply() == number and node.root() is tree
        assert node.is_mainline() and node.is_main_variation()
        assert node.parent.next() is node and node.parent.variation(0) is node
        assert node.mainline() == main[number:]
    branch = main[ply - 1]  # the first move with an alternative
    assert len(branch.parent.variations) >= 2
    side = branch.parent.variation(1)
    assert not side.is_main_variation() and not side.is_mainline()
    assert all(not n.is_mainline() for n in side.mainline())
    assert all(n.is_main_variation() for n in side.mainline())
    assert side.ply() == ply and side.path() == [*record.events[:ply - 1], side.move]
    assert branch.parent.variation(side.move) is side
    assert branch.parent.variation(str(side.move)) is side  # read with the game's notation
    assert branch.parent.variation(side) is side
    assert branch.parent.has_variation(side.move) and branch.parent.has_variation(side)
    assert not branch.has_variation(side)  # the node itself is not there
    with pytest.raises(KeyError):
        branch.variation(side)
    with pytest.raises(KeyError):
        branch.variation("not a move at all")
    assert repr(side).startswith(f"<ChildNode at ply {ply}: ")


@pytest.mark.parametrize("game", GAMES)
def test_the_position_of_every_node_is_its_path_pushed_from_the_start(game):
    tree = random_tree(game, 11, plies=8)
    start = notation.new(game, **NEW_OPTIONS[game])
    for node in nodes(tree):
        fresh = start.copy()
        for move in node.path():
            fresh.push(move)
        position = node.position()
        assert snapshot(position) == snapshot(fresh)
        assert position.moves == node.path() and position.ply == node.ply()
    assert node.position() is not node.position()  # fresh every time


def test_an_illegal_move_in_a_read_tree_is_raised_by_position():
    tree = read(HEAD + "1. W5n-a1a1 2. I2n-a1t1 (2. I3n-a1s3 3. F5e-a2d4) 3. F5e-a2d4\n")
    bad = tree.next().variation(1)
    with pytest.raises(notation.IllegalMoveError, match=r"ply 2 \(I3n-a1s3\)"):
        bad.next().position()
    assert tree.end().position().ply == 3


# -- editing -------------------------------------------------------------------------------

def alternatives(node: Node, count: int) -> list:
    """``count`` legal moves at ``node`` that are not already there."""
    taken = [child.move for child in node.variations]
    return [m for m in node.position().legal_moves() if m not in taken][:count]


@pytest.mark.parametrize("game", GAMES)
def test_adding_moves_checks_them_and_keeps_what_is_said(game):
    tree, node = next((tree, n) for seed in range(50)
                      for tree in [random_tree(game, seed, plies=8, depth=0)]
                      for n in tree.mainline() if len(alternatives(n, 2)) == 2)
    before = written(tree)
    first, second = alternatives(node, 2)
    added = node.add_variation(str(first), comment="worth a look", nags=[5, 40],
                               commands={"clk": "0:00:30"})
    assert added.move == first and added.parent is node and node.variations[-1] is added
    assert added.comment == "worth a look" and added.nags == [5, 40] and added.clock() == 30
    main = node.add_main_variation(second, comment="instead")
    assert node.variations[0] is main and node.variations[-1] is added
    here = main.position()
    illegal = next(n.move for n in nodes(tree)[1:] if not here.is_legal(n.move))
    count = len(main.variations)
    with pytest.raises(notation.IllegalMoveError):
        main.add_variation(illegal)
    with pytest.raises(ValueError, match=r"\$0 to \$255"):
        main.add_variation(main.position().legal_moves()[0], nags=[256])
    assert len(main.variations) == count  # nothing added
    end = main.add_line(main.position().legal_moves()[:1], comment="and so on")
    assert isinstance(end, ChildNode) and end.parent is main and end.comment == "and so on"
    assert main.add_line([]) is main
    text = written(tree)
    assert text != before
    again = read(text, game)
    assert lines(again) == lines(tree)
    outcome = notation.run(again)
    assert outcome.valid, outcome.problems[:2]


def test_promote_demote_and_remove_known_answers():
    tree = read(HEAD + "1. W5n-a1a1 2. I2n-a1t1 (2. O1n-a1t1) (2. I2e-b1t1) (2. O1n-a1s1)\n")
    node = tree.next()

    def order() -> list[str]:
        return [str(child.move) for child in node.variations]

    assert order() == ["I2n-a1t1", "O1n-a1t1", "I2e-b1t1", "O1n-a1s1"]
    node.promote("O1n-a1s1")
    assert order() == ["I2n-a1t1", "O1n-a1t1", "O1n-a1s1", "I2e-b1t1"]
    node.demote(0)
    assert order() == ["O1n-a1t1", "I2n-a1t1", "O1n-a1s1", "I2e-b1t1"]
    node.demote(node.variations[-1])  # the last stays last
    node.promote(node.variations[0])  # the first stays first
    assert order() == ["O1n-a1t1", "I2n-a1t1", "O1n-a1s1", "I2e-b1t1"]
    node.promote_to_main("I2e-b1t1")
    assert order() == ["I2e-b1t1", "O1n-a1t1", "I2n-a1t1", "O1n-a1s1"]
    node.remove_variation("O1n-a1t1")
    assert order() == ["I2e-b1t1", "I2n-a1t1", "O1n-a1s1"]
    assert written(tree) == HEAD + "1. W5n-a1a1 2. I2e-b1t1 (2. I2n-a1t1) (2. O1n-a1s1)\n"
    with pytest.raises(KeyError):
        node.remove_variation("O1n-a1t1")
    assert not node.has_variation("O1n-a1t1") and not node.has_variation("nonsense")


@pytest.mark.slow
def test_editing_a_deep_game_needs_no_recursion():
    position = notation.new("nomic", players="Ann Bea")
    while position.ply < 1500 and not position.is_over():
        position.push(position.legal_moves[0])
    tree = notation.GameNode.from_position(position)
    assert tree.end().ply() == position.ply == 1500  # deeper than Python's recursion limit
    copy = tree.copy()
    copy.end().parent.add_variation(copy.end().move, comment="again")
    assert written(tree) == notation.format_record(notation.GameNode.from_position(position))
    assert len(nodes(copy)) == len(nodes(tree)) + 1


@pytest.mark.parametrize("game", GAMES)
def test_a_tree_from_a_position(game):
    position = notation.new(game, **NEW_OPTIONS[game])
    rng = random.Random(3)
    for _ in range(8):
        if position.is_over():
            break
        position.push(rng.choice(position.legal_moves))
    tree = notation.GameNode.from_position(position)
    assert tree.mainline_moves() == position.moves
    assert tree.headers == notation.GameNode.from_position(position).headers
    assert written(tree) == notation.format_record(notation.GameNode.from_position(position))
    assert snapshot(tree.end().position()) == snapshot(position)
    assert snapshot(tree.position()) == snapshot(notation.new(game, **NEW_OPTIONS[game]))


def test_a_tree_from_a_set_up_position_starts_there():
    start = notation.new("tilewe", players=2)
    start.push("W5n-a1a1")
    position = notation.from_position("tilewe", start.position())
    position.push("I2n-a1t1")
    tree = notation.GameNode.from_position(position)
    assert tree.headers["Position"] == start.position()
    assert tree.position().position() == start.position()
    assert tree.end().position().position() == position.position()


def test_a_copy_is_independent():
    tree = read(HEAD + "1. W5n-a1a1 {a} 2. I2n-a1t1 (2. O1n-a1t1)\n")
    copy = tree.copy()
    assert written(copy) == written(tree) and lines(copy) == lines(tree)
    copy.next().comment = "changed"
    copy.next().remove_variation(1)
    copy.headers["Event"] = "copied"
    assert tree.next().comment == "a" and len(tree.next().variations) == 2
    assert "Event" not in tree.headers


def test_a_move_is_found_by_any_spelling_of_it():
    """Two contact tiles of one placement name one move (``Game.event_identity``)."""
    tree = read('[Game "tilewe"]\n[Players "1"]\n\n1. O1n-a1t1 2. I3n-a1s2 3. U5s-c1t5\n')
    before, placed = tree.end().parent, tree.end()
    assert before.variation("U5s-a1r5") is placed and before.has_variation("U5s-a1r5")
    assert not before.has_variation("U5s-c1s5")  # one tile over: another move


# -- how deep variations nest: the reader's bound is the writer's ---------------------------

def nested(depth: int) -> GameNode:
    """A tree whose last move is ``depth`` variations deep: at each ply an alternative
    goes first and the line goes on in the variation (moves unchecked: only the text is
    read here)."""
    tree = read(HEAD)
    node: Node = tree
    for _ in range(depth):
        ChildNode(node, notation.tilewe.Move.parse("W5n-a1a1"))
        node = ChildNode(node, notation.tilewe.Move.parse("I2n-a1t1"))
    return tree


def test_the_writer_refuses_variations_nested_deeper_than_the_reader_reads():
    from notation.core.limits import MAX_VARIATION_DEPTH

    text = written(nested(MAX_VARIATION_DEPTH))
    assert text.count("(") == MAX_VARIATION_DEPTH
    (record,) = notation.parse(text, "tilewe")
    assert not [p for p in notation.run(record).problems if p.kind == "syntax"]
    assert written(record) == text
    for depth in (MAX_VARIATION_DEPTH + 1, 100):
        with pytest.raises(notation.NotationError, match=f"nested deeper than "
                                                         f"{MAX_VARIATION_DEPTH} levels"):
            written(nested(depth))


@pytest.mark.parametrize("format_name", ["json", "blksgf"])
def test_every_format_s_writer_refuses_what_its_reader_reads_no_deeper(format_name):
    """The JSON and Pentobi writers share the readers' one limit: one level deeper than it
    reads is refused, nothing written; JSON as deep as it reads is read back whole."""
    from notation.core import formats
    from notation.core.limits import MAX_VARIATION_DEPTH

    writer = formats.get(format_name)
    with pytest.raises(notation.NotationError, match=f"nested deeper than "
                                                     f"{MAX_VARIATION_DEPTH} levels"):
        writer.write(nested(MAX_VARIATION_DEPTH + 1))
    if format_name == "json":
        text = writer.write(nested(MAX_VARIATION_DEPTH))
        (back,) = notation.parse(text, source="deep.notation.json")
        assert not [p for p in notation.run(back).problems if p.kind == "syntax"]
        assert written(back) == written(nested(MAX_VARIATION_DEPTH))


# -- a record is its tree's root -----------------------------------------------------------

def test_a_record_is_read_replayed_and_written_without_making_its_tree(monkeypatch):
    """The tree is made on first walk (sgfmill's unexpanded root): reading, validating and
    writing a record never make a node."""
    made = []
    monkeypatch.setattr(ChildNode, "__init__", lambda self, *args: made.append(args))
    (record,) = notation.parse(HEAD + "1. W5n-a1a1 {a note} 2. I2n-a1t1 (2. O1n-a1t1)\n")
    assert type(record) is GameNode and notation.run(record).valid
    text = notation.format_record(record)
    assert record.events and record.has_variations and record.event_count == 2
    assert made == [] and text.endswith("1. W5n-a1a1 {a note} 2. I2n-a1t1 (2. O1n-a1t1)\n")


def test_a_record_with_a_problem_validates_and_is_no_tree():
    """What cannot be read stays in the body for the checks to report; walking it says where."""
    (record,) = notation.parse(HEAD + "1. W5n-a1a1 2. X9z-zz\n", source="x.tilewe")
    outcome = notation.run(record)
    assert not outcome.valid and "X9z-zz" in outcome.error.message
    with pytest.raises(TreeError, match="X9z-zz"):
        record.next()
    assert notation.run(record).problems == outcome.problems  # the body is still as read


def test_the_tree_once_walked_is_the_record():
    (record,) = notation.parse(HEAD + "1. W5n-a1a1 2. I2n-a1t1\n")
    record.next().add_main_variation("O1n-a1t1")
    assert [str(e) for e in record.events] == ["W5n-a1a1", "O1n-a1t1"]
    assert notation.format_record(record).endswith("1. W5n-a1a1 2. O1n-a1t1 (2. I2n-a1t1)\n")
    assert notation.run(record).valid and record.has_variations
    record.items = [i for i in record.items if not isinstance(i, notation.Comment)][:1]
    assert [str(e) for e in record.events] == ["W5n-a1a1"] and record.mainline()[0].next() is None


def test_headers_are_a_live_view_of_the_tag_lines():
    (record,) = notation.parse('[Game "tilewe"]\n[Event "a"]\n[Event "b"]\n\n1. W5n-a1a1\n')
    headers = record.headers
    assert headers["Event"] == "b" and headers.get("Event") == "b"  # the last line wins
    assert list(headers) == ["Game", "Event"] and len(headers) == 2 and "Event" in headers
    assert headers == {"Game": "tilewe", "Event": "b"} and headers.get("Site") is None
    headers["Event"] = "club night"  # both lines rewritten: the record says one thing
    headers["Site"] = "home"
    assert [(t.key, t.value) for t in record.tags] == [
        ("Game", "tilewe"), ("Event", "club night"), ("Event", "club night"), ("Site", "home")]
    del headers["Event"]
    assert "Event" not in record.headers and notation.format_record(record).startswith(
        '[Game "tilewe"]\n[Site "home"]\n')
    with pytest.raises(KeyError):
        del headers["Event"]
    with pytest.raises(TypeError):
        headers["Round"] = 3


@given(st.lists(st.tuples(st.sampled_from(["Game", "Event", "Site", "X"]),
                          st.text("ab\"", max_size=3)), max_size=8))
def test_headers_as_a_dict_are_the_mapping_copied(tags: list[tuple[str, str]]) -> None:
    record = GameNode("tilewe", [notation.Tag(key, value) for key, value in tags])
    headers = record.headers
    copied = headers.as_dict()
    assert copied == dict(headers) and list(copied) == list(headers)
    # items and values as the mapping's own views give them (a key where it first
    # appears, its last value), and each present key found
    assert list(headers.items()) == [(key, headers[key]) for key in headers]
    assert list(headers.values()) == [headers[key] for key in headers]
    assert all(key in headers for key, _ in tags) and "Round" not in headers


def test_a_record_from_a_position_refuses_a_set_up_the_game_cannot_start_from():
    position = notation.from_position("nomic", notation.new("nomic").position())
    with pytest.raises(notation.Error, match="cannot start from a set-up position"):
        GameNode.from_position(position)


def test_replacing_the_first_moves_keeps_the_set_up_lines():
    record = notation.GameNode.from_position(notation.new("sanguine", seed=3))
    record.variations = []  # (the decks are set-up lines, read before the moves are set)
    assert notation.format_record(record).count("deck") >= 2
    assert notation.run(record).valid
