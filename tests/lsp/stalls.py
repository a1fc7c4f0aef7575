"""A hang breaker that counts no seconds: a wait on another process fails once that process
(and every process it started) has stopped working, asleep with its CPU time unchanged
for :data:`STILL` looks in a row, while what the test waits for has not come.

A busy machine cannot cause this: a process with work to do is runnable, not asleep, and
a starved one is still runnable. Only a process that waits for something that will never
come (a reply the other side does not owe, a message already taken) sleeps that long with
no CPU spent; a wait that merely takes long is left alone however long it takes.
"""
from __future__ import annotations

import asyncio
import os
import subprocess
import time
from pathlib import Path
from typing import Awaitable, TypeVar

T = TypeVar("T")

#: Looks in a row, every :data:`EVERY` seconds, that find everything asleep and still.
STILL = 30
EVERY = 0.1


class Stalled(AssertionError):
    """The processes waited on all sleep, unchanged, and what was awaited has not come."""


def _family(pid: int) -> list[int]:
    """``pid`` and every process it started, and theirs."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(children.get(current, ()))
    return found


def _look(pid: int) -> tuple[tuple[int, str, int], ...] | None:
    """Each process of the family: its id, state and CPU ticks (None: ``pid`` is gone)."""
    seen = []
    for member in _family(pid):
        try:
            fields = Path(f"/proc/{member}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # after the name: state, ppid, ... utime is the 12th field on, stime the 13th
        seen.append((member, fields[0], int(fields[11]) + int(fields[12])))
    return tuple(seen) if seen else None


class Watch:
    """Looks at a process's family; :meth:`still` says when it has stalled (``looks``
    still looks in a row)."""

    def __init__(self, pid: int, looks: int = STILL) -> None:
        self.pid, self.looks = pid, looks
        self.last: tuple[tuple[int, str, int], ...] | None = None
        self.quiet = 0

    def still(self) -> bool:
        seen = _look(self.pid)
        asleep = seen is not None and all(state in "SI" for _pid, state, _cpu in seen)
        self.quiet = self.quiet + 1 if asleep and seen == self.last else 0
        self.last = seen
        return self.quiet >= self.looks


async def answered(awaitable: Awaitable[T], pid: int, what: str = "a reply",
                   looks: int = STILL) -> T:
    """What ``awaitable`` gives, unless the process ``pid`` stalls first (:class:`Stalled`)."""
    task = asyncio.ensure_future(awaitable)
    watch = Watch(pid, looks)
    while True:
        done, _ = await asyncio.wait({task}, timeout=EVERY)
        if done:
            return task.result()
        if watch.still():
            task.cancel()
            raise Stalled(f"waited for {what}: the server sleeps and owes nothing")


def finished(process: subprocess.Popen[bytes], what: str, looks: int = STILL) -> int:
    """``process``'s exit code once it ends; killed (:class:`Stalled`) if it and the
    processes it started stall first."""
    watch = Watch(process.pid, looks)
    while process.poll() is None:
        if watch.still():
            for member in reversed(_family(process.pid)):
                try:
                    os.kill(member, 9)
                except OSError:
                    pass
            process.wait()
            raise Stalled(f"{what} stalled: every process asleep, no CPU spent")
        time.sleep(EVERY)
    return process.returncode
