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
import signal
import sys
from concurrent.futures import ProcessPoolExecutor
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


def _die_with_parent() -> None:
    """Worker initializer: a worker must not outlive the run that started it (Linux)."""
    try:
        import ctypes
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle


def _work(item: batching.Batch, task: Callable) -> list[dict[str, Any]]:
    if os.environ.get("NOTATION_TEST_WORKER_FAULT") == "exit":  # test seam: a dying worker
        os._exit(3)
    return batching.process(item, task)


def results(inputs: Inputs, paths: tuple[str, ...], task: Callable, jobs: int,
            on_internal: Callable[[str], None]) -> Iterator[dict[str, Any]]:
    """Every game's result (``task`` applied in a worker), in input order, numbered in its file."""
    context = multiprocessing.get_context("fork")
    work = functools.partial(_work, task=task)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context,
                             initializer=_die_with_parent) as pool:
        window: Window = collections.deque()
        submitted = ((item.source, pool.submit(work, item))
                     for item in _all_batches(inputs, paths))
        try:
            yield from batching.renumber(in_order(submitted, 3 * jobs, window))
        except BrokenProcessPool as exc:
            on_internal(f"notation: internal error: a worker process stopped ({exc}); "
                        f"the games after that point were not checked")
            cancel(window)
        except BaseException:
            cancel(window)
            pool.shutdown(wait=False, cancel_futures=True)
            raise


Window = collections.deque  # of (file, future) pairs submitted and not yet given back


def in_order(submitted: Iterator[tuple[str, Any]], limit: int,
             window: Window) -> Iterator[tuple[str, Any]]:
    """``(file, result)`` of submitted futures in submission order, at most ``limit`` in
    flight (so memory stays flat); ``window`` holds the ones not given back yet."""
    for entry in submitted:
        window.append(entry)
        while len(window) >= limit:
            source, future = window.popleft()
            yield source, future.result()
    while window:
        source, future = window.popleft()
        yield source, future.result()


def cancel(window: Window) -> None:
    for _source, future in window:
        future.cancel()


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


def cluster_results(inputs: Inputs, paths: tuple[str, ...], address: str,
                    on_internal: Callable[[str], None], jobs: int = 4) -> Iterator[dict[str, Any]]:
    """Per-game results from a Dask cluster, in input order (see notation.distributed)."""
    import click
    try:
        from distributed import Client
    except ImportError:
        raise click.UsageError("--scheduler needs the Dask extra: pip install 'notation[dask]'") \
            from None
    from notation.spans import check_span, spans
    try:
        client = Client(address, timeout=15)
    except (OSError, TimeoutError, ValueError) as exc:
        raise click.UsageError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    with client:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        for path in inputs.expand(paths):
            if path == "-":
                inputs.input_errors.append(f"{STDIN}: error: --scheduler reads files the "
                                           f"workers can see, not standard input")
                continue
            window: Window = collections.deque()
            submitted = ((path, client.submit(check_span, span, pure=False))
                         for span in spans(path, inputs.game, inputs.encoding))
            games = 0
            try:
                finished = ((source, _kept(batch, inputs))
                            for source, batch in in_order(submitted, 3 * workers, window))
                for data in batching.renumber(finished):
                    games += 1
                    yield data
            except InputError as exc:
                inputs.input_errors.append(str(exc))
            except Exception as exc:  # a worker lost, a task failed: reported, not waited for
                on_internal(f"{path}: internal error: the cluster failed: "
                            f"{exc.__class__.__name__}: {exc}")
                cancel(window)
                continue
            if not games:
                inputs.warnings.append(f"{path}: warning: no games")


def _kept(batch: list[dict[str, Any]], inputs: Inputs) -> list[dict[str, Any]]:
    """A span's games; its input errors (a file gone unreadable) become the run's."""
    for data in batch:
        if "input_error" in data:
            inputs.input_errors.append(data["input_error"])
    return [data for data in batch if "input_error" not in data]
