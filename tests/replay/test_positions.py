"""Positions you can play, the same contract in every game (python-chess's Board).

Each game's reference records are pushed move by move, popped back to the
start and pushed again, every position compared with the replay's; a position
read back from its notation continues the game identically; random push/pop
sequences (moves from the engine's own generator) always agree with a fresh
replay of the moves; an illegal move's error is what ``validate`` says.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import notation
from notation.core.errors import problem_line

from conftest import SAMPLES

GAMES = ("tilewe", "flows", "philosophy", "sanguine", "nomic")

#: Options of ``notation.new`` for a game of each kind (the game's tags in snake case).
NEW_OPTIONS = {
    "tilewe": {"players": 4},
    "flows": {"players": 2},
    "philosophy": {},
    "sanguine": {"rows": 3, "cols": 5, "hand_size": 3,
                 "red_deck": SAMPLES / "sanguine" / "decks" / "ember.deck",
                 "blue_deck": SAMPLES / "sanguine" / "decks" / "tide.deck", "seed": 7},
    "nomic": {"players": "Ann Bea Cid"},
}


def reference_records(game: str) -> list[notation.GameNode]:
    """The game's sample records that replay without a problem."""
    found = []
    for path in sorted((SAMPLES / game).glob(f"*.{game}")):
        for record in notation.load(path):
            if notation.run(record).valid:
                found.append(record)
    return found


def snapshot(position: notation.Position) -> tuple[str, object]:
    """What must be equal for two positions to be the same: notation and full state."""
    return position.position(), position.game.state_json(position.state)


def replayed(record: notation.GameNode) -> list[tuple[str, object]]:
    """The snapshot before the first event and after every event, by the replay driver."""
    start = notation.Position.from_record(record, 0)
    shots = [snapshot(start)]
    for step in notation.replay(record):
        start.state = step.state  # (a live state: snapshot it now)
        shots.append(snapshot(start))
    return shots


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_reference_games_push_and_pop_through_the_replays_positions(game):
    records = reference_records(game)
    assert records, f"no valid {game} sample"
    for record in records:
        expected = replayed(record)
        position = notation.Position.from_record(record, 0)
        assert snapshot(position) == expected[0]
        for ply, event in enumerate(record.events, 1):
            position.push(event)
            assert snapshot(position) == expected[ply], (record.source, ply)
        assert position.ply == len(record.events)
        for ply in range(len(expected) - 1, 0, -1):
            assert position.pop() == record.events[ply - 1]
            assert snapshot(position) == expected[ply - 1], (record.source, "pop", ply)
        with pytest.raises(IndexError):
            position.pop()
        end = notation.Position.from_record(record)
        assert snapshot(end) == expected[-1] and end.moves == record.events


@pytest.mark.parametrize("game", GAMES)
def test_pushing_text_reads_it_with_the_games_notation(game):
    record = reference_records(game)[0]
    position = notation.Position.from_record(record, 0)
    for event in record.events:
        assert position.push(str(event)) == event
    assert snapshot(position) == snapshot(notation.Position.from_record(record))


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_a_position_read_from_its_notation_continues_identically(game):
    for record in reference_records(game)[:3]:
        events = record.events
        position = notation.Position.from_record(record, 0)
        for ply in range(len(events) + 1):
            copy = notation.from_position(game, position.position())
            assert copy.position() == position.position(), (record.source, ply)
            assert ([str(m) for m in copy.legal_moves]
                    == [str(m) for m in position.legal_moves]), (record.source, ply)
            for later in events[ply:ply + 3]:
                copy.push(later)
            follow = position.copy()
            for later in events[ply:ply + 3]:
                follow.push(later)
            assert copy.position() == follow.position(), (record.source, ply)
            if ply < len(events):
                position.push(events[ply])


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_move_raises_what_validate_says_and_changes_nothing(game):
    record = reference_records(game)[0]
    events = record.events
    position = notation.Position.from_record(record, 0)
    tried = 0
    for ply, event in enumerate(events):
        before = snapshot(position)
        for other in events[ply + 1:]:
            if position.is_legal(other):
                continue
            with pytest.raises(notation.IllegalMoveError) as caught:
                position.push(other)
            assert isinstance(caught.value, ValueError)
            assert snapshot(position) == before
            written = _record_text(record, [*events[:ply], other])
            outcome = notation.run(notation.parse(written, game, source=record.source)[0])
            assert str(caught.value) == outcome.error.describe(), (ply, str(other))
            said = problem_line(record.source, 1, outcome.error)  # what validate prints
            assert said.endswith(f": error: game 1, {caught.value}"), (said, str(caught.value))
            tried += 1
            break
        position.push(event)
        if tried >= 5:
            break
    assert tried, "no illegal move found to try"


class NotAMove:
    """An object that is no game's event (its ``str`` even reads as one)."""

    def __str__(self) -> str:
        return "R pass"


#: An event of some other game for each game (the first event of that game's first sample).
OTHER_GAME = {"tilewe": "flows", "flows": "tilewe", "philosophy": "sanguine",
              "sanguine": "nomic", "nomic": "philosophy"}


@pytest.mark.parametrize("game", GAMES)
def test_push_refuses_what_is_neither_text_nor_an_event_of_the_game(game):
    """``push(42)`` once failed inside a game's rules (``cannot unpack non-iterable int``),
    and Philosophy and nomic took any object and pushed it. Each is a TypeError saying
    what ``push`` takes, and the position is as it was."""
    position = notation.new(game, **NEW_OPTIONS[game])
    foreign = reference_records(OTHER_GAME[game])[0].events[0]
    mine = reference_records(game)[0].events[0]
    before = snapshot(position)
    for value in (42, None, 2.5, b"R pass", ("R", "pass"), NotAMove(), foreign, [mine]):
        for attempt in (position.push, position.is_legal):
            with pytest.raises(TypeError) as caught:
                attempt(value)
            message = str(caught.value)
            assert message.startswith(f"push takes a {game} move as text in its notation or "
                                      f"as one of its events ("), message
            assert f"), not {type(value).__name__} " in message
            assert type(mine).__name__ in message
        assert snapshot(position) == before and position.ply == 0
    with pytest.raises(TypeError, match="parse_event takes an event's text"):
        notation.parse_event(game, 42)
    assert position.read(mine) is mine  # an event of the game is taken as it is


def _record_text(record: notation.GameNode, events: list) -> str:
    """A record with ``record``'s tags (but no result) and ``events``."""
    tags = {k: v for k, v in record.headers.items() if k not in ("Result", "Scores")}
    written = notation.GameNode(record.game, [notation.Tag(k, v) for k, v in tags.items()],
                              [notation.EventNode(e) for e in events])
    return notation.format_record(written)


@pytest.mark.parametrize("game", GAMES)
def test_a_new_game_plays_to_its_end_and_records_itself(game):
    position = notation.new(game, **NEW_OPTIONS[game])
    seen = 0
    while not position.is_over() and seen < 400:
        moves = position.legal_moves
        assert moves, "not over, but nothing to play"
        assert position.turn is not None
        position.push(moves[len(moves) // 2])
        seen += 1
    record = notation.GameNode.from_position(position, Event="club night")
    assert record.headers["Event"] == "club night"
    outcome = notation.run(notation.parse(notation.format_record(record), game)[0])
    assert outcome.valid, outcome.problems[:3]
    assert outcome.plies == position.ply
    if position.is_over():
        result = position.result()
        assert result.over and result.tags


@pytest.mark.parametrize("game", GAMES)
def test_event_types_read_and_write_their_notation(game):
    record = reference_records(game)[0]
    module = getattr(notation, game)
    for event in record.events:
        kind = type(event)
        assert getattr(module, kind.__name__) is kind
        assert kind.parse(str(event)) == event
        assert repr(event) == f"{kind.__name__}({str(event)!r})"


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_random_push_and_pop_agree_with_a_fresh_replay(game):
    start = notation.new(game, **NEW_OPTIONS[game])

    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(st.tuples(st.booleans(), st.integers(0, 10_000)), max_size=60))
    def agree(script):
        position = start.copy()
        for pop, pick in script:
            if pop and position.history():
                position.pop()
            elif not position.is_over():
                moves = position.legal_moves  # (chance's draws too, which no record writes)
                position.push(moves[pick % len(moves)])
            fresh = start.copy()
            for _, move in position.history():
                fresh.push(move)
            assert snapshot(fresh) == snapshot(position)

    agree()


@pytest.mark.parametrize("game", GAMES)
def test_a_position_draws_itself_and_copies_independently(game):
    position = notation.Position.from_record(reference_records(game)[0])
    assert position._repr_svg_().startswith("<svg") and str(position) == position.game.render(
        position.state)
    copy = position.copy()
    before = snapshot(copy)
    position.pop()
    assert snapshot(copy) == before and copy.ply == position.ply + 1
    bare = copy.copy(stack=False)
    assert snapshot(bare) == before and bare.ply == 0
    with pytest.raises(IndexError):
        bare.pop()


@pytest.mark.parametrize("game", GAMES)
def test_headers_and_verdicts_read_fast_and_agree_with_a_full_read(game):
    for path in sorted((SAMPLES / game).glob(f"*.{game}")):
        full = notation.load(path)
        headers = list(notation.read_headers(path))
        assert [r.headers for r in headers] == [r.headers for r in full]
        verdicts = list(notation.read_verdicts(path))
        assert ([(o.index, o.valid, o.plies, [p.as_json() for p in o.problems]) for o in verdicts]
                == [(i, o.valid, o.plies, [p.as_json() for p in o.problems])
                    for i, o in enumerate(map(notation.run, full), 1)])


def test_replay_steps_are_live_and_a_copy_keeps_one():
    record = reference_records("tilewe")[0]
    steps = list(notation.replay(record))
    assert steps[0].state is steps[-1].state  # live: the replay's one state
    kept = [step.copy() for step in notation.replay(record)]
    game = notation.Position.from_record(record, 0).game
    expected = replayed(record)[1:]
    assert [game.full_position(step.state) for step in kept] == [shot[0] for shot in expected]


# -- set-up positions, a state's repr ------------------------------------------------------

def _split_at(path: Path, game_name: str, ply: int) -> tuple[str, str]:
    """A record that starts from the position after ``ply`` with the remaining events."""
    record = notation.load(path)[0]
    game = notation.get_game(game_name)
    positions, events = [], []
    for step in notation.replay(record):  # the state is live: take each position as it passes
        positions.append(game.position(step.state))
        events.append(step.event)
    start = positions[ply - 1]
    rest = [notation.EventNode(e) for e in events[ply:]]
    tags = [t for t in record.tags if t.key in ("Game", "Perspective")]
    tags.append(notation.Tag("Position", start))
    setup = notation.GameNode(game.name, tags, rest)
    return notation.format_record(setup), positions[-1]


@pytest.mark.parametrize("game, sample, ply", [
    ("tilewe", "tw-sample-2.tilewe", 20), ("flows", "flows-150.flows", 12),
    ("flows", "flows-090.flows", 5),
])
def test_set_up_positions_for_tilewe_and_flows(game, sample, ply):
    text, final = _split_at(SAMPLES / game / sample, game, ply)
    record = notation.parse(text, game)[0]
    outcome = notation.run(record)
    assert outcome.valid, outcome.error
    assert notation.get_game(game).position(outcome.state) == final


@pytest.mark.parametrize("game", ["sanguine", "nomic"])
def test_position_tag_refused_where_there_is_no_setup(game):
    records = notation.parse(f'[Game "{game}"]\n[Position "anything"]\n', game)
    outcome = notation.run(records[0])
    assert outcome.error.rule == "tag Position" and "cannot start from" in outcome.error.message


@pytest.mark.parametrize("game", ["tilewe", "flows", "philosophy", "sanguine", "nomic"])
def test_state_repr_shows_the_position(game):
    sample = {"tilewe": "tw-sample-1.tilewe", "flows": "flows-090.flows",
              "philosophy": "phil-0009.philosophy", "sanguine": "example-1.sanguine",
              "nomic": "example-1.nomic"}[game]
    outcome = notation.run(notation.load(SAMPLES / game / sample)[0])
    text = repr(outcome.state)
    assert " object at 0x" not in text
    assert notation.get_game(game).position(outcome.state) in text


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("text", ["{ a note }", "; a note"])
def test_a_comment_is_no_event(game, text):
    """The scanner passes comments over in a record; given as a move, one is refused."""
    with pytest.raises(notation.InvalidEventError):
        notation.new(game, **NEW_OPTIONS[game]).push(text)
    with pytest.raises(notation.NotationError):
        notation.parse_event(game, text)


@pytest.mark.parametrize("game", ["tilewe", "philosophy"])
def test_a_game_without_chance_is_never_at_a_chance_point(game):
    rng = random.Random(2)
    pos = notation.new(game)
    for _ in range(12):
        assert not pos.is_chance() and pos.chance_outcomes() == []
        if pos.is_over():
            break
        pos.push(rng.choice(pos.legal_moves))
    with pytest.raises(ValueError, match="no chance event is due"):
        pos.sample_chance(rng)


def test_the_legal_moves_say_when_they_are_chances_to_draw():
    rng = random.Random(4)
    pos = notation.new("sanguine", rows=3, cols=3, hand_size=2)
    assert pos.legal_moves.by_chance and "by chance" in repr(pos.legal_moves)
    pos.sample_chance(rng)
    pos.sample_chance(rng)
    assert pos.legal_moves.by_chance  # Red's turn starts with a draw
    assert {str(m) for m in pos.legal_moves} == {str(e) for e, _ in pos.chance_outcomes()}
    pos.sample_chance(rng)
    assert not pos.legal_moves.by_chance and "by chance" not in repr(pos.legal_moves)
