"""The console script's entry point: signals first, then the (heavier) command line.

Ctrl-C (SIGINT) and SIGTERM end the program with one line and status 130 or 143
at any moment once this module runs. Until the command line is imported, the
handlers here end the process at once (nothing has been written yet); after,
while a command runs, they raise ``KeyboardInterrupt`` so that every writer
removes its temporary on the way out, and ``run()`` says the one line (in click's
own code around the command the signal is kept for ``run()``: see
``signals.raising``). A second signal during that clean-up ends the process at once.

Before the handlers are set, the console script imports only this module, its
package's small ``__init__``, the tiny ``signals`` module and the standard
``signal`` module (a test holds this). That, and the interpreter's own start before
the console script's first line, and :func:`main`'s own first step into its body, is
the one window left: a signal there gets Python's default (a ``KeyboardInterrupt``
traceback through those modules' top-level lines, or death by SIGTERM), before anything
has been read or written.
"""
from __future__ import annotations

import os
import signal
import sys

from .signals import end_now, handled_signals, raise_interrupt

#: Whether this process is the console script's own: it ends when its command does, so
#: a command may load a library leaner than one a caller's later code could need.
OWN_PROCESS = False

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
    global OWN_PROCESS
    try:  # (a signal before the handlers are set ends the same way: one line, its status)
        handled = handled_signals()
        for signum in handled:
            signal.signal(signum, end_now)
    except KeyboardInterrupt:
        end_now(signal.SIGINT, None)
    OWN_PROCESS = True
    _standard_streams()
    import gc

    # Replays make many small objects and few cycles: collect young objects less often
    # (measured: 5-15% on large archives), from the start (importing the command line
    # alone made 28 collections of objects that live as long as the process: 2% of a
    # small validate's instructions), and never scan the modules loaded so far.
    gc.set_threshold(20_000, 50, 100)
    from .main import run
    gc.freeze()
    for signum in handled:
        signal.signal(signum, raise_interrupt)
    run()


if __name__ == "__main__":
    main()
