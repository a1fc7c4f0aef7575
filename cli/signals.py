"""How the command line ends on SIGINT and SIGTERM: status 130 or 143 and one line; and
the one exception for output that cannot be written any more (:class:`OutputGone`).

Kept apart and tiny: the console script sets these handlers before it imports
anything else (see :mod:`notation.cli.entry`), and ``run()`` asks
:func:`ending` what to say once a command has unwound.
"""
from __future__ import annotations

import os
import signal

#: The status and the line of each signal handled.
ENDINGS: dict[int, tuple[int, str]] = {signal.SIGINT: (130, "notation: interrupted"),
                                       signal.SIGTERM: (143, "notation: terminated")}

#: The signal that is ending the run, once one has arrived.
received: int | None = None

#: Whether a signal raises ``KeyboardInterrupt`` where the main thread stands: only while
#: a command runs (its writers clean up as it unwinds). Around it, in click's own code
#: (parsing the command line, closing its context), click would answer the interrupt
#: with a blank line of its own: there the signal is only kept, for ``run()`` to end with.
raising = False


def end_now(signum: int, frame: object) -> None:
    """Before the command line runs, or at a second signal: one line, then exit."""
    status, line = ENDINGS.get(signum, (128 + signum, "notation: stopped"))
    try:
        os.write(2, (line + "\n").encode())
    finally:
        os._exit(status)


def raise_interrupt(signum: int, frame: object) -> None:
    """While a command runs: unwind (writers clean up), then ``run()`` says the line.
    Around it: kept (see :data:`raising`)."""
    global received
    if received is not None:
        end_now(received, frame)
    received = signum
    if raising:
        raise KeyboardInterrupt


def ending() -> tuple[int, str]:
    """The status and line for an interrupted run (SIGINT's unless SIGTERM arrived)."""
    return ENDINGS[received if received is not None else signal.SIGINT]


def handled_signals() -> list[int]:
    """The signals to handle: SIGTERM always; SIGINT unless it started ignored (a
    background job, where Python leaves it ignored: so do we)."""
    wanted: list[int] = [signal.SIGTERM]
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        wanted.append(signal.SIGINT)
    return wanted


# -- output that cannot be written ----------------------------------------------------

class OutputGone(Exception):
    """Standard output cannot be written any more (a closed pipe, a full disk).

    Not an ``OSError``, so no per-record guard mistakes it for a record's problem.
    """

    def __init__(self, error: OSError) -> None:
        super().__init__(error.strerror or str(error))
        self.error = error
