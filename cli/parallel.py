"""``--jobs N``: batches of whole games checked by worker processes, results in input order.

The main process reads each input as a stream and cuts it into batches
(:mod:`notation.core.batch`); at most a few batches per worker are in flight,
so memory stays flat; results come back in input order. A worker that dies
is reported (exit 2), never waited for.
"""
from __future__ import annotations

import collections
import functools
import multiprocessing
import os
import sys
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Iterator

from notation.core import batch as batching
from notation.core.errors import InputError

from .inputs import STDIN, Inputs

#: Below this many bytes of input, one process is faster than starting a pool.
SMALL_INPUT = 1 << 20


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def worth_a_pool(paths: list[str], jobs: int) -> bool:
    """Several workers, and enough input to repay their start-up."""
    if jobs < 2:
        return False
    total = 0
    for path in paths:
        if path == "-":
            return True
        try:
            total += os.stat(path).st_size
        except OSError:
            continue
    return total >= SMALL_INPUT


def _work(item: batching.Batch, task: Callable) -> list[dict[str, Any]]:
    if os.environ.get("NOTATION_TEST_WORKER_FAULT") == "exit":  # test seam: a dying worker
        os._exit(3)
    return batching.process(item, task)


def results(inputs: Inputs, paths: tuple[str, ...], task: Callable, jobs: int,
            on_internal: Callable[[str], None]) -> Iterator[tuple[Any, dict[str, Any]]]:
    """``(file records stand-in, per-game result)`` for every game, in input order."""
    context = multiprocessing.get_context("fork")
    work = functools.partial(_work, task=task)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        window: collections.deque[tuple[batching.Batch, Future]] = collections.deque()
        counted: dict[str, int] = {}
        try:
            for item in _all_batches(inputs, paths):
                window.append((item, pool.submit(work, item)))
                while len(window) >= 3 * jobs:
                    yield from _finish(window.popleft(), counted)
            while window:
                yield from _finish(window.popleft(), counted)
        except BrokenProcessPool as exc:
            on_internal(f"notation: internal error: a worker process stopped ({exc}); "
                        f"the games after that point were not checked")
            for _item, future in window:
                future.cancel()
        except BaseException:
            for _item, future in window:
                future.cancel()
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def _finish(entry: tuple[batching.Batch, Future],
            counted: dict[str, int]) -> Iterator[tuple[Any, dict[str, Any]]]:
    item, future = entry
    games = future.result()
    before = counted.get(item.source, 0)
    for data in games:
        data["index"] += before
        yield item, data
    counted[item.source] = before + len(games)


def _all_batches(inputs: Inputs, paths: tuple[str, ...]) -> Iterator[batching.Batch]:
    for path in inputs.expand(paths):
        count = 0
        try:
            if path == "-":
                if sys.stdin is None:
                    raise InputError(STDIN, "standard input is closed")
                source = batching.batches(sys.stdin.buffer, inputs.game, inputs.encoding, STDIN)
            else:
                source = batching.batches(path, inputs.game, inputs.encoding)
            for item in source:
                count += len(item.pieces)
                yield item
        except InputError as exc:
            inputs.input_errors.append(str(exc))
            continue
        if not count:
            inputs.warnings.append(f"{STDIN if path == '-' else path}: warning: no games")
