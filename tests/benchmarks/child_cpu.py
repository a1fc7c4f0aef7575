"""The one way the benchmarks time a command: the CPU (user and system) of its child
process, from ``getrusage``, so that other load on the machine weighs as little as it can.
"""
from __future__ import annotations

import os
import resource
import subprocess
from pathlib import Path
from typing import Mapping


def cpu_of(command: list[str], out: Path | None = None, check: bool = False,
           cwd: Path | None = None, env: Mapping[str, str] | None = None) -> float:
    """CPU seconds of one run of ``command`` (its output to ``out``, else dropped;
    ``check``: a failing command stops the benchmark)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(out if out is not None else os.devnull, "w") as sink:
        subprocess.run(command, stdout=sink, stderr=subprocess.DEVNULL, check=check, cwd=cwd,
                       env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def peak_mb() -> float:
    """The largest resident size of any child so far, in megabytes (a bound, not a figure
    of the last child)."""
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


#: Runs a command as its only child and prints that child's peak resident kilobytes.
_PEAK = ("import resource, subprocess, sys\n"
         "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
         "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")


def own_peak_mb(command: list[str]) -> float:
    """The peak resident size of one run of ``command`` alone, in megabytes (measured by a
    parent of its own: ``peak_mb`` is the largest of every child so far)."""
    import sys
    done = subprocess.run([sys.executable, "-c", _PEAK, *command], capture_output=True,
                          text=True, check=True)
    return int(done.stdout.split()[-1]) / 1024
