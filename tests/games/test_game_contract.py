"""The contract every registered game keeps, checked the same way for each.

Random complete games come from the game's own move generator
(``Game.random_record``); along each one the game must write and read back
its events and positions, copy states independently, accept every legal
move it offers, and replay the same through the library and the command line.
A game added through the entry point is checked here with no test of its own; so is
Tally (``tests/games/plugin_game``), a third-party game made of the two required parts
alone, registered for this module (and announced to the commands it runs).
"""
from __future__ import annotations

import importlib
import json
import os
import random
import sys
import types

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation.core.new_games import random_record
import notation
from notation.core import registry
from notation.core.output import replay_json
from notation.core.results import with_result_tags
from notation.core.writer import format_record

from conftest import ROOT, run_cli

PLUGIN_GAME = ROOT / "tests" / "games" / "plugin_game"
GAMES = sorted({*registry.names(), "tally"})
#: Legal moves tried at each checked ply (Tilewe offers hundreds).
MOVES_TRIED = 12


@pytest.fixture(scope="module", autouse=True)
def tally(tmp_path_factory):
    """Tally registered here, and announced by an entry point to the commands run (its
    package on their path, beside the metadata folder a pip install would write); the
    registry, the import path and the modules as they were afterwards."""
    site = tmp_path_factory.mktemp("site")
    info = site / "tally_game-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tally-game\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text('[notation.games]\ntally = tally_game:SPEC\n')
    paths = os.pathsep.join(filter(None, (str(site), str(PLUGIN_GAME),
                                          os.environ.get("PYTHONPATH"))))
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(PLUGIN_GAME))
        patch.setenv("PYTHONPATH", paths)
        game = importlib.import_module("tally_game.game").GAME
        before = registry.get(game.name)
        registry.register(game)
        yield game
        if before is not None:
            registry.register(before)
        else:
            del registry._GAMES[game.name]  # (the registry has no unregister: a test's own)
    for name in [name for name in sys.modules if name.partition(".")[0] == "tally_game"]:
        del sys.modules[name]


def random_game(name: str, seed: int) -> notation.GameNode:
    game = registry.get(name)
    assert game is not None
    record, outcome = with_result_tags(random_record(game, random.Random(seed), {}))
    assert outcome.valid, outcome.error
    return record


def test_every_built_in_game_is_registered():
    assert {"flows", "nomic", "philosophy", "sanguine", "tilewe"} <= set(GAMES)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=6, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_events_and_records_read_back_as_written(name, seed):
    game = registry.get(name)
    record = random_game(name, seed)
    text = format_record(record, game)
    (again,) = notation.parse(text)
    assert again.events == record.events
    assert [game.format_event(e) for e in again.events] == [game.format_event(e)
                                                           for e in record.events]
    assert format_record(again, game) == text


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=4, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_positions_copies_and_legal_moves_along_a_game(name, seed, data):
    game = registry.get(name)
    record = random_game(name, seed)
    rng = random.Random(seed)
    checked = set(rng.sample(range(len(record.events) + 1), min(4, len(record.events) + 1)))
    state = game.start(record)
    for ply, event in enumerate([*record.events, None]):
        if ply in checked:
            written = game.position(state)
            assert game.position(game.read_position(written)) == written  # position round trip
            moves = game.legal_moves(state)
            assert not (moves and game.is_over(state))  # a game over offers no move
            for move in rng.sample(moves, min(MOVES_TRIED, len(moves))):
                trial = game.copy(state)
                game.apply(trial, move)  # every legal move is accepted
                assert game.position(state) == written  # the copy was independent
        # a game's own cheap result tags (the reader's check) say what its result says
        assert game.result_tags(state) == game.result(state).tags
        if event is None:
            break
        snapshot = game.copy(state)
        before = game.position(snapshot)
        game.apply(state, event)
        assert game.position(snapshot) == before  # playing on does not touch a copy


@pytest.mark.parametrize("name", GAMES)
def test_random_games_replay_the_same_through_the_library_and_the_command_line(name, tmp_path):
    records = [random_game(name, seed) for seed in range(3)]
    game = registry.get(name)
    path = tmp_path / f"games{game.extensions[0]}"
    path.write_text("\n".join(format_record(r, game) for r in records))
    result = run_cli("replay", "--json", str(path))
    assert result.returncode == 0, result.stderr
    through_cli = [json.loads(line) for line in result.stdout.splitlines()]
    through_library = [replay_json(notation.run(r)) for r in notation.load(path)]
    assert through_cli == json.loads(json.dumps(through_library))
    assert [row["plies"] for row in through_cli] == [len(r.events) for r in records]


def test_each_entry_point_announces_the_spec_its_game_is_made_of():
    from importlib.metadata import entry_points
    announced = {point.name: point.load() for point in entry_points(group="notation.games")}
    assert set(announced) >= {"tilewe", "flows", "philosophy", "sanguine", "nomic"}
    for name, spec in announced.items():
        assert registry.get(name).spec is spec, name


@pytest.mark.parametrize("name", GAMES)
def test_every_part_loads_and_keeps_its_protocol(name):
    """Parts named by module load when asked for: each must exist and hold its protocol's
    members (a misspelt module or member would otherwise wait for a user to find it)."""
    from notation.core.protocols import CAPABILITIES, REFINEMENTS, Notation, Rules
    game = registry.get(name)
    assert isinstance(game.rules, Rules) and isinstance(game.notation, Notation)
    for role, (protocol, _) in CAPABILITIES.items():
        part = game.part(role)
        assert part is None or isinstance(part, protocol), (name, role)
    for role, members in REFINEMENTS.items():
        part = game.part(role)
        assert part is None or any(hasattr(part, m) for m in members), (name, role)


def test_a_part_without_its_protocol_s_members_is_refused_in_one_line():
    from notation.core.errors import InputError
    from notation.core.game import Game
    tally = registry.get("tally")
    spec = tally.spec._replace(name="broken")
    with pytest.raises(InputError, match=r"its rules lack is_over, result"):
        Game(spec, rules=types.SimpleNamespace(start=0, apply=0, legal_moves=0, copy=0,
                                               to_move=0), notation=tally.notation)
    lazy = Game(spec, rules=tally.rules, notation=tally.notation, pictures=".rules")
    with pytest.raises(InputError, match=r"its pictures lack render, drawing"):
        lazy.pictures


def test_a_game_without_pictures_shows_its_position_as_text_and_draws_nothing():
    record = notation.parse('[Game "tally"]\n\n1. +2 2. +1\n').records[0]
    position = notation.Position.from_record(record)
    assert str(position) == position.position() == "3/10/2"
    assert position._repr_svg_() is None
    assert [step._repr_svg_() for step in notation.replay(record)] == [None, None]
