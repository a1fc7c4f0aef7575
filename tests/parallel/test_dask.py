"""Dask: validation on a local dask.distributed cluster of 2 workers equals the one-process
run; the workers read the file the user named, a peer that is not a scheduler is one line,
a scheduler without workers is said then given up, and Dask's own log lines stay off the
user's stderr (issue 17)."""
from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import resource
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Iterator

import pytest

import distributed  # the [dask] extra is part of the test extras: no silent skip

import notation
from notation.parallel import dask_cluster as nd
from notation.cli.parallel import _library_logs_silenced
from notation.parallel.dask_cluster import probe_scheduler
from notation.parallel import runs as runner
from notation.parallel.runs import VALIDATE
from notation.parallel.work import span_part
from notation.parallel.spans import spans

from conftest import HANG_BREAKER, SAMPLES, run_cli
from test_archive_scale import mixed_archive

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


# -- the file the user named, peers and logs -----------------------------------------------

VALID = (SAMPLES / "tilewe" / "random-4p-three-games.tilewe").read_text().rstrip("\n") + "\n\n"
INVALID = VALID.replace("3. ", "3. Q9n-a1a1 ", 1)

SAME_FILES = "workers must see the same files at the same paths"

#: A 2-worker cluster run as a script, so that its processes have their own working folder.
CLUSTER = """
import sys
from distributed import LocalCluster
if __name__ == "__main__":
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster:
        print(cluster.scheduler_address, flush=True)
        sys.stdin.read()  # until the test closes our stdin
"""

#: The CLI, with the client's measure of every file made stale (the workers measure the truth).
STALE_CLIENT = """
import dataclasses, sys
import notation.parallel.spans as spans_module
measured = spans_module.identity_of
spans_module.identity_of = lambda handle: dataclasses.replace(measured(handle), head="0" * 32)
from notation.cli.main import run
run(sys.argv[1:])
"""

#: The CLI, with Dask's client-side loggers speaking up during the run (as on a lost worker).
NOISY_CLIENT = """
import logging, sys
import notation.parallel.spans as spans_module
scanned = spans_module.spans
def spans(*args, **kwargs):
    logging.getLogger("distributed.client").warning("Couldn't gather 1 keys, rescheduling")
    logging.getLogger("distributed.worker").error("a worker was lost")
    logging.getLogger("distributed").warning("distributed itself")
    yield from scanned(*args, **kwargs)
spans_module.spans = spans
from notation.cli.main import run

run(sys.argv[1:])
"""


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory) -> Iterator[tuple[str, Path]]:
    """A local cluster whose scheduler and workers run in another folder than the tests."""
    folder = tmp_path_factory.mktemp("workers")
    script = folder / "cluster.py"
    script.write_text(CLUSTER)
    process = subprocess.Popen([sys.executable, str(script)], cwd=folder, text=True,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    address = process.stdout.readline().strip()
    try:
        assert address.startswith("tcp://127.0.0.1:"), address
        yield address, folder
    finally:
        process.stdin.close()
        try:
            process.wait(timeout=HANG_BREAKER)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def two_folders(tmp_path: Path, workers_folder: Path) -> tuple[Path, str]:
    """The client's folder, and a relative path that names an invalid record there and a
    valid one of the same size in the workers' folder."""
    client_folder = tmp_path / "client"
    name = f"rel/{tmp_path.name}.tilewe"
    padding = len(INVALID) - len(VALID)  # the valid twin ends with a comment of that length
    twin = VALID.rstrip("\n") + "\n;" + "x" * (padding - 1) + "\n"
    for folder, text in ((client_folder, INVALID), (workers_folder, twin)):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    assert (client_folder / name).stat().st_size == (workers_folder / name).stat().st_size
    return client_folder, name


def run_python(script: str, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", script, *args], capture_output=True,
                          text=True, cwd=cwd, timeout=HANG_BREAKER)


def test_cli_workers_check_the_file_the_user_named(tmp_path, elsewhere):
    address, workers_folder = elsewhere
    here, name = two_folders(tmp_path, workers_folder)
    only_here = f"rel/{tmp_path.name}-only-here.tilewe"
    (here / only_here).write_text(INVALID + VALID)
    local = run_cli("validate", "--jobs", "1", name, only_here, cwd=here)
    there = run_cli("validate", "--scheduler", address, name, only_here, cwd=here)
    assert local.returncode == 1 and f"{name}:6:29: error:" in local.stdout
    assert (there.returncode, there.stdout) == (local.returncode, local.stdout)
    assert there.stderr.split(" in ")[0] == local.stderr.split(" in ")[0]  # the summary only


def test_library_workers_check_the_file_the_caller_named(tmp_path, elsewhere, monkeypatch):
    address, workers_folder = elsewhere
    here, name = two_folders(tmp_path, workers_folder)
    monkeypatch.chdir(here)
    with distributed.Client(address):
        rows = nd.game_results([name]).compute()
    expected = [(name, record.index, notation.run(record).valid)
                for record in notation.read_games(name)]
    assert [(row["file"], row["index"], row["valid"]) for row in rows] == expected
    assert [valid for _f, _i, valid in expected] == [False, True, True]


def stale_span(path: Path, **changes: int):
    """The first span of ``path``, then the file rewritten behind its back: the same size
    and modification time, another first byte (unless ``changes`` say otherwise)."""
    span = next(spans(path))
    status = path.stat()
    data = bytearray(path.read_bytes())
    data[0] = ord(" ") if data[0] != ord(" ") else ord("\n")
    path.write_bytes(bytes(data) + b"\n" * changes.get("grow", 0))
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))
    return span


def test_a_file_changed_after_the_scan_is_refused(tmp_path):
    path = tmp_path / "games.tilewe"
    path.write_text(VALID)
    part = span_part(stale_span(path), VALIDATE)
    assert part.outcomes == [] and str(part.input_failure()) == (
        f"{path}: error: the file changed after it was scanned (content differs)")
    part = span_part(stale_span(path, grow=1), VALIDATE)  # a small file: its head grew too
    assert part.outcomes == [] and str(part.input_failure()).endswith("(size/content differ)")


def test_a_worker_refuses_a_file_that_is_not_the_clients(tmp_path, elsewhere):
    address, _folder = elsewhere
    path = tmp_path / "games.tilewe"
    path.write_text(VALID)
    span = stale_span(path)
    with distributed.Client(address) as client:
        part = client.submit(span_part, span, VALIDATE, pure=False).result()
    assert part.outcomes == [] and re.fullmatch(
        rf"{re.escape(str(path))}: error: the worker at tcp://127\.0\.0\.1:\d+ sees a different "
        rf"file at this path \(content differs\); {SAME_FILES}", str(part.input_failure()))


def test_cli_a_file_the_workers_see_otherwise_is_one_line(tmp_path, elsewhere):
    address, _folder = elsewhere
    path = mixed_archive(tmp_path, 60)  # several spans: each would say it
    assert len(list(spans(path))) > 3
    result = run_python(STALE_CLIENT, "validate", "--scheduler", address, path.name, cwd=tmp_path)
    lines = [line for line in result.stderr.splitlines() if not line.startswith("0 games")]
    assert result.returncode == 2 and result.stdout == ""
    assert len(lines) == 1 and re.fullmatch(
        rf"mixed\.tilewe: error: the worker at tcp://127\.0\.0\.1:\d+ sees a different file at "
        rf"this path \(content differs\); {SAME_FILES}", lines[0]), result.stderr


def test_cli_keeps_dask_log_lines_off_stderr(tmp_path, elsewhere):
    address, _folder = elsewhere
    path = tmp_path / "games.tilewe"
    path.write_text(VALID)
    result = run_python(NOISY_CLIENT, "validate", "--scheduler", address, path.name,
                        cwd=tmp_path)
    assert result.returncode == 0 and result.stdout.count(": ok, ") == 3
    assert result.stderr.startswith("3 games: 3 valid") and len(result.stderr.splitlines()) == 1


def test_library_logging_is_silenced_only_during_the_cli_run():
    heard: list[str] = []
    listener = logging.Handler()
    listener.emit = lambda record: heard.append(record.getMessage())
    top = logging.getLogger("distributed")
    top.addHandler(listener)
    try:
        with _library_logs_silenced():
            logging.getLogger("distributed.client").warning("during the run")
            logging.getLogger("distributed.made.meanwhile").warning("during the run")
        logging.getLogger("distributed.client").warning("after the run")
    finally:
        top.removeHandler(listener)
    assert heard == ["after the run"]


@contextlib.contextmanager
def hostile_peer(first_bytes: bytes) -> Iterator[str]:
    """A TCP server on loopback that answers every connection with ``first_bytes``."""
    server = socket.create_server(("127.0.0.1", 0))

    def answer(connection: socket.socket) -> None:
        with connection:
            connection.settimeout(30)
            try:
                connection.sendall(first_bytes)
                while connection.recv(1 << 16):  # until the client goes away
                    pass
            except OSError:
                pass

    def serve() -> None:
        while True:
            try:
                connection, _ = server.accept()
            except OSError:  # closed: the test is over
                return
            threading.Thread(target=answer, args=(connection,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        server.close()


def one_gib_of_address_space() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


@pytest.mark.parametrize("first_bytes", [b"\xff" * 8, (2 ** 62).to_bytes(8, sys.byteorder)],
                         ids=["all-ones", "2**62"])
def test_a_peer_that_is_not_a_scheduler_is_one_line(tmp_path, first_bytes):
    path = tmp_path / "games.tilewe"
    path.write_text(VALID)
    with hostile_peer(first_bytes) as address:
        result = subprocess.run(
            [str(Path(sys.executable).with_name("notation")), "validate", "--scheduler",
             address, str(path)], capture_output=True, text=True, timeout=HANG_BREAKER,
            preexec_fn=one_gib_of_address_space)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f"notation: error: cannot reach the Dask scheduler at {address}: the peer does not "
        f"speak Dask's protocol (its first frame announces "
        f"{int.from_bytes(first_bytes, sys.byteorder):,} bytes)"]


def test_the_probe_refuses_silent_closing_and_garbled_peers():
    with hostile_peer(b"") as silent:
        with pytest.raises(TimeoutError, match=r"no Dask handshake within 0\.3 s"):
            probe_scheduler(silent, timeout=0.3)
    garbled = (16).to_bytes(8, sys.byteorder) + (2 ** 40).to_bytes(8, sys.byteorder) * 2
    with hostile_peer(garbled) as address:
        with pytest.raises(ValueError, match="not a Dask handshake"):
            probe_scheduler(address)
    server = socket.create_server(("127.0.0.1", 0))
    closing = threading.Thread(target=lambda: server.accept()[0].close(), daemon=True)
    closing.start()
    with pytest.raises(ConnectionError, match="closed the connection without a Dask handshake"):
        probe_scheduler(f"tcp://127.0.0.1:{server.getsockname()[1]}")
    server.close()


def test_the_probe_accepts_a_real_scheduler(elsewhere):
    address, _folder = elsewhere
    probe_scheduler(address)
    probe_scheduler(address.removeprefix("tcp://"))  # a bare HOST:PORT is TCP too


# -- a scheduler without workers -----------------------------------------------------------

@pytest.fixture(scope="module")
def lonely_scheduler() -> Iterator[str]:
    """A Dask scheduler that no worker ever joins."""
    with distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp",
                                  host="127.0.0.1", dashboard_address=":0") as alone:
        yield alone.scheduler_address


def test_cli_a_scheduler_without_workers_is_said_then_given_up(tmp_path, lonely_scheduler):
    """It waited forever without a word: a task waits for a worker as long as there is none."""
    path = tmp_path / "games.tilewe"
    path.write_text(VALID)
    result = subprocess.run(
        [str(Path(sys.executable).with_name("notation")), "validate", "--scheduler",
         lonely_scheduler, "--worker-timeout", "0.5", str(path)],
        capture_output=True, text=True, timeout=HANG_BREAKER)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.splitlines() == [
        f"notation: the Dask scheduler at {lonely_scheduler} has no worker; waiting up to 0.5 s "
        f"for one (--worker-timeout)",
        f"notation: error: the Dask scheduler at {lonely_scheduler} has had no worker for 0.5 s "
        f"(--worker-timeout)"]


def test_the_worker_timeout_has_a_default_and_refuses_nonsense(tmp_path):
    path = tmp_path / "games.tilewe"
    path.write_text(VALID)
    assert "[default: 60.0;" in " ".join(run_cli("validate", "--help").stdout.split())
    for wrong in ("0", "-1", "soon"):
        result = run_cli("validate", "--worker-timeout", wrong, str(path))
        assert result.returncode == 2 and "--worker-timeout" in result.stderr
        assert "Traceback" not in result.stderr


def test_library_run_on_a_cluster_without_workers_stops(tmp_path, lonely_scheduler):
    path = tmp_path / "games.tilewe"
    path.write_text(VALID)
    told = []
    with distributed.Client(lonely_scheduler) as client:
        with pytest.raises(runner.NoWorkers, match=r"no worker within 0\.3 s"):
            list(runner.parts([path], client=client, wait=0.3,
                              waiting=lambda: told.append("waiting")))
    assert told == ["waiting"]


class FakeFuture:
    """A Dask future whose part comes after ``late`` waits (never, if None)."""

    def __init__(self, late: int | None, part=None, raised: Exception | None = None) -> None:
        self.late, self.part, self.raised, self.waits = late, part, raised, 0

    def result(self, timeout=None):
        if self.raised is not None:
            raise self.raised
        if self.late is None or self.waits < self.late:
            self.waits += 1
            raise TimeoutError
        return self.part

    def done(self) -> bool:
        return self.raised is not None

    def cancel(self) -> bool:
        return True


class FakeClient:
    """A client of a cluster with ``workers`` workers, that none ever joins when it has none."""

    def __init__(self, workers: int) -> None:
        self.workers = workers

    def scheduler_info(self) -> dict:
        return {"workers": {f"w{n}": {} for n in range(self.workers)}}

    def wait_for_workers(self, n_workers: int, timeout: float | None = None) -> None:
        raise TimeoutError


def test_a_part_late_while_the_cluster_has_lost_its_workers_stops_the_run():
    """A cluster that loses every worker during a run holds its tasks forever too."""
    from notation.parallel.cluster import _Awaited
    part = runner.Part("games.tilewe")
    busy = _Awaited(FakeFuture(late=3, part=part), FakeClient(2), 0.1, None)
    assert busy.result() is part  # slow, with workers: waited for
    told = []
    lost = _Awaited(FakeFuture(late=None), FakeClient(0), 0.1, lambda: told.append(1))
    with pytest.raises(runner.NoWorkers):
        lost.result()
    assert told == [1]
    its_own = _Awaited(FakeFuture(late=0, raised=TimeoutError("the task's")), FakeClient(0),
                       0.1, None)
    with pytest.raises(TimeoutError, match="the task's"):
        its_own.result()  # a task that raised it failed: not the cluster's state


def test_library_results_on_a_cluster_without_workers_stop(tmp_path, lonely_scheduler):
    """``notation.parallel.dask_cluster.game_results`` waited forever on a cluster with no worker."""
    from notation.parallel import dask_cluster as nd
    path = tmp_path / "games.tilewe"
    path.write_text(VALID)
    with distributed.Client(lonely_scheduler):
        with pytest.raises(runner.NoWorkers, match=r"no worker within 0\.3 s"):
            nd.game_results([path], wait=0.3)
