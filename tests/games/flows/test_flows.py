"""Flows: geometry, tiles, perspectives, rules, victories, conversion (rules file: flows.md)."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.core.tree import GameNode
import notation
from notation.core.ast import Tag
from notation.core.errors import NotationError, RuleError
from notation.read.grammars import terminal_pattern
from notation.games.flows import events, rules
from notation.games.flows.events import Placement, Unplaceable
from notation.games.flows.geometry import (
    DIRECTION_NAMES, EDGE, HEXES, INDEX, N_EDGES, ORIENTATIONS, SIDE_EDGES, VIEWS, hex_of,
    label_of, name_of_rotation, neighbour, rotation_from_name,
)
from notation.games.flows.routes import blocked_players
from notation.games.flows.state import FlowsState, Seating
from notation.games.flows.tiles import PAIRS, PERIOD, partners

from conftest import DATA, SAMPLES, invoke, reference_games, run_cli

FLOWS = notation.get_game("flows")


def record(text: str):
    return notation.parse(text, game="flows")[0]


def state_for(players: int, seats: str | None = None):
    tags = [Tag("Players", str(players))] + ([Tag("Seats", seats)] if seats else [])
    return FLOWS.start(GameNode("flows", tags))


# -- geometry (sections 2 and 11) ------------------------------------------------------

def test_board_shape_and_edges():
    assert len(HEXES) == 37
    assert [sum(1 for r, _ in HEXES if r == row) for row in range(7)] == [4, 5, 6, 7, 6, 5, 4]
    assert N_EDGES == 132  # 90 shared edges + 42 perimeter edges
    perimeter = {(h, d) for h in range(37) for d in range(6) if neighbour(h, d) is None}
    assert len(perimeter) == 42
    owned = [e for side in SIDE_EDGES for e in side]
    assert len(owned) == 42 and set(owned) == perimeter  # each owned exactly once


SIDE_TABLE = {  # rules section 2.2, verbatim
    0: "(0,0)SW (0,0)SE (0,1)SW (0,1)SE (0,2)SW (0,2)SE (0,3)SW",
    1: "(0,0)W (1,0)SW (1,0)W (2,0)SW (2,0)W (3,0)SW (3,0)W",
    2: "(3,0)NW (4,1)W (4,1)NW (5,2)W (5,2)NW (6,3)W (6,3)NW",
    3: "(6,3)NE (6,4)NW (6,4)NE (6,5)NW (6,5)NE (6,6)NW (6,6)NE",
    4: "(3,6)E (3,6)NE (4,6)E (4,6)NE (5,6)E (5,6)NE (6,6)E",
    5: "(0,3)SE (0,3)E (1,4)SE (1,4)E (2,5)SE (2,5)E (3,6)SE",
}


@pytest.mark.parametrize("side", range(6))
def test_side_perimeter_edges_match_the_table(side):
    ours = {f"({HEXES[h][0]},{HEXES[h][1]}){DIRECTION_NAMES[d]}" for h, d in SIDE_EDGES[side]}
    assert ours == set(SIDE_TABLE[side].split())


def test_neighbours_follow_the_direction_table():
    h = INDEX[(3, 3)]
    got = [HEXES[neighbour(h, d)] for d in range(6)]
    assert got == [(2, 2), (3, 2), (4, 3), (4, 4), (3, 4), (2, 3)]
    assert EDGE[h][4] == EDGE[INDEX[(3, 4)]][1]  # a shared edge is one edge


# -- tiles (section 3) --------------------------------------------------------------------

def test_partner_tables_and_symmetry():
    assert partners(0, 0) == (2, 4, 0, 5, 1, 3)
    assert partners(1, 0) == (5, 3, 4, 1, 2, 0)
    assert partners(2, 0) == (5, 4, 3, 2, 1, 0)
    assert partners(3, 0) == (5, 2, 1, 4, 3, 0)
    for t in range(4):
        for r in range(6):
            p = partners(t, r)
            assert all(p[p[d]] == d and p[d] != d for d in range(6))
        periods = [k for k in range(1, 7) if PAIRS[t][k % 6] == PAIRS[t][0]]
        assert periods[0] == PERIOD[t]
    assert PERIOD == (3, 6, 3, 2)
    assert partners(1, 1)[0] == (partners(1, 0)[5] + 1) % 6  # rotation turns every pair


# -- perspectives (section 5) --------------------------------------------------------------

SEED_TABLE = [((0, 0), "A1", "G1"), ((0, 3), "A4", "G4"), ((3, 3), "D4", "D4"),
              ((6, 3), "G4", "A4"), ((6, 6), "G7", "A7")]


@pytest.mark.parametrize("internal, p1, p2", SEED_TABLE)
def test_seed_tables_for_p1_and_p2(internal, p1, p2):
    h = INDEX[internal]
    assert label_of(h, 0) == p1 and label_of(h, 3) == p2
    assert hex_of(p1, 0) == h and hex_of(p2, 3) == h


def test_label_grids_of_sides_1_2_4_5():
    def grid(side):
        return [" ".join(label_of(INDEX[(r, c)], side) for c in range(7) if (r, c) in INDEX)
                for r in range(6, -1, -1)]
    assert grid(1)[0] == "D1 E2 F3 G4" and grid(1)[3] == "A1 B2 C3 D4 E5 F6 G7"
    assert grid(2)[6] == "D7 E7 F7 G7" and grid(2)[3] == "A4 B4 C4 D4 E4 F4 G4"
    assert grid(4)[0] == "D1 C2 B3 A4" and grid(4)[6] == "G4 F5 E6 D7"
    assert grid(5)[0] == "G1 F1 E1 D1" and grid(5)[3] == "G4 F4 E4 D4 C4 B4 A4"


def test_every_view_is_a_bijection_with_d4_at_the_centre():
    for side in range(6):
        assert len(set(VIEWS[side].values())) == 37
        assert label_of(INDEX[(3, 3)], side) == "D4"
        for label in ("A1", "A5", "G1") if side < 3 else ("A1",):
            if label not in VIEWS[side].values():
                with pytest.raises(NotationError):
                    hex_of(label, side)


def test_orientation_names_turn_with_the_view():
    assert [rotation_from_name(n, 0) for n in ("N", "NE", "SE", "S", "SW", "NW")] == list(range(6))
    assert rotation_from_name("S", 3) == 3  # the seed: P2's S is internal rotation 3
    assert rotation_from_name("N", 1) == 1 and name_of_rotation(1, 4) == "N"


@given(st.integers(0, 36), st.integers(0, 5), st.integers(0, 5), st.integers(0, 5))
def test_coordinates_convert_round_trip_between_all_seats(h, rotation, a, b):
    label_a = label_of(h, a)
    label_b = label_of(hex_of(label_a, a), b)
    assert hex_of(label_b, b) == h
    assert label_of(hex_of(label_b, b), a) == label_a
    name = name_of_rotation(rotation, a)
    assert rotation_from_name(name_of_rotation(rotation_from_name(name, a), b), b) == rotation


# -- notation (section 6) ------------------------------------------------------------------

@given(st.integers(1, 6), st.sampled_from("ABCDEFG"), st.integers(1, 7), st.integers(0, 3),
       st.sampled_from(["N", "NE", "SE", "S", "SW", "NW"]))
def test_move_format_then_parse(player, row, col, tile, orientation):
    text = f"P{player}{row}{col}T{tile}{orientation}"
    event = events.read(text)
    assert str(event) == text and FLOWS.read_event("PLACEMENT", str(event)) == event
    assert events.read(f"P{player}T{tile}") == Unplaceable(player, tile)


@pytest.mark.parametrize("text, words", [
    ("P2F5T1W", "unknown orientation 'W' in 'P2F5T1W' (expected N, NE, SE, S, SW or NW)"),
    ("P1A2T0E", "unknown orientation 'E'"),
    ("P7A2T0N", "player '7'"),
    ("P1H2T0N", "hex 'H2'"),
    ("P1A2T4N", "tile type '4'"),
    ("P1A2T0", "missing orientation in 'P1A2T0'"),
    ("P1T0N", "without an orientation"),
    ("P1A2", "not a Flows move"),
])
def test_bad_moves_are_syntax_errors_naming_the_token(text, words):
    problem = notation.run(record(f"{text}\n")).error
    assert problem.kind == "syntax" and words in problem.message and problem.event == text


def test_the_grammar_spells_the_orientations_of_the_geometry():
    placement = terminal_pattern("flows.lark", "PLACEMENT")
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    names = [a for a in letters] + [a + b for a in letters for b in letters]
    assert {n for n in names if placement.fullmatch(f"P1A1T0{n}")} == set(ORIENTATIONS)


def test_an_event_is_read_without_its_number():
    assert terminal_pattern("flows.lark", "PLACEMENT").fullmatch("3. P1A2T0N")  # a token
    for text in ("3. P1A2T0N", "3.P1T2", " P1A2T0N", "P1A2T0N "):
        with pytest.raises(NotationError):
            events.read(text)
        for kind in ("PLACEMENT", "UNPLACEABLE"):
            with pytest.raises(NotationError):
                FLOWS.read_event(kind, text)
    assert FLOWS.event_reader("UNPLACEABLE")("P1A2T0N") == Placement(1, "A2", 0, "N")


@pytest.mark.parametrize("header, players", [
    ("Game: 4-player, Standard Rules", 4), ("Game:3-player", 3), ("Game: \t6-player", 6),
    ("Game: 7-player", None), ("Game: 3-players", None), ("Game: two players", None),
])
def test_seed_header_says_how_many_play(header, players):
    out = notation.run(record(f"{header}\nP1A1T0N\n"))
    if players is None:
        assert out.error.rule == "tag Players" and "does not say 'Game: N-player'" in out.error.message
    else:
        assert out.valid and out.state.seating.players == players


def test_seed_sample_record():
    out = notation.run(notation.load(DATA / "flows" / "seed-sample.flows")[0])
    assert out.plies == 3  # stops before move 4
    first, second = out.problems
    assert (first.kind, first.ply, first.event) == ("rule", 4, "P2G1T0SW")
    assert "already occupied" in first.message and "(0,0)" in first.message
    assert (second.kind, second.ply) == ("syntax", 6) and "'W'" in second.message
    assert out.state.seating.seats == (0, 3)  # "Game: 2-player": the seed's P1/P2 seats


def test_header_line_and_abridged_marker_are_kept():
    rec = notation.load(DATA / "flows" / "seed-sample.flows")[0]
    text = notation.format_record(notation.parse(
        "Game: 3-player, Standard Rules\nP1A1T0N ; c\n...\n", game="flows")[0])
    assert text == ('[Game "flows"]\n\nGame: 3-player, Standard Rules\n1. P1A1T0N ; c\n...\n')
    assert rec.items[0].text == "Game: 2-player, Standard Rules"


# -- rules (sections 1, 4, 8, 9) -------------------------------------------------------------

def test_turn_order_and_player_numbers():
    assert "it is P1's turn, not P2's" in notation.run(record("P2A1T0N")).error.message
    assert "no P3 in a 2-player game" in notation.run(record('[Players "2"]\nP3A1T0N')).error.message
    assert notation.run(record("P1A1T0N P2A4T1NE")).valid


def test_ten_tiles_of_each_type():
    state = FlowsState(Seating.make(2))
    state.placed[2] = 10
    with pytest.raises(RuleError) as info:
        rules.place(state, 0, 0, 2, 0)
    assert info.value.rule == "10 tiles of each type"
    assert "all 10 T2 tiles" in str(info.value)


def test_one_tile_on_an_empty_board_never_blocks():
    state = FlowsState(Seating.make(2, (0, 3)))
    assert all(rules.check(state, h, t, r) is None for h in range(37) for t in range(4) for r in range(6))


def test_random_legal_games_never_leave_anyone_without_a_route():
    import random
    for seed in range(4):
        tags = [Tag("Players", str(2 + seed))]
        events = FLOWS.random_events(random.Random(seed), GameNode("flows", tags))
        state = FLOWS.start(GameNode("flows", tags))
        for event in events:
            FLOWS.apply(state, event)
            if not state.over:
                assert blocked_players(state) == []


def test_blocking_rule_is_enforced_with_its_message():
    # Search a reference game for a position where some placement blocks, then check it.
    ref = reference_games("flows")[0]
    state = state_for(2, "0 2")
    for text in ref["moves"][:27]:  # the first position of this game with blocking moves
        FLOWS.apply(state, events.read(text))
    found = None
    for h in range(37):
        for t in range(4):
            for r in range(6):
                why = rules.check(state, h, t, r)
                if why and why[1] == "every player keeps a route":
                    found = (h, t, r, why[0])
                    break
            if found:
                break
        if found:
            break
    assert found, "expected some blocking placement after 27 moves"
    h, t, r, message = found
    assert "no possible route" in message
    event = Placement(state.to_move + 1, label_of(h, state.seating.seats[state.to_move]), t,
                      name_of_rotation(r, state.seating.seats[state.to_move]))
    with pytest.raises(RuleError) as info:
        FLOWS.apply(state, event)
    assert info.value.rule == "every player keeps a route"


def test_a_winning_placement_is_legal_even_if_it_blocks():
    # Legality order: occupied, then "someone wins -> legal", then blocking.
    ref = reference_games("flows")[0]  # ends with a flow win for P2 at the last move
    state = state_for(2, "0 2")
    for text in ref["moves"][:-1]:
        FLOWS.apply(state, events.read(text))
    last = events.read(ref["moves"][-1])
    side = state.seating.seats[last.player - 1]
    h, r = hex_of(last.label, side), rotation_from_name(last.orientation, side)
    assert rules.check(state, h, last.tile, r) is None
    FLOWS.apply(state, last)
    assert state.over and state.win_type == "flow" and state.winners == [1]


def test_opposite_seats_make_every_flow_win_a_tie():
    ref = next(r for r in reference_games("flows") if r["id"] == "flows-080")
    out = notation.run(notation.load(SAMPLES / "flows" / "flows-080.flows")[0])
    assert FLOWS.result_json(out.state) == {"over": True, "winners": [1, 2], "win_type": "tie"}
    assert ref["win_type"] == "tie"


def test_constraint_win_needs_a_tile_that_really_fits_nowhere():
    out = notation.run(notation.load(SAMPLES / "flows" / "flows-150.flows")[0])
    assert FLOWS.result_json(out.state) == {"over": True, "winners": [2, 4],
                                            "win_type": "constraint"}
    text = (SAMPLES / "flows" / "flows-150.flows").read_text().replace("P4T3", "P4T0")
    out = notation.run(notation.parse(text)[0])
    assert not out.valid and out.error.rule == "mandatory placement"


def test_moves_after_the_end_are_refused():
    text = (SAMPLES / "flows" / "flows-000.flows").read_text().rstrip() + " 37. P1A1T0N\n"
    out = notation.run(notation.parse(text)[0])
    assert out.error.rule == "game end" and out.error.ply == 37


def test_seats_and_teams():
    assert Seating.make(4).partner == (2, 3, 0, 1)
    assert Seating.make(6).team(0) == (0, 3)
    assert Seating.make(2, (0, 3)).partner == (None, None)  # individual play
    five = Seating.make(5)
    assert five.partner == (3, 4, None, 0, 1) and five.turns == (0, 1, 2, 3, 4, 2)
    for bad in ((4, (0, 1, 2, 3)), (2, (0, 0)), (3, (0, 2)), (2, (0, 7))):
        with pytest.raises(ValueError):
            Seating.make(*bad)
    out = notation.run(record('[Players "4"]\n[Seats "0 1 2 3"]\nP1A1T0N'))
    assert out.error.rule == "tag Seats"


def test_perspective_tag_changes_how_labels_are_read():
    a = notation.run(record('[Players "2"]\n[Seats "0 3"]\nP1A1T0N P2A4T1NE'))
    b = notation.run(record('[Players "2"]\n[Seats "0 3"]\n[Perspective "P1"]\nP1A1T0N P2G4T1NE'))
    assert a.valid and b.valid and FLOWS.position(a.state) == FLOWS.position(b.state)
    # the full position (what a Position reads back) also says the view moves are written in
    assert FLOWS.full_position(a.state) == FLOWS.position(a.state)
    assert FLOWS.full_position(b.state) == FLOWS.position(b.state) + " side:0"


# -- reference games -------------------------------------------------------------------------

@pytest.mark.parametrize("ref", reference_games("flows"), ids=lambda r: r["id"])
def test_reference_games_move_by_move(ref):
    state = state_for(ref["players"], " ".join(map(str, ref["seats"])))
    played = [events.read(m) for m in ref["moves"]]
    tiles = [e.tile for e in played] + ([ref["unplaceable_tile"]] if "unplaceable_tile" in ref else [])
    for i, tile in enumerate(tiles):
        legal = rules.legal_placements(state, tile)
        assert len(legal) == ref["legal_counts"][i], f"before move {i + 1}"
        assert len({(h, PAIRS[tile][r]) for h, r in legal}) == ref["legal_counts_distinct"][i]
        if i < len(played):
            side = state.seating.seats[played[i].player - 1]
            r, c, t, rot = ref["internal"][i]
            assert hex_of(played[i].label, side) == INDEX[(r, c)]
            assert rotation_from_name(played[i].orientation, side) == rot
            FLOWS.apply(state, played[i])
    if "unplaceable_tile" in ref:
        FLOWS.apply(state, Unplaceable(len(played) % ref["players"] + 1, ref["unplaceable_tile"]))
    assert state.over and [p + 1 for p in state.winners] == ref["winner"]
    assert state.win_type == ref["win_type"]


# -- positions, conversion, CLI ----------------------------------------------------------------

def test_position_round_trip_and_checks():
    for sample in sorted((SAMPLES / "flows").glob("*.flows")):
        for rec in notation.load(sample):
            state = notation.run(rec).state
            text = FLOWS.position(state)
            assert FLOWS.position(FLOWS.read_position(text)) == text
    start = FLOWS.position(state_for(2))
    assert start == "..../...../....../......./....../...../.... P1 0,3 *"
    for bad in ("x P1 0,3 *", "..../...../....../......./....../...../.... P2 0,3 *",
                "..../...../....../......./....../...../.... - 0,3 flow:1"):
        with pytest.raises(NotationError):
            FLOWS.read_position(bad)


@given(st.integers(0, 10_000), st.integers(2, 6), st.sampled_from(
    ["P1", "P2", "side:0", "side:1", "side:2", "side:3", "side:4", "side:5"]))
@settings(max_examples=25, deadline=None)
def test_records_convert_to_any_view_and_back(seed, players, view):
    import random
    tags = FLOWS.random_tags({"players": players})
    rec = GameNode("flows", [Tag(k, v) for k, v in tags.items()])
    events = FLOWS.random_events(random.Random(seed), rec)
    text = notation.format_events(FLOWS, dict(tags), events)
    original = notation.parse(text)[0]
    converted = FLOWS.convert(original, perspective=view)
    back = FLOWS.convert(notation.parse(notation.format_record(converted, FLOWS))[0],
                         perspective="mover")
    assert notation.format_record(back, FLOWS) == text
    a, b = notation.run(original), notation.run(converted)
    assert b.valid and FLOWS.position(a.state) == FLOWS.position(b.state)
    assert FLOWS.event_keys(original) == FLOWS.event_keys(converted)


def test_random_games_replay_identically_in_library_and_cli(tmp_path):
    result = invoke("random", "flows", "--players", "4", "--seed", "8", "--count", "3")
    path = tmp_path / "r.flows"
    path.write_text(result.output)
    outs = [json.loads(line) for line in run_cli("replay", "--json", str(path)).stdout.splitlines()]
    for rec, out in zip(notation.load(path), outs):
        lib = notation.run(rec)
        assert out["valid"] and out["plies"] == lib.plies
        assert out["position"] == FLOWS.position(lib.state)
        assert out["state"] == FLOWS.state_json(lib.state)
        assert out["result"] == FLOWS.result_json(lib.state) and out["result"]["over"]


def test_cli_coords_examples():
    assert invoke("coords", "P2A4", "--to", "P1").output == "P1G4\n"
    assert invoke("coords", "P2A4", "--to", "internal").output == "6,3\n"
    assert invoke("coords", "6,3", "--to", "P2").output == "P2A4\n"
    assert invoke("coords", "P1A1", "--to", "side:1").output == "side:1:A4\n"
    assert invoke("coords", "P2A4", "--to", "P1", "--seats", "0 2").output == "P1D1\n"
    assert invoke("coords", "P1A5", "--to", "P2").exit_code == 2


def test_cli_convert_keeps_comments_and_round_trips(tmp_path):
    path = tmp_path / "c.flows"
    path.write_text('[Game "flows"]\n[Players "2"]\n\n; start\n1. P1A1T0N {x} 2. P2A4T1NE\n')
    out = invoke("convert", "--perspective", "P2", str(path)).output
    assert "[Perspective \"P2\"]" in out and "1. P1G1T0N {x} 2. P2A4T1NE" in out and "; start" in out
    conv = tmp_path / "d.flows"
    conv.write_text(out)
    back = invoke("convert", "--perspective", "mover", str(conv)).output
    assert back == path.read_text()
    assert invoke("diff", str(path), str(conv)).exit_code == 0
    assert invoke("convert", "--perspective", "P9", str(path)).exit_code == 2
    assert invoke("convert", "--perspective", "P2", str(SAMPLES / "tilewe" / "tw-sample-1.tilewe")).exit_code == 2


def test_cli_legal_with_a_tile_and_replay_text():
    path = SAMPLES / "flows" / "flows-000.flows"
    result = invoke("legal", "--ply", "0", "--tile", "3", str(path))
    assert result.output.splitlines()[0].endswith("after ply 0: P1 to move, 222 legal moves")
    assert "P1A1T3N" in result.output
    text = invoke("replay", "--ply", "2", str(path)).output
    assert "A1 ." in text and "ply 2, P1 to move" in text
    assert "flow, won by P2" in invoke("replay", str(path)).output


def test_crosscheck_shape_in_suite():
    refs = reference_games("flows")
    texts = [(SAMPLES / "flows" / f"{r['id']}.flows").read_text() for r in refs]
    outs = [json.loads(line) for line in invoke("replay", "--json", "-", input="\n".join(texts)).stdout.splitlines()]
    for ref, out in zip(refs, outs):
        assert out["valid"] and sorted(out["result"]["winners"]) == ref["winner"]
        assert out["result"]["win_type"] == ref["win_type"]


def test_replay_draws_the_board_from_a_chosen_perspective():
    path = str(SAMPLES / "flows" / "flows-000.flows")
    p1 = invoke("replay", "--ply", "1", path).output
    p2 = invoke("replay", "--ply", "1", "--perspective", "P2", path).output
    # move 1 is P1B4T3NW: hex (1,3), which P2 (side 2) calls F6; rotation 5 is S for side 2
    assert "B4 3NW " in p1 and "(view of side 0;" in p1
    assert "F6 3S " in p2 and "(view of side 2;" in p2
    assert invoke("coords", "P1B4", "--to", "P2", "--seats", "0 2").output == "P2F6\n"
    assert invoke("replay", "--perspective", "P9", path).exit_code == 2


@pytest.mark.slow
def test_flows_counts_plies_as_every_other_game():
    """The board said "move 11" beside the viewer's "ply 10 of 34"."""
    result = run_cli("replay", "--ply", "6", str(SAMPLES / "flows" / "flows-090.flows"))
    assert result.stdout.rstrip().endswith("ply 6, P1 to move; bag T0x7 T1x9 T2x9 T3x9")
    result = run_cli("replay", str(SAMPLES / "flows" / "flows-090.flows"))
    assert "game over after 34 plies: flow, won by P2" in result.stdout
