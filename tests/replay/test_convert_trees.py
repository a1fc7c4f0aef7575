"""``convert`` on game trees: every game's conversion rewrites the mainline and every
variation, keeping numbers, annotations and comments where they were (known answers,
and random trees replayed node by node); ``select --position`` searching variations
(the library filter behind it)."""
from __future__ import annotations

import json
import pickle
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import notation
from notation.archive import FilterError, Filters
from notation.archive.filters import Selector, reaches, selection
from notation.core.ast import Comment, Directive, EventNode, Item, Variation, map_events
from notation.games.philosophy.events import Placement as PhilosophyPlacement
from notation.games.tilewe.symmetry import NAMES, TRANSFORMS

from test_positions import NEW_OPTIONS
from test_variations import random_tree

TREES = settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
INVERSE = {"rot90": "rot270", "rot270": "rot90"}  # the others undo themselves


def converted(text: str, game: str, **options: Any) -> str:
    (record,) = notation.parse(text, game)
    return notation.format_record(notation.get_game(game).convert(record, **options))


def body(text: str) -> str:
    """A record's text after its tags (and Sanguine's deck blocks)."""
    text = text.split("\n\n", 1)[1]
    return text.rsplit("enddeck\n", 1)[-1]


# -- known answers ----------------------------------------------------------------------------

TILEWE = '''[Game "tilewe"]
[Players "2"]

1. W5n-a1a1 (1. I2n-a1a1! {[%eval 0.5] short} 2. I2n-a1t1 (2. O1n-a1t1 $14))
2. I2n-a1t1? {x} 3. O1n-a1d1
'''


def test_tilewe_turns_every_variation_keeping_annotations_and_comments():
    turned = converted(TILEWE, "tilewe", transform="rot90")
    # a1 turns to a20, t1 to a1, d1 to a17 (rot90: file, rank -> rank, 21 - file)
    assert body(turned) == (
        "1. W5e-a3a20 (1. I2e-a1a20! {[%eval 0.5] short} 2. I2e-a1a1 (2. O1n-a1a1 $14))\n"
        "2. I2e-a1a1? {x} 3. O1n-a1a17\n")
    assert notation.run(notation.parse(turned)[0]).valid
    assert converted(turned, "tilewe", transform="rot270") == TILEWE


def test_flows_writes_every_variation_in_one_view_and_back():
    text = ('[Game "flows"]\n[Players "2"]\n\n'
            "1. P1A1T0N {x} (1. P1A2T0N!? 2. P2A4T1NE) 2. P2A4T1NE $7\n")
    as_p2 = converted(text, "flows", perspective="P2")
    assert body(as_p2) == "1. P1G1T0N {x} (1. P1G2T0N!? 2. P2A4T1NE) 2. P2A4T1NE $7\n"
    assert '[Perspective "P2"]' in as_p2
    assert converted(as_p2, "flows", perspective="mover") == text


def sanguine_head() -> str:
    return notation.format_record(notation.GameNode.from_position(notation.new("sanguine", **NEW_OPTIONS["sanguine"])))


def test_sanguine_mirrors_every_variations_columns():
    text = sanguine_head() + (
        "R deal Lantern Kindling Comet\nB deal Reef Undertow Current\nR draw Beacon\n"
        "R place Kindling (1,0) !\n(\nR place Lantern (2,0) ? { [%eval -1.5] }\n"
        "B draw Drizzle\nB place Current (2,4)\n)\nB draw Drizzle\nB place Current (0,4) $10\n")
    assert notation.run(notation.parse(text, "sanguine")[0]).valid
    blue = converted(text, "sanguine", perspective="blue")
    assert body(blue) == (
        "R deal Lantern Kindling Comet\nB deal Reef Undertow Current\nR draw Beacon\n"
        "R place Kindling (1,4) !\n(\nR place Lantern (2,4) ? { [%eval -1.5] }\n"
        "B draw Drizzle\nB place Current (2,0)\n)\nB draw Drizzle\nB place Current (0,0) $10\n")
    assert notation.run(notation.parse(blue, "sanguine")[0]).valid
    assert converted(blue, "sanguine", perspective="red") == text


# Te:C5ReNw opens a choice (Ea No So We), and Ea another (C4 N6); In:C2DeSe opens one
# (C8 E1); In:C7ReNe leaves one open (Ne Nw Se Sw) where the record stops.
PHILOSOPHY = '''[Game "philosophy"]

1. In+ 2. Te+ 3. In:C1PrSo 4. Te:C6DeNw 5. In:C2PuNo (5. In:C3CpNe) 6. Te:C5ReNw!
7. Ea 8. C4 (8. N6 {now} 9. In:C2DeSe 10. C8) 9. In:C7ReNe
'''
PHILOSOPHY_INLINE = '''[Game "philosophy"]

1. In+ 2. Te+ 3. In:C1PrSo 4. Te:C6DeNw 5. In:C2PuNo (5. In:C3CpNe)
6. Te:C5ReNw[Ea! 7. C4 (7. N6 {now} 8. In:C2DeSe[C8]) 8. In:C7ReNe(NeNwSeSw)
'''


def test_philosophy_folds_choices_up_to_a_variation_at_a_choice_and_back():
    # C4 has a variation (N6 instead): an alternative to one choice, so it stays bare and
    # the folding stops there; the variation is converted from the state before C4 (its
    # own placement folds its choice); the line's last placement lists its open options
    inline = converted(PHILOSOPHY, "philosophy", choices="inline")
    assert inline == PHILOSOPHY_INLINE
    assert notation.run(notation.parse(inline)[0]).valid
    separate = converted(inline, "philosophy", choices="separate")
    assert body(separate) == (  # as it was, but for the options of the unfinished move
        "1. In+ 2. Te+ 3. In:C1PrSo 4. Te:C6DeNw 5. In:C2PuNo (5. In:C3CpNe)\n"
        "6. Te:C5ReNw! 7. Ea 8. C4 (8. N6 {now} 9. In:C2DeSe 10. C8)\n"
        "9. In:C7ReNe(NeNwSeSw)\n")
    assert converted(separate, "philosophy", choices="inline") == inline


def test_philosophy_keeps_a_variation_at_the_first_choice_and_annotated_choices_bare():
    text = PHILOSOPHY.replace("7. Ea 8. C4 (8. N6 {now} 9. In:C2DeSe 10. C8)",
                              "7. Ea (7. No {calm}) 8. C4?")
    assert notation.run(notation.parse(text)[0]).valid
    inline = converted(text, "philosophy", choices="inline")
    assert body(inline) == ("1. In+ 2. Te+ 3. In:C1PrSo 4. Te:C6DeNw 5. In:C2PuNo "
                            "(5. In:C3CpNe)\n6. Te:C5ReNw! 7. Ea (7. No {calm}) 8. C4? "
                            "9. In:C7ReNe(NeNwSeSw)\n")


def test_philosophy_separate_puts_a_placements_variations_after_its_bare_form():
    text = ('[Game "philosophy"]\n\n1. In+ 2. Te+ 3. In:C1PrSo 4. Te:C6DeNw 5. In:C2PuNo\n'
            "6. Te:C5ReNw[EaC4] {both} (6. Te:C3CpNe) 7. In:C7ReNe\n")
    separate = converted(text, "philosophy", choices="separate")
    assert body(separate) == ("1. In+ 2. Te+ 3. In:C1PrSo 4. Te:C6DeNw 5. In:C2PuNo "
                              "6. Te:C5ReNw\n(6. Te:C3CpNe) 7. Ea 8. C4 {both} 9. In:C7ReNe\n")
    assert notation.run(notation.parse(separate)[0]).valid


def test_a_rule_broken_inside_a_variation_is_named_where_it_is():
    (record,) = notation.parse(PHILOSOPHY.replace("9. In:C2DeSe", "9. In:C5DeSe"))
    with pytest.raises(notation.NotationError,
                       match=r"past ply 9 \(In:C5DeSe\) in variation 1 after ply 7: "):
        notation.get_game("philosophy").convert(record, choices="inline")


# -- random trees -----------------------------------------------------------------------------

Key = Callable[[Any], Any]
Lines = tuple[list[Any], list[Any]]  # (a key after each event of a line, its variations' Lines)


def lines(game: Any, items: list[Item], state: Any, key: Key) -> Lines:
    """The keys of the states after every event of a line of play and of its variations,
    each variation played from the state before the event it is an alternative to."""
    keys: list[Any] = []
    variations: list[Lines] = []
    before = None
    for item in items:
        if isinstance(item, Variation):
            variations.append(lines(game, item.items, game.copy(before), key))
        elif isinstance(item, EventNode):
            before = game.copy(state)
            game.apply(state, item.event)
            keys.append(key(state))
    return keys, variations


def tree_states(record: notation.GameNode, key: Key) -> Lines:
    game = notation.get_game(record.game)
    return lines(game, record.items, game.start(record), key)


def skeleton(items: list[Item]) -> list[Any]:
    """A tree without its events: numbers, annotations, comments, directives, nesting."""
    out: list[Any] = []
    for item in items:
        if isinstance(item, EventNode):
            out.append((item.number, item.nags))
        elif isinstance(item, Variation):
            out.append(skeleton(item.items))
        elif isinstance(item, (Comment, Directive)):
            out.append(item.text)
    return out


def reread(record: notation.GameNode) -> notation.GameNode:
    """The record as its canonical text reads back, checked valid (variations too)."""
    (read,) = notation.parse(notation.format_record(record), record.game)
    outcome = notation.run(read)
    assert outcome.valid, outcome.problems[:2]
    return read


def json_key(game: Any) -> Key:
    return lambda state: (game.position(state), json.dumps(game.state_json(state)))


def turned_key(name: str) -> Key:
    """A Tilewe state's ``replay --json`` object with its board turned by ``name``."""
    game, turn = notation.get_game("tilewe"), TRANSFORMS[name]

    def key(state: Any) -> str:
        found = game.state_json(state)
        rows = found["board"]
        size = len(rows)
        board = [["."] * size for _ in rows]
        for r, row in enumerate(rows):
            for x, cell in enumerate(row):
                tx, ty = turn(x, size - 1 - r)
                board[size - 1 - ty][tx] = cell
        return json.dumps({**found, "board": ["".join(row) for row in board]})
    return key


@TREES
@given(seed=st.integers(0, 10**6), name=st.sampled_from(NAMES))
def test_random_tilewe_trees_turn_node_by_node_and_back(seed, name):
    (tree,) = notation.parse(notation.format_record(random_tree("tilewe", seed)))
    turned = notation.get_game("tilewe").convert(tree, transform=name)
    assert skeleton(turned.items) == skeleton(tree.items)
    plain = json_key(notation.get_game("tilewe"))
    assert tree_states(reread(turned), lambda s: plain(s)[1]) == tree_states(tree, turned_key(name))
    back = notation.get_game("tilewe").convert(turned, transform=INVERSE.get(name, name))
    assert notation.format_record(back) == notation.format_record(tree)


@pytest.mark.slow
@TREES
@given(seed=st.integers(0, 10**6), view=st.sampled_from(
    ["P1", "P2", "side:0", "side:1", "side:2", "side:3", "side:4", "side:5"]))
def test_random_flows_trees_convert_node_by_node_and_back(seed, view):
    game = notation.get_game("flows")
    (tree,) = notation.parse(notation.format_record(random_tree("flows", seed)))
    viewed = game.convert(tree, perspective=view)
    assert skeleton(viewed.items) == skeleton(tree.items)
    # one view for both: the board position and replay --json's state know no view
    assert tree_states(reread(viewed), json_key(game)) == tree_states(tree, json_key(game))
    back = game.convert(viewed, perspective="mover")
    assert notation.format_record(back) == notation.format_record(tree)


@TREES
@given(seed=st.integers(0, 10**6))
def test_random_sanguine_trees_convert_node_by_node_and_back(seed):
    game = notation.get_game("sanguine")
    (tree,) = notation.parse(notation.format_record(random_tree("sanguine", seed, plies=14)),
                             "sanguine")
    blue = game.convert(tree, perspective="blue")
    assert skeleton(blue.items) == skeleton(tree.items)
    assert tree_states(reread(blue), json_key(game)) == tree_states(tree, json_key(game))
    back = game.convert(blue, perspective="red")
    assert notation.format_record(back) == notation.format_record(tree)


def folded(short: Lines, full: Lines) -> None:
    """``short``'s states are ``full``'s with some left out (folded choices), every line
    ending in the same state, and its variations are ``full``'s, in order."""
    (keys, variations), (all_keys, all_variations) = short, full
    rest = iter(all_keys)
    assert all(key in rest for key in keys)  # in order
    assert keys[-1:] == all_keys[-1:]
    assert len(variations) == len(all_variations)
    for mine, theirs in zip(variations, all_variations):
        folded(mine, theirs)


def without_option_lists(record: notation.GameNode) -> str:
    """The record's text, no placement listing the options of its open choice."""
    def plain(event: Any) -> Any:
        return (event._replace(options=None) if isinstance(event, PhilosophyPlacement)
                and not event.params else event)
    return notation.format_record(record.rewritten(map_events(record.items, plain)))


@pytest.mark.slow
@TREES
@given(seed=st.integers(0, 10**6))
@example(3)  # few random trees have a variation at a choice: these four do,
@example(26)
@example(29)  # and these two fold choices too
@example(32)
def test_random_philosophy_trees_fold_and_unfold_their_choices(seed):
    game = notation.get_game("philosophy")
    (tree,) = notation.parse(notation.format_record(random_tree("philosophy", seed, plies=14)))
    key = game.full_position
    inline = game.convert(tree, choices="inline")
    assert notation.run(inline).valid  # numbered for its new plies, as read
    folded(tree_states(reread(inline), key), tree_states(tree, key))
    separate = game.convert(reread(inline), choices="separate")
    assert tree_states(reread(separate), key) == tree_states(tree, key)
    # back as written, but for the options an unfinished placement lists
    assert without_option_lists(separate) == notation.format_record(tree)
    again = game.convert(reread(separate), choices="inline")
    assert notation.format_record(again) == notation.format_record(inline)


# -- select --position in variations -------------------------------------------------------

def tilewe_position(*moves: str) -> str:
    position = notation.new("tilewe", players=2)
    for move in moves:
        position.push(move)
    return position.position()


SIDELINE = '''[Game "tilewe"]
[Players "2"]

1. W5n-a1a1 (1. I2n-a1a1) 2. I2n-a1t1 (2. O1n-a1t1 3. I2e-a1d1 (3. O1n-a1d1)) 3. O1n-a1d1
'''


def test_a_position_only_in_a_variation_is_found_with_in_variations_only():
    (record,) = notation.parse(SIDELINE)
    for moves, ply in ((["W5n-a1a1", "O1n-a1t1"], 2), (["W5n-a1a1", "O1n-a1t1", "O1n-a1d1"], 3),
                       (["I2n-a1a1"], 1)):
        wanted = tilewe_position(*moves)
        assert not Filters(positions=(wanted,)).matches(record)
        assert Filters(positions=(wanted,), in_variations=True).matches(record)
        assert Filters(positions=(wanted,), after_ply=ply, in_variations=True).matches(record)
        assert not Filters(positions=(wanted,), after_ply=ply + 1,
                           in_variations=True).matches(record)
    mainline = tilewe_position("W5n-a1a1", "I2n-a1t1")
    assert reaches(record, mainline, 2) and reaches(record, mainline, 2, in_variations=True)
    # every position must be reached, each anywhere in the tree
    both = (mainline, tilewe_position("I2n-a1a1"))
    assert Filters(positions=both, in_variations=True).matches(record)
    assert not Filters(positions=both).matches(record)


def test_a_broken_variation_ends_only_its_own_line_of_the_search():
    text = SIDELINE.replace("(1. I2n-a1a1)", "(1. I2n-a1a1 2. I2n-a1a1)")
    (record,) = notation.parse(text)
    assert not notation.run(record).valid
    wanted = tilewe_position("W5n-a1a1", "O1n-a1t1", "I2e-a1d1")
    assert Filters(positions=(wanted,), in_variations=True).matches(record)


def test_in_variations_goes_with_a_position_and_travels_to_workers():
    with pytest.raises(FilterError) as caught:
        Filters(in_variations=True)
    assert caught.value.name == "in-variations"
    wanted = tilewe_position("W5n-a1a1", "O1n-a1t1")
    filters = pickle.loads(pickle.dumps(Filters(positions=(wanted,), in_variations=True)))
    (record,) = notation.parse(SIDELINE)
    assert selection(Selector(filters), record).data == {"selected": True}
    assert selection(Selector(Filters(positions=(wanted,))), record).data == {"selected": False}
