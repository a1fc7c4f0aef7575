"""``notation export``: archives as games, events and positions tables."""
from __future__ import annotations

import random
import sys
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import Any

import duckdb
import pyarrow.parquet as pq  # type: ignore[import-untyped,unused-ignore]
import pytest
from click.testing import CliRunner

from notation.core.new_games import random_record
import notation
from notation.archive.stats import game_figures
from notation.cli.export import PARQUET_HINT, export
from notation.read.reading import read_games, text_records
from notation.games.tilewe.symmetry import transform_record
from notation.core.writer import format_record
from notation.tables import TABLES, writers
from notation.tables.sql import connect

from conftest import SAMPLES

TILEWE = """[Game "tilewe"]
[Players "1"]
[Event "known"]

1. O1n-a1a20 2. N5ef-a1b19 !? {good [%clk 0:01:30]} 3. I2n-a2a18 $7
(3. I3n-a3d18 4. I2n-a2a18) 4. I3n-a3d18
"""
FLOWS = """[Game "flows"]
[Players "2"]
[Seats "0 2"]

1. P1B4T3NW 2. P2E7T1SW 3. P1B4T1N
"""


def sql(query: str) -> Any:
    """A DuckDB relation (never None for a SELECT)."""
    found = duckdb.sql(query)
    assert found is not None
    return found


def run_export(*args: str) -> Any:
    return CliRunner().invoke(export, list(args), catch_exceptions=False)


def read_table(folder: Path, name: str, to: str) -> list[dict[str, Any]]:
    """A table's rows as Python values, whatever its format: read through ``notation
    sql``'s views, which give every format the schema's types (a text format's JSON
    columns read back), its files in order."""
    assert (folder / f"{name}.{to}").exists()
    con = connect([str(folder)])
    try:
        found = con.execute(f"SELECT * FROM {name}")
        names = [column[0] for column in found.description or []]
        return [dict(zip(names, row)) for row in found.fetchall()]
    finally:
        con.close()


@pytest.fixture
def two_records(tmp_path: Path) -> list[str]:
    (tmp_path / "a.tilewe").write_text(TILEWE, encoding="utf-8")
    (tmp_path / "b.flows").write_text(FLOWS, encoding="utf-8")
    return [str(tmp_path / "a.tilewe"), str(tmp_path / "b.flows")]


def test_known_answers(two_records: list[str], tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = run_export(*two_records, "--to", "parquet", "-o", str(out))
    assert result.exit_code == 1  # one game is invalid; the run went on
    assert sorted(p.name for p in out.iterdir()) == [
        "events.parquet", "games.parquet", "positions.parquet"]
    games = read_table(out, "games", "parquet")
    assert [(g["game"], g["valid"], g["plies"]) for g in games] == [
        ("tilewe", True, 4), ("flows", False, 2)]
    tilewe, flows = games
    assert tilewe["tags"] == [{"name": "Game", "value": "tilewe"},
                              {"name": "Players", "value": "1"},
                              {"name": "Event", "value": "known"}]  # the record's order
    assert (tilewe["event"], tilewe["site"], tilewe["round"]) == ("known", None, None)
    assert tilewe["players"] == 1 and tilewe["over"] is False
    assert tilewe["winners"] == [] and tilewe["scores"] == [11]
    assert tilewe["error"] is None
    assert (flows["error_line"], flows["error_column"], flows["error_ply"]) == (5, 28, 3)
    assert "already occupied" in flows["error"]
    assert flows["over"] is None and flows["winners"] is None

    events = read_table(out, "events", "parquet")
    assert [(e["game"], e["ply"], e["variation"], e["event"]) for e in events] == [
        ("tilewe", 1, "", "O1n-a1a20"), ("tilewe", 2, "", "N5ef-a1b19"),
        ("tilewe", 3, "", "I2n-a2a18"), ("tilewe", 4, "", "I3n-a3d18"),
        ("tilewe", 3, "variation 1 after ply 2", "I3n-a3d18"),
        ("tilewe", 4, "variation 1 after ply 2", "I2n-a2a18"),
        ("flows", 1, "", "P1B4T3NW"), ("flows", 2, "", "P2E7T1SW"),
        ("flows", 3, "", "P1B4T1N")]
    second = events[1]
    assert (second["mover"], second["glyphs"], second["nags"], second["comment"],
            second["commands"], second["clock_seconds"], second["eval"]) == (
        "blue", ["!?"], [5], "good", {"clk": "0:01:30"}, 90.0, None)
    assert events[2]["glyphs"] == ["$7"] and events[2]["nags"] == [7]
    assert second["fields"]["tilewe"] == {"contact": "a1", "piece": "N5", "rotation": "ef",
                                          "target": "b19"}
    assert second["fields"]["flows"] is None
    assert events[6]["fields"]["flows"] == {
        "drawer": None, "drawn": None, "label": "B4", "orientation": "NW", "player": 1,
        "players": None, "tile": 3}  # numbers where the grammar's group is one
    assert events[8]["fields"] is not None  # an event read, though it broke a rule
    assert [e["error"] is not None for e in events] == [False] * 8 + [True]

    positions = read_table(out, "positions", "parquet")
    assert [(p["game"], p["ply"]) for p in positions] == [
        ("tilewe", 0), ("tilewe", 1), ("tilewe", 2), ("tilewe", 3), ("tilewe", 4),
        ("tilewe", 3), ("tilewe", 4), ("flows", 0), ("flows", 1), ("flows", 2)]
    assert positions[1]["position"].startswith("b19/20/") and positions[1]["position"].endswith(
        " b 1ffffe")
    keys = [p["key"] for p in positions]
    assert keys[4] == keys[6]  # the variation transposes into the mainline
    assert keys[3] != keys[5]
    assert len(set(keys)) == len(keys) - 1


def test_symmetric_keys(tmp_path: Path) -> None:
    """Tilewe games equal up to a board symmetry get equal keys with --symmetric only."""
    record = text_records(TILEWE, "a.tilewe")[0]
    game = notation.get_game("tilewe")
    (tmp_path / "a.tilewe").write_text(TILEWE, encoding="utf-8")
    (tmp_path / "b.tilewe").write_text(format_record(transform_record("rot90", record), game),
                                       encoding="utf-8")
    paths = [str(tmp_path / "a.tilewe"), str(tmp_path / "b.tilewe")]
    for symmetric in (False, True):
        out = tmp_path / f"out-{symmetric}"
        flags = ["--symmetric"] if symmetric else []
        assert run_export(*paths, "--to", "jsonl", "-o", str(out), *flags).exit_code == 0
        positions = read_table(out, "positions", "jsonl")
        first = [p["key"] for p in positions if p["file"].endswith("a.tilewe")]
        turned = [p["key"] for p in positions if p["file"].endswith("b.tilewe")]
        assert len(first) == len(turned) == 7
        assert first[0] == turned[0]  # the empty board is its own image
        assert (first[1:] == turned[1:]) is symmetric


def sample_files() -> list[str]:
    return sorted(str(p) for p in SAMPLES.glob("*/*.*")
                  if p.suffix[1:] in ("tilewe", "flows", "philosophy", "sanguine", "nomic"))


def test_samples_duckdb_agrees_with_stats(tmp_path: Path) -> None:
    """SQL over the exported tables gives the counts, results and plies ``stats`` counts."""
    out = tmp_path / "out"
    result = run_export(*sample_files(), "--to", "parquet", "-o", str(out))
    assert result.exit_code in (0, 1)
    expected: dict[str, Counter[Any]] = {}
    for path in sample_files():
        for record in read_games(path):
            figures = game_figures(record)
            counts = expected.setdefault(figures["game"], Counter())
            counts["games"] += 1
            counts["valid"] += figures["scored"]
            counts["plies"] += figures["plies"]
            counts["finished"] += figures["finished"]
            for name in figures["winners"] if figures["finished"] else ():
                counts[("win" if len(figures["winners"]) == 1 else "tie", name)] += 1
    games = str(out / "games.parquet")
    found: dict[str, Counter[Any]] = {}
    for name, n, valid, plies, finished in sql(
            f"SELECT coalesce(game, 'unknown'), count(*), count(*) FILTER (WHERE valid), "
            f"sum(plies), count(*) FILTER (WHERE valid AND over) FROM '{games}' GROUP BY 1"
    ).fetchall():
        found[name] = Counter(games=n, valid=valid, plies=plies, finished=finished)
    for name, winner, how in sql(
            f"SELECT game, w, CASE WHEN len(winners) = 1 THEN 'win' ELSE 'tie' END FROM "
            f"'{games}', unnest(winners) AS t(w) WHERE valid AND over").fetchall():
        found[name][(how, winner)] += 1
    assert {k: +v for k, v in found.items()} == {k: +v for k, v in expected.items()}
    assert set(found) == {"tilewe", "flows", "philosophy", "sanguine", "nomic"}
    events = sql(f"SELECT count(*) FROM '{out / 'events.parquet'}' "
                        f"WHERE variation = '' AND error IS NULL").fetchall()
    assert events == [(sum(c["plies"] for c in expected.values()),)]


@pytest.mark.slow
def test_formats_hold_the_same_content(tmp_path: Path) -> None:
    paths = sample_files()
    tables = {}
    for to in ("parquet", "csv", "jsonl"):
        assert run_export(*paths, "--to", to, "-o", str(tmp_path / to)).exit_code in (0, 1)
        tables[to] = {name: read_table(tmp_path / to, name, to) for name in TABLES}
    assert tables["csv"] == tables["parquet"] == tables["jsonl"]
    assert len(tables["csv"]["positions"]) > 1000


def test_jobs_give_the_same_tables(two_records: list[str], tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    paths = sample_files()[:6] + two_records
    assert run_export(*paths, "--to", "jsonl", "-o", str(tmp_path / "here")).exit_code == 1
    monkeypatch.setattr("notation.parallel.SMALL_INPUT", 0)  # workers even for a few KB
    assert run_export(*paths, "--to", "jsonl", "-o", str(tmp_path / "pool"),
                      "--jobs", "2").exit_code == 1
    for name in TABLES:
        assert ((tmp_path / "pool" / f"{name}.jsonl").read_text()
                == (tmp_path / "here" / f"{name}.jsonl").read_text())


@pytest.mark.slow
@pytest.mark.parametrize("to", ["parquet", "jsonl"])
def test_jobs_number_the_games_of_a_file_cut_in_batches(tmp_path: Path, to: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker numbers the games of its batch from 1; the tables number them in their
    file, as ``validate --jobs`` does (one file of over 600 KB: three batches)."""
    games = (SAMPLES / "tilewe" / "random-4p-three-games.tilewe").read_text(encoding="utf-8")
    archive = tmp_path / "many.tilewe"
    archive.write_text("\n".join([games] * 250), encoding="utf-8")
    monkeypatch.setattr("notation.parallel.SMALL_INPUT", 0)
    for jobs in ("1", "2"):
        assert run_export(str(archive), "--to", to, "-o", str(tmp_path / jobs),
                          "--jobs", jobs).exit_code == 0
    tables = {jobs: {name: read_table(tmp_path / jobs, name, to) for name in TABLES}
              for jobs in ("1", "2")}
    assert tables["2"] == tables["1"]
    assert [row["index"] for row in tables["2"]["games"]] == list(range(1, 751))
    assert {row["index"] for row in tables["2"]["positions"]} == set(range(1, 751))


def test_parquet_without_pyarrow(two_records: list[str], tmp_path: Path,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.delitem(sys.modules, "notation.tables.parquet", raising=False)
    result = CliRunner().invoke(export, [*two_records, "--to", "parquet", "-o",
                                         str(tmp_path / "out")])
    assert result.exit_code == 2
    assert PARQUET_HINT in result.output and "pip install 'game-notation[data]'" in PARQUET_HINT
    assert not (tmp_path / "out").exists()
    # CSV needs nothing beyond the standard library
    assert run_export(*two_records, "--to", "csv", "-o", str(tmp_path / "out")).exit_code == 1


def test_a_failed_run_leaves_nothing_new(two_records: list[str], tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "games.csv").write_text("old\n")

    def full_disk(self: writers.CsvTable, row: dict[str, Any]) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(writers.CsvTable, "add", full_disk)
    result = CliRunner().invoke(export, [*two_records, "--to", "csv", "-o", str(out)])
    assert result.exit_code == 2
    assert "No space left on device" in result.output
    assert sorted(p.name for p in out.iterdir()) == ["games.csv"]
    assert (out / "games.csv").read_text() == "old\n"
    fresh = tmp_path / "fresh"
    assert CliRunner().invoke(export, [*two_records, "--to", "csv", "-o", str(fresh)]
                              ).exit_code == 2
    assert not fresh.exists()


def _peak(archive: Path, out: Path) -> int:
    tracemalloc.start()
    try:
        assert run_export(str(archive), "--to", "csv", "-o", str(out)).exit_code == 0
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.slow
def test_flat_memory(tmp_path: Path) -> None:
    """Four times the games take no more memory at the peak: rows are streamed."""
    game = notation.get_game("tilewe")
    rng = random.Random(7)
    texts = [format_record(random_record(game, rng, {"players": 4}), game) for _ in range(10)]
    small, large = tmp_path / "small.tilewe", tmp_path / "large.tilewe"
    small.write_text("\n".join(texts), encoding="utf-8")
    large.write_text("\n".join(texts * 4), encoding="utf-8")
    _peak(small, tmp_path / "warm")  # grammars and caches loaded once
    small_peak = _peak(small, tmp_path / "s")
    large_peak = _peak(large, tmp_path / "l")
    assert large_peak < small_peak * 1.5
    assert sum(1 for _ in open(tmp_path / "l" / "games.csv")) == 41


@pytest.mark.parametrize("to", ["parquet", "csv", "jsonl"])
def test_append_twice_equals_one_export_of_both(two_records: list[str], tmp_path: Path,
                                                to: str) -> None:
    """Each run appended is a file of its own beside the tables (none rewritten); the
    table read across them is the one export of both archives, row for row."""
    paths = sample_files()[:3]
    whole, appended = tmp_path / "whole", tmp_path / "appended"
    assert run_export(*paths, two_records[0], "--to", to, "-o", str(whole)).exit_code == 0
    assert run_export(*paths, "--to", to, "-o", str(appended), "--append").exit_code == 0
    first = {p.name: p.stat().st_mtime_ns for p in appended.iterdir()}
    assert run_export(two_records[0], "--to", to, "-o", str(appended),
                      "--append").exit_code == 0
    assert {p.name: p.stat().st_mtime_ns for p in appended.iterdir()
            if p.name in first} == first  # the first run's files untouched
    assert sorted(p.name for p in appended.iterdir()) == sorted(
        [*first, *(f"{name}_000002.{to}" for name in TABLES)])
    for name in TABLES:
        assert read_table(appended, name, to) == read_table(whole, name, to), name
    # a glob reads the table across its files, in the order of the runs
    if to == "parquet":
        across = sql(f"SELECT index, file FROM '{appended}/games*.parquet'").fetchall()
        assert across == [(row["index"], row["file"]) for row in read_table(whole, "games", to)]
    # a run that is not appended replaces the tables, appended runs' files too
    assert run_export(two_records[0], "--to", to, "-o", str(appended)).exit_code == 0
    assert sorted(p.name for p in appended.iterdir()) == sorted(f"{n}.{to}" for n in TABLES)
    assert len(read_table(appended, "games", to)) == 1


@pytest.mark.parametrize("to", ["parquet", "csv", "jsonl"])
def test_append_refuses_a_folder_whose_tables_have_other_columns(two_records: list[str],
                                                                   tmp_path: Path,
                                                                   to: str) -> None:
    out = tmp_path / "out"
    assert run_export(two_records[0], "--to", to, "-o", str(out)).exit_code == 0
    events = out / f"events.{to}"
    if to == "parquet":  # an older export's: the clock as text
        import pyarrow as pa
        pq.write_table(pa.table({"file": ["a"], "clock": ["0:01:00"]}), events)
    elif to == "csv":
        events.write_text("file,index,game,clock\n", encoding="utf-8")
    else:
        events.write_text('{"file": "a", "clock": "0:01:00"}\n', encoding="utf-8")
    before = sorted(p.name for p in out.iterdir())
    result = run_export(two_records[0], "--to", to, "-o", str(out), "--append")
    assert result.exit_code == 2
    assert f"table events.{to} has other columns" in result.output
    assert sorted(p.name for p in out.iterdir()) == before  # nothing added, nothing left


def test_append_to_an_empty_folder_is_a_first_export(two_records: list[str],
                                                      tmp_path: Path) -> None:
    out = tmp_path / "new"
    assert run_export(two_records[0], "--to", "csv", "-o", str(out), "--append").exit_code == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{n}.csv" for n in TABLES)


def test_two_runs_appending_at_once_keep_both(two_records: list[str], tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A run that finds its number taken when it ends (another run appended meanwhile)
    takes the next one: no run's files are written over."""
    out = tmp_path / "out"
    assert run_export(two_records[0], "--to", "csv", "-o", str(out)).exit_code == 0
    commit = writers.Export.commit

    def another_run_first(self: writers.Export) -> list[str]:
        monkeypatch.setattr(writers.Export, "commit", commit)
        assert run_export(two_records[1], "--to", "csv", "-o", str(out),
                          "--append").exit_code == 1
        return commit(self)

    monkeypatch.setattr(writers.Export, "commit", another_run_first)
    assert run_export(two_records[0], "--to", "csv", "-o", str(out), "--append").exit_code == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(
        f"{name}{part}.csv" for name in TABLES for part in ("", "_000002", "_000003"))
    games = [(row["file"], row["index"]) for row in read_table(out, "games", "csv")]
    assert games == [(two_records[0], 1), (two_records[1], 1), (two_records[0], 1)]
