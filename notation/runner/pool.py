"""Worker processes: how many, whether they repay their start, and how they behave.

Workers are forked, so they start in milliseconds with the parent's games
loaded; each dies with the run that started it and leaves Ctrl-C to the main
process, which cancels what is in flight and stops at once.
"""
from __future__ import annotations

import collections
import os
import signal
import stat
from typing import Callable, Generator, Iterable, Iterator, TypeVar

from notation.core.errors import Error, InputError

from .order import ordered
from .tasks import Task
from .units import Input, Item, Stream
from .work import Job, Part, part_of

Given = TypeVar("Given")
Made = TypeVar("Made")

#: Below this many bytes of input, one process is faster than starting a pool.
SMALL_INPUT = 1 << 20


class WorkerStopped(Error):
    """A worker process stopped (killed, out of memory): the run cannot go on."""


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _size(given: Input) -> int | None:
    """Bytes of an input; None when unknown (a pipe); 0 when it cannot be measured."""
    try:
        if isinstance(given, Stream):
            info = os.fstat(given.handle.fileno())
            return info.st_size if stat.S_ISREG(info.st_mode) else None
        if isinstance(given, InputError):
            return 0
        return os.stat(given).st_size
    except (OSError, ValueError):
        return 0


def worth_a_pool(inputs: Iterable[Input], asked: int | None) -> bool:
    """Several workers, and enough input to repay their start-up.

    ``asked``: the number of processes asked for (None: the default). A stream
    that is not a file (a pipe) has no known size: it takes a pool only when
    asked for (a small piped record would otherwise pay for starting workers).
    """
    if (default_jobs() if asked is None else asked) < 2:
        return False
    total = 0
    for given in inputs:
        size = _size(given)
        if size is None:
            if asked is not None:
                return True
            continue
        total += size
    return total >= SMALL_INPUT


def _die_with_parent() -> None:
    """Worker initializer: a worker must not outlive the run that started it (Linux)."""
    try:
        import ctypes  # only here: a worker's one call to prctl
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the main process's handler (forked)


def map_in_order(work: Callable[[Given], Made], items: Iterable[Given],
                 jobs: int) -> Generator[Made, None, None]:
    """``work`` done on every item by ``jobs`` forked processes, the results given back in
    the items' order as each is ready (the same results in the same order whatever ``jobs``).

    At most three items per worker are in flight, so memory stays flat however many
    items; ``work`` and the items must pickle, and an exception ``work`` raises comes back
    as itself. A worker that dies raises :class:`WorkerStopped`; closing the iterator (or
    an interrupt) cancels what has not started.
    """
    # Deliberately lazy (start-up): the pool's modules only when a pool is started.
    import multiprocessing
    from concurrent.futures import BrokenExecutor, Future, ProcessPoolExecutor
    context = multiprocessing.get_context("fork")  # workers start with the games loaded
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context,
                             initializer=_die_with_parent) as pool:
        flight: collections.deque[Future[Made]] = collections.deque()
        try:
            for item in items:
                flight.append(pool.submit(work, item))
                if len(flight) >= 3 * jobs:
                    yield flight.popleft().result()
            while flight:
                yield flight.popleft().result()
        except BrokenExecutor as exc:
            raise WorkerStopped(str(exc) or "a worker process stopped") from None
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def _worked(job: Job, task: Task) -> Part:
    if os.environ.get("NOTATION_TEST_WORKER_FAULT") == "exit":  # test seam: a dying worker
        os._exit(3)
    return part_of(job, task)


def in_processes(items: Iterable[Item], task: Task, jobs: int) -> Iterator[Part]:
    """The parts of ``items`` worked on by ``jobs`` processes, in input order.

    At most three units per worker are in flight. A worker that dies ends the
    run (:class:`WorkerStopped`), never waited for.
    """
    import multiprocessing  # (lazy: see above)
    from concurrent.futures import BrokenExecutor, ProcessPoolExecutor
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context,
                             initializer=_die_with_parent) as pool:
        try:
            yield from ordered(items, lambda unit: pool.submit(_worked, unit.job, task),
                               3 * jobs)
        except BrokenExecutor as exc:
            raise WorkerStopped(str(exc)) from None
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
