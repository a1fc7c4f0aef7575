"""``notation sql``: DuckDB over the export tables, of archives or export folders; the
answers agree with the replays themselves."""
from __future__ import annotations

import json
import os
import sys
from collections import Counter
from pathlib import Path

import pytest

import notation
from cli.inputs import Inputs

from conftest import SAMPLES, invoke

QUERY = "select game, count(*) as games, sum(plies) as plies, sum(valid::int) as valid " \
        "from games group by game order by game"


def expected_counts() -> list[dict]:
    games: Counter[str] = Counter()
    plies: Counter[str] = Counter()
    valid: Counter[str] = Counter()
    for path in Inputs().expand((str(SAMPLES),)):  # the record files, as the CLI finds them
        for outcome in notation.read_verdicts(path):
            name = outcome.record.game
            games[name] += 1
            plies[name] += outcome.plies
            valid[name] += outcome.valid
    return [{"game": g, "games": games[g], "plies": plies[g], "valid": valid[g]}
            for g in sorted(games)]


def test_a_query_over_archives_counts_what_the_replays_count(tmp_path: Path):
    answer = invoke("sql", QUERY, str(SAMPLES), "--format", "jsonl")
    assert answer.exit_code == 0, answer.output
    rows = [json.loads(line) for line in answer.output.splitlines() if line.startswith("{")]
    assert rows == expected_counts()


@pytest.mark.slow
def test_an_export_folder_gives_the_same_answer_in_every_format(tmp_path: Path):
    direct = invoke("sql", QUERY, str(SAMPLES)).output.splitlines()
    direct = [line for line in direct if not line.startswith(("notation", "samples"))]
    for shape in ("parquet", "csv", "jsonl"):
        folder = tmp_path / shape
        assert invoke("export", str(SAMPLES), "--to", shape, "-o", str(folder)).exit_code == 0
        answer = invoke("sql", QUERY, str(folder))
        assert answer.exit_code == 0 and answer.output.splitlines() == direct[-6:], shape
    table = direct[-6:]
    assert table[0].split() == ["game", "games", "plies", "valid"]
    assert [line.split()[0] for line in table[1:]] == sorted(
        ["flows", "nomic", "philosophy", "sanguine", "tilewe"])


def test_csv_output_and_an_invalid_game_as_a_row(tmp_path: Path):
    path = tmp_path / "two.tilewe"
    path.write_text('[Game "tilewe"]\n[Players "2"]\n\n1. W5n-a1a1 2. I2n-a1t1\n\n'
                    '[Game "tilewe"]\n[Players "2"]\n\n1. W5n-a1a1 2. W5n-a1a1\n')
    answer = invoke("sql", "select index, valid, error_ply, plies from games order by index",
                    str(path), "--format", "csv")
    assert answer.exit_code == 0
    assert answer.output.splitlines()[-3:] == ["index,valid,error_ply,plies",
                                                "1,True,,2", "2,False,2,1"]


def test_a_bad_query_or_no_tables_is_one_line_and_exit_2(tmp_path: Path):
    bad = invoke("sql", "select nope from games", str(SAMPLES / "tilewe"))
    assert bad.exit_code == 2
    assert bad.output.splitlines()[-1].startswith("notation: error: sql: Binder Error")
    empty = tmp_path / "empty"
    empty.mkdir()
    nothing = invoke("sql", "select 1", str(empty))
    assert nothing.exit_code == 2 and "no record files here" in nothing.output


def test_without_duckdb_the_command_says_how_to_get_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "duckdb", None)
    monkeypatch.delitem(sys.modules, "notation.tables.sql", raising=False)
    answer = invoke("sql", "select 1", str(SAMPLES / "tilewe"))
    assert answer.exit_code == 2
    assert answer.output == "notation: error: notation sql needs duckdb: pip install " \
                            "'game-notation[data]'\n"


def refused(answer, *words: str) -> str:
    """A refusal as the project says one: nothing on standard output, one line on
    standard error, exit 2."""
    assert answer.exit_code == 2, answer.output
    assert answer.stdout == "", answer.stdout
    lines = answer.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("notation: error: "), answer.stderr
    assert all(word in lines[0] for word in words), (words, lines[0])
    return lines[0]


def test_a_folder_holding_two_formats_is_refused_naming_them(tmp_path: Path):
    tables, other = tmp_path / "tables", tmp_path / "other"
    assert invoke("export", str(SAMPLES / "tilewe"), "--to", "parquet", "-o",
                  str(tables)).exit_code == 0
    assert invoke("export", str(SAMPLES / "flows"), "--to", "csv", "-o",
                  str(other)).exit_code == 0
    for table in ("games", "events", "positions"):  # as a run of an older export left it
        (other / f"{table}.csv").rename(tables / f"{table}.csv")
    answer = invoke("sql", "select game, count(*) from games group by 1", str(tables))
    refused(answer, "sql:", str(tables), "games.parquet", "games.csv", "positions.csv")


def test_export_refuses_a_folder_holding_another_format_and_leaves_it_as_it_was(
        tmp_path: Path):
    tables = tmp_path / "tables"
    assert invoke("export", str(SAMPLES / "tilewe"), "--to", "parquet", "-o",
                  str(tables)).exit_code == 0
    before = {p.name: p.read_bytes() for p in tables.iterdir()}
    answer = invoke("export", str(SAMPLES / "flows"), "--to", "csv", "-o", str(tables))
    refused(answer, str(tables), "games.parquet", "another format")
    assert {p.name: p.read_bytes() for p in tables.iterdir()} == before
    # the same format again replaces the tables, as it always has
    assert invoke("export", str(SAMPLES / "flows"), "--to", "parquet", "-o",
                  str(tables)).exit_code == 0
    answer = invoke("sql", "select game, count(*) as n from games group by 1", str(tables))
    assert answer.exit_code == 0 and answer.stdout.split() == ["game", "n", "flows", "11"]


def test_an_input_that_cannot_be_read_leaves_no_answer(tmp_path: Path):
    tables = tmp_path / "tables"
    assert invoke("export", str(SAMPLES / "tilewe"), "--to", "csv", "-o",
                  str(tables)).exit_code == 0
    for paths in ([str(tmp_path / "nonexist")], [str(tables), str(tmp_path / "nonexist")],
                  [str(SAMPLES / "tilewe"), str(tmp_path / "nonexist")]):
        answer = invoke("sql", "select count(*) from events", *paths)
        assert answer.exit_code == 2 and answer.stdout == "", (paths, answer.stdout)
        assert answer.stderr.splitlines()[-1] == \
            f"{tmp_path / 'nonexist'}: error: cannot read: No such file or directory"


@pytest.mark.parametrize("shape", ["parquet", "csv", "jsonl"])
def test_a_table_that_is_not_the_exports_is_refused_not_read_as_nulls(tmp_path: Path, shape):
    """A table file of other columns (hand-made, or another table's) was read with the
    export's columns, every one null: rows of nulls, or a count of 0, and exit 0."""
    tables = tmp_path / "tables"
    assert invoke("export", str(SAMPLES / "tilewe"), "--to", shape, "-o",
                  str(tables)).exit_code == 0
    events = tables / f"events.{shape}"
    if shape == "parquet":
        events.write_bytes((tables / "games.parquet").read_bytes())
    elif shape == "csv":
        events.write_text("a,b\n1,2\n3,4\n")
    else:
        events.write_text('{"a": 1}\n{"a": 2}\n')
    for query in ("select * from events", "select count(*) from events"):
        refused(invoke("sql", query, str(tables)), f"cannot read {events}",
                "not a table notation export wrote")
    if shape == "csv":
        events.write_text("a,b\n")  # a header alone is not an empty events table either
        refused(invoke("sql", "select count(*) from events", str(tables)), "no column file")


@pytest.mark.slow
def test_folder_names_are_literal_not_glob_patterns(tmp_path: Path):
    archives = {"xa": "tilewe", "x*": "flows", "x[a]": "philosophy", "x?": "sanguine"}
    counts = {}
    for name, game in archives.items():
        assert invoke("export", str(SAMPLES / game), "--to", "csv", "-o",
                      str(tmp_path / name)).exit_code == 0
        counts[name] = invoke("sql", "select count(*) from games",
                              str(SAMPLES / game)).stdout.split()[-1]
    for name, game in archives.items():
        answer = invoke("sql", "select game, count(*) as n from games group by game",
                        str(tmp_path / name), "--format", "csv")
        assert answer.exit_code == 0, answer.output
        assert answer.stdout.splitlines() == ["game,n", f"{game},{counts[name]}"], name


def test_a_query_reads_and_writes_no_file_but_the_tables(tmp_path: Path):
    secret = tmp_path / "secret.csv"
    secret.write_text("word\nSECRET\n")
    written = tmp_path / "written.csv"
    tables = str(tmp_path / "tables")
    assert invoke("export", str(SAMPLES / "tilewe" / "random-2p.tilewe"), "--to", "csv",
                  "-o", tables).exit_code == 0
    for text in (f"copy (select 1) to '{written}'",
                 f"copy games to '{written}' (format csv)",
                 f"select * from read_text('{secret}')",
                 f"select * from read_csv('{secret}')",
                 f"select * from '{secret}'",
                 f"attach '{tmp_path / 'made.duckdb'}' as made",
                 "set enable_external_access = true",
                 "reset enable_external_access",
                 "set lock_configuration = false"):
        line = refused(invoke("sql", text, tables), "sql: ")
        assert "SECRET" not in line, text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["secret.csv", "tables"]
    assert sorted(p.name for p in (tmp_path / "tables").iterdir()) == [
        "events.csv", "games.csv", "positions.csv"]
    # sorts larger than memory spill into the command's own temporary folder, not the
    # current one (an in-memory DuckDB's default, ".tmp")
    spill = invoke("sql", "select current_setting('temp_directory') as spill", tables,
                   "--format", "csv").stdout.splitlines()[-1]
    assert os.path.basename(os.path.dirname(spill)).startswith("notation-sql-")


@pytest.mark.slow
def test_csv_and_json_lines_keep_null_apart_from_an_empty_text(tmp_path: Path):
    text = "select count(comment) as comments, count(error) as errors, " \
           "count(clock_seconds) as clocks, sum((comment = '')::int) as empty from events"
    answers = set()
    for shape in ("parquet", "csv", "jsonl"):
        folder = tmp_path / shape
        assert invoke("export", str(SAMPLES), "--to", shape, "-o", str(folder)).exit_code == 0
        answer = invoke("sql", text, str(folder), "--format", "csv")
        assert answer.exit_code == 0, answer.output
        answers.add(answer.stdout)
    assert len(answers) == 1, answers
