"""The pool of forked workers: answers in the order sent, whatever their size; an
exception comes back as itself; a worker that dies breaks the pool, never hangs it; a
pool ended in any way leaves no worker behind."""
from __future__ import annotations

import os
import pickle
import signal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.parallel import forking
from notation.parallel.forking import PoolBroken, forked_pool
from notation.parallel.pool import WorkerStopped, map_in_order


def gone(pid: int) -> bool:
    """Whether a child of this process has ended and been waited for."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def echoed(data: bytes, times: int) -> bytes:
    return data * times


def pid_of(_: object) -> int:
    return os.getpid()


def spin(seconds_of_cpu: float) -> int:
    """Work for a while (CPU time, not the clock: a busy machine only makes it longer)."""
    import time
    start = time.process_time()
    while time.process_time() - start < seconds_of_cpu:
        pass
    return os.getpid()


@settings(max_examples=15, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 300_000), st.integers(0, 12)), min_size=1,
                max_size=12))
def test_answers_come_in_the_order_sent_whatever_their_size(sizes):
    """Tasks and answers larger than a pipe holds (64 KiB) go both ways at once: a worker
    blocked writing a long answer while the pool writes it a long task was a deadlock to
    avoid."""
    with forked_pool(2) as pool:
        sent = [(bytes([n % 251]) * n, times) for n, times in sizes]
        tasks = [pool.submit(echoed, data, times) for data, times in sent]
        assert [task.result() for task in tasks] == [data * times for data, times in sent]


class Unreadable(Exception):
    """Pickles, but cannot be unpickled: its ``__init__`` wants two arguments."""

    def __init__(self, first: str, second: str) -> None:
        super().__init__(first)


def raises(exc: BaseException) -> None:
    raise exc


def raises_unreadable() -> None:
    raise Unreadable("a", "b")


def unpicklable_answer() -> object:
    return lambda: None


def test_an_exception_comes_back_as_itself_and_the_pool_goes_on():
    with forked_pool(2) as pool:
        with pytest.raises(ValueError, match="bad move"):
            pool.submit(raises, ValueError("bad move")).result()
        with pytest.raises(RuntimeError, match="answer cannot be sent"):
            pool.submit(unpicklable_answer).result()
        with pytest.raises(RuntimeError, match="answer cannot be read"):
            pool.submit(raises_unreadable).result()
        assert pool.submit(abs, -3).result() == 3


def test_a_task_that_cannot_be_pickled_is_refused_before_it_is_sent():
    with forked_pool(2) as pool:
        with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
            pool.submit(lambda: 1)
        assert pool.submit(abs, -4).result() == 4


def test_a_worker_that_dies_breaks_the_pool_and_names_how_it_ended():
    with forked_pool(2) as pool:
        first = pool.submit(abs, -1)
        assert first.result() == 1
        dying = pool.submit(os._exit, 3)
        with pytest.raises(PoolBroken, match=r"worker \d+ exited with status 3"):
            dying.result()
        with pytest.raises(PoolBroken):
            pool.submit(abs, -2)
    assert first.result() == 1  # what was answered before stays answered


def test_a_worker_killed_mid_task_breaks_the_pool_without_a_hang():
    with forked_pool(2) as pool:
        pids = {pool.submit(pid_of, n).result() for n in range(4)}
        busy = pool.submit(spin, 1000.0)
        victim = busy._worker.pid
        os.kill(victim, signal.SIGKILL)
        with pytest.raises(PoolBroken, match="killed by signal 9"):
            busy.result()
    assert all(gone(pid) for pid in pids | {victim})


@pytest.mark.parametrize("ending", [RuntimeError, KeyboardInterrupt])
def test_a_pool_ended_by_an_exception_kills_and_waits_for_its_workers(ending):
    """Ended early, a pool does not wait for its tasks (a Ctrl-C stops at once): its
    workers are killed, then waited for, so none is left running or a zombie."""
    with pytest.raises(ending):
        with forked_pool(2) as pool:
            pids = [worker.pid for worker in pool.workers]
            pool.submit(spin, 1000.0)
            raise ending
    assert all(gone(pid) for pid in pids)


def test_a_pool_its_consumer_stops_leaves_no_worker():
    results = map_in_order(pid_of, range(40), 2)
    pids = {next(results)}
    pids |= {next(results) for _ in range(5)}
    results.close()
    assert all(gone(pid) for pid in pids - {os.getpid()})


def test_a_signal_taken_while_a_pool_is_waited_for_still_waits(monkeypatch):
    """The interrupt a signal raises where the wait stands ends the ``with`` only once every
    worker has ended."""
    waited = os.waitpid
    interrupted = []

    def interrupted_once(pid: int, options: int) -> tuple[int, int]:
        if not interrupted and options == 0:
            interrupted.append(pid)
            raise KeyboardInterrupt
        return waited(pid, options)

    monkeypatch.setattr(forking.os, "waitpid", interrupted_once)
    with pytest.raises(KeyboardInterrupt):
        with forked_pool(2) as pool:
            pids = [worker.pid for worker in pool.workers]
            assert pool.submit(abs, -1).result() == 1
    monkeypatch.undo()
    assert interrupted and all(gone(pid) for pid in pids)


def test_work_is_spread_over_the_workers_and_a_dead_one_stops_the_run():
    assert len(set(map_in_order(spin, [0.02] * 8, 2))) == 2
    with pytest.raises(WorkerStopped, match="status 5"):
        list(map_in_order(os._exit, [5, 5, 5], 2))


def test_a_worker_ends_with_the_pipe_of_its_tasks():
    """A worker whose run ended (its pipe closed) ends too, whatever PR_SET_PDEATHSIG did."""
    with forked_pool(1) as pool:
        worker = pool.workers[0]
        os.close(worker.tasks)
        worker.tasks = -1
        _pid, status = os.waitpid(worker.pid, 0)
        worker.status = status
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def frozen_in_worker(_: object) -> int:
    import gc
    return gc.get_freeze_count()


def test_a_pool_leaves_this_process_frozen_objects_frozen_and_freezes_its_workers():
    """The command line freezes its modules (its collections never scan them); a pool once
    unfroze them all. A worker freezes what it was forked with. (Counts move a little as
    frozen objects die: the checks leave room.)"""
    import gc
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with forked_pool(1) as pool:
            pool.submit(abs, -1).result()
        assert gc.get_freeze_count() > frozen // 2 > 0
        gc.unfreeze()
        assert gc.get_freeze_count() == 0
        with forked_pool(1) as pool:
            assert pool.submit(frozen_in_worker, None).result() > frozen // 2
        assert gc.get_freeze_count() == 0
    finally:
        gc.unfreeze()


TWO_POOLS = """
from notation.parallel.forking import forked_pool
first = forked_pool(1); a = first.__enter__()
second = forked_pool(1); b = second.__enter__()
assert (a.submit(abs, -1).result(), b.submit(abs, -2).result()) == (1, 2)
first.__exit__(None, None, None)  # its worker's pipe must end: the second's holds no end
second.__exit__(None, None, None)
print("both ended")
"""


def test_two_pools_end_in_any_order():
    """A worker forked for a second pool held the first pool's pipe ends open: the first
    pool, ended first, waited for its worker to see its pipe end, for ever."""
    import subprocess
    import sys

    from conftest import HANG_BREAKER
    done = subprocess.run([sys.executable, "-c", TWO_POOLS], capture_output=True, text=True,
                          timeout=HANG_BREAKER)
    assert done.stdout == "both ended\n", done.stderr


def waited_until_dead(pid: int) -> None:
    os.waitpid(pid, 0)


def test_an_answer_that_comes_as_the_pool_breaks_is_dropped_not_a_crash():
    """One worker's end and another's answer taken in one wait: the end failed every task,
    then the answer found no task left (IndexError, where a worker's death was meant)."""
    with pytest.raises(PoolBroken):
        with forked_pool(2) as pool:
            dying = pool.submit(os._exit, 3)      # the first worker
            answered = pool.submit(abs, -5)       # the second
            select_ready = __import__("select").select
            select_ready([answered._worker.answers], [], [])  # its answer is there...
            os.waitpid(dying._worker.pid, 0)     # ...and the first has ended: both at once
            answered.result()


class Interrupting:
    """An answer whose unpickling raises KeyboardInterrupt (a Ctrl-C as it is read)."""

    def __reduce__(self):
        return (_interrupt, ())


def _interrupt():
    raise KeyboardInterrupt


def interrupting() -> Interrupting:
    return Interrupting()


def test_a_task_whose_answer_is_interrupted_as_it_is_read_is_settled():
    with forked_pool(1) as pool:
        task = pool.submit(interrupting)
        with pytest.raises(KeyboardInterrupt):
            task.result()
        with pytest.raises(KeyboardInterrupt):  # (settled: asked again, it does not wait)
            task.result()
        assert pool.submit(abs, -6).result() == 6


def test_a_pool_started_by_a_thread_that_ends_keeps_its_workers():
    """PR_SET_PDEATHSIG kills a worker when the *thread* that forked it ends: a pool
    started in a thread, used after it, lost every worker."""
    import threading
    started = []

    def start() -> None:
        context = forked_pool(1)
        pool = context.__enter__()
        assert pool.submit(abs, -1).result() == 1  # (its worker has started: it is bound)
        started.extend((context, pool))

    thread = threading.Thread(target=start)
    thread.start()
    thread.join()
    context, pool = started
    try:
        assert pool.submit(abs, -7).result() == 7
    finally:
        context.__exit__(None, None, None)


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_a_fork_refused_leaks_nothing_and_the_run_goes_on_here(monkeypatch, tmp_path):
    from notation.parallel import runs
    from test_archive_scale import mixed_archive
    path = str(mixed_archive(tmp_path, 40))
    expected = [o.to_json() for o in runs.outcomes([path], runs.VERDICTS, target=3000)]

    def refused():
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(forking.os, "fork", refused)
    before = open_fds()
    with pytest.raises(BlockingIOError):
        with forked_pool(2):
            pass
    assert open_fds() == before
    got = [o.to_json() for o in runs.outcomes([path], runs.VERDICTS, target=3000, jobs=2)]
    assert got == expected and open_fds() == before
