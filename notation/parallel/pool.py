"""Worker processes: how many, whether they repay their start, and how they behave.

Workers are forked, so they start in milliseconds with the parent's games
loaded; each dies with the run that started it and leaves Ctrl-C to the main
process, which kills them and stops at once (see :mod:`.forking`). A run works in
at most one process per core and per unit of work it has (more would only compete
for the cores, or wait with nothing to do), whatever was asked, its own among them.
"""
from __future__ import annotations

import collections
import contextlib
import itertools
import os
from typing import Callable, Generator, Iterable, Iterator, TypeVar

from notation.parallel.batch import Batch
from notation.parallel import workers_for

from .forking import ForkedPool, PoolBroken, Task as Sent, forked_pool
from .order import Pending, RunStopped, Settled, ordered
from .tasks import Task
from .units import Item, Unit
from .work import Job, Part, part_of

Given = TypeVar("Given")
Made = TypeVar("Made")

#: A batch of more text than this (a game with a line of megabytes) is worked on here, not
#: sent: sending copies it into a message and into the worker, whose answer brings its tag
#: values back while this process still holds the batch (a 32 MB tag: 180 MB, not 80).
SEND_AT_MOST = 4 << 20


class WorkerStopped(RunStopped):
    """A worker process stopped (killed, out of memory): the run cannot go on."""


def _first(items: Iterator[Given], counts: Callable[[Given], bool],
           wanted: int) -> tuple[list[Given], int]:
    """The items up to the ``wanted``-th that ``counts`` as work (all of them if fewer),
    and how many of them count: a pool is sized by what it will be given."""
    taken: list[Given] = []
    work = 0
    for item in items:
        taken.append(item)
        work += counts(item)
        if work >= wanted:
            break
    return taken, work


def map_in_order(work: Callable[[Given], Made], items: Iterable[Given],
                 jobs: int) -> Generator[Made, None, None]:
    """``work`` done on every item by ``jobs`` forked processes, the results given back in
    the items' order as each is ready (the same results in the same order whatever ``jobs``).

    No more workers start than cores and items (:func:`workers_for`); with one, the
    work is done here. At most three items per worker are in flight, so memory stays
    flat however many items; ``work`` and the items must pickle, and an exception
    ``work`` raises comes back as itself. A worker that dies raises
    :class:`WorkerStopped`; closing the iterator (or an interrupt) cancels what has not
    started.
    """
    items = iter(items)
    first, count = _first(items, lambda item: True, workers_for(jobs))
    jobs = workers_for(jobs, count)
    items = itertools.chain(first, items)
    if jobs < 2:
        yield from map(work, items)
        return
    with forked_pool(jobs) as pool:
        flight: collections.deque[Sent] = collections.deque()
        try:
            for item in items:
                flight.append(pool.submit(work, item))
                if len(flight) >= 3 * jobs:
                    yield flight.popleft().result()
            while flight:
                yield flight.popleft().result()
        except PoolBroken as exc:
            raise WorkerStopped(str(exc)) from None


def _worked(job: Job, task: Task) -> Part:
    if os.environ.get("NOTATION_TEST_WORKER_FAULT") == "exit":  # test seam: a dying worker
        os._exit(3)
    return part_of(job, task)


def worked_here(job: Job, task: Task) -> Settled:
    """A unit worked on in this process, as a settled part (a failure as its exception)."""
    try:
        return Settled(part_of(job, task))
    except Exception as exc:
        return Settled(error=exc)


def in_processes(items: Iterable[Item], task: Task, jobs: int) -> Iterator[Part]:
    """The parts of ``items`` worked on by up to ``jobs`` processes, in input order.

    No more processes work than cores and units (:func:`workers_for`, the units counted
    before the pool starts); with one, the units are worked on here. With more, this
    process is one of them: it works on the first unit before the pool of the others is
    forked, and on a unit that would otherwise wait to be sent while this process waits
    for a worker's (:func:`ordered`'s ``here``): a worker forked costs its start, its end
    and the pages it copies, and a consumer busy with what it is given (``replay
    --json``'s lines) is never kept from it. At most three units per process are in
    flight. A worker that dies ends the run (:class:`WorkerStopped`), never waited for.
    A batch larger than :data:`SEND_AT_MOST` is worked on here, and every unit where the
    system will not start a process (the run's output is the same).
    """
    items = iter(items)
    first, units = _first(items, lambda item: isinstance(item, Unit), workers_for(jobs))
    jobs = workers_for(jobs, units)
    items = itertools.chain(first, items)

    def here(unit: Unit) -> Pending:
        return worked_here(unit.job, task)

    if jobs < 2:
        yield from ordered(items, here, 1)
        return
    with contextlib.ExitStack() as stack:
        pool: ForkedPool | None = None
        started = refused = False  # (refused: the system would not start the pool)

        def send(unit: Unit) -> Pending:
            """The first unit worked here, then the pool forked and the others sent (a
            unit too large to send is worked here too). The first unit's part comes at
            once, as in a run of one process, and every game it loads on first use (its
            modules, its scanner, its compiled tables) is loaded once, before the fork,
            where each worker loaded it again."""
            nonlocal pool, started, refused
            job = unit.job
            if pool is None and not started:
                started = True
                return here(unit)
            if refused or isinstance(job, Batch) and job.size > SEND_AT_MOST:
                return here(unit)
            if pool is None:
                try:
                    pool = stack.enter_context(forked_pool(jobs - 1))
                except OSError:  # the run goes on here, as a run of one process
                    refused = True
                    return here(unit)
            return pool.submit(_worked, job, task)

        try:
            yield from ordered(items, send, 3 * jobs, here)
        except PoolBroken as exc:
            raise WorkerStopped(str(exc)) from None
