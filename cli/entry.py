"""The console script's entry point: signals first, then the (heavier) command line.

Ctrl-C (SIGINT) and SIGTERM end the program with one line and status 130 or 143
at any moment once this module runs. Until the command line is imported, the
handlers here end the process at once (nothing has been written yet); after,
they raise ``KeyboardInterrupt`` so that every writer removes its temporary on
the way out, and ``run()`` says the one line. A second signal during that
clean-up ends the process at once.

Before the handlers are set, the console script imports only this module, its
package's small ``__init__`` and the standard ``signal`` module (a test holds
this), so the one window no program can cover is the interpreter's own start,
before the console script's first line runs: a signal there gets Python's
default (a ``KeyboardInterrupt`` traceback, or death by SIGTERM).
"""
from __future__ import annotations

import os
import signal
import sys

#: The status and the line of each signal handled.
ENDINGS = {signal.SIGINT: (130, "notation: interrupted"),
           signal.SIGTERM: (143, "notation: terminated")}

#: The signal that is ending the run, once one has arrived.
received: int | None = None


def _end_now(signum: int, frame: object) -> None:
    """Before the command line runs, or at a second signal: one line, then exit."""
    status, line = ENDINGS.get(signum, (128 + signum, "notation: stopped"))
    try:
        os.write(2, (line + "\n").encode())
    finally:
        os._exit(status)


def _raise(signum: int, frame: object) -> None:
    """While a command runs: unwind (writers clean up), then ``run()`` says the line."""
    global received
    if received is not None:
        _end_now(received, frame)
    received = signum
    raise KeyboardInterrupt


def ending() -> tuple[int, str]:
    """The status and line for an interrupted run (SIGINT's unless SIGTERM arrived)."""
    return ENDINGS[received if received is not None else signal.SIGINT]


def _handled() -> list[int]:
    """The signals to handle: SIGTERM always; SIGINT unless it started ignored (a
    background job, where Python leaves it ignored: so do we)."""
    wanted = [signal.SIGTERM]
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        wanted.append(signal.SIGINT)
    return wanted


def _standard_streams() -> None:
    """A closed stdin, stdout or stderr becomes /dev/null (so no file we open takes its
    number); a closed stdout is said once, since its output is discarded."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
            stream = open(fd, "r" if fd == 0 else "w", closefd=False)
            setattr(sys, ("stdin", "stdout", "stderr")[fd], stream)
            if fd == 1:
                sys.stderr.write("notation: warning: standard output is closed; "
                                 "output is discarded\n")


def main() -> None:
    handled = _handled()
    for signum in handled:
        signal.signal(signum, _end_now)
    _standard_streams()
    import gc

    from .main import run
    # Replays make many small objects and few cycles: collect young objects less often,
    # and never scan the modules loaded so far (measured: 5-15% on large archives).
    gc.freeze()
    gc.set_threshold(20_000, 50, 100)
    for signum in handled:
        signal.signal(signum, _raise)
    run()


if __name__ == "__main__":
    main()
