"""``--jobs N``: batches of whole games checked by worker processes, results in input order.

The main process reads each input as a stream and cuts it into batches
(:mod:`notation.core.batch`); at most a few batches per worker are in flight,
so memory stays flat; results come back in input order. A worker that dies
is reported (exit 2), never waited for.
"""
from __future__ import annotations

import collections
import contextlib
import functools
import logging
import multiprocessing
import os
import signal
import stat
import sys
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Iterator

import click

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


def worth_a_pool(paths: list[str], asked: int | None) -> bool:
    """Several workers, and enough input to repay their start-up.

    ``asked``: the ``--jobs`` given (None: the default). Standard input counts by
    its size when it is a file; a pipe's size is unknown, so it takes a pool
    only when ``--jobs`` asks for one (a small piped record would otherwise pay
    for starting workers).
    """
    if (default_jobs() if asked is None else asked) < 2:
        return False
    total = 0
    for path in paths:
        try:
            info = os.fstat(0) if path == "-" else os.stat(path)
        except OSError:
            continue
        if path == "-" and not stat.S_ISREG(info.st_mode):
            if asked is not None:
                return True
            continue
        total += info.st_size
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
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the main process's handler (forked)


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
        sizes: collections.deque[int] = collections.deque()
        submitted = ((item.source, pool.submit(work, item))
                     for item in _sized(_all_batches(inputs, paths), sizes))
        try:
            yield from batching.renumber(_moving(in_order(submitted, 3 * jobs, window), sizes,
                                                 inputs.progress))
        except BrokenProcessPool as exc:
            on_internal(f"notation: internal error: a worker process stopped ({exc}); "
                        f"the games after that point were not checked")
            cancel(window)
        except BaseException:
            cancel(window)
            pool.shutdown(wait=False, cancel_futures=True)
            raise


Window = collections.deque  # of (file, future) pairs submitted and not yet given back


def _sized(items: Iterator[Any], sizes: collections.deque[int]) -> Iterator[Any]:
    """Batches or spans as they are submitted, their sizes noted in order (for progress)."""
    for item in items:
        sizes.append(item.size)
        yield item


def _moving(finished: Iterator[tuple[str, list[dict[str, Any]]]], sizes: collections.deque[int],
            progress: Any) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """Results as they come back in order, moving the progress line by their bytes and games."""
    for source, games in finished:
        size = sizes.popleft()
        if progress is not None:
            progress.advance(size, len(games))
        yield source, games


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
    """Per-game results from a Dask cluster, in input order (see notation.distributed).

    The workers open each file by the absolute path resolved here and check it
    is the file measured here; the library's log lines stay off the user's
    stderr for the whole run (what matters is said in the run's own lines).
    """
    try:
        from distributed import Client

        from notation.distributed import CONNECT_TIMEOUT, probe_scheduler
    except ImportError:
        raise click.UsageError("--scheduler needs the Dask extra: pip install 'notation[dask]'") \
            from None
    with _library_logs_silenced():
        try:
            probe_scheduler(address)  # before Client: a peer that is not Dask is refused
            client = Client(address, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, ValueError, TypeError) as exc:  # TypeError: no TLS setup
            raise ClusterUnreachable(f"cannot reach the Dask scheduler at {address}: "
                                     f"{_reason(exc)}") from None
        with client:
            workers = max(1, len(client.scheduler_info().get("workers", {})))
            for path in inputs.expand(paths):
                if path == "-":
                    inputs.input_errors.append(f"{STDIN}: error: --scheduler reads files the "
                                               f"workers can see, not standard input")
                    continue
                yield from _file_on_cluster(client, path, inputs, 3 * workers, on_internal)


def _file_on_cluster(client: Any, path: str, inputs: Inputs, limit: int,
                     on_internal: Callable[[str], None]) -> Iterator[dict[str, Any]]:
    """One file's games checked on the cluster, at most ``limit`` spans in flight; its
    first input error (here or on a worker) is said once and ends the file."""
    from notation.spans import check_span, spans
    window: Window = collections.deque()
    errors_before = len(inputs.input_errors)
    games = 0
    try:
        sizes: collections.deque[int] = collections.deque()
        submitted = ((path, client.submit(check_span, span, pure=False))
                     for span in _sized(spans(path, inputs.game, inputs.encoding), sizes))
        finished = _moving(in_order(submitted, limit, window), sizes, inputs.progress)
        for data in batching.renumber(_until_input_error(finished, inputs)):
            games += 1
            yield data
    except InputError as exc:  # the client cannot read the file
        inputs.input_errors.append(str(exc))
    except Exception as exc:  # a worker lost, a task failed: reported, not waited for
        on_internal(f"{path}: internal error: the cluster failed: "
                    f"{exc.__class__.__name__}: {_reason(exc)}")
        return
    finally:
        cancel(window)
    if not games and len(inputs.input_errors) == errors_before:
        inputs.warnings.append(f"{path}: warning: no games")


def _until_input_error(finished: Iterator[tuple[str, list[dict[str, Any]]]], inputs: Inputs
                       ) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """Spans' games up to the first span with an input error, which ends the file (as a
    local run stops at a file's first input error; later spans would only repeat it)."""
    for source, batch in finished:
        games = _kept(batch, inputs)
        yield source, games
        if len(games) < len(batch):
            return


def _kept(batch: list[dict[str, Any]], inputs: Inputs) -> list[dict[str, Any]]:
    """A span's games; its input errors (a file gone unreadable, or not the file the
    client measured) become the run's."""
    for data in batch:
        if "input_error" in data:
            inputs.input_errors.append(data["input_error"])
    return [data for data in batch if "input_error" not in data]


#: Libraries whose log lines must not reach the user's stderr during a CLI run.
LIBRARY_LOGGERS = ("distributed", "tornado", "bokeh", "asyncio")


class ClusterUnreachable(click.ClickException):
    """No Dask scheduler at the address: one line, ``notation: error: ...``, exit 2."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"notation: error: {self.format_message()}", err=True, file=file)


def _reason(exc: BaseException) -> str:
    """An exception as the end of a one-line message (Dask's own span several lines)."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return " ".join(str(exc).split()) or exc.__class__.__name__


@contextlib.contextmanager
def _library_logs_silenced() -> Iterator[None]:
    """Dask's own log lines (a lost worker, a key gathered again) kept off the user's stderr
    for a CLI run, restored after; library users of notation.distributed keep theirs.

    Each library's top logger gets a handler that drops everything and stops
    propagating; its existing descendants lose their own handlers and propagate
    to it (so loggers created meanwhile are silent too).
    """
    manager = logging.root.manager
    names = {name for name, logger in list(manager.loggerDict.items())
             if isinstance(logger, logging.Logger) and
             any(name.startswith(top + ".") for top in LIBRARY_LOGGERS)}
    saved = []
    for name in (*LIBRARY_LOGGERS, *sorted(names)):
        logger = logging.getLogger(name)
        saved.append((logger, logger.handlers[:], logger.propagate))
        top = name in LIBRARY_LOGGERS
        logger.handlers[:] = [logging.NullHandler()] if top else []
        logger.propagate = not top
    try:
        yield
    finally:
        for logger, handlers, propagate in saved:
            logger.handlers[:] = handlers
            logger.propagate = propagate
