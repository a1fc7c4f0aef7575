"""``--jobs N`` and ``--scheduler``: the library's runner (:mod:`notation.parallel.runs`) fed the
command line's inputs, with its progress line, input errors and warnings.

Standard input (``-``) is read by the main process and stays there unless
``--jobs`` asks for workers (:func:`worth_a_pool`); a Dask cluster reads
files only. A worker process that dies is reported (exit 2), never waited for;
Dask's own log lines stay off the user's stderr during the run.
"""
from __future__ import annotations

import contextlib
import sys
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Literal

import click

from notation.core.errors import InputError
from notation.core.limits import printable
from notation.core.outcome import Outcome
from notation.parallel import WORKER_WAIT, Input, Stream, default_jobs, workers_for
from notation.parallel import worth_a_pool as repays_a_pool

if TYPE_CHECKING:  # the runner loads only for a run that takes workers (start-up)
    from notation.parallel import runs as runner

from .common import Context, say
from .inputs import STDIN, Inputs

__all__ = ["WORKER_TIMEOUT_OPTION", "ClusterUnreachable", "cluster_options", "default_jobs",
           "elsewhere", "in_workers", "on_cluster", "spread", "workers", "worth_a_pool"]


def _local_inputs(paths: Iterable[str]) -> Iterator[Input]:
    """Paths as the runner's inputs: ``-`` is standard input, read by this process."""
    for path in paths:
        if path != "-":
            yield path
        elif sys.stdin is None:
            yield InputError(STDIN, "standard input is closed")
        else:
            yield Stream(sys.stdin.buffer, STDIN)


def _cluster_inputs(paths: Iterable[str]) -> Iterator[Input]:
    """Paths as the runner's inputs for a cluster, which cannot read standard input."""
    for path in paths:
        yield InputError(STDIN, "--scheduler reads files the workers can see, not standard "
                                "input") if path == "-" else path


#: ``--worker-timeout``: how long a ``--scheduler`` run waits while its cluster has no worker.
WORKER_TIMEOUT_OPTION = click.option(
    "--worker-timeout", type=click.FloatRange(min=0, min_open=True),
    default=WORKER_WAIT, show_default=True, metavar="SECONDS",
    help="With --scheduler: how long to wait while the cluster has no worker (said at "
         "once on stderr), then exit 2.")


def worth_a_pool(paths: list[str], asked: int | None) -> bool:
    """Whether worker processes repay their start (``asked``: ``--jobs``, None if not given)."""
    return repays_a_pool(_local_inputs(paths), asked)


def _taken(parts: Iterable[runner.Part], inputs: Inputs,
           on_failure: Callable[[runner.Part], None]) -> Iterator[Outcome]:
    """The games of parts as they come, in input order; the progress line moved by their
    size, their input errors and warnings made the run's."""
    for part in parts:
        if part.warning is not None:
            inputs.warnings.append(part.warning)
            continue
        error = part.input_failure()
        if error is not None:
            inputs.input_errors.append(str(error))
        if part.failure is not None:
            on_failure(part)
        if inputs.progress is not None:
            inputs.progress.advance(part.size, len(part.outcomes))
        yield from part.outcomes


def _failed(what: str, on_internal: Callable[[str], None]) -> Callable[[runner.Part], None]:
    """Reports a part whose work failed: ``FILE: internal error: WHAT: ERROR``."""
    def report(part: runner.Part) -> None:
        exc = part.failure
        if exc is not None:
            on_internal(f"{part.source}: internal error: {what}: "
                        f"{exc.__class__.__name__}: {_reason(exc)}")
    return report


def in_workers(inputs: Inputs, paths: tuple[str, ...], task: runner.Task, jobs: int,
               on_internal: Callable[[str], None]) -> Iterator[Outcome]:
    """Every game's outcome from ``jobs`` worker processes, in input order."""
    from notation.parallel import runs as runner

    parts = runner.parts(_local_inputs(inputs.expand(paths)), task, jobs=jobs,
                         game=inputs.game, encoding=inputs.encoding)
    try:
        yield from _taken(parts, inputs, _failed("a worker failed", on_internal))
    except runner.WorkerStopped as exc:
        on_internal(f"notation: internal error: a worker process stopped ({exc}); "
                    f"the games after that point were not checked")


def on_cluster(inputs: Inputs, paths: tuple[str, ...], address: str, task: runner.Task,
               on_internal: Callable[[str], None],
               wait: float = WORKER_WAIT) -> Iterator[Outcome]:
    """Every game's outcome from the Dask cluster at ``address``, in input order.

    The workers open each file by the absolute path resolved here and check it
    is the file measured here; the library's log lines stay off the user's
    stderr for the whole run (what matters is said in the run's own lines).
    A cluster without a worker is said at once (one line naming the scheduler),
    and waited for ``wait`` seconds at most (then exit 2).
    """
    if inputs.tags:  # workers read the files as they are: the tags would be lost there
        raise click.UsageError("--dialect is read here, not on a cluster: tag the records "
                               "([Dialect \"...\"]) to read them with --scheduler")
    try:
        import distributed  # noqa: F401  (the [dask] extra: only to say it is missing)
    except ImportError:
        raise click.UsageError("--scheduler needs the Dask extra: pip install 'game-notation[dask]'") \
            from None
    from notation.parallel import dask_cluster as nd  # (start-up: loads the socket modules)
    from notation.parallel import runs as runner

    with _library_logs_silenced():
        try:
            client = nd.connect(address)  # a peer that is not Dask is refused first
        except (OSError, TimeoutError, ValueError, TypeError) as exc:  # TypeError: no TLS setup
            raise ClusterUnreachable(f"cannot reach the Dask scheduler at {address}: "
                                     f"{_reason(exc)}") from None
        with client:
            parts = runner.parts(_cluster_inputs(inputs.expand(paths)), task, client=client,
                                 game=inputs.game, encoding=inputs.encoding, wait=wait,
                                 waiting=lambda: _waiting(address, wait))
            try:
                yield from _taken(parts, inputs, _failed("the cluster failed", on_internal))
            except runner.NoWorkers:
                raise ClusterUnreachable(f"the Dask scheduler at {printable(address)} has had "
                                         f"no worker for {wait:g} s (--worker-timeout)") \
                    from None


def elsewhere(ctx: Context, paths: tuple[str, ...],
              task: Literal["validate", "verdicts", "replay"], jobs: int | None,
              scheduler: str | None = None,
              worker_timeout: float = WORKER_WAIT) -> Iterator[Outcome] | None:
    """Outcomes of ``validate`` (``verdicts``: a valid game's tags and result left out) or
    ``replay --json`` from a Dask cluster or worker processes, in input order; None when
    the run is better done here (few bytes, or one process)."""
    def work() -> runner.Task:
        from notation.parallel import runs as runner  # (only now: a run here never loads it)
        return {"validate": runner.VALIDATE, "verdicts": runner.VERDICTS}.get(task,
                                                                             runner.REPLAY)
    return spread(ctx, paths, work, jobs, scheduler, worker_timeout)


def spread(ctx: Context, paths: tuple[str, ...], task: Callable[[], runner.Task],
           jobs: int | None, scheduler: str | None = None,
           worker_timeout: float = WORKER_WAIT) -> Iterator[Outcome] | None:
    """Every game's outcome of ``task()`` from the Dask cluster at ``scheduler``, or from
    worker processes when they repay their start, in input order; None when the run is
    better done here (few bytes, or one process). The same outcomes, numbered the same,
    wherever they are made."""
    if scheduler:
        return on_cluster(ctx.inputs, paths, scheduler, task(), ctx.fail, worker_timeout)
    count = workers(ctx.inputs, paths, jobs)
    if count is None:
        return None
    return in_workers(ctx.inputs, paths, task(), count, ctx.fail)


def cluster_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--scheduler ADDRESS`` and ``--worker-timeout SECONDS``, as every archive command
    takes them."""
    func = WORKER_TIMEOUT_OPTION(func)
    return click.option(
        "--scheduler", metavar="ADDRESS",
        help="Work on a Dask cluster (tcp://HOST:8786) whose workers see the files at the "
             "same paths; the output is the one a run here gives. Needs "
             "game-notation[dask].")(func)


def _waiting(address: str, wait: float) -> None:
    """Says why the run stands still: the cluster has no worker."""
    say(f"notation: the Dask scheduler at {address} has no worker; waiting up to "
        f"{wait:g} s for one (--worker-timeout)", err=True)


def workers(inputs: Inputs, paths: tuple[str, ...], jobs: int | None) -> int | None:
    """How many worker processes to use for ``paths`` (``jobs`` as asked, None: the
    default; at most one per core, and the runner starts no more than it has batches);
    None when the input is better read in this process."""
    if inputs.tags or not worth_a_pool(inputs.expand_quietly(paths), jobs):
        return None  # (workers read files as they are: tags given on the command line stay here)
    return workers_for(jobs)


# -- Dask, for a command-line run ------------------------------------------------------

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
    for a CLI run, restored after; library users of notation.parallel.dask_cluster keep theirs.

    Each library's top logger gets a handler that drops everything and stops
    propagating; its existing descendants lose their own handlers and propagate
    to it (so loggers created meanwhile are silent too).
    """
    import logging  # (start-up: only a cluster run has library logs to silence)

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
