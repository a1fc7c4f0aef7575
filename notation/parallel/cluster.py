"""Units of work on a Dask cluster: spans of files that the workers read themselves.

A task waits for a worker as long as the cluster has none, so a scheduler without
workers would hold a run forever, without a word. A run waits for one at most
``wait`` seconds, before it sends its first span and whenever a part is late while
the cluster has no worker; ``waiting`` (if given) is told when it starts waiting.
Then it stops: :class:`NoWorkers`.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator

from notation.parallel import WORKER_WAIT

from .order import RunStopped, ordered
from .tasks import Task
from .units import Item, Unit
from .work import Part, part_of


#: Told that the run is waiting for a worker.
Waiting = Callable[[], None]


class NoWorkers(RunStopped):
    """The cluster had no worker for the whole wait: the run cannot go on."""


def workers_of(client: Any) -> int:
    """How many workers the cluster has now."""
    return len(client.scheduler_info().get("workers", {}))


def with_workers(client: Any, wait: float = WORKER_WAIT, waiting: Waiting | None = None) -> int:
    """How many workers the cluster has, once it has one: at most ``wait`` seconds after
    ``waiting`` is told, else :class:`NoWorkers`."""
    count = workers_of(client)
    if count:
        return count
    if waiting is not None:
        waiting()
    try:
        client.wait_for_workers(1, timeout=wait)
    except TimeoutError:
        raise NoWorkers(f"no worker within {wait:g} s") from None
    return max(1, workers_of(client))


class _Awaited:
    """A span's part to come from the cluster: waited for as long as the cluster has a
    worker, and at most ``wait`` seconds more once it has none."""

    __slots__ = ("future", "client", "wait", "waiting")

    def __init__(self, future: Any, client: Any, wait: float, waiting: Waiting | None) -> None:
        self.future, self.client, self.wait, self.waiting = future, client, wait, waiting

    def result(self) -> Part:
        while True:
            try:
                part: Part = self.future.result(timeout=self.wait)
                return part
            except TimeoutError:
                if self.future.done():  # the task itself raised it
                    raise
                with_workers(self.client, self.wait, self.waiting)

    def done(self) -> bool:
        return bool(self.future.done())

    def cancel(self) -> object:
        return self.future.cancel()


def on_cluster(items: Iterable[Item], task: Task, client: Any, wait: float = WORKER_WAIT,
               waiting: Waiting | None = None) -> Iterator[Part]:
    """The parts of ``items`` worked on by the cluster of ``client``, in input order, at
    most three spans per worker in flight; :class:`NoWorkers` once the cluster has had
    no worker for ``wait`` seconds."""

    def send(unit: Unit) -> _Awaited:
        future = client.submit(part_of, unit.job, task, pure=False)
        return _Awaited(future, client, wait, waiting)

    yield from ordered(items, send, 3 * with_workers(client, wait, waiting))
