"""Philosophy's fast paths (issue 23) say exactly what the plain definitions say.

Each speed-up has a plain counterpart spelled out here: the step and target tables
against walking the board's grid, the turn's-end line owners against
``conclusions()``, the candidate search that looks only at touched tiles against a
scan of the whole board, the placement checks taken at once against the placements
``legal`` lists, and the cache of placements read against reading the text afresh.
"""
from __future__ import annotations

import random

import pytest

import notation
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.core import registry
from notation.core.errors import RuleError
from notation.games.philosophy import events, rules
from notation.games.philosophy.events import Choice, Placement
from notation.games.philosophy.geometry import CELL, DIRECTIONS, NAME_AT, step
from notation.games.philosophy.legal import Placements
from notation.games.philosophy.state import PLAYER_CODES, PhilosophyState
from notation.games.philosophy.tiles import TILES, target_of

GAME = registry.require("philosophy")
#: The candidate search under test (kept here: one test watches every call to it).
CANDIDATES = rules.candidates
DELTAS = {"No": (-1, 0), "Ne": (-1, 1), "Ea": (0, 1), "Se": (1, 1),
          "So": (1, 0), "Sw": (1, -1), "We": (0, -1), "Nw": (-1, -1)}


def walked(space: str, direction: str, distance: int) -> str | None:
    r, c = CELL[space]
    dr, dc = DELTAS[direction]
    return NAME_AT.get((r + dr * distance, c + dc * distance))


def test_steps_and_targets_are_the_grid_walked() -> None:
    for space in CELL:
        for direction in DIRECTIONS:
            for distance in (1, 2, 3):
                assert step(space, direction, distance) == walked(space, direction, distance)
            for tile, kind in TILES.items():
                assert target_of(space, tile, direction) == walked(space, direction,
                                                                   kind.distance)


def scanned_candidates(state: PhilosophyState) -> list[str]:
    """The candidates by their definition: every mover's tile on the board, looked at."""
    p, board = state.mover, state.board
    found = []
    for space, (owner, tile, facing) in board.items():
        if owner != p or (owner, tile) in state.activated:
            continue
        target = walked(space, facing, TILES[tile].distance)
        if target is None or target not in board or board[target][0] == p:
            continue
        if space in state.touched_own or target in state.touched_other:
            found.append(space)
    return sorted(found)


def checked_state(state: PhilosophyState) -> None:
    owners = {owner for owner, _ in state.conclusions()}
    assert state.line_owners() == owners
    if state.holders is not None:  # what a turn's end remembered of the board still holds
        assert state.holders == owners
    if state.mover is not None:
        assert sorted(CANDIDATES(state)) == scanned_candidates(state)


def random_states(seed: int, players: int) -> list[PhilosophyState]:
    """The states of one random game after each event (its choices made one by one)."""
    record = notation.GameNode(GAME, *GAME.setup({}))
    record.tags.append(type(record.tags[0])("Players", str(players)))
    rng = random.Random(seed)
    state = GAME.start(record)
    seen = []
    hands_before = None
    for event in GAME.random_events(rng, record, 120):
        if hands_before is not None:  # the hands it shares stayed as they were (a join
            last = state.before_last_placement  # since then adds the joiner's whole hand)
            assert last is not None
            assert {p: last[1][p] for p in hands_before} == hands_before
        if isinstance(event, Placement):
            hands_before = {p: set(h) for p, h in state.hands.items()}
        if isinstance(event, Placement) and (event.params or event.dots):
            rules.apply(state, event._replace(params=(), closed=False, dots=0))
            seen.append(state.copy())
            for param in event.params:
                rules.apply(state, Choice(param))
                seen.append(state.copy())
        else:
            rules.apply(state, event)
            seen.append(state.copy())
    return seen


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 4))
def test_line_owners_and_candidates_match_their_definitions(seed: int, players: int) -> None:
    def watched(state: PhilosophyState) -> list[str]:
        checked_state(state)
        return CANDIDATES(state)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rules, "candidates", watched)
        for state in random_states(seed, players):
            checked_state(state)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 4), st.data())
def test_placements_accepted_are_the_legal_ones(seed: int, players: int,
                                                data: st.DataObject) -> None:
    states = random_states(seed, players)
    state = data.draw(st.sampled_from(states))
    legal = set(Placements(state)) if not state.over else set()
    tries = [Placement(p, s, t, f) for p in PLAYER_CODES for s in ("C1", "C5", "C9", "N1")
             for t in ("Pu", "De", "Re") for f in ("No", "Ne")]
    tries += data.draw(st.lists(st.sampled_from(sorted(legal)), max_size=5)) if legal else []
    for placement in tries:
        trial = state.copy()
        try:
            rules.apply(trial, placement)
        except RuleError:
            assert placement not in legal
        else:
            assert placement in legal


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 4),
       st.sampled_from(["Ends Game", "Rollback Placement", "Remove Their Tiles"]))
def test_remembered_line_holders_give_the_verdicts_found_afresh(seed: int, players: int,
                                                                effect: str) -> None:
    """A walk of legal events, leaves among them, played twice: as the rules play it, and
    with the holders of lines forgotten before every event (found afresh at each turn's
    end). Same positions, same ends, same winners."""
    record = notation.GameNode(GAME, *GAME.setup({}))
    tag = type(record.tags[0])
    record.tags += [tag("LeavePermitted", "Anytime"), tag("LeaveEffect", effect),
                    tag("JoinPermitted", "Between Turns")]
    rng = random.Random(seed)
    state, afresh = GAME.start(record), GAME.start(record)
    for code in PLAYER_CODES[:players]:
        rules.apply(state, events.Join(code))
        rules.apply(afresh, events.Join(code))
    apply = rules.applier(state)
    for _ in range(80):
        moves = GAME.legal_moves(state)
        if not moves:
            break
        leaves = [m for m in moves if isinstance(m, events.Leave)]
        move = rng.choice(leaves if leaves and rng.random() < 0.08 else
                          [m for m in moves if not isinstance(m, events.Leave)] or moves)
        apply(move)
        afresh.holders = None
        rules.apply(afresh, move)
        checked_state(state)
        assert state.position() == afresh.position()
        assert (state.over, state.winner, state.order) == (afresh.over, afresh.winner,
                                                           afresh.order)


@given(st.sampled_from(["In:C1PuNo", "Te:C7ReNe[We]", "Sa:C2DeSe[C3", "Am:C9ToWe(NoSo)..",
                        "In:C4PlSo."]))
def test_cached_placements_read_as_the_text(text: str) -> None:
    fresh = events.read_placement_text(text)
    assert events.read_placement(text) == fresh
    assert events.read_placement(text) == fresh
    assert str(events.read_placement(text)) == text
