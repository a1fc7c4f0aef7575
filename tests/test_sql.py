"""``notation sql``: DuckDB over the export tables, of archives or export folders; the
answers agree with the replays themselves."""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import notation

from conftest import SAMPLES, invoke

QUERY = "select game, count(*) as games, sum(plies) as plies, sum(valid::int) as valid " \
        "from games group by game order by game"


def expected_counts() -> list[dict]:
    games: Counter[str] = Counter()
    plies: Counter[str] = Counter()
    valid: Counter[str] = Counter()
    for path in sorted(p for p in SAMPLES.rglob("*") if p.is_file() and p.suffix != ".py"
                       and p.suffix not in (".deck", ".svg")):
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
                            "'notation[data]'\n"
