"""Work on many games at once: worker processes here, or a Dask cluster.

The layer's modules: the runner (:mod:`.runs`: a task over every game of many files, in
input order, anywhere), its pool of processes (:mod:`.pool`, :mod:`.forking`), its
cluster (:mod:`.cluster`, :mod:`.dask_cluster`), the units work is cut into (:mod:`.units`,
:mod:`.batch`, :mod:`.spans`), the order results come back in (:mod:`.order`), and
random games made in parallel (:mod:`.generate`).

This module itself says how many worker processes a run takes, and what each input is.
Light on purpose: a command asks here whether its input repays starting workers before
it loads the runner, which a one-process run never needs.
"""
from __future__ import annotations

import os
import stat
from typing import IO, Iterable, Union

from notation.core.errors import InputError
from notation.core.hand_dataclass import hand_dataclass

__all__ = ["SMALL_INPUT", "WORKER_WAIT", "Input", "Stream", "default_jobs", "input_size",
           "workers_for", "worth_a_pool"]

#: Below this many bytes of input, one process is faster than starting a pool.
SMALL_INPUT = 1 << 20
#: Seconds a run waits for the cluster to have a worker before it stops.
WORKER_WAIT = 60.0


@hand_dataclass(frozen=True, slots=True)
class Stream:
    """An open binary stream to read as one input, under the name messages give it."""

    handle: IO[bytes]
    label: str

    def __init__(self, handle: IO[bytes], label: str) -> None:
        object.__setattr__(self, "handle", handle)
        object.__setattr__(self, "label", label)


#: One input of a run: a path, a stream, or the error that stands in an unreadable one's
#: place (reported where it comes).
Input = Union[str, "os.PathLike[str]", Stream, InputError]


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def workers_for(asked: int | None, work: int | None = None) -> int:
    """How many worker processes a run starts: ``asked`` (None: one per core), but never
    more than the cores this process may run on, nor than the units of ``work`` it has
    (None: not known yet)."""
    cores = default_jobs()
    count = cores if asked is None else min(asked, cores)
    return max(1, count if work is None else min(count, work))


def input_size(given: Input) -> int | None:
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
        size = input_size(given)
        if size is None:
            if asked is not None:
                return True
            continue
        total += size
    return total >= SMALL_INPUT
