"""How a run's worker processes start: all at once, the ending signals held meanwhile, each
bound to the process that started it.

A pool of forked workers forks them all before its first task. SIGINT and SIGTERM are
held (blocked) while it does: the command line's handler raises ``KeyboardInterrupt``
wherever the main thread stands, and during a fork that is inside the interpreter's
after-fork hooks, where the exception is printed and dropped (the run then went on to
exit 0), or in a child that has not yet learnt how a worker behaves. Held, a signal
arrives once every worker is started, where the run can stop its pool: no worker is left
behind and the run ends with the signal's status. The pool's own threads start while the
signals are held too, so that the main thread alone ever takes them.
"""
from __future__ import annotations

import contextlib
import os
import signal
from typing import TYPE_CHECKING, Iterator

if TYPE_CHECKING:  # (start-up: the pool's modules load only when a pool starts)
    from concurrent.futures import ProcessPoolExecutor

#: The signals that end a run, held while workers are forked.
ENDING = frozenset({signal.SIGINT, signal.SIGTERM})


def _bound_to(parent: int) -> None:
    """Worker initializer: behave as a worker, then take signals (they were held since the
    fork). A worker must not outlive the run that started it (Linux: it is killed when its
    parent ends; a parent that ended already is not waited for)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the main process's handler (forked)
    try:
        import ctypes  # only here: a worker's one call to prctl
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass
    if os.getppid() != parent:  # the run ended before this worker could ask to end with it
        os._exit(1)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, ENDING)


def _nothing() -> None:
    """The pool's first task: submitting it forks every worker."""


@contextlib.contextmanager
def forked_pool(jobs: int) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``jobs`` forked workers, all started before it is given (the ending signals
    held meanwhile; one that came is taken as the pool is given). Whatever ends the ``with``
    early (an exception, an interrupt, a consumer that stops) cancels the tasks not started;
    the workers are always stopped and waited for before it ends.

    The pool is shut down once, waiting: a shutdown that does not wait forgets the pool's
    thread, so a later one has nothing to wait for, and the run went on to exit while that
    thread still closed the pool's pipes, racing the interpreter's exit hook that writes
    to one of them (a traceback after the run's last line).
    """
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    context = multiprocessing.get_context("fork")  # workers start with the games loaded
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_bound_to,
                               initargs=(os.getpid(),))
    ended_early = True
    try:
        held = signal.pthread_sigmask(signal.SIG_BLOCK, ENDING)
        try:
            pool.submit(_nothing)  # forks every worker and starts the pool's threads
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)  # a held signal is taken here
        yield pool
        ended_early = False
    finally:
        try:
            pool.shutdown(wait=True, cancel_futures=ended_early)
        except KeyboardInterrupt:  # a signal taken while waiting: still wait, then end
            pool.shutdown(wait=True, cancel_futures=True)
            raise
