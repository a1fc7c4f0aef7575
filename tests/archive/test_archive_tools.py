"""Archive tools: tags, select, dedupe, split, cat, stats and Tilewe's board symmetries."""
from __future__ import annotations

import io
import json
import pickle

from hypothesis import given, settings
from hypothesis import strategies as st
import pytest

import notation
from notation.read.reading import source_records
from notation.core.writer import format_record
from notation.archive import (Duplicates, FilterError, Filters, Summary, game_figures,
                              game_key, parse_plies)
from notation.core.game import MissingCapability
from notation.games.tilewe.symmetry import NAMES, TRANSFORMS, square

from conftest import SAMPLES, run_cli
from test_fastpath import random_text

FILES = {
    "tilewe": SAMPLES / "tilewe" / "tw-sample-1.tilewe",        # 4 players, blue wins
    "tilewe3": SAMPLES / "tilewe" / "tw-sample-2.tilewe",       # 3 players
    "flows": SAMPLES / "flows" / "flows-090.flows",             # 3 players, P2 wins
    "philosophy": SAMPLES / "philosophy" / "phil-0148.philosophy",  # In wins
    "sanguine": SAMPLES / "sanguine" / "example-1.sanguine",    # red 9-8
    "nomic": SAMPLES / "nomic" / "example-1.nomic",             # 3 players, no winner
}


def archive(tmp_path, *names: str, bad: bool = False):
    """A mixed archive of known games (decks beside it), optionally with one invalid game."""
    (tmp_path / "decks").mkdir(exist_ok=True)
    for deck in (SAMPLES / "sanguine" / "decks").glob("*.deck"):
        (tmp_path / "decks" / deck.name).write_text(deck.read_text())
    texts = [FILES[n].read_text().rstrip("\n") + "\n" for n in names]
    if bad:
        texts.append('[Game "tilewe"]\n[Players "2"]\n\n1. W5n-a1a1 2. W5n-a1t1\n')
    path = tmp_path / "mixed.tilewe"
    path.write_text("\n".join(texts))
    return path


def indexes(result) -> list[int]:
    return [json.loads(line)["index"] for line in result.stdout.splitlines()]


@pytest.mark.slow
def test_tags_lists_headers_without_replaying(tmp_path):
    path = archive(tmp_path, "tilewe", "flows", bad=True)
    result = run_cli("tags", "--json", str(path))
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["index"], r["game"], r["tags"]["Game"]) for r in rows] == [
        (1, "tilewe", "tilewe"), (2, "flows", "flows"), (3, "tilewe", "tilewe")]
    assert result.returncode == 0  # the invalid game is listed, not judged
    text = run_cli("tags", str(path)).stdout.splitlines()
    assert text[1].startswith(f"{path}:2: Game=\"flows\" Players=\"3\"")


@pytest.mark.slow
def test_each_select_filter_has_its_known_answer(tmp_path):
    path = archive(tmp_path, "tilewe", "tilewe3", "flows", "philosophy", "sanguine", "nomic",
                   bad=True)
    cases = {
        ("--tag", "Game=flows"): [3],
        ("--tag", "Id~^tw-sample"): [1, 2],
        ("--invalid",): [7],
        ("--valid", "--players", "3"): [2, 3, 4, 6],
        ("--winner", "blue"): [1, 2],
        ("--winner", "P2"): [3],
        ("--winner", "In"): [4],
        ("--winner", "red"): [5],
        ("--plies", "30:45"): [3, 5, 6],
        ("--plies", ":2"): [7],
        ("--winner", "blue", "--invert"): [3, 4, 5, 6, 7],
    }
    for args, expected in cases.items():
        result = run_cli("select", "--json", *args, str(path))
        assert indexes(result) == expected, (args, result.stdout, result.stderr)
        count = run_cli("select", "--count", *args, str(path))
        assert count.stdout.strip() == str(len(expected))


@pytest.mark.slow
def test_select_by_position_at_any_ply_or_after_one(tmp_path):
    path = archive(tmp_path, "tilewe", "tilewe3")
    record = notation.load(FILES["tilewe"])[0]
    game = notation.get_game("tilewe")
    after_7 = [game.position(s.state) for s in notation.replay(record)][6]
    assert indexes(run_cli("select", "--json", "--position", after_7, str(path))) == [1]
    assert indexes(run_cli("select", "--json", "--position", after_7, "--after-ply", "7",
                           str(path))) == [1]
    assert indexes(run_cli("select", "--json", "--position", after_7, "--after-ply", "8",
                           str(path))) == []
    bad = run_cli("select", "--position", "nonsense", str(path))
    assert bad.returncode == 2 and "--position for tilewe" in bad.stderr


def test_select_writes_games_unchanged_with_comments(tmp_path):
    text = ('[Game "tilewe"]\n[Players "1"]\n\n; a comment\n1. W5n-a1a1 {kept}\n\n'
            '[Game "tilewe"]\n[Players "2"]\n\n1. W5n-a1a1\n')
    path = tmp_path / "c.tilewe"
    path.write_text(text)
    out = tmp_path / "out.tilewe"
    result = run_cli("select", "--tag", "Players=1", "-o", str(out), str(path))
    assert result.returncode == 0
    assert out.read_text() == '[Game "tilewe"]\n[Players "1"]\n\n; a comment\n1. W5n-a1a1 {kept}\n'


@settings(max_examples=15, deadline=None)
@given(game=st.sampled_from(["tilewe", "flows", "philosophy", "nomic"]),
       seed=st.integers(0, 10**6), threshold=st.integers(0, 80))
@pytest.mark.slow
def test_select_and_invert_partition_the_archive(tmp_path_factory, game, seed, threshold):
    folder = tmp_path_factory.mktemp("part")
    path = folder / f"a.{game}"
    path.write_text(random_text(game, seed, 4))
    picked = run_cli("select", "--plies", f"{threshold}:", str(path)).stdout
    rest = run_cli("select", "--plies", f"{threshold}:", "--invert", str(path)).stdout
    games = lambda text: sorted(r.raw.strip("\n") for r in notation.parse(text, game))  # noqa
    assert games(picked + "\n" + rest) == games(path.read_text())
    assert not set(games(picked)) & set(games(rest))


@settings(max_examples=10, deadline=None)
@given(game=st.sampled_from(["tilewe", "flows", "philosophy", "sanguine", "nomic"]),
       seed=st.integers(0, 10**6))
@pytest.mark.slow
def test_dedupe_of_an_archive_twice_is_the_archive(tmp_path_factory, game, seed):
    folder = tmp_path_factory.mktemp("dd")
    path = folder / f"a.{game}"
    path.write_text(random_text(game, seed, 3))
    twice = folder / f"twice.{game}"
    twice.write_text(path.read_text() + "\n" + path.read_text())
    result = run_cli("dedupe", "--report", str(twice))
    assert result.stdout == path.read_text()
    assert "3 duplicates dropped, 3 distinct games kept" in result.stderr
    assert f"{twice}:4: duplicate of {twice}:1" in result.stderr


@pytest.mark.slow
def test_dedupe_sees_through_spellings_perspectives_and_symmetries(tmp_path):
    flows = run_cli("dedupe", "--json", str(SAMPLES / "flows" / "flows-000.flows"),
                    str(SAMPLES / "flows" / "flows-000.as-P2.flows"))
    rows = [json.loads(line) for line in flows.stdout.splitlines()]
    assert rows[1]["duplicate_of"] == f"{SAMPLES / 'flows' / 'flows-000.flows'}:1"
    original = FILES["tilewe"]
    turned = tmp_path / "turned.tilewe"
    turned.write_text(run_cli("convert", "--transform", "flip-d", str(original)).stdout)
    plain = run_cli("dedupe", "--json", str(original), str(turned))
    assert [json.loads(l)["duplicate_of"] for l in plain.stdout.splitlines()] == [None, None]
    both = run_cli("dedupe", "--json", "--symmetric", str(original), str(turned))
    assert json.loads(both.stdout.splitlines()[1])["duplicate_of"] == f"{original}:1"
    refused = run_cli("dedupe", "--symmetric", str(FILES["flows"]))
    assert refused.returncode == 2 and "no board symmetries" in refused.stderr


@pytest.mark.slow
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6), name=st.sampled_from(NAMES))
def test_transformed_record_replays_to_the_transformed_board_at_every_ply(seed, name):
    text = random_text("tilewe", seed, 1)
    record = notation.parse(text, "tilewe")[0]
    game = notation.get_game("tilewe")
    turned = game.convert(record, transform=name)
    pairs = zip(notation.replay(record), notation.replay(turned))
    for a, b in pairs:
        for s in range(400):
            assert a.state.color_at(s) == b.state.color_at(square(name, s))
        assert a.state.to_move() == b.state.to_move()
    again = notation.run(turned)
    assert again.valid and again.plies == notation.run(record).plies


def test_transforms_are_the_eight_symmetries():
    images = {tuple(TRANSFORMS[n](x, y) for x in range(20) for y in range(20))
              for n in TRANSFORMS}
    assert len(images) == 8
    corners = {(0, 0), (19, 0), (0, 19), (19, 19)}
    assert all({TRANSFORMS[n](*c) for c in corners} == corners for n in TRANSFORMS)


@settings(max_examples=10, deadline=None)
@given(game=st.sampled_from(["tilewe", "flows", "nomic"]), seed=st.integers(0, 10**6),
       per=st.integers(1, 3))
@pytest.mark.slow
def test_split_then_cat_gives_the_same_games(tmp_path_factory, game, seed, per):
    folder = tmp_path_factory.mktemp("split")
    path = folder / f"a.{game}"
    path.write_text(random_text(game, seed, 4))
    parts = folder / "parts"
    parts.mkdir()
    assert run_cli("split", "--per-file", str(per), "--out-dir", str(parts), str(path)).returncode == 0
    joined = run_cli("cat", *sorted(str(p) for p in parts.iterdir()))
    assert joined.stdout == path.read_text()


@pytest.mark.slow
def test_split_by_tag_and_refuse_to_overwrite(tmp_path):
    path = archive(tmp_path, "tilewe", "tilewe3", "flows")
    out = tmp_path / "out"
    out.mkdir()
    assert run_cli("split", "--by-tag", "Players", "--out-dir", str(out), str(path)).returncode == 0
    assert sorted(p.name for p in out.iterdir()) == ["mixed-3.tilewe", "mixed-4.tilewe"]
    assert notation.load(out / "mixed-3.tilewe")[1].game == "flows"
    again = run_cli("split", "--by-tag", "Players", "--out-dir", str(out), str(path))
    assert again.returncode == 2 and "the file exists (split never overwrites" in again.stderr


@pytest.mark.slow
def test_stats_known_figures(tmp_path):
    path = archive(tmp_path, "tilewe", "tilewe3", "flows", bad=True)
    data = json.loads(run_cli("stats", "--json", str(path)).stdout)
    tw = data["tilewe"]
    assert (tw["games"], tw["valid"], tw["invalid"]) == (3, 2, 1)
    assert tw["plies"] == {"min": 1, "median": 52, "max": 58}
    assert tw["results"]["blue"]["wins"] == 2 and tw["finished"] == 2  # both samples: blue
    assert tw["means"]["blue score"] == (66 + notation.run(notation.load(FILES["tilewe3"])[0])
                                         .state.scores()[0]) / 2
    assert data["flows"]["counts"]["ended by"] == {"flow": 1}
    assert data["flows"]["results"]["P2"] == {"wins": 1, "ties": 0, "win_rate": 1.0,
                                              "tie_rate": 0.0}
    first = notation.get_game("tilewe").format_event(notation.load(FILES["tilewe"])[0].events[0])
    assert tw["first_events"][first] >= 1
    text = run_cli("stats", str(path)).stdout
    assert "tilewe: 3 games, 2 valid, 1 invalid" in text and "mean blue score" in text


@pytest.mark.slow
def test_every_tool_reads_stdin_and_folders_and_reports_input_errors_as_json(tmp_path):
    path = archive(tmp_path, "tilewe")
    text = path.read_text()
    for command in (["tags"], ["select"], ["dedupe"], ["cat"], ["stats"]):
        assert run_cli(*command, "--game", "tilewe", "-", input=text).returncode == 0
        assert run_cli(*command, str(SAMPLES / "tilewe")).returncode == 0
    for command in (["tags", "--json"], ["select", "--json"], ["dedupe", "--json"],
                    ["validate", "--json"], ["stats", "--json"]):
        result = run_cli(*command, str(tmp_path / "missing.tilewe"))
        assert result.returncode == 2
        row = json.loads(result.stdout.splitlines()[-1])
        assert row["error"]["kind"] == "input" and row["file"].endswith("missing.tilewe")


@pytest.mark.slow
def test_output_file_is_all_or_nothing(tmp_path):
    path = archive(tmp_path, "tilewe")
    out = tmp_path / "out.tilewe"
    result = run_cli("select", "-o", str(out), str(path), str(tmp_path / "missing.tilewe"))
    assert result.returncode == 2 and not out.exists()  # an input error: nothing written
    out.write_text("keep me\n")
    result = run_cli("cat", "-o", str(out), str(path), str(tmp_path / "missing.tilewe"))
    assert result.returncode == 2 and out.read_text() == "keep me\n"
    result = run_cli("select", "-o", str(path), "--tag", "Game=tilewe", str(path))
    assert result.returncode == 0 and notation.run(notation.load(path)[0]).valid  # in place is safe


# -- the same tools as a library ---------------------------------------------------------------

def test_filters_decide_a_game_without_the_command_line():
    (tilewe,), (flows,) = notation.load(FILES["tilewe"]), notation.load(FILES["flows"])
    assert Filters(tags=("Game=tilewe",)).matches(tilewe)
    assert not Filters(tags=("Game=tilewe",)).matches(flows)
    assert Filters(tags=("Id~^tw-sample",), validity=True, winners=("blue",)).matches(tilewe)
    assert not Filters(winners=("red",)).matches(tilewe)
    assert Filters(plies=parse_plies("1:")).matches(tilewe)
    assert not Filters(plies=parse_plies(":0")).matches(tilewe)
    game = notation.get_game("tilewe")
    start = game.position(game.start(tilewe))
    assert Filters(positions=(start,), after_ply=0).matches(tilewe)
    assert not Filters(positions=(start,), after_ply=1).matches(tilewe)
    moved = pickle.loads(pickle.dumps(Filters(tags=("Id~^tw-sample",))))  # for workers
    assert moved.matches(tilewe) and not moved.matches(flows)
    with pytest.raises(FilterError) as bad:
        Filters(tags=("Id~(",))
    assert bad.value.name == "tag" and "bad regular expression" in str(bad.value)
    with pytest.raises(FilterError) as bad:
        parse_plies("a:b")
    assert bad.value.name == "plies"
    with pytest.raises(FilterError) as bad:
        Filters(positions=("not a position",)).matches(tilewe)
    assert bad.value.name == "position"


def test_game_key_is_one_for_every_spelling_of_a_game():
    text = FILES["tilewe"].read_text()
    (parsed,) = notation.load(FILES["tilewe"])
    (headers,) = notation.read_headers(io.StringIO(text), "tilewe")
    (canonical,) = notation.parse(notation.format_record(parsed), "tilewe")
    key = game_key(parsed)
    assert key is not None and game_key(headers) == key == game_key(canonical)
    assert game_key(notation.load(FILES["tilewe3"])[0]) != key
    assert game_key(parsed, symmetric=True) is not None
    with pytest.raises(MissingCapability, match="flows has no board symmetries"):
        game_key(notation.load(FILES["flows"])[0], symmetric=True)
    seen = Duplicates()
    assert seen.original_of(parsed) is None
    assert seen.original_of(canonical) == f"{parsed.source}:{parsed.index}"
    assert seen.distinct == 1


def test_summary_counts_the_figures_of_games():
    summary = Summary()
    for name in ("tilewe", "tilewe3"):
        summary.add(game_figures(notation.load(FILES[name])[0]))
    data = summary.as_json()
    assert (data["games"], data["valid"], data["invalid"], data["finished"]) == (2, 2, 0, 2)
    assert data["results"]["blue"]["wins"] == 2 and data["results"]["blue"]["win_rate"] == 1.0
    lines = summary.lines("tilewe")
    assert lines[0] == "tilewe: 2 games, 2 valid, 0 invalid"
    assert any(line.startswith("  mean blue score: ") for line in lines)


FACT_VALUES = st.one_of(st.integers(-5, 500), st.floats(-10, 10, allow_nan=False),
                        st.booleans(), st.sampled_from(["red", "", "1"]), st.none())


@settings(max_examples=200, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(["a score", "b score", "left", "to move"]),
                                FACT_VALUES, max_size=4), max_size=12))
def test_a_games_facts_are_counted_as_each_fact_alone_would_be(games):
    """A number (not a flag) goes to its mean, anything else but None is a word: the
    numbers counted inline, the rest one by one, as the rule for one fact says."""
    summary, expected = Summary(), Summary()
    for facts in games:
        summary.add({"plies": 1, "scored": True, "finished": False, "facts": facts})
        expected.add({"plies": 1, "scored": False})
        expected.valid += 1
        for key, value in facts.items():
            expected._count_fact(key, value)
    assert summary.as_json() == expected.as_json()
    assert list(summary.as_json()["means"]) == list(expected.as_json()["means"])


@given(st.lists(st.integers(0, 400), min_size=1, max_size=40))
def test_the_ply_spread_is_the_sorted_lists_without_the_list(plies):
    """``stats`` keeps counts per ply number, not a list per game; same figures, same types."""
    import statistics
    from collections import Counter

    from notation.archive.stats import _spread
    ordered = sorted(plies)
    expected = {"min": ordered[0], "median": statistics.median(ordered), "max": ordered[-1]}
    got = _spread(Counter(plies))
    assert got == expected and type(got["median"]) is type(expected["median"])


def test_a_converted_record_does_not_keep_the_verdict_of_the_one_it_came_from():
    """A record read on the fast path carries its outcome; its turned image must not."""
    (fast,) = source_records(FILES["tilewe"], checked=True)
    assert fast.outcome is not None
    game = notation.get_game("tilewe")
    turned = game.convert(fast, transform="rot90")
    (reread,) = notation.parse(format_record(turned, game))
    assert game.position(notation.run(turned).state) == game.position(notation.run(reread).state)
    assert game.position(notation.run(turned).state) != game.position(notation.run(fast).state)
