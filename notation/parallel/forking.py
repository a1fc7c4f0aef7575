"""A run's worker processes: forked all at once, the ending signals held meanwhile, each
bound to the process that started it, each spoken to over a pipe of its own each way.

Not :mod:`concurrent.futures`: loading it and its ``multiprocessing`` cost a run 35 to
40 ms of CPU, its threads and queues 130 us a task, and its workers 6 ms each to start
and end: a two-core ``validate`` of 3,000 games paid more for its pool than for a
fifth of its games. Here a task is one pickled message down a worker's pipe and its
answer one pickled message back, with no thread in between.

SIGINT and SIGTERM are held (blocked) while the workers are forked: the command line's
handler raises ``KeyboardInterrupt`` wherever the main thread stands, and during a fork
that is inside the interpreter's after-fork hooks, where the exception is printed and
dropped (the run then went on to exit 0), or in a child that has not yet learnt how a
worker behaves. Held, a signal arrives once every worker is started, where the run can
stop its pool: no worker is left behind and the run ends with the signal's status.
"""
from __future__ import annotations

import collections
import contextlib
import gc
import os
import pickle
import select
import signal
import threading
from typing import Any, Callable, Iterator

from notation.core.errors import Error

#: The signals that end a run, held while workers are forked.
ENDING = frozenset({signal.SIGINT, signal.SIGTERM})

#: Bytes of a message's length, before the message.
HEADER = 8


#: Every pool alive in this process: any process forked from it closes their pipes'
#: ends first (:func:`_close_pools`), or a worker whose pool ends would never see its
#: pipe end while another pool's worker (or any child) held it open.
_POOLS: set[ForkedPool] = set()


def _close_pools() -> None:
    for pool in _POOLS:
        for worker in pool.workers:
            _close_all(*(fd for fd in (worker.tasks, worker.answers) if fd >= 0))
    _POOLS.clear()


if hasattr(os, "register_at_fork"):  # pragma: no branch - POSIX
    os.register_at_fork(after_in_child=_close_pools)


class PoolBroken(Error):
    """A worker ended without being asked to (killed, out of memory, exited): the pool can
    do no more, and every task it had not answered fails with this."""


def _bound_to(parent: int, from_main_thread: bool) -> None:
    """What a worker does first: behave as a worker, then take signals (they were held since
    the fork). A worker must not outlive the run that started it: its pipe of tasks ends
    with the run; forked by the main thread, it is also killed when its parent ends
    (Linux; the signal comes when the *thread* that forked ends, which for another thread
    may be long before the run does). A parent that ended already is not waited for."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the main process's handler (forked)
    if from_main_thread:
        try:
            import ctypes  # only here: a worker's one call to prctl
            libc = ctypes.CDLL("libc.so.6", use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):  # pragma: no cover - not Linux
            pass
    if os.getppid() != parent:  # the run ended before this worker could ask to end with it
        os._exit(1)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, ENDING)


def _close_all(*fds: int) -> None:
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)


def _framed(value: Any) -> bytes:
    data = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    return len(data).to_bytes(HEADER, "little") + data


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _serve(tasks: int, answers: int) -> None:
    """A worker's life: each task read, done and answered in turn, until its pipe ends.

    A task's exception is its answer; one that cannot be pickled is answered as a
    :class:`RuntimeError` that says so."""
    with open(tasks, "rb") as reader:
        while True:
            header = reader.read(HEADER)
            if len(header) < HEADER:  # the pool is done with this worker (or gone)
                return
            message = reader.read(int.from_bytes(header, "little"))
            try:
                work, args = pickle.loads(message)
                answer: tuple[bool, Any] = (True, work(*args))
            except BaseException as exc:  # (SIGINT is ignored here: see _bound_to)
                answer = (False, exc)
            del message
            try:
                framed = _framed(answer)
            except Exception as exc:
                framed = _framed((False, RuntimeError(
                    f"a worker's answer cannot be sent: {exc.__class__.__name__}: {exc}")))
            del answer
            _write_all(answers, framed)


class Task:
    """A task sent to a worker: its answer to come (as :class:`order.Pending` asks)."""

    __slots__ = ("_pool", "_worker", "_settled", "_value", "_error")

    def __init__(self, pool: ForkedPool, worker: _Worker) -> None:
        self._pool, self._worker = pool, worker
        self._settled = False
        self._value: Any = None
        self._error: BaseException | None = None

    def _settle(self, value: Any = None, error: BaseException | None = None) -> None:
        self._settled, self._value, self._error = True, value, error

    def done(self) -> bool:
        if not self._settled:
            self._pool._take(0)
        return self._settled

    def result(self) -> Any:
        while not self._settled:
            self._pool._take(None)
        if self._error is not None:
            raise self._error
        return self._value

    def cancel(self) -> bool:
        """A task sent cannot be called back: ending the pool early stops its worker."""
        return False


class _Worker:
    __slots__ = ("pid", "tasks", "answers", "received", "waiting", "status")

    def __init__(self, pid: int, tasks: int, answers: int) -> None:
        self.pid, self.tasks, self.answers = pid, tasks, answers
        self.received = bytearray()  # an answer's bytes as they come
        self.waiting: collections.deque[Task] = collections.deque()  # sent, not answered
        self.status: int | None = None  # its exit status once reaped


class ForkedPool:
    """``jobs`` worker processes forked from this one, each fed its tasks in the order they
    were sent (to the worker with the fewest tasks unanswered), answering in that order."""

    def __init__(self, jobs: int) -> None:
        self.workers: list[_Worker] = []
        self.broken: str | None = None
        self._closing = False
        self._poll = select.poll()
        self._by_fd: dict[int, _Worker] = {}
        _POOLS.add(self)
        try:
            bound = (os.getpid(), _in_main_thread())
            for _ in range(jobs):
                self._fork(*bound)
        except BaseException:  # (a fork refused, or a signal: none is left behind)
            self.shutdown(kill=True)
            raise

    def _fork(self, parent: int, from_main_thread: bool) -> None:
        task_read, task_write = os.pipe()
        try:
            answer_read, answer_write = os.pipe()
        except OSError:
            _close_all(task_read, task_write)
            raise
        try:
            pid = os.fork()  # (the child closes every pool's ends: _close_pools)
        except OSError:
            _close_all(task_read, task_write, answer_read, answer_write)
            raise
        if pid == 0:  # the worker: it never returns into the caller's frames
            status = 1
            try:
                gc.freeze()  # (its collections leave what it was forked with alone: no copy)
                os.close(task_write)
                os.close(answer_read)
                _bound_to(parent, from_main_thread)
                _serve(task_read, answer_write)
                status = 0
            finally:
                os._exit(status)
        os.close(task_read)
        os.close(answer_write)
        os.set_blocking(task_write, False)
        os.set_blocking(answer_read, False)
        worker = _Worker(pid, task_write, answer_read)
        self.workers.append(worker)
        self._by_fd[answer_read] = worker
        self._poll.register(answer_read, select.POLLIN)

    def submit(self, work: Callable[..., Any], *args: Any) -> Task:
        """``work(*args)`` sent to a worker (both must pickle)."""
        if self.broken is not None:
            raise PoolBroken(self.broken)
        message = _framed((work, args))
        worker = min(self.workers, key=lambda w: len(w.waiting))
        task = Task(self, worker)
        worker.waiting.append(task)
        self._send(worker, message)
        return task

    def _send(self, worker: _Worker, message: bytes) -> None:
        """A message written down a worker's pipe, the answers that come meanwhile taken (a
        worker blocked on a full answer pipe would never read the rest of a long task)."""
        view = memoryview(message)
        while view:
            try:
                view = view[os.write(worker.tasks, view):]
            except BlockingIOError:
                self._poll.register(worker.tasks, select.POLLOUT)
                try:
                    self._take(None)
                finally:
                    self._poll.unregister(worker.tasks)
            except BrokenPipeError:
                self._take(0)
                self._broke(worker)
            if self.broken is not None:
                raise PoolBroken(self.broken)

    def _take(self, timeout: float | None) -> None:
        """The answers ready (waiting up to ``timeout`` seconds for one, None: until one
        comes or a pipe can be written)."""
        for fd, _events in self._poll.poll(None if timeout is None else timeout * 1000):
            worker = self._by_fd.get(fd)
            if worker is not None:
                self._receive(worker)

    def _receive(self, worker: _Worker) -> None:
        """A worker's answers read as far as they have come; each whole one settles its
        task. A worker that ended breaks the pool if it owed an answer, or was not asked to
        end."""
        ended = False
        while not ended:
            try:
                data = os.read(worker.answers, 1 << 20)
            except BlockingIOError:
                break
            ended = not data
            worker.received += data
        received = worker.received
        while len(received) >= HEADER:
            end = HEADER + int.from_bytes(received[:HEADER], "little")
            if len(received) < end:
                break
            message = bytes(received[HEADER:end])
            del received[:end]
            if not worker.waiting:  # (the pool broke meanwhile: its tasks failed already)
                continue
            task = worker.waiting.popleft()
            try:
                ok, value = pickle.loads(message)
            except Exception as exc:
                task._settle(error=RuntimeError(f"a worker's answer cannot be read: "
                                                f"{exc.__class__.__name__}: {exc}"))
                continue
            except BaseException as exc:  # (an interrupt: the task is not left unsettled)
                task._settle(error=exc)
                raise
            task._settle(value, None) if ok else task._settle(error=value)
        if ended:
            self._unregister(worker)
            if worker.waiting or not self._closing:
                self._broke(worker)

    def _unregister(self, worker: _Worker) -> None:
        if self._by_fd.pop(worker.answers, None) is not None:
            self._poll.unregister(worker.answers)

    def _broke(self, worker: _Worker) -> None:
        """A worker ended: every task not answered fails."""
        if self.broken is None:
            self.broken = f"worker {worker.pid} {self._ending(worker)}"
        for each in self.workers:
            while each.waiting:
                each.waiting.popleft()._settle(error=PoolBroken(self.broken))

    @staticmethod
    def _ending(worker: _Worker) -> str:
        status = _reaped(worker)  # (its pipe ended: it is ending, if it has not yet)
        if status < 0:
            return "ended"
        if os.WIFSIGNALED(status):
            return f"was killed by signal {os.WTERMSIG(status)}"
        return f"exited with status {os.waitstatus_to_exitcode(status)}"

    def shutdown(self, kill: bool = False) -> None:
        """Every worker ended and waited for: told there is no more work (its pipe ends;
        the answers still to come are read and dropped), or ``kill``ed at once. Ctrl-C
        meanwhile still kills and waits for them all, then is raised."""
        self._closing = True
        if kill:
            self._kill()
        for worker in self.workers:
            if worker.tasks >= 0:
                os.close(worker.tasks)
                worker.tasks = -1
        try:
            while self._by_fd:  # (a worker blocked on a full pipe must be read to end)
                self._take(None)
            self._reap()
        except KeyboardInterrupt:
            self._kill()
            self._reap()
            raise
        finally:
            for worker in self.workers:
                self._unregister(worker)
                if worker.answers >= 0:
                    os.close(worker.answers)
                    worker.answers = -1
            _POOLS.discard(self)

    def _kill(self) -> None:
        for worker in self.workers:
            if worker.status is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(worker.pid, signal.SIGKILL)

    def _reap(self) -> None:
        for worker in self.workers:
            _reaped(worker)


def _reaped(worker: _Worker) -> int:
    """A worker waited for: its exit status (-1: another wait took it)."""
    while worker.status is None:
        try:
            _pid, worker.status = os.waitpid(worker.pid, 0)
        except ChildProcessError:
            worker.status = -1
    return worker.status


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def forked_pool(jobs: int) -> Iterator[ForkedPool]:
    """A pool of ``jobs`` forked workers, all started before it is given (the ending signals
    held meanwhile; one that came is taken as the pool is given). Whatever ends the
    ``with`` early (an exception, an interrupt, a consumer that stops) kills the workers;
    they are always waited for before it ends."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, ENDING)
    pool: ForkedPool | None = None
    try:
        try:
            pool = ForkedPool(jobs)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)  # a held signal is taken here
        yield pool
    except BaseException:
        if pool is not None:
            pool.shutdown(kill=True)
            pool = None
        raise
    finally:
        if pool is not None:
            pool.shutdown()
