"""The exported Parquet holds native types: a data tool answers without JSON functions,
and pandas and Polars read lists, maps, structs and numbers as such.

Each game's archive is random games annotated as a referee and a reviewer would leave
them: a clock on every event, glyphs on some. What the queries answer is worked out
here from the records, by the library.
"""
from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd  # (the test extra's, as duckdb's: no silent skip)
import polars as pl
import pytest

import notation
from notation.archive.stats import game_figures
from notation.core.new_games import random_record
from notation.core.writer import format_record
from notation.read.reading import read_games
from notation.tables.parquet import fields_type, sql_type
from notation.tables.schema import TABLES, described

from conftest import HANG_BREAKER, ROOT, cpu_limited, invoke, run_cli
from test_export import read_table

GAMES = ("tilewe", "flows", "philosophy", "sanguine", "nomic")


def annotated_archive(folder: Path, game_name: str, count: int = 6) -> Path:
    """``count`` random games, every event with a clock, one in three with a glyph."""
    game = notation.get_game(game_name)
    rng = random.Random(f"{game_name} annotated")
    texts = []
    for _ in range(count):
        record = random_record(game, rng, {})
        for ply, node in enumerate(record.mainline(), 1):
            node.set_clock(max(0, 900 - 5 * ply) + rng.randrange(5))
            if rng.random() < 1 / 3:
                node.nags = [rng.choice((1, 2, 3, 5, 6, 14, 146))]
        texts.append(format_record(record, game))
    path = folder / f"annotated.{game_name}"
    path.write_text("\n".join(texts), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path]]:
    """Each game's archive and its exported Parquet folder."""
    folder = tmp_path_factory.mktemp("native")
    found = {}
    for game_name in GAMES:
        archive = annotated_archive(folder, game_name)
        out = folder / f"{game_name}-tables"
        result = invoke("export", str(archive), "--to", "parquet", "-o", str(out))
        assert result.exit_code == 0, result.output
        found[game_name] = archive, out
    return found


def answer(query: str) -> list[tuple[Any, ...]]:
    assert "json" not in query.lower()  # (what this file is about)
    found = duckdb.sql(query)
    assert found is not None
    return found.fetchall()


@pytest.mark.parametrize("game_name", GAMES)
def test_win_rates_per_colour_without_json(exported: dict[str, tuple[Path, Path]],
                                           game_name: str) -> None:
    archive, out = exported[game_name]
    finished = 0
    wins: Counter[str] = Counter()
    for record in read_games(archive):
        figures = game_figures(record)
        if figures["finished"]:
            finished += 1
            wins.update(figures["winners"])
    rows = answer(f"""
        SELECT seat, count(*) / (SELECT count(*) FROM '{out}/games*.parquet'
                                 WHERE valid AND over) AS rate
        FROM '{out}/games*.parquet', unnest(winners) AS won(seat)
        WHERE valid AND over GROUP BY seat ORDER BY seat""")
    assert rows == [(seat, wins[seat] / finished) for seat in sorted(wins)]
    assert finished and (wins or game_name == "nomic")  # (random nomic games end unwon)


@pytest.mark.parametrize("game_name", GAMES)
def test_average_clock_per_ply_without_json(exported: dict[str, tuple[Path, Path]],
                                            game_name: str) -> None:
    archive, out = exported[game_name]
    clocks: dict[int, list[float]] = {}
    for record in read_games(archive):
        for ply, node in enumerate(record.mainline(), 1):
            clock = node.clock()
            assert clock is not None
            clocks.setdefault(ply, []).append(clock)
    rows = answer(f"""SELECT ply, avg(clock_seconds) FROM '{out}/events*.parquet'
                      WHERE variation = '' GROUP BY ply ORDER BY ply""")
    assert [(ply, pytest.approx(average)) for ply, average in rows] == [
        (ply, pytest.approx(sum(times) / len(times))) for ply, times in sorted(clocks.items())]


@pytest.mark.parametrize("game_name", GAMES)
def test_most_common_glyphs_without_json(exported: dict[str, tuple[Path, Path]],
                                         game_name: str) -> None:
    archive, out = exported[game_name]
    from notation.core.ast import GLYPH_OF
    glyphs: Counter[str] = Counter()
    for record in read_games(archive):
        for node in record.mainline():
            glyphs.update(GLYPH_OF.get(nag, f"${nag}") for nag in node.nags)
    rows = answer(f"""SELECT glyph, count(*) AS n FROM '{out}/events*.parquet',
                      unnest(glyphs) AS g(glyph) GROUP BY glyph ORDER BY n DESC, glyph""")
    assert rows == sorted(glyphs.items(), key=lambda item: (-item[1], item[0]))
    assert rows


def test_fields_tags_and_commands_are_native(exported: dict[str, tuple[Path, Path]]) -> None:
    """A struct member per game with its grammar's types, tags in the record's order, the
    commands a map: each read without a JSON function."""
    _archive, out = exported["sanguine"]
    rows = answer(f"""SELECT fields.sanguine.row + fields.sanguine.col, commands['clk'],
                      typeof(fields.sanguine.row) FROM '{out}/events*.parquet'
                      WHERE fields.sanguine.verb = 'place' LIMIT 1""")
    assert isinstance(rows[0][0], int) and rows[0][1] and rows[0][2] == "BIGINT"
    archive, out = exported["tilewe"]
    first = next(iter(read_games(archive)))
    tags = answer(f"SELECT tags FROM '{out}/games*.parquet' WHERE index = 1")[0][0]
    assert [(tag["name"], tag["value"]) for tag in tags] == list(first.headers.items())
    pieces = answer(f"""SELECT fields.tilewe.piece FROM '{out}/events*.parquet'
                        WHERE index = 1 ORDER BY ply""")
    assert [piece for (piece,) in pieces] == [str(move)[:2] for move in first.mainline_moves()]


def test_pandas_reads_native_dtypes(exported: dict[str, tuple[Path, Path]]) -> None:
    _archive, out = exported["flows"]
    events = pd.read_parquet(out / "events.parquet", dtype_backend="pyarrow")
    assert str(events["clock_seconds"].dtype) == "double[pyarrow]"
    assert str(events["nags"].dtype) == "list<element: int16>[pyarrow]"
    assert str(events["commands"].dtype).startswith("map<string, string")
    assert str(events["fields"].dtype).startswith("struct<flows: struct<drawer: int64")
    games = pd.read_parquet(out / "games.parquet")  # numpy's dtypes where there are some
    assert str(games["plies"].dtype) == "int64" and str(games["valid"].dtype) == "bool"
    finished = games[games["over"] == True]  # noqa: E712  (a column, not a truth)
    assert all(isinstance(seat, str) for seats in finished["winners"] for seat in seats)
    plain = pd.read_parquet(out / "events.parquet")
    assert str(plain["clock_seconds"].dtype) == "float64"


def test_polars_reads_native_dtypes(exported: dict[str, tuple[Path, Path]]) -> None:
    _archive, out = exported["sanguine"]
    events = pl.read_parquet(out / "events*.parquet")
    schema = events.schema
    assert schema["clock_seconds"] == pl.Float64 and schema["eval"] == pl.Float64
    assert schema["glyphs"] == pl.List(pl.String) and schema["nags"] == pl.List(pl.Int16)
    assert isinstance(schema["fields"], pl.Struct)
    placed = events.filter(pl.col("fields").struct.field("sanguine").struct.field("verb")
                           == "place")
    assert placed["fields"].struct.field("sanguine").struct.field("row").dtype == pl.Int64
    games = pl.read_parquet(out / "games*.parquet")
    assert games.schema["winners"] == pl.List(pl.String)
    assert games.schema["scores"] == pl.List(pl.Int64)
    assert games.schema["tags"] == pl.List(pl.Struct({"name": pl.String, "value": pl.String}))


def test_the_published_schema_is_the_one_export_writes() -> None:
    """schemas/tables.schema.json, for the games this package brings; to write it again:
    ``python -c 'import tests.tables.test_native_types as t; t.publish()'``."""
    published = json.loads((ROOT / "schemas" / "tables.schema.json").read_text("utf-8"))
    assert published == expected_schema()
    assert [c["name"] for c in published["tables"]["events"]] == [c.name for c in
                                                                   TABLES["events"]]


def expected_schema() -> dict[str, Any]:
    return described(sql_type(fields_type([notation.get_game(name) for name in GAMES])))


def publish() -> None:
    (ROOT / "schemas" / "tables.schema.json").write_text(
        json.dumps(expected_schema(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def test_export_leaves_pandas_unloaded_and_importable(tmp_path: Path) -> None:
    """Arrow would load pandas (half a second) on its first list of values only to ask
    whether it is a pandas object; the command line tells it there is none, and pandas
    can still be imported after."""
    script = (
        "import sys\n"
        "from notation.cli.main import run\n"
        "try:\n"
        f"    run(['export', {str(ROOT / 'samples' / 'tilewe')!r}, '--to', 'parquet', '-o', "
        f"{str(tmp_path / 'out')!r}])\n"
        "except SystemExit as exc:\n"
        "    assert exc.code == 0, exc.code\n"
        "assert 'pandas' not in sys.modules\n"
        "import pandas\n"
        f"print(len(pandas.read_parquet({str(tmp_path / 'out' / 'games.parquet')!r})))\n")
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=HANG_BREAKER, preexec_fn=cpu_limited())
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.split()[-1]) > 5


def test_the_console_script_writes_parquet_with_an_arrow_without_numpy(tmp_path: Path) -> None:
    """The console script's own process loads Arrow without NumPy (half Arrow's import),
    and its tables read back (here, with NumPy) as the JSON lines export's."""
    script = (
        "import sys\n"
        "from notation.cli import entry\n"
        f"sys.argv = ['notation', 'export', {str(ROOT / 'samples' / 'tilewe')!r}, '--to', "
        f"'parquet', '-o', {str(tmp_path / 'parquet')!r}]\n"
        "try:\n"
        "    entry.main()\n"
        "except SystemExit as exc:\n"
        "    assert exc.code == 0, exc.code\n"
        "print('numpy' in sys.modules)\n")
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=HANG_BREAKER, preexec_fn=cpu_limited())
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-1] == "False"
    assert run_cli("export", str(ROOT / "samples" / "tilewe"), "--to", "jsonl", "-o",
                   str(tmp_path / "jsonl")).returncode == 0
    for table in ("games", "events", "positions"):
        assert read_table(tmp_path / "parquet", table, "parquet") == read_table(
            tmp_path / "jsonl", table, "jsonl")
