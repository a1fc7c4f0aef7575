"""One runner: a task over every game of many files, in input order, anywhere.

The same task over the same inputs gives the same outcomes, numbered the
same way, whether it runs here, in worker processes (``jobs``) or on a Dask
cluster (``client``)::

    from notation.parallel import runs
    for outcome in runs.outcomes(["a.tilewe", "b.flows"], runs.VALIDATE, jobs=4):
        print(outcome.file, outcome.index, outcome.valid)

Inputs are cut into units (batches of text read here, or byte spans that
Dask workers read themselves, see :mod:`notation.parallel.spans`), each unit's games
are worked on where it goes, and what comes back is put in input order and
numbered in its file (:mod:`.order`). Outcomes come back read from JSON: no
game or state travels between processes.
"""
from __future__ import annotations

from typing import Any, Iterable, Iterator

from notation.parallel.batch import TARGET
from notation.core.outcome import Outcome, Verdict

from notation.parallel import (SMALL_INPUT, WORKER_WAIT, Input, Stream, default_jobs, workers_for,
                              worth_a_pool)

from .cluster import NoWorkers, Waiting, on_cluster
from .order import RunStopped, ordered
from .pool import WorkerStopped, in_processes, map_in_order, worked_here
from .tasks import FORMAT, REPLAY, VALIDATE, VERDICTS, Task, outcome_of
from .units import cluster_jobs, local_jobs, units
from .work import Part

__all__ = ["FORMAT", "REPLAY", "SMALL_INPUT", "TARGET", "VALIDATE", "VERDICTS", "WORKER_WAIT",
           "Input",
           "NoWorkers", "Part", "RunStopped", "Stream", "Task", "WorkerStopped", "default_jobs",
           "outcome_of", "outcomes", "parts", "workers_for", "worth_a_pool"]


def parts(inputs: Iterable[Input], task: Task = VALIDATE, *, jobs: int = 1,
          client: Any = None, game: str | None = None, encoding: str = "utf-8",
          target: int = TARGET, wait: float = WORKER_WAIT,
          waiting: Waiting | None = None) -> Iterator[Part]:
    """Every unit's part, in input order, its games numbered in their files.

    Here when ``jobs`` is 1, in up to ``jobs`` worker processes otherwise (never more
    than the cores nor than the units of work: :func:`workers_for`), or on the
    Dask cluster of ``client`` (whose workers must see the files at the same
    paths). An input's first input error or failure ends it; an input without
    games ends with an empty part carrying a warning. A worker process that
    dies raises :class:`WorkerStopped`; a cluster that has had no worker for
    ``wait`` seconds, :class:`NoWorkers` (``waiting`` is told when the wait starts).
    """
    if client is not None:
        return on_cluster(units(inputs, cluster_jobs, game, encoding, target), task, client,
                          wait, waiting)
    items = units(inputs, local_jobs, game, encoding, target)
    if jobs > 1:
        return in_processes(items, task, jobs)
    return ordered(items, lambda unit: worked_here(unit.job, task), 1)


def outcomes(inputs: Iterable[Input], task: Task = VALIDATE, **how: Any) -> Iterator[Outcome]:
    """Every game's outcome, in input order (``how``: as for :func:`parts`).

    An input error is raised (:class:`~notation.core.errors.InputError`) after
    the games before it, a worker's failure as it was raised.
    """
    for part in parts(inputs, task, **how):
        for outcome in part.outcomes:  # (a verdict sent home bare, as any outcome is)
            yield outcome.as_outcome() if isinstance(outcome, Verdict) else outcome
        error = part.input_failure()
        if error is not None:
            raise error
        if part.failure is not None:
            raise part.failure
