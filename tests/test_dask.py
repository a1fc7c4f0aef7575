"""Validation on a local dask.distributed cluster of 2 workers equals the one-process run."""
from __future__ import annotations

import json

import pytest

import distributed  # the [dask] extra is part of the test extras: no silent skip

import notation
from notation import distributed as nd
from notation.spans import spans

from conftest import SAMPLES, run_cli
from test_archive import mixed_archive

pytestmark = pytest.mark.dask


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as local:
        with distributed.Client(local) as client:
            yield local, client


def test_spans_cover_the_file_at_game_boundaries(tmp_path):
    path = mixed_archive(tmp_path, 20)
    found = list(spans(path, target=2000))
    assert len(found) > 5 and found[0].start == 0 and found[-1].end == path.stat().st_size
    assert all(a.end == b.start for a, b in zip(found, found[1:]))
    lines = path.read_bytes().split(b"\n")
    for span in found:  # each span starts on its line, at a game's tags
        assert path.read_bytes()[span.start:].startswith(lines[span.first_line - 1])


def test_library_bag_equals_the_single_process_run(tmp_path, cluster):
    path = mixed_archive(tmp_path, 20)
    other = SAMPLES / "flows" / "random-3p-two-games.flows"
    rows = nd.game_results([path, other], target=4000).compute()
    expected = []
    for source in (path, other):
        for record in notation.read_games(source):
            outcome = notation.run(record)
            expected.append((str(source), record.index, record.game, outcome.valid,
                             outcome.plies, outcome.error.as_json() if outcome.error else None))
    got = [(r["file"], r["index"], r["game"], r["valid"], r["plies"], r["error"]) for r in rows]
    assert got == expected and len(rows) == 20 * 24 + 2


def test_cli_scheduler_gives_the_local_output(tmp_path, cluster):
    local, _client = cluster
    path = mixed_archive(tmp_path, 60)
    for args in (["validate"], ["validate", "--json"]):
        here = run_cli(*args, "--jobs", "1", str(path))
        there = run_cli(*args, "--scheduler", local.scheduler_address, str(path))
        assert there.returncode == here.returncode == 1
        assert there.stdout == here.stdout
    rows = [json.loads(line) for line in there.stdout.splitlines()]
    assert [r["index"] for r in rows] == list(range(1, len(rows) + 1))


def test_unreachable_scheduler_is_a_usage_error(tmp_path):
    path = mixed_archive(tmp_path, 1)
    result = run_cli("validate", "--scheduler", "tcp://127.0.0.1:9", str(path))
    assert result.returncode == 2 and "cannot reach the Dask scheduler" in result.stderr
