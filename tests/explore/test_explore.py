"""``notation explore``: the opening tree, checked against answers worked out by hand on
small records (tests/data/explore/), and its invariants on random games."""
from __future__ import annotations

import json
import random
import re

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation.core.new_games import random_record
import notation
from notation.cli.explore import explore
from notation.core import registry
from notation.core.ast import EventNode
from notation.core.replay import run
from notation.core.writer import format_record
from notation.explore import OpeningTree, tree_json
from notation.games.tilewe.events import SIZE, Move, read_move
from notation.games.tilewe.pieces import orientation
from notation.games.tilewe.symmetry import TRANSFORMS, transform_move

from conftest import DATA, HANG_BREAKER, invoke

HERE = DATA / "explore"


def explored(*args: str, code: int = 0) -> str:
    """The command's standard output, with the exit code checked."""
    result = CliRunner().invoke(explore, [*args], catch_exceptions=False)
    assert result.exit_code == code, result.stdout + result.stderr
    return result.stdout


def tree_of(*args: str, code: int = 0) -> dict:
    return json.loads(explored("--json", *args, code=code))


def line(trees: dict, game: str, moves: list[str]) -> tuple[list[str], list[dict]]:
    """The keys and the positions along ``moves`` from the game's only start."""
    tree = trees["trees"][game]
    (root,) = tree["roots"]
    keys, positions = [root], [tree["positions"][root]]
    for text in moves:
        (move,) = [m for m in positions[-1]["moves"] if m["move"] == text]
        keys.append(move["next"])
        positions.append(tree["positions"][move["next"]])
    return keys, positions


def seat(wins=0, shared=0, losses=0, no_winner=0, unfinished=0, mean=None) -> dict:
    return {"wins": wins, "shared": shared, "losses": losses, "no_winner": no_winner,
            "unfinished": unfinished, "mean_score": mean}


# -- transpositions -----------------------------------------------------------------------
def test_two_move_orders_meet_in_one_position():
    trees = tree_of(str(HERE / "transposition.tilewe"))
    keys, first = line(trees, "tilewe",
                       ["P5w-a1a1", "Z5nf-c3t20", "I3n-a1c3", "U5e-b3q17", "O1n-a1d2"])
    others, second = line(trees, "tilewe",
                          ["P5w-a1a1", "Z5nf-c3t20", "O1n-a1d2", "U5e-b3q17", "I3n-a1c3"])
    assert [p["games"] for p in first] == [2, 2, 2, 1, 1, 2]
    assert [p["games"] for p in second] == [2, 2, 2, 1, 1, 2]
    assert keys[:3] == others[:3] and keys[5] == others[5]  # the two orders meet at ply 5
    assert keys[3] != others[3] and keys[4] != others[4]  # blue placed another piece first
    meeting = first[-1]
    assert meeting["ply"] == 5
    assert [(m["move"], m["games"]) for m in meeting["moves"]] == [("L3n-b1o14", 1),
                                                                  ("T4w-b2o18", 1)]
    # the ply-2 position offers both orders, one game each
    assert [(m["move"], m["games"]) for m in first[2]["moves"]] == [("I3n-a1c3", 1),
                                                                    ("O1n-a1d2", 1)]
    # plies 0-2 shared, 3 and 4 two each, 5 shared, 6 two
    assert len(trees["trees"]["tilewe"]["positions"]) == 3 + 2 * 2 + 1 + 2


def test_the_text_says_a_transposition_once():
    text = explored(str(HERE / "transposition.tilewe"))
    assert text.count("(transposition: its position is above)") == 1
    assert re.search(r"^          5\. I3n-a1c3  1 game: blue 1 unfinished; yellow 1 unfinished"
                     r"  \(transposition", text, re.M)
    assert "\n      3. I3n-a1c3  1 game" in text and "\n      3. O1n-a1d2  1 game" in text


# -- symmetry -----------------------------------------------------------------------------
def test_a_game_and_its_mirror_image_fold_into_one_line():
    path = str(HERE / "symmetric.tilewe")
    plain = tree_of(path)["trees"]["tilewe"]
    folded = tree_of(path, "--symmetric")["trees"]["tilewe"]
    (root,) = plain["roots"]
    assert [(m["move"], m["games"]) for m in plain["positions"][root]["moves"]] == [
        ("P5n-a3a20", 1), ("P5w-a1a1", 1)]
    assert len(plain["positions"]) == 1 + 2 * 6
    assert len(folded["positions"]) == 1 + 6
    (root,) = folded["roots"]
    key, plies = root, []
    while folded["positions"][key]["moves"]:
        (move,) = folded["positions"][key]["moves"]
        assert move["games"] == 2
        plies.append(move["move"])
        key = move["next"]
    assert len(plies) == 6 and folded["positions"][key]["ended"] == 2


def test_a_move_from_a_symmetric_position_takes_its_least_image():
    """The empty board is its own image under all eight transforms: the first move is
    written as the least of its eight images (by what it is, the cells covered), in its
    canonical spelling there (worked out here from the move itself)."""
    tilewe = registry.require("tilewe")
    images = sorted((tilewe.event_identity(image), image) for image in (
        transform_move(name, read_move("P5w-a1a1")) for name in TRANSFORMS))
    empty = tilewe.start(notation.parse('[Game "tilewe"]\n', "tilewe")[0])
    assert str(tilewe.canonical_event(empty, images[0][1])) == "P5e-c2t20"
    folded = tree_of(str(HERE / "symmetric.tilewe"), "--symmetric")["trees"]["tilewe"]
    (root,) = folded["roots"]
    assert [m["move"] for m in folded["positions"][root]["moves"]] == ["P5e-c2t20"]


# -- spellings ----------------------------------------------------------------------------
def by_last_contact(board, move: Move) -> Move:
    """The same placement (the same cells) spelled by the piece's last contact tile that
    lands where the mover may place (``board``: the position it is played in)."""
    (x, y), anchors = move.contact, board.anchors(board.to_move())
    spellings = [Move(move.piece, move.orientation, (cx, cy), target)
                 for cx, cy in orientation(move.piece, move.orientation).contacts
                 if anchors >> (target := move.target + cx - x + SIZE * (cy - y)) & 1]
    return spellings[-1]


def respelled(game, record):
    """``record`` with each move spelled by its last contact tile (:func:`by_last_contact`)."""
    board, moves = game.start(record), []
    for move in record.events:
        moves.append(EventNode(by_last_contact(board, move)))
        game.apply(board, move)
    return record.rewritten(moves)


def spelled_archives(tmp_path) -> tuple[str, str, list[list[str]]]:
    """Random Tilewe games with every move spelled by its last contact tile, the same
    games as ``fmt --canonical`` writes them, and the canonical games' moves."""
    tilewe = registry.require("tilewe")
    games = [random_record(tilewe, random.Random(seed), {"players": 4})
             for seed in (1, 2, 3, 1, 4, 5)]
    others = [respelled(tilewe, g) for g in games]
    assert all(run(g).valid for g in others)
    assert sum(str(a) != str(b) for g, r in zip(games, others)
               for a, b in zip(g.events, r.events)) > 8
    written = tmp_path / "respelled.tilewe"
    written.write_text("\n".join(format_record(g) for g in others))
    canonical = invoke("fmt", "--canonical", str(written))
    assert canonical.exit_code == 0, canonical.output
    fixed = tmp_path / "canonical.tilewe"
    fixed.write_text(canonical.stdout)
    moves = [[str(e) for e in record.events] for record in notation.load(fixed)]
    return str(written), str(fixed), moves


@pytest.mark.slow
def test_explore_writes_each_move_as_fmt_canonical_spells_it(tmp_path):
    """One placement spelled by another contact tile is the same move: one row, shown in
    the spelling ``fmt --canonical`` writes (it was the first spelling met, or the least
    text, whichever the games wrote)."""
    respelled, canonical, moves = spelled_archives(tmp_path)
    assert tree_of("--depth", "99", respelled) == tree_of("--depth", "99", canonical)
    trees = tree_of("--depth", "99", respelled)
    for line_moves in moves:
        line(trees, "tilewe", line_moves)  # each move of each game, as fmt writes it
    by_c1 = tmp_path / "by-c1.tilewe"
    by_c1.write_text('[Game "tilewe"]\n[Players "1"]\n\n1. O1n-a1t1 2. I3n-a1s2 3. U5s-c1t5\n')
    assert "3. U5s-a1r5  1 game" in explored(str(by_c1))  # fmt --canonical's, not as written


@pytest.mark.slow
def test_symmetric_explore_writes_one_spelling_whatever_the_games_wrote(tmp_path):
    """Folded by symmetry, a move is written in the canonical spelling on its image's
    board: the games as played and as ``fmt --canonical`` writes them make one tree."""
    respelled, canonical, _moves = spelled_archives(tmp_path)
    assert (tree_of("--symmetric", "--depth", "99", respelled)
            == tree_of("--symmetric", "--depth", "99", canonical))


def test_symmetric_changes_nothing_for_other_games():
    path = str(HERE / "results.flows")
    plain, folded = tree_of(path), tree_of(path, "--symmetric")
    assert plain["trees"] == folded["trees"]


# -- results per seat ---------------------------------------------------------------------
def test_three_and_four_player_results_with_scores():
    trees = tree_of(str(HERE / "results.tilewe"))
    tree = trees["trees"]["tilewe"]
    three, four = (tree["positions"][key] for key in tree["roots"])
    assert three["games"] == 1 and four["games"] == 2
    assert three["results"] == {"blue": seat(losses=1, mean=65.0),
                                "yellow": seat(wins=1, mean=89.0),
                                "red": seat(losses=1, mean=61.0)}
    # the 4-player game won by blue, and the same opening stopped after four plies
    assert four["results"] == {"blue": seat(wins=1, unfinished=1, mean=66.0),
                               "yellow": seat(losses=1, unfinished=1, mean=56.0),
                               "red": seat(losses=1, unfinished=1, mean=53.0),
                               "green": seat(losses=1, unfinished=1, mean=60.0)}
    (opening,) = four["moves"]
    assert (opening["move"], opening["games"]) == ("I4n-a1a1", 2)
    assert opening["results"] == four["results"]


def test_shared_wins_in_four_and_three_player_flows():
    trees = tree_of(str(HERE / "results.flows"))
    tree = trees["trees"]["flows"]
    four, three = (tree["positions"][key] for key in tree["roots"])
    assert four["results"] == {"P1": seat(losses=1), "P2": seat(shared=1),
                               "P3": seat(losses=1), "P4": seat(shared=1)}
    assert three["results"] == {"P1": seat(losses=1), "P2": seat(wins=1), "P3": seat(losses=1)}


def test_games_over_without_a_winner():
    trees = tree_of(str(DATA.parent.parent / "samples" / "nomic" / "example-1.nomic"))
    (root,) = trees["trees"]["nomic"]["roots"]
    results = trees["trees"]["nomic"]["positions"][root]["results"]
    assert results == {name: seat(no_winner=1) for name in ("Alice", "Bob", "Carol")}


def test_philosophy_joining_is_no_seat():
    trees = tree_of(str(DATA.parent.parent / "samples" / "philosophy" / "phil-0009.philosophy"))
    (root,) = trees["trees"]["philosophy"]["roots"]
    results = trees["trees"]["philosophy"]["positions"][root]["results"]
    assert results == {"In": seat(losses=1), "Sa": seat(losses=1), "Te": seat(wins=1)}


# -- depth, mainline, invalid games -------------------------------------------------------
def test_depth_bounds_the_tree():
    path = str(HERE / "results.tilewe")
    for depth in (0, 1, 3):
        tree = tree_of(path, "--depth", str(depth))["trees"]["tilewe"]
        assert max(p["ply"] for p in tree["positions"].values()) == depth
        deepest = [p for p in tree["positions"].values() if p["ply"] == depth]
        assert all(not p["moves"] for p in deepest)
        assert sum(p["cut"] for p in deepest) == 3
    assert len(tree_of(path, "--depth", "0")["trees"]["tilewe"]["positions"]) == 2


def test_only_the_mainline_counts():
    tree = tree_of(str(HERE / "variation.tilewe"))["trees"]["tilewe"]
    (root,) = tree["roots"]
    assert [m["move"] for m in tree["positions"][root]["moves"]] == ["P5w-a1a1"]
    assert len(tree["positions"]) == 4


def test_an_invalid_game_is_reported_and_left_out():
    path = str(HERE / "invalid.tilewe")
    result = CliRunner().invoke(explore, ["--json", path])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{path}:9:30: error: game 2, ply 3 (Y5w-a2e2): the target e2 is not diagonal to "
        "any blue tile (not an open corner) [rule: contact on an open corner]"]
    trees = json.loads(result.stdout)
    assert (trees["games"], trees["invalid"]) == (1, 1)
    (root,) = trees["trees"]["tilewe"]["roots"]
    assert trees["trees"]["tilewe"]["positions"][root]["games"] == 1


def test_usage_errors():
    result = CliRunner().invoke(explore, ["--json", "--html", str(HERE / "results.flows")])
    assert result.exit_code == 2 and "choose one" in result.output
    result = CliRunner().invoke(explore, ["--depth", "-1", str(HERE / "results.flows")])
    assert result.exit_code == 2


# -- JSON and HTML ------------------------------------------------------------------------
def test_json_shape():
    trees = tree_of(str(HERE / "results.tilewe"), str(HERE / "results.flows"), "--depth", "2")
    assert set(trees) == {"depth", "symmetric", "games", "invalid", "trees"}
    assert (trees["depth"], trees["symmetric"], trees["games"], trees["invalid"]) == (2, False, 5, 0)
    assert list(trees["trees"]) == ["tilewe", "flows"]
    for tree in trees["trees"].values():
        assert set(tree) == {"games", "roots", "positions"}
        for key, position in tree["positions"].items():
            assert re.fullmatch(r"[0-9a-f]{16}", key)
            assert set(position) == {"position", "ply", "games", "ended", "cut", "results", "moves"}
            for move in position["moves"]:
                assert set(move) == {"move", "games", "next", "results"}
                assert move["next"] in tree["positions"]
            games = [m["games"] for m in position["moves"]]
            assert games == sorted(games, reverse=True)


def test_html_is_self_contained(tmp_path):
    out = tmp_path / "tree.html"
    assert explored("--html", "-o", str(out), str(HERE / "results.tilewe"), "--depth", "3") == ""
    page = out.read_text("utf-8")
    assert page.startswith("<!DOCTYPE html>")
    # no reference that would load anything (the SVG namespace is a name, not a reference)
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:|//)|url\(\s*["']?https?:|@import""",
                         page, re.I)
    assert "</script>" not in page.split("const DATA = ", 1)[1].split(";\n", 1)[0]
    assert not list(tmp_path.glob(".*"))  # no temporary left behind


def test_html_data_cannot_close_its_script(tmp_path):
    record = tmp_path / "crafted.tilewe"
    record.write_text('[Game "tilewe"]\n[Players "1"]\n[Event "</script><script>alert(1)"]\n\n'
                      "1. I4n-a1a1\n", "utf-8")
    out = tmp_path / "tree.html"
    explored("--html", "-o", str(out), str(record))
    page = out.read_text("utf-8")
    assert page.count("</script>") == 1


# -- invariants ---------------------------------------------------------------------------
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(game=st.sampled_from(["flows", "tilewe"]), players=st.integers(2, 4),
       seeds=st.lists(st.integers(0, 5), min_size=1, max_size=6),
       cuts=st.lists(st.integers(0, 12), min_size=6, max_size=6),
       depth=st.integers(0, 8), symmetric=st.booleans())
def test_counts_add_up(game, players, seeds, cuts, depth, symmetric):
    """The root counts every valid game; at every position the games of its moves, the
    games that ended there and those cut by the depth bound are its games."""
    rules = registry.require(game)
    tree = OpeningTree(depth, symmetric)
    for seed, cut in zip(seeds, cuts):
        record = random_record(rules, random.Random(seed), {"players": players})
        events = [i for i in record.items][:cut]  # same seed: shared openings
        short = record.rewritten(events)
        outcome = run(short)
        assert outcome.valid
        tree.add(short, outcome)
    data = tree_json(tree)
    assert data["games"] == len(seeds)
    (root,) = data["trees"][game]["roots"]
    positions = data["trees"][game]["positions"]
    assert positions[root]["games"] == len(seeds)
    for position in positions.values():
        assert (sum(m["games"] for m in position["moves"]) + position["ended"] + position["cut"]
                == position["games"])
        assert position["ply"] <= depth
        for move in position["moves"]:  # a seat that never moved in a short game is not counted
            for counts in move["results"].values():
                assert sum(v for k, v in counts.items() if k != "mean_score") <= move["games"]


def test_a_flows_game_stopped_early_counts_every_seat():
    record = random_record(registry.require("flows"), random.Random(0), {"players": 3})
    short = record.rewritten([i for i in record.items][:1])
    tree = OpeningTree()
    tree.add(short, run(short))
    flows = tree_json(tree)["trees"]["flows"]
    (root,) = flows["roots"]
    assert flows["positions"][root]["results"] == {
        "P1": seat(unfinished=1), "P2": seat(unfinished=1), "P3": seat(unfinished=1)}


def test_a_game_stopped_early_counts_the_seats_that_never_moved(tmp_path):
    path = tmp_path / "early.tilewe"
    path.write_text('[Game "tilewe"]\n[Players "4"]\n\n1. I4n-a1a1 2. T4n-a2a20\n',
                    encoding="utf-8")
    trees = tree_of(str(path))
    (root,) = trees["trees"]["tilewe"]["roots"]
    results = trees["trees"]["tilewe"]["positions"][root]["results"]
    assert list(results) == ["blue", "yellow", "red", "green"]
    assert all(r == seat(unfinished=1) for r in results.values())


@pytest.mark.parametrize("name", ["tilewe", "flows", "philosophy", "sanguine", "nomic"])
def test_every_game_names_its_seats_as_it_names_movers_and_winners(name):
    """``Game.seats`` is the contract the explorer counts by: every mover and winner is a
    seat, and scores come one per seat."""
    import random as stdlib_random
    from notation.core import registry
    game = registry.get(name)
    for seed in range(6):
        record = random_record(game, stdlib_random.Random(seed), {})
        state = game.start(record)
        movers = []
        for event in record.events:
            movers.append(game.to_move(state))
            game.apply(state, event)
        seats = game.seats(state)
        assert seats is not None and len(set(seats)) == len(seats)
        joining = {"new player"} if name == "philosophy" else set()  # before two have joined
        assert {m for m in movers if m is not None} - joining <= set(seats)
        assert set(game.winner_words(state)) <= set(seats)
        scores = game.result_json(state).get("scores")
        if isinstance(scores, list):
            assert len(scores) == len(seats)


# -- what filing a game costs ------------------------------------------------------------
def counted_plays(monkeypatch, game) -> list[int]:
    """Every ``apply`` of ``game`` from now on, counted (one entry each)."""
    plays: list[int] = []
    real = game.apply

    def apply(state, event):
        plays.append(1)
        return real(state, event)

    monkeypatch.setattr(game, "apply", apply)
    return plays


@pytest.mark.parametrize("depth", [0, 2, 5])
def test_only_the_opening_is_played_again(monkeypatch, depth):
    """The explorer walked (replayed again) each game's whole mainline to file ``depth``
    plies of it: a game of 60 plies cost 60, at any depth."""
    tilewe = registry.require("tilewe")
    record = random_record(tilewe, random.Random(3), {})
    outcome = run(record)
    assert outcome.valid and outcome.plies > 40
    plays = counted_plays(monkeypatch, tilewe)
    tree = OpeningTree(depth)
    tree.add(record, outcome)
    assert len(plays) == depth
    positions = tree.trees["tilewe"].positions.values()
    assert sorted(p.ply for p in positions) == list(range(depth + 1))
    assert sum(p.cut for p in positions) == 1


def test_a_game_that_cannot_name_its_seats_reads_every_mover(monkeypatch):
    """Such a game's seats are the movers of its whole mainline: played on past the depth."""
    tilewe = registry.require("tilewe")
    record = random_record(tilewe, random.Random(4), {"players": 3})
    outcome = run(record)
    named = tree_json(added(OpeningTree(1), record, outcome))
    monkeypatch.setattr(tilewe, "seats", lambda state: None)
    plays = counted_plays(monkeypatch, tilewe)
    from_movers = tree_json(added(OpeningTree(1), record, outcome))
    assert len(plays) == outcome.plies
    assert from_movers == named
    (root,) = named["trees"]["tilewe"]["roots"]
    assert list(named["trees"]["tilewe"]["positions"][root]["results"]) == [
        "blue", "yellow", "red"]


def added(tree: OpeningTree, record, outcome) -> OpeningTree:
    tree.add(record, outcome)
    return tree


#: ``explore --json --depth D -o OUT`` of a small file (what loads once: modules, grammars,
#: caches, a peak of its own), the peak forgotten, then of the file measured: its peak
#: memory (KiB) on stderr. The peak is the process's VmHWM, ru_maxrss of this program
#: alone: ru_maxrss itself keeps the peak of the process image before ``exec``, which
#: after a fork (a ``preexec_fn``) is the whole test runner's.
PEAK_MEMORY = """
import sys
from notation.cli.main import run
depth, small, measured, out = sys.argv[1:]

def explore(path):
    try:
        run(["explore", "--json", "--depth", depth, "-o", out, path])
    except SystemExit as end:
        assert not end.code, end.code

explore(small)
with open("/proc/self/clear_refs", "w") as refs:
    refs.write("5")  # Linux: the peak so far forgotten
explore(measured)
with open("/proc/self/status") as status:
    print(next(line for line in status if line.startswith("VmHWM:")).split()[1],
          file=sys.stderr)
"""


def cpu_bound() -> None:
    """A child's hang breaker: CPU seconds, not the wall clock."""
    import resource
    resource.setrlimit(resource.RLIMIT_CPU, (600, 600))


@pytest.mark.slow
def test_memory_is_bounded_by_what_is_filed_not_by_the_games(tmp_path):
    """Twice as many distinct games, (about) the same positions filed: the same peak
    memory. At depth 0 the one start is filed; at depth 1 the first moves (some fifty
    more among 400 games than among 200, a few KiB each)."""
    import subprocess
    import sys
    from conftest import run_cli
    games = run_cli("random", "tilewe", "--seed", "5", "--count", "400").stdout
    records = games.split("\n\n[Game ")
    assert len(set(records)) == 400
    paths = {}
    for count in (2, 200, 400):
        paths[count] = tmp_path / f"{count}.tilewe"
        paths[count].write_text("\n\n[Game ".join(records[:count]))
    out = tmp_path / "tree.json"
    for depth in ("0", "1"):
        peaks = []
        for count in (200, 400):
            result = subprocess.run(
                [sys.executable, "-c", PEAK_MEMORY, depth, str(paths[2]), str(paths[count]),
                 str(out)], capture_output=True, text=True, timeout=HANG_BREAKER, preexec_fn=cpu_bound)
            assert result.returncode == 0, result.stderr
            assert json.loads(out.read_text())["games"] == count
            peaks.append(int(result.stderr.split()[-1]))
        # a record kept per game (its events, a node each) would be tens of KiB a game
        assert peaks[1] - peaks[0] < 2048, (depth, peaks)


# -- the one-pass path ------------------------------------------------------------------------
GAMES = ("tilewe", "flows", "philosophy", "sanguine", "nomic")


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10**6), depth=st.integers(0, 6),
       symmetric=st.booleans(), cut=st.integers(0, 40))
def test_a_plain_game_is_filed_in_one_pass_as_the_full_replay_files_it(
        game, seed, depth, symmetric, cut):
    """A plain game read in headers mode (``explore``'s reading) is judged and filed with
    no tree: the same filing as its full replay, whole or cut short (a result tag then
    wrong: both say so)."""
    from notation.core.results import with_result_tags
    from notation.explore.tree import explored_game, filing
    from notation.read.reading import source_records
    import io
    options = ({"red": str(DATA.parent.parent / "samples" / "sanguine" / "decks" / "legion.deck"),
                "blue": str(DATA.parent.parent / "samples" / "sanguine" / "decks" / "legion.deck")}
               if game == "sanguine" else {})
    record, _ = with_result_tags(random_record(registry.require(game), random.Random(seed),
                                               options))
    text = format_record(record)
    if cut % 3 == 0:  # the last moves dropped: the result tags now wrong
        lines = text.rstrip("\n").split("\n")
        text = "\n".join(lines[:max(1, len(lines) - 1 - cut // 3)]) + "\n"
    (headed,) = source_records(io.StringIO(text), game, headers=True)
    fast = explored_game(depth, symmetric, headed)
    (full,) = source_records(io.StringIO(text), game)
    outcome = run(full)
    assert fast.valid == outcome.valid
    assert [p.as_json() for p in fast.problems] == [p.as_json() for p in outcome.problems]
    if outcome.valid:
        assert fast.data == filing(full, outcome, depth, symmetric)


def test_a_game_that_plays_its_words_in_one_call_is_judged_so_and_filed_the_same(
        monkeypatch):
    """Tilewe's words are played by one compiled call (``Game.replay_words``) from the
    depth on, its first plies read as moves and played on the same board: the same
    filing as each move read and played, also when a move does not fit (in the opening,
    or past it: the call refuses it) and the full path says why."""
    from notation.explore.tree import explored_game
    from notation.read.reading import source_records
    import io
    rules = registry.require("tilewe")
    assert rules.plays_words
    texts = [format_record(random_record(rules, random.Random(seed))) for seed in range(4)]
    head, body = texts[0].split("\n\n", 1)
    words = body.split()
    for at in (3, 23):  # the first move again, as the second or the twelfth: no fit
        bad = list(words)
        bad[at] = words[1]
        texts.append(f"{head}\n\n{' '.join(bad)}\n")

    def filed() -> list:
        found = []
        for text in texts:
            (headed,) = source_records(io.StringIO(text), "tilewe", headers=True)
            outcome = explored_game(3, False, headed)
            found.append((outcome.valid, [p.as_json() for p in outcome.problems],
                          outcome.data))
        return found

    calls = []
    plays = type(rules).replay_words
    monkeypatch.setattr(type(rules), "replay_words",
                        lambda self, state, words: calls.append(len(words)) or plays(
                            self, state, words))
    in_one_call = filed()
    assert len(calls) == len(texts) - 1  # (a move refused in the opening: no call)
    assert [valid for valid, *_ in in_one_call] == [True] * 4 + [False] * 2
    assert [p["ply"] for p in in_one_call[4][1][:1] + in_one_call[5][1][:1]] == [2, 12]
    monkeypatch.setattr(type(rules), "plays_words", property(lambda self: False))
    assert filed() == in_one_call


def test_explore_reads_a_plain_archive_without_its_trees(tmp_path, monkeypatch):
    """The command's games are filed by the one pass: no full replay runs."""
    from notation.explore import tree as explore_tree
    archive = tmp_path / "games.tilewe"
    rules = registry.require("tilewe")
    archive.write_text("\n".join(format_record(random_record(rules, random.Random(seed)))
                                 for seed in range(5)), encoding="utf-8")

    def no_full_replay(record):
        raise AssertionError("a plain game went through the full replay")

    monkeypatch.setattr(explore_tree, "run", no_full_replay)
    assert tree_of("--jobs", "1", str(archive))["games"] == 5
