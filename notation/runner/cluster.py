"""Units of work on a Dask cluster: spans of files that the workers read themselves."""
from __future__ import annotations

from typing import Any, Iterable, Iterator

from .order import ordered
from .tasks import Task
from .units import Item
from .work import Part, part_of


def workers_of(client: Any) -> int:
    """How many workers the cluster has now (at least 1)."""
    return max(1, len(client.scheduler_info().get("workers", {})))


def on_cluster(items: Iterable[Item], task: Task, client: Any) -> Iterator[Part]:
    """The parts of ``items`` worked on by the cluster of ``client``, in input order, at
    most three spans per worker in flight."""
    return ordered(items, lambda unit: client.submit(part_of, unit.job, task, pure=False),
                   3 * workers_of(client))
