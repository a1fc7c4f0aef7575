"""The quortextt app's Flows notation: ``[Dialect "quortextt"]``, seats of its export, hints.

The encoder here is written from the issue's facts alone (axial coordinates,
the app's edge numbering, its column and orientation rules), checked against
the strings the app's own e2e tests expect, then used to write random games
the way the app writes them.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from notation.core import new_games
from notation.core.tree import GameNode
import notation
from notation.core import registry
from notation.core.ast import EventNode
from notation.core.errors import TagError
from notation.games import flows
from notation.games.flows.dialect import NOTATIONS
from notation.games.flows.events import Placement
from notation.games.flows.geometry import HEXES
from notation.games.flows.rules import start
from notation.games.flows.seats import candidates
from notation.games.flows.state import FlowsState

from conftest import DATA, invoke

FLOWS = registry.get("flows")
NAMES = ("N", "NE", "SE", "S", "SW", "NW")


def app_move(player: int, tile: int, row: int, col: int, rotation: int, side: int,
             earlier: bool = False) -> str:
    """Our hex (row, col) and rotation, placed by a player at our ``side``, as the app
    writes it (``earlier``: the app's first notation, columns from the left, offset 0)."""
    edge = (6 - side) % 6
    r, c = row - 3, col - row
    for _ in range(edge):
        r, c = -c, r + c
    letter = "ABCDEFG"[r + 3]
    column = c - max(-3, -3 - r) + 1 if earlier else min(3, 3 - r) - c + 1
    orientation = NAMES[(rotation - edge + (0 if earlier else 3)) % 6]
    return f"P{player}{letter}{column}T{tile}{orientation}"


def from_app(edge: int, r: int, c: int) -> tuple[int, int, int]:
    """The app's edge and axial hex -> our side, row and column (the facts' mapping)."""
    return (6 - edge) % 6, r + 3, c + r + 3


@pytest.mark.parametrize("edge, r, c, rotation, player, expected", [
    # tests/e2e/user-stories/007-move-notation: two players on the app's edges 0 and 4
    (0, -3, 1, 5, 1, "P1A3T1SE"),
    (4, 1, -3, 5, 2, "P2A2T1SW"),
    (0, -3, 2, 2, 1, "P1A2T1NW"),
    (4, 0, -3, 0, 2, "P2A1T1NW"),
])
def test_encoder_writes_the_apps_test_strings(edge, r, c, rotation, player, expected):
    side, row, col = from_app(edge, r, c)
    assert app_move(player, 1, row, col, rotation, side) == expected


@pytest.mark.parametrize("edge, name", list(enumerate(["S", "SE", "NE", "N", "NW", "SW"])))
def test_encoder_orients_rotation_0_as_the_apps_six_player_test(edge, name):
    side = (6 - edge) % 6
    assert app_move(1, 1, 3, 3, 0, side).endswith(f"T1{name}")


@pytest.mark.parametrize("name, earlier", [("quortextt", False), ("quortextt-v1", True)])
def test_library_notation_is_the_encoder_and_reads_back(name, earlier):
    spelling = NOTATIONS[name]
    for side in range(6):
        labels = set()
        for h, (row, col) in enumerate(HEXES):
            for rotation in range(6):
                placement = spelling.spell(1, 2, h, rotation, side)
                assert str(placement) == app_move(1, 2, row, col, rotation, side, earlier)
                assert spelling.locate(placement, side) == (h, rotation)
                labels.add(placement.label)
        assert len(labels) == len(HEXES)  # one label per hex in every view


def test_the_dialect_option_names_every_notation():
    assert flows.DIALECTS == tuple(NOTATIONS)


def random_record(players: int, seed: int, seats: str | None = None) -> GameNode:
    record = new_games.random_record(FLOWS, random.Random(seed), {"players": players})
    if seats is not None:  # the same game is not legal elsewhere: play one there
        tags = [t for t in record.tags if getattr(t, "key", None) not in ("Seats", "Result")]
        base = GameNode("flows", tags + [notation.Tag("Seats", seats)])
        events = FLOWS.random_events(random.Random(seed), base)
        record = base.rewritten([EventNode(e) for e in events], base.tags)
    return record


def export(record: GameNode, earlier: bool = False, tags: str = '[Dialect "quortextt"]\n') -> str:
    """``record`` as the app exports it (its header and numbered moves), after ``tags``."""
    state = FLOWS.start(record)
    lines = [f"Game: {state.seating.players}-player", ""]
    for ply, event in enumerate(record.events, 1):
        text = str(event)
        if isinstance(event, Placement):
            side = state.side_for(event.player - 1)
            h, rotation = state.notation.locate(event, side)
            text = app_move(event.player, event.tile, *HEXES[h], rotation, side, earlier)
        FLOWS.apply(state, event)
        lines.append(f"{ply}. {text}")
    return tags + "\n".join(lines) + "\n"


def states(record: GameNode) -> list[dict]:
    return [FLOWS.state_json(step.state) for step in notation.replay(record)]


def read(text: str) -> GameNode:
    return notation.parse(text, game="flows").records[0]


def read_export(record: GameNode) -> GameNode:
    """The app's export of ``record`` read back; where it replays under several seatings
    (the app writes none), the refusal must name the record's own, then [Seats] reads it."""
    text = export(record)
    app = read(text)
    try:
        start(app)
    except TagError as exc:
        seats = record.headers["Seats"]
        assert "replays legally under" in str(exc) and f'"{seats}"' in str(exc)
        app = read(text.replace("\n", f'\n[Seats "{seats}"]\n', 1))
    return app


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(players=st.sampled_from([2, 3, 4, 6]), seed=st.integers(0, 10_000))
@example(players=3, seed=2821)  # replays under "0 2 4" and "0 5 4": needs [Seats]
def test_app_records_replay_as_the_seeds_and_convert_back(players, seed):
    record = random_record(players, seed)
    app = read_export(record)
    assert states(app) == states(record)
    back = FLOWS.convert(app, to="seed")
    assert back.events == record.events
    assert back.headers["Seats"] == record.headers["Seats"]
    again = FLOWS.convert(FLOWS.convert(record, to="quortextt"), to="flows")
    assert again.events == record.events


def test_the_apps_earlier_notation_reads_too():
    record = random_record(3, 5)
    text = export(record, earlier=True, tags='[Dialect "quortextt-v1"]\n')
    assert states(read(text)) == states(record)


@pytest.mark.parametrize("players, count", [(2, 5), (3, 20), (4, 12), (5, 120), (6, 120)])
def test_seatings_tried_keep_player_1_at_side_0(players, count):
    found = candidates(players)
    assert len(found) == count and all(s.seats[0] == 0 for s in found)


@pytest.mark.parametrize("players, seats", [(2, "0 2"), (3, "0 2 4"), (4, "0 2 3 5"),
                                            (6, "0 1 2 3 4 5")])
def test_an_export_gets_the_seats_it_replays_under(players, seats):
    record = random_record(players, 11, seats)
    state = start(read(export(record)))
    assert " ".join(map(str, state.seating.seats)) == seats


def test_several_seatings_are_one_problem():
    text = '[Dialect "quortextt"]\nGame: 2-player\n\n1. P1A3T1SE 2. P2A2T1SW\n'
    with pytest.raises(TagError, match=r"replays legally under 5 seatings with P1 at side 0"):
        start(read(text))


def test_no_seating_is_one_problem():
    text = '[Dialect "quortextt"]\nGame: 2-player\n\n1. P1A3T1SE 2. P2A1T0N 3. P1A3T2N\n'
    with pytest.raises(TagError, match=r"replays legally under no seating .* stop after ply 2"):
        start(read(text))
    result = invoke("validate", "--game", "flows", "-", input=text)
    assert result.exit_code == 1 and "[Seats]" not in result.output
    assert "no seating" in result.output and len(result.output.strip().splitlines()) == 1


def failing_in_seed(players: int) -> GameNode:
    """A random game whose app export the seed's notation refuses (most do, early)."""
    for seed in range(50):
        record = random_record(players, seed)
        if notation.run(read(export(record, tags=""))).problems:
            return record
    raise AssertionError("every export also read in the seed's notation")


def test_an_untagged_export_is_told_its_dialect():
    text = export(failing_in_seed(3), tags="")
    result = invoke("validate", "--game", "flows", "-", input=text)
    assert result.exit_code == 1
    assert ("the record replays in the quortextt app's notation: "
            "add [Dialect \"quortextt\"]") in result.output


def test_an_earlier_export_is_told_its_dialect():
    record = failing_in_seed(2)
    problems = notation.run(read(export(record, earlier=True, tags=""))).problems
    assert 'add [Dialect "quortextt-v1"]' in problems[0].message


def test_a_seed_record_tagged_as_the_apps_is_told_to_drop_the_tag():
    for seed in range(50):
        record = random_record(2, seed)
        moves = " ".join(f"{ply}. {event}" for ply, event in enumerate(record.events, 1))
        text = f'[Dialect "quortextt"]\n[Seats "0 3"]\nGame: 2-player\n\n{moves}\n'
        problems = notation.run(read(text)).problems
        if problems:
            break
    assert problems and ("replays in the seed's notation: remove [Dialect \"quortextt\"]"
                         in problems[0].message)


def test_a_record_no_notation_reads_gets_no_hint():
    text = "Game: 2-player\n\n1. P1A4T0N 2. P2A4T0N 3. P1A4T0N\n"
    problems = notation.run(read(text)).problems
    assert problems and "Dialect" not in problems[0].message


def test_convert_writes_either_notation_from_the_command_line(tmp_path):
    record = random_record(4, 3)
    path = tmp_path / "app.flows"
    path.write_text(export(record, tags=""))  # the app's bare export: no tag can say it
    seed = invoke("convert", "--dialect", "quortextt", "--to", "flows", str(path))
    assert seed.exit_code == 0, seed.output
    assert read(seed.output).events == record.events and "Dialect" not in seed.output
    (tmp_path / "seed.flows").write_text(seed.output)
    app = invoke("convert", "--to", "quortextt", str(tmp_path / "seed.flows"))
    assert app.exit_code == 0 and read(app.output).events == read(path.read_text()).events
    checked = invoke("validate", str(path))
    assert checked.exit_code == 1 and 'add [Dialect "quortextt"]' in checked.output
    assert invoke("validate", "--dialect", "quortextt", str(path)).exit_code == 0
    assert invoke("replay", "--json", "--dialect", "quortextt", str(path)).exit_code == 0


def test_legal_moves_are_spelled_in_the_records_notation():
    record = random_record(2, 4)
    app = read(export(record))
    half = len(record.events) // 2
    seed_state = notation.run(record, until=half).state
    app_state = notation.run(app, until=half).state
    side = seed_state.side_for(seed_state.to_move)

    def placements(state: FlowsState) -> set[tuple[int, int]]:
        return {state.notation.locate(m, side) for m in FLOWS.legal_moves(state, tile=2)
                if isinstance(m, Placement)}

    assert app_state.notation is NOTATIONS["quortextt"]
    assert placements(app_state) == placements(seed_state) != set()


def test_a_short_export_is_told_its_dialect_though_its_seats_are_open():
    text = ("Game: 2-player\n\n"
            "1. P1B2T3SE 2. P2E1T1NW 3. P1A2T1S 4. P2E5T3SE 5. P1E1T3SW 6. P2C5T0S\n")
    (problem,) = notation.run(read(text)).problems
    assert problem.message.endswith('add [Dialect "quortextt"]') and problem.ply == 5
    (seats,) = notation.run(read('[Dialect "quortextt"]\n' + text)).problems
    assert "replays legally under 5 seatings" in seats.message


def test_a_dialect_given_on_the_command_line_is_never_lost_on_a_cluster(tmp_path):
    path = tmp_path / "app.flows"
    path.write_text(export(random_record(2, 5), tags=""))
    refused = invoke("validate", "--dialect", "quortextt", "--scheduler", "tcp://127.0.0.1:9",
                     str(path))
    assert refused.exit_code == 2 and "--dialect is read here, not on a cluster" in refused.output


def test_no_notation_is_said_to_read_a_record_with_an_unreadable_event():
    problems = notation.run(notation.load(DATA / "flows" / "seed-sample.flows")[0]).problems
    assert problems and not any("Dialect" in p.message for p in problems)
