"""Variations (PGN's rule) in every game: ``( ... )`` after an event holds an alternative
to it, nested to any depth; every variation is replayed from its branch point, a problem
in one names its place and the others are still checked; ``fmt`` writes them back.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import notation
from notation.core.ast import Comment, EventNode, Variation
from notation.core.errors import problem_line

from test_positions import GAMES, NEW_OPTIONS


def line_of(position: notation.Position, rng: random.Random, plies: int, depth: int) -> list:
    """A line of play from ``position`` (which it plays on), with random variations: each
    an alternative legal move at that point and a short line after it."""
    items: list = []
    for _ in range(plies):
        if position.is_over():
            break
        moves = position.legal_moves()  # (what a record may write next)
        move = rng.choice(moves)
        before = position.copy(stack=False)
        position.push(move)
        items.append(EventNode(move, nags=annotations_for(rng)))
        if rng.random() < 0.2:
            items.append(Comment.make(rng.choice(["", "sharp", "the only move"]),
                                      {"clk": f"0:0{rng.randrange(10)}:1{rng.randrange(10)}",
                                       "eval": f"{rng.uniform(-3, 3):.2f}"}))
        others = [m for m in moves if m != move]
        if depth and others and rng.random() < 0.4:
            branch = before
            other = rng.choice(others)
            branch.push(other)
            inner = [EventNode(other, nags=annotations_for(rng)),
                     *line_of(branch, rng, 3, depth - 1)]
            if rng.random() < 0.3:
                inner.insert(1, Comment(f"idea {len(items)}", True))
            items.append(Variation(inner))
    return items


def annotations_for(rng: random.Random) -> tuple[int, ...]:
    """No annotation mostly; else a glyph, a ``$N``, or both."""
    roll = rng.random()
    if roll < 0.7:
        return ()
    glyph = rng.randint(1, 6)
    return (glyph,) if roll < 0.85 else (glyph, rng.randint(7, 255))


def random_tree(game: str, seed: int, plies: int = 10, depth: int = 2) -> notation.GameNode:
    start = notation.new(game, **NEW_OPTIONS[game])
    record = notation.GameNode.from_position(start)  # its tags and set-up lines (Sanguine's decks)
    record.items = [*record.items, *line_of(start.copy(), random.Random(seed), plies, depth)]
    return record


def shape(items: list) -> list:
    """A tree's events and nesting, as text (positions and numbers left out)."""
    out: list = []
    for item in items:
        if isinstance(item, EventNode):
            out.append(str(item.event) + "".join(f"${n}" for n in item.nags))
        elif isinstance(item, Variation):
            out.append(shape(item.items))
        elif isinstance(item, Comment):
            out.append("{" + item.text + "}")
    return out


def variations_in(items: list) -> int:
    return sum(1 + variations_in(i.items) for i in items if isinstance(i, Variation))


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6))
def test_random_trees_format_parse_and_replay_to_the_same_tree(game, seed):
    tree = random_tree(game, seed)
    text = notation.format_record(tree)
    (read,) = notation.parse(text, game)
    outcome = notation.run(read)
    assert outcome.valid, (outcome.problems[:2], text)
    assert shape(read.items) == shape(tree.items)
    assert read.events == tree.events  # the mainline alone
    assert notation.format_record(read) == text  # fmt is idempotent on trees


def a_tree_with_variations(game: str) -> tuple[notation.GameNode, int]:
    """A tree with at least two variations at the top level, and the ply of the first."""
    for seed in range(200):
        tree = random_tree(game, seed, plies=12, depth=1)
        top = [i for i, item in enumerate(tree.items) if isinstance(item, Variation)]
        if len(top) >= 2:
            ply = sum(isinstance(item, EventNode) for item in tree.items[:top[0]])
            return tree, ply
    raise AssertionError(f"no {game} tree with two variations")


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_event_in_a_variation_is_reported_at_its_place_and_the_rest_checked(game):
    tree, ply = a_tree_with_variations(game)
    first = next(item for item in tree.items if isinstance(item, Variation))
    second = [item for item in tree.items if isinstance(item, Variation)][1]
    # the first variation plays the mainline's own event twice: illegal at its second time
    # in every game, or at least not the same position; make it a repeat of its own move
    first.items[:] = [first.items[0], EventNode(first.items[0].event)]
    text = notation.format_record(tree)
    (read,) = notation.parse(text, game)
    outcome = notation.run(read)
    inside = [p for p in outcome.problems if p.variation]
    assert inside and inside[0].variation == f"variation 1 after ply {ply - 1}", outcome.problems
    problem = inside[0]
    assert problem.ply == ply + 1
    row = text.split("\n")[problem.line - 1]
    assert row[problem.column - 1:].startswith(problem.event)
    assert f"ply {ply + 1} ({problem.event}) in variation 1 after ply {ply - 1}" in problem_line(
        "x", 1, problem)
    assert not [p for p in outcome.problems if not p.variation]  # the mainline is fine
    assert outcome.plies == len(read.events)
    # the second variation is still checked: break it too
    second.items[:] = [second.items[0], EventNode(second.items[0].event)]
    (again,) = notation.parse(notation.format_record(tree), game)
    labels = [p.variation for p in notation.run(again).problems]
    assert len(labels) == len(set(labels)) == 2 and all(labels), labels


@pytest.mark.parametrize("game", GAMES)
def test_unbalanced_parentheses_are_problems_of_the_record(game):
    tree, _ = a_tree_with_variations(game)
    text = notation.format_record(tree)
    closing = text.rindex(")")
    unclosed = text[:closing] + text[closing + 1:]
    messages = [p.message for p in notation.run(notation.parse(unclosed, game)[0]).problems]
    assert "variation '(' is never closed" in messages
    stray = text.rstrip("\n") + "\n)\n"
    messages = [p.message for p in notation.run(notation.parse(stray, game)[0]).problems]
    assert "')' closes no variation" in messages
    opening = text.index("(")
    assert text[opening + 1] != ")"


def test_a_variation_must_follow_an_event_and_numbers_count_from_the_branch():
    text = '[Game "tilewe"]\n[Players "2"]\n\n(1. W5n-a1a1) 1. W5n-a1a1 (2. I2n-a1t1)\n'
    problems = notation.run(notation.parse(text)[0]).problems
    assert [p.message for p in problems] == [
        "a variation '(' must follow the event it is an alternative to",
        "event number 2. should be 1."]
    assert problems[1].variation == "variation 1 after ply 0"


def test_philosophy_options_lists_keep_their_meaning_beside_variations():
    position = notation.new("philosophy")
    for _ in range(2):
        position.push(next(m for m in position.legal_moves() if str(m).endswith("+")))
    first, other = position.legal_moves()[:2]
    position.push(first)
    third = position.legal_moves()[0]
    text = f'[Game "philosophy"]\n\n1. In+ 2. Am+ 3. {first} (3. {other}) 4. {third}\n'
    text = text.replace("In+", str(position.moves[0])).replace("Am+", str(position.moves[1]))
    (record,) = notation.parse(text)
    assert notation.run(record).valid, notation.run(record).problems
    assert [type(i).__name__ for i in record.items] == [
        "EventNode", "EventNode", "EventNode", "Variation", "EventNode"]
    offered = notation.parse('[Game "philosophy"]\n\n1. Am:C2ReNw(EaNoSoWe)\n')[0].items
    assert [type(i).__name__ for i in offered] == ["EventNode"]


def test_records_with_variations_leave_the_fast_path_and_convert_rewrites_them():
    text = '[Game "tilewe"]\n[Players "2"]\n\n1. W5n-a1a1 (1. I2n-a1a1) 2. I2n-a1t1\n'
    (verdict,) = notation.read_verdicts(__import__("io").StringIO(text))
    assert verdict.valid and verdict.record.has_variations
    game = notation.get_game("tilewe")
    turned = game.convert(verdict.record, transform="rot90")  # more in test_convert_trees
    assert notation.format_record(turned) == text.replace(
        "1. W5n-a1a1 (1. I2n-a1a1) 2. I2n-a1t1", "1. W5e-a3a20 (1. I2e-a1a20) 2. I2e-a1a1")
    assert verdict.record.without_variations().events == verdict.record.events


def test_hostile_nesting_is_refused_past_the_limit_not_a_crash():
    from notation.core.limits import MAX_VARIATION_DEPTH
    text = '[Game "tilewe"]\n[Players "2"]\n\n1. W5n-a1a1 ' + "(" * 5000 + ")" * 5000 + "\n"
    outcome = notation.run(notation.parse(text)[0])
    messages = {p.message for p in outcome.problems}
    (deep,) = [p for p in outcome.problems if "nested deeper" in p.message]
    assert deep.message == f"variations nested deeper than {MAX_VARIATION_DEPTH} levels"
    assert (deep.line, deep.column) == (4, 13 + MAX_VARIATION_DEPTH)  # the first "(" too deep
    assert "')' closes no variation" not in messages  # skipped with it, up to its own ")"
    assert notation.format_record(notation.parse(text[:text.index("(")])[0])


def test_annotations_read_attach_and_refuse_with_their_place():
    text = ('[Game "tilewe"]\n[Players "2"]\n\n'
            '1. W5n-a1a1!? {x} $14 (1. I2n-a1a1) ! 2. I2n-a1t1 $300 $1 ??\n')
    (record,) = notation.parse(text)
    first, second = [i for i in record.items if isinstance(i, EventNode)]
    assert first.nags == (5, 14) and second.nags == (1, 4)  # a comment may stand between
    problems = notation.run(record).problems
    assert [(p.line, p.column, p.ply, p.message) for p in problems] == [
        (4, 37, 1, "annotation ! follows no event (a glyph or $N comes right after the event "
                   "it marks)"),
        (4, 51, 2, "annotation $300 is out of range ($0 to $255)")]
    assert notation.format_record(record.rewritten(
        [i for i in record.items if isinstance(i, (EventNode, Comment))])).endswith(
        "1. W5n-a1a1!? $14 {x} 2. I2n-a1t1! $4\n")


def nested(depth: int, last: str) -> str:
    """A Tilewe record whose second event has an alternative ``depth`` variations deep,
    ``last`` its innermost event."""
    line = f"2. {last}"
    for _ in range(depth):
        line = f"2. I2n-a1t1 ({line})"
    return f'[Game "tilewe"]\n[Players "2"]\n\n1. W5n-a1a1 {line}\n'


@pytest.mark.parametrize("last", ["W5n-a1a1", "Q9z"])  # a rule problem, a syntax one
def test_a_problem_deep_in_variations_is_one_short_line_naming_the_innermost(last):
    lines = {}
    for depth in (2, 9, 60):
        (record,) = notation.parse(nested(depth, last))
        (problem,) = notation.run(record).problems
        assert problem.variation.count(" in ") == depth - 1  # the whole path: the line's name
        line = problem_line("deep.tilewe", 1, problem)
        assert "\n" not in line and len(line) < 400
        lines[depth] = line.partition(": error: ")[2]  # (the column grows with the depth)
        assert (f"ply 2 ({last}) in variation 1 after ply 1 at depth {depth} (in variation 1 "
                f"after ply 1 of the mainline): ") in lines[depth]
    assert len(lines[60]) == len(lines[9]) + 1 == len(lines[2]) + 1  # one digit more
    (record,) = notation.parse(nested(1, last))
    (problem,) = notation.run(record).problems
    assert f"ply 2 ({last}) in variation 1 after ply 1: " in problem_line("x", 1, problem)
