"""The one replay (notation.core.replayer): every event of a tree is applied once, each
line of play stops at its own first problem, and validation, the walked tree and a
position built from a record all see the same replay.
"""
from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import notation
from notation.core.ast import EventNode, Variation
from notation.core.errors import ProblemKind
from notation.core.replay import run
from notation.core.walk import walk

from test_positions import GAMES
from test_variations import a_tree_with_variations, random_tree


def events_in(items: list) -> int:
    """Every event of a tree, in its variations too."""
    return sum(1 if isinstance(i, EventNode) else events_in(i.items)
               for i in items if isinstance(i, (EventNode, Variation)))


def reread(record: notation.GameNode) -> notation.GameNode:
    (read,) = notation.parse(notation.format_record(record), record.game)
    return read


@pytest.mark.parametrize("game", GAMES)
def test_each_event_of_a_tree_is_applied_once(game, monkeypatch):
    """Validation plays each variation from its branch point as the mainline passes it:
    the mainline is not replayed a second time to reach the variations."""
    tree, _ = a_tree_with_variations(game)
    record = reread(tree)
    rules = notation.get_game(game)
    applied = []
    plain = rules.apply

    def counting(state: Any, event: Any) -> None:
        applied.append(event)
        plain(state, event)

    monkeypatch.setattr(rules, "apply", counting)
    outcome = run(record)
    assert outcome.valid, outcome.problems[:2]
    assert len(applied) == events_in(record.items) > len(record.events)


def an_illegal_event(game: str, record: notation.GameNode, ply: int) -> Any:
    """An event of ``record`` that the rules refuse after its first ``ply`` events."""
    position = notation.Position.from_record(record, ply)
    for event in record.events:
        if not position.is_legal(event):
            return event
    raise AssertionError(f"no event of the {game} record is illegal after ply {ply}")


@pytest.mark.parametrize("game", GAMES)
def test_an_alternative_to_an_illegal_event_is_still_checked(game):
    """The mainline stops at its illegal event; the variation that replaces that event
    starts from the position before it, so a problem in it is found too."""
    tree, ply = a_tree_with_variations(game)
    at = next(i for i, item in enumerate(tree.items) if isinstance(item, Variation))
    bad = an_illegal_event(game, tree, ply - 1)
    tree.items[at - 1] = EventNode(bad)  # the event the variation is an alternative to
    variation = tree.items[at]
    variation.items[0] = EventNode(bad)  # illegal there too: the same position
    outcome = run(reread(tree))
    rule = [(p.ply, p.variation) for p in outcome.problems if p.kind == ProblemKind.RULE]
    assert rule == [(ply, ""), (ply, f"variation 1 after ply {ply - 1}")]


def mutated(tree: notation.GameNode, rng: random.Random, count: int) -> notation.GameNode:
    """``tree`` with ``count`` events anywhere in it replaced by other events of it (most
    illegal where they land), read back from its text."""
    places: list[tuple[list, int]] = []

    def collect(items: list) -> None:
        for i, item in enumerate(items):
            if isinstance(item, EventNode):
                places.append((items, i))
            elif isinstance(item, Variation):
                collect(item.items)

    collect(tree.items)
    events = [items[i].event for items, i in places]
    for items, i in rng.sample(places, min(count, len(places))):
        items[i] = EventNode(rng.choice(events))
    return reread(tree)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6), count=st.integers(0, 3))
def test_validation_and_the_walked_tree_see_the_same_replay(game, seed, count):
    """Every rule problem validation reports is on the walked node where that line
    stopped, and every position the walk reached is one validation played through."""
    record = mutated(random_tree(game, seed), random.Random(seed), count)
    outcome = run(record)
    tree = walk(record, outcome, lambda node, step, state: None)
    steps = [tree.steps[n] for n in tree.nodes()]
    on_nodes = sorted((s.problem.ply, s.problem.variation, s.problem.message)
                      for s in steps if s.problem is not None
                      and s.problem.kind != ProblemKind.SYNTAX)
    reported = sorted((p.ply, p.variation, p.message)
                      for p in outcome.problems if p.kind != ProblemKind.SYNTAX)
    assert on_nodes == reported
    mainline_reached = [n for n in tree.mainline if tree.steps[n].reached]
    assert len(mainline_reached) == outcome.plies


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6), cut=st.integers(0, 12))
def test_a_position_from_a_record_is_its_mainline_pushed(game, seed, cut):
    record = reread(random_tree(game, seed))
    events = record.events
    ply = min(cut, len(events))
    position = notation.Position.from_record(record, ply)
    start = notation.Position.from_record(record, 0)
    for event in events[:ply]:
        start.push(event)
    assert position.ply == ply and position.moves == events[:ply]
    assert position.position() == start.position()
    if ply:
        position.pop()
        start.pop()
        assert position.position() == start.position()
    whole = notation.Position.from_record(record, 0)
    for event in events:
        whole.push(event)
    assert notation.Position.from_record(record).position() == whole.position()  # all of them


def test_a_record_of_no_known_game_is_walked_without_positions():
    (record,) = notation.parse("1. a 2. b (2. c) 3. d\n")
    outcome = run(record)
    assert outcome.game is None and not outcome.valid
    tree = walk(record, outcome, lambda node, step, state: pytest.fail("no position to visit"))
    assert [tree.steps[n].ply for n in tree.mainline] == [1, 2, 3]
    assert [[tree.steps[n].ply for n in line]
            for line in tree.steps[tree.mainline[1]].variations] == [[2]]
    # (no game reads them: each is an unread node, its text kept)
    assert [n.unread.text for n in tree.root.variations[0].variations] == ["b", "c"]
    assert not any(tree.steps[n].reached for n in tree.nodes()[1:])
