"""The runner: the same task over the same files gives the same verdicts, numbered the same
way, here, in worker processes and on a Dask cluster; a verdict survives JSON."""
from __future__ import annotations

import itertools
import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation.core.new_games import random_record
import notation
from notation.parallel import batch, runs as runner
import notation.read.text
from notation.core import registry
from notation.core.errors import InputError
from notation.core.outcome import Outcome

from conftest import HANG_BREAKER, SAMPLES, notation_exe, run_cli
from test_archive_scale import mixed_archive

#: Batches and spans of a few games each, so that every file is cut many times.
SMALL = 3000


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> list[str]:
    """A file cut in many places (with invalid games and comments carried over a cut),
    a file of another game, and the first file again (numbered from 1 again)."""
    folder = tmp_path_factory.mktemp("runner")
    mixed = str(mixed_archive(folder, 6))
    return [mixed, str(SAMPLES / "flows" / "random-3p-two-games.flows"), mixed]


def one_pass(paths: list[str], task: runner.Task) -> list[dict]:
    """Each file read in one pass, each game given to the task: what the runner must equal
    (a valid game without its tags and result for a task that leaves them out)."""
    return [_as_sent(task.apply(record).to_json(), task) for path in paths
            for record in notation.read_games(path)]


def _as_sent(verdict: dict, task: runner.Task) -> dict:
    return verdict if task.facts or not verdict["valid"] else dict(verdict, tags={}, result=None)


def verdicts(paths: list[str], task: runner.Task, **how) -> list[dict]:
    return [outcome.to_json() for outcome in runner.outcomes(paths, task, target=SMALL, **how)]


@pytest.mark.slow
@pytest.mark.parametrize("task", [runner.VALIDATE, runner.VERDICTS, runner.REPLAY,
                                  runner.FORMAT], ids=["validate", "verdicts", "replay", "format"])
def test_here_and_in_two_processes_the_verdicts_are_the_same(inputs, task):
    expected = one_pass(inputs, task)
    here = [_as_sent(verdict, task) for verdict in verdicts(inputs, task)]
    assert here == expected
    assert verdicts(inputs, task, jobs=2) == expected
    assert not all(v["valid"] for v in here)
    first = [v["index"] for v in here if v["file"] == inputs[0]]
    assert first == list(range(1, len(first) // 2 + 1)) * 2  # the file given twice


def test_every_part_is_a_piece_of_the_file_in_order(inputs):
    parts = list(runner.parts(inputs[:1], target=SMALL))
    assert len(parts) > 5 and parts[-1].warning is None
    games = [outcome.index for part in parts for outcome in part.outcomes]
    assert games == list(range(1, len(games) + 1))


def test_an_input_error_ends_its_input_and_the_others_go_on(tmp_path, inputs):
    good = (SAMPLES / "tilewe" / "random-4p-three-games.tilewe").read_bytes()
    broken = tmp_path / "broken.tilewe"  # undecodable past its first block of 64 KiB
    broken.write_bytes(good * 40 + b"\n\xff\xfe\n" + good)
    empty = tmp_path / "empty.tilewe"
    empty.write_text("\n")
    paths = [str(broken), str(tmp_path / "missing.tilewe"), str(empty), inputs[1]]
    seen = []
    for jobs in (1, 2):
        parts = list(runner.parts(paths, jobs=jobs, target=SMALL))
        games = [(o.file, o.index) for part in parts for o in part.outcomes]
        kept = [index for file, index in games if file == str(broken)]
        assert kept == list(range(1, len(kept) + 1)) and 3 < len(kept) < 120
        assert games[len(kept):] == [(inputs[1], 1), (inputs[1], 2)]
        errors = [str(part.input_failure()) for part in parts if part.input_error]
        assert len(errors) == 2 and "byte 0xff" in errors[0] and "missing" in errors[1]
        assert [p.warning for p in parts if p.warning] == [f"{empty}: warning: no games"]
        seen.append(games)
    assert seen[0] == seen[1]
    with pytest.raises(InputError, match="byte 0xff"):
        list(runner.outcomes(paths))


def test_a_stream_is_read_like_its_file(inputs):
    with open(inputs[0], "rb") as handle:
        from_stream = verdicts([runner.Stream(handle, "<stdin>")], runner.VALIDATE, jobs=2)
    from_file = verdicts(inputs[:1], runner.VALIDATE)
    assert from_stream == [dict(v, file="<stdin>") for v in from_file]


def test_a_bug_in_a_task_is_that_games_internal_problem(inputs):
    games = [o for o in runner.outcomes(inputs[1:2], runner.Task(failing), jobs=2)]
    assert [o.index for o in games] == [1, 2]
    assert [o.error.kind for o in games] == ["internal", "internal"]
    assert games[0].error.message == "internal error: ZeroDivisionError: boom"


def failing(record: notation.GameNode) -> Outcome:
    raise ZeroDivisionError("boom")


def test_a_pickled_outcome_carries_no_game_and_no_state(inputs):
    record = next(iter(notation.read_games(inputs[0])))
    live = notation.run(record)
    assert live.state is not None
    sent = pickle.loads(pickle.dumps(live))
    assert (sent.record, sent.game, sent.state) == (None, None, None)
    assert sent.to_json() == live.to_json()


@pytest.mark.parametrize("name", registry.names())
@settings(max_examples=5, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), breaks=st.integers(0, 3))
def test_an_outcome_read_back_from_json_answers_the_same(name, seed, breaks):
    game = registry.get(name)
    record = random_record(game, random.Random(seed), {})
    text = notation.format_record(record, game)
    lines = text.split("\n")
    for _ in range(breaks):  # some games get problems, so their lines travel too
        at = random.Random(seed + _).randrange(len(lines))
        lines[at] += " 1. ??"
    for parsed in notation.parse("\n".join(lines), name):
        live = runner.outcome_of(runner.REPLAY, parsed)
        back = Outcome.from_json(json.loads(json.dumps(live.to_json())))
        assert back.to_json() == live.to_json()
        for question in ("file", "index", "game_name", "valid", "plies", "problems", "error",
                         "tags", "result", "data"):
            assert getattr(back, question) == getattr(live, question), question
        for problem in live.problems:
            assert back.source_line(problem.line) == live.source_line(problem.line)
        assert Outcome.from_json(back.to_json()).to_json() == back.to_json()
        assert live.detached().to_json() == live.to_json()
        assert live.shifted(0) is live
        for by, outcome in itertools.product((1, 40), (live, back)):  # a later batch's game
            moved = outcome.shifted(by)
            assert (moved.record, moved.game, moved.state) == (None, None, None)
            assert moved.to_json() == dict(live.to_json(), index=live.index + by)
            assert outcome.to_json() == live.to_json()  # (the outcome itself is left as it was)


@pytest.mark.dask
def test_on_a_dask_cluster_the_verdicts_are_the_same(inputs):
    import distributed  # the [dask] extra is part of the test extras: no silent skip

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster:
        with distributed.Client(cluster) as client:
            for task in (runner.VALIDATE, runner.REPLAY):
                assert verdicts(inputs, task, client=client) == one_pass(inputs, task)


# -- how many workers start ---------------------------------------------------------------

#: Runs the command line (its arguments after the script's) and says on stderr, last, how
#: many processes it forked: each fork is counted by the interpreter's own after-fork hook.
FORK_COUNTER = """
import os, sys
forks = []
os.register_at_fork(after_in_parent=lambda: forks.append(1))
sys.argv = ["notation", *sys.argv[1:]]
from notation.cli.entry import main
try:
    main()
finally:
    os.write(2, f"forks: {len(forks)}\\n".encode())
"""


def forks_of(*args: str, input: bytes | None = None) -> tuple[int, int]:
    """The exit status of ``notation ARGS`` and how many processes it forked."""
    result = subprocess.run([sys.executable, "-c", FORK_COUNTER, *args], input=input,
                            capture_output=True, timeout=HANG_BREAKER)
    last = result.stderr.decode().rstrip("\n").rsplit("\n", 1)[-1]
    assert last.startswith("forks: "), result.stderr
    return result.returncode, int(last.split()[1])


def test_workers_are_never_more_than_the_cores_nor_the_work(monkeypatch):
    import notation.parallel as workers
    monkeypatch.setattr(workers, "default_jobs", lambda: 4)
    assert runner.workers_for(None) == runner.workers_for(300) == runner.workers_for(10000) == 4
    assert runner.workers_for(3) == runner.workers_for(3, 9) == 3
    assert runner.workers_for(300, 2) == runner.workers_for(None, 2) == 2
    assert runner.workers_for(300, 0) == runner.workers_for(1) == 1


@pytest.mark.slow
def test_jobs_beyond_the_cores_start_one_worker_a_core(tmp_path):
    """``--jobs 300`` forked 300 workers (10,000 drove a two-core machine's load past 400)."""
    games = run_cli("random", "tilewe", "--seed", "1", "--count", "40").stdout
    path = tmp_path / "big.tilewe"
    path.write_text("\n".join([games] * 40))  # over 1 MiB: worth a pool
    assert path.stat().st_size > runner.SMALL_INPUT
    cores = len(os.sched_getaffinity(0))
    status, forks = forks_of("validate", "-q", "--jobs", "300", str(path))
    assert status == 0 and 1 <= forks <= cores
    status, forks = forks_of("random", "tilewe", "--seed", "1", "--count", "30", "--jobs", "300")
    assert status == 0 and forks <= cores


def test_jobs_beyond_the_input_start_no_more_workers_than_its_batches():
    """A pipe's size is not known before it is read: one batch of it takes no worker."""
    text = (SAMPLES / "tilewe" / "random-4p-three-games.tilewe").read_bytes()
    status, forks = forks_of("validate", "-q", "--jobs", "300", "-", input=text)
    assert (status, forks) == (0, 0)
    parts = list(runner.parts([SAMPLES / "tilewe" / "random-4p-three-games.tilewe"],
                              jobs=300))
    assert [len(part.outcomes) for part in parts] == [3]


@pytest.mark.slow
def test_a_small_piped_record_is_checked_without_starting_workers():
    """A pipe's size is unknown: it took a pool (0.2 s) for every small record before. A
    pool is sized by the batches it will be given, so even ``--jobs 2`` starts none for
    one batch; a pipe of several batches does start workers."""
    import os
    from notation.parallel.batch import TARGET
    text = (SAMPLES / "tilewe" / "tw-sample-1.tilewe").read_text()
    env = dict(os.environ, NOTATION_TEST_WORKER_FAULT="exit")  # a worker would die at once
    command = [str(Path(sys.executable).with_name("notation")), "validate", "-"]
    quiet = subprocess.run(command, input=text, capture_output=True, text=True, env=env,
                           timeout=HANG_BREAKER)
    assert quiet.returncode == 0 and ": ok, 58 plies" in quiet.stdout
    asked = subprocess.run(command[:2] + ["--jobs", "2", "-"], input=text, capture_output=True,
                           text=True, env=env, timeout=HANG_BREAKER)
    assert asked.returncode == 0 and ": ok, 58 plies" in asked.stdout
    several = (text + "\n") * (3 * TARGET // len(text) + 1)
    pooled = subprocess.run(command[:2] + ["--jobs", "2", "-"], input=several,
                            capture_output=True, text=True, env=env, timeout=HANG_BREAKER)
    if len(os.sched_getaffinity(0)) > 1:  # (one core: never a pool)
        assert pooled.returncode == 2 and "worker process stopped" in pooled.stderr


def worked_by(record: notation.GameNode) -> Outcome:
    """A task that says which process worked on the game."""
    outcome = notation.run(record)
    outcome.data = os.getpid()
    return outcome


def test_this_process_works_the_first_unit_and_is_one_of_the_jobs(tmp_path, monkeypatch):
    """The first part is ready as soon as in a run of one process (and what its game loads
    is loaded once, before the fork); then this process is one of the ``jobs``: one
    worker is forked for two, and this process works some units too."""
    from notation.parallel import pool
    path = mixed_archive(tmp_path, 12)
    first = next(batch.batches(path, target=SMALL))
    here = len(list(batch.batch_records(first)))
    forks = []
    monkeypatch.setattr(pool, "forked_pool", counted(pool.forked_pool, forks))
    pids = [o.data for o in runner.outcomes([path], runner.Task(worked_by), target=SMALL,
                                            jobs=2)]
    assert pids[:here] == [os.getpid()] * here
    assert forks == [1]
    assert len(set(pids[here:]) - {os.getpid()}) == 1


def counted(start_pool, forks: list):
    """``forked_pool``, noting how many workers each pool forks."""
    def started(jobs: int):
        forks.append(jobs)
        return start_pool(jobs)
    return started


class Later:
    """A unit's part that is ready only once it is asked for (a busy worker's)."""

    def __init__(self, size: int) -> None:
        self.size, self.asked = size, False

    def result(self):
        from notation.parallel.work import Part
        self.asked = True
        return Part("f", size=self.size)

    def done(self) -> bool:
        return self.asked

    def cancel(self) -> bool:
        return False


@pytest.mark.parametrize("ready", [False, True])
def test_a_unit_is_worked_here_only_where_the_consumer_would_wait(ready):
    """A unit that fills the window while the first in line is not ready is worked here
    (this process would only wait); while what is in line is ready, the consumer is the
    one that is busy, and every unit is sent."""
    from notation.parallel.order import Settled, ordered
    from notation.parallel.units import Unit
    from notation.parallel.work import Part
    routes = []

    def submit(unit: Unit):
        routes.append("sent")
        return Settled(Part("f", size=unit.job)) if ready else Later(unit.job)

    def here(unit: Unit):
        routes.append("here")
        return Settled(Part("f", size=unit.job))

    sizes = list(range(1, 13))
    parts = [part.size for part in ordered([Unit(0, n) for n in sizes], submit, 3, here)]
    assert parts == sizes
    if ready:
        assert routes == ["sent"] * len(sizes)
    else:
        assert routes[:3] == ["sent", "sent", "here"] and "sent" in routes[3:]
        assert routes.count("here") >= len(sizes) // 4


@pytest.mark.parametrize("target", [1, 3 * batch.FIRST, batch.TARGET])
def test_the_first_batches_are_small_and_grow_to_the_target(tmp_path, target):
    path = mixed_archive(tmp_path, 60)
    longest = max(len(text) for _, text in notation.read.text.pieces(
        [path.read_text()], str(path)))
    sizes = [b.size for b in batch.batches(path, target=target)]
    wanted = min(batch.FIRST, target)
    for size in sizes[:-1]:
        # (a batch ends after the piece that reaches its size, never after one that may
        # hand comments to the next game: the samples' comment pieces are small)
        assert wanted <= size < wanted + 2 * longest, (sizes, wanted)
        wanted = min(2 * wanted, target)
    assert sizes[-1] < wanted + 2 * longest


def test_a_part_ready_in_line_is_given_before_the_next_unit_is_sent():
    """``ordered`` hands on the first part in line as soon as it is ready, not once its
    window of units in flight is full: a run's first lines wait for nothing else."""
    from notation.parallel.order import Settled, ordered
    from notation.parallel.units import Known, Unit
    from notation.parallel.work import Part
    sent = []

    def submit(unit: Unit) -> Settled:
        sent.append(unit.job)
        return Settled(Part("f", size=unit.job))

    items = [Unit(0, size) for size in (1, 2, 3)] + [Known(0, Part("f"), end=True)]
    parts = ordered(items, submit, limit=3)
    assert next(parts).size == 1 and sent == [1]
    assert [p.size for p in parts][:2] == [2, 3] and sent == [1, 2, 3]


@pytest.mark.slow
@pytest.mark.parametrize("where", [0.3, 0.71])
def test_the_games_before_an_undecodable_byte_are_the_same_however_the_file_is_read(
        tmp_path, where):
    """Every game whose text ends before the byte's line is checked, and none after: the
    games in the decoded block that held the byte were lost before, so how many were
    kept hung on where blocks began (a file, a pipe, a worker's span)."""
    games = run_cli("random", "tilewe", "--seed", "5", "--count", "1500").stdout.encode()
    at = games.index(b"\n[Game", int(len(games) * where)) - 3  # inside a game's last line
    path = tmp_path / "broken.tilewe"
    path.write_bytes(games[:at] + b"\xff" + games[at:])
    assert path.stat().st_size > runner.SMALL_INPUT  # (worth a pool)
    whole = games[:at].count(b"[Game ") - 1  # the game the byte is in is not whole
    outputs = []
    for args, stdin in ((["--jobs", "1", str(path)], None), (["--jobs", "2", str(path)], None),
                        (["-"], path.read_bytes()), (["--jobs", "2", "-"], path.read_bytes())):
        done = subprocess.run([*notation_exe(), "validate", "--json", *args], input=stdin,
                              capture_output=True, timeout=HANG_BREAKER)
        lines = [json.loads(line) for line in done.stdout.decode().splitlines()]
        assert done.returncode == 2 and "byte 0xff" in lines[-1]["error"]["message"]
        outputs.append([line["index"] for line in lines[:-1]])
    assert outputs[0] == list(range(1, whole + 1))
    assert outputs[1] == outputs[2] == outputs[3] == outputs[0]


def test_the_library_s_outcomes_are_outcomes_whatever_travelled(inputs):
    """A valid game comes home as its plies alone and is shown as a read-only verdict; the
    library's ``outcomes`` gives each as the outcome it stands for, to be used as any."""
    from notation.core.outcome import Verdict
    for jobs in (1, 2):
        got = list(runner.outcomes(inputs[:1], runner.VERDICTS, target=SMALL, jobs=jobs))
        assert not any(isinstance(o, Verdict) for o in got)
        got[0].data = {"mine": True}
        assert got[0].to_json()["data"] == {"mine": True}
    part = next(runner.parts(inputs[:1], runner.VERDICTS, target=SMALL))
    assert any(isinstance(o, Verdict) for o in part.outcomes)
