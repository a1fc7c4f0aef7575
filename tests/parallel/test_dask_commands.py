"""Every archive command on a local Dask cluster (a scheduler and two workers started
here) gives exactly the output it gives run here, for archives of every game; a worker
killed in the middle of a run is replaced and its work done again, the output the same.
The library's ``notation.distributed`` gives the same figures and tables."""
from __future__ import annotations

import json
import os
import random
import re
import signal
from pathlib import Path
from typing import Any, Iterator

import pytest

import distributed  # the [dask] extra is part of the test extras: no silent skip

import notation
from notation.core.new_games import random_record
from notation.core.writer import format_record

from conftest import run_cli

pytestmark = pytest.mark.dask

GAMES = ("tilewe", "flows", "philosophy", "sanguine", "nomic")


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as local:
        yield local.scheduler_address


@pytest.fixture(scope="module")
def archives(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """One archive a game, the Tilewe one over a span's size (the cluster reads it in
    several): a dozen distinct games, each again and again (copies for ``dedupe``),
    and one game that breaks the notation."""
    folder = tmp_path_factory.mktemp("archives")
    paths = []
    for name in GAMES:
        game = notation.get_game(name)
        rng = random.Random(f"dask {name}")
        distinct = [format_record(random_record(game, rng, {}), game) for _ in range(12)]
        broken = distinct[0].rstrip("\n") + "\n@@ not an event\n"
        copies = 28 if name == "tilewe" else 6
        games = [text for _ in range(copies) for text in distinct]
        games.insert(len(games) // 2, broken)
        path = folder / f"archive.{name}"
        path.write_text("\n".join(games), encoding="utf-8")
        paths.append(str(path))
    assert os.path.getsize(paths[0]) > 256 << 10  # (the cluster's span)
    return paths


#: Each command as it runs here (one process: the reference) and its arguments.
COMMANDS = {
    "stats": ["stats", "--json"],
    "select": ["select", "--valid", "--plies", "10:400"],
    "dedupe": ["dedupe", "--report"],  # the games kept, and each copy named on stderr
    "dedupe-json": ["dedupe", "--json"],
    "explore": ["explore", "--json", "--depth", "3"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_the_cluster_gives_the_local_output(cluster: str, archives: list[str],
                                            command: str) -> None:
    args = COMMANDS[command]
    here = run_cli(*args, *(["--jobs", "1"] if "dedupe" not in command else []), *archives)
    there = run_cli(*args, "--scheduler", cluster, *archives)
    assert (there.returncode, there.stdout) == (here.returncode, here.stdout)
    assert there.stderr == here.stderr
    assert here.stdout.strip()


def test_export_on_the_cluster_writes_the_local_tables(cluster: str, archives: list[str],
                                                        tmp_path: Path) -> None:
    to = "parquet"  # (the rows are the same in every format: tests/tables holds it)
    here = run_cli("export", "--jobs", "1", "--to", to, "-o", str(tmp_path / "here"), *archives)
    there = run_cli("export", "--scheduler", cluster, "--to", to, "-o",
                    str(tmp_path / "there"), *archives)
    assert (there.returncode, untimed(there.stderr)) == (here.returncode, untimed(here.stderr))
    for name in ("games", "events", "positions"):
        ours, theirs = tmp_path / "here" / f"{name}.{to}", tmp_path / "there" / f"{name}.{to}"
        import pyarrow.parquet as pq
        assert pq.read_table(theirs).equals(pq.read_table(ours)), name


def untimed(summary: str) -> str:
    """A run's summary line without its time (``... plies in 2.5 s``)."""
    return re.sub(r" in [0-9.]+ s$", " in ... s", summary, flags=re.MULTILINE)


def kill_once(marker: str) -> Any:
    """A worker plug-in that kills its worker's process the first time any worker
    starts a task (``marker``: the file that says it was done)."""
    class KillOnce(distributed.WorkerPlugin):
        def transition(self, key: Any, start: str, finish: str, **kwargs: Any) -> None:
            if finish == "executing":
                try:
                    os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
                except FileExistsError:
                    return
                os.kill(os.getpid(), signal.SIGKILL)
    return KillOnce()


def test_a_worker_killed_mid_run_is_replaced_with_the_same_output(cluster: str,
                                                                  archives: list[str],
                                                                  tmp_path: Path) -> None:
    here = run_cli("stats", "--json", "--jobs", "1", *archives)
    marker = tmp_path / "killed"
    with distributed.Client(cluster) as client:
        client.register_plugin(kill_once(str(marker)), name="kill-once")
        try:
            there = run_cli("stats", "--json", "--scheduler", cluster, *archives)
        finally:
            client.unregister_worker_plugin("kill-once")
    assert marker.exists()  # a worker was killed in the run (its nanny started another)
    assert (there.returncode, there.stdout) == (here.returncode, here.stdout)


def test_the_library_gives_the_same_figures_and_tables(cluster: str,
                                                       archives: list[str]) -> None:
    import notation.distributed as nd
    from notation.tables import TABLES
    here = json.loads(run_cli("stats", "--json", "--jobs", "1", *archives).stdout)
    with distributed.Client(cluster):
        assert nd.stats(archives) == here
        outcomes = nd.outcomes(archives).compute()
        assert [o.index for o in outcomes if o.file == archives[0]] == list(
            range(1, 12 * 28 + 2))
        assert sum(not o.valid for o in outcomes) == len(GAMES)
        frames = nd.tables(archives[1:3])
        games = frames["games"].compute()
        events = frames["events"].compute()
    assert list(games.columns) == [c.name for c in TABLES["games"]]
    assert len(games) == 2 * (12 * 6 + 1) and games["valid"].sum() == len(games) - 2
    assert str(events["clock_seconds"].dtype) == "double[pyarrow]"
    assert str(games["winners"].dtype) == "list<item: string>[pyarrow]"
    assert events["ply"].max() > 1
