"""Results in input order from work done anywhere, and games placed in their files.

Units are submitted as the window allows (at most ``limit`` in flight, so
memory stays flat however long the inputs) and their parts taken back in
submission order. :class:`Numbering` then gives each game its place in its
file, ends a file at its first input error or failure, and notes the inputs
that had no games.
"""
from __future__ import annotations

import collections
from typing import Callable, Iterable, Iterator, Protocol, Union

from notation.core.errors import Error

from .forking import PoolBroken
from .units import Item, Known, Unit
from .work import Part


class RunStopped(Error):
    """Where the work is done can do no more (a worker process died, a cluster has no
    worker): not one unit's failure but the run's end, raised to the run's consumer."""


class Pending(Protocol):
    """A submitted unit's part to come (a worker process's task, or a Dask future)."""

    def result(self) -> Part: ...

    def done(self) -> bool: ...

    def cancel(self) -> object: ...


#: Sends a unit to be worked on.
Submit = Callable[[Unit], Pending]


class Numbering:
    """Places the games of parts taken in input order in their files."""

    def __init__(self) -> None:
        self.counted: dict[int, int] = {}  # games so far, by input
        self.ended: set[int] = set()       # inputs ended by an input error or a failure

    def admit(self, key: int, games: int, ends: bool) -> int | None:
        """How many games of input ``key`` come before a part of ``games`` games, or None
        if the input has ended already (the part is left out); ``ends``: the part ends
        the input (an input error, a failure)."""
        if key in self.ended:
            return None
        before = self.counted.get(key, 0)
        self.counted[key] = before + games
        if ends:
            self.ended.add(key)
        return before

    def close(self, key: int) -> bool:
        """Input ``key`` is over: whether it gave no games and ended normally."""
        games = self.counted.pop(key, 0)
        failed = key in self.ended
        self.ended.discard(key)
        return not failed and not games

    def place(self, key: int, part: Part, end: bool = False) -> Part | None:
        """The part with its games in their file's places; None for what is left out (the
        parts of an input after its end, an input's end when it had games)."""
        if end:
            empty = self.close(key)
            return part.warned(f"{part.source}: warning: no games") if empty else None
        ends = part.input_error is not None or part.failure is not None
        before = self.admit(key, part.games, ends)
        if before is None:
            return None
        return part.placed(before)


class Settled:
    """A part known now (or the exception that stopped it), as a pending part: work done in
    this process needs no pool."""

    __slots__ = ("part", "error")

    def __init__(self, part: Part | None = None, error: Exception | None = None) -> None:
        self.part, self.error = part, error

    def result(self) -> Part:
        if self.error is not None:
            raise self.error
        assert self.part is not None
        return self.part

    def done(self) -> bool:
        return True

    def cancel(self) -> bool:
        return False


def stops_the_run(exc: BaseException) -> bool:
    """Whether ``exc`` ends the run rather than a unit: a :class:`RunStopped`, or a process
    pool that broke."""
    return isinstance(exc, (RunStopped, PoolBroken))


def sent(unit: Unit, submit: Submit) -> Pending:
    """A unit submitted; one that cannot be sent fails like one that ran (what stops the
    run, a broken process pool say, is not one unit's failure: it is raised)."""
    try:
        return submit(unit)
    except Exception as exc:
        if stops_the_run(exc):
            raise
        return Settled(Part(unit.job.source, failure=exc))


def finished(unit: Unit, pending: Pending) -> Part:
    """A unit's part; a worker's failure on it becomes the part's ``failure``."""
    try:
        return pending.result()
    except Exception as exc:
        if stops_the_run(exc):
            raise
        return Part(unit.job.source, failure=exc)


#: An item and, for a unit, its part to come.
Flying = tuple[Item, Union[Pending, None]]


def flying(items: Iterable[Item], submit: Submit, numbering: Numbering,
           route: Callable[[], Submit] | None = None) -> Iterator[Flying]:
    """Items as they are sent (each unit to ``route()``'s choice, if given); a unit of an
    input that has ended already is not sent."""
    for item in items:
        if isinstance(item, Known):
            yield item, None
        elif item.key not in numbering.ended:
            yield item, sent(item, submit if route is None else route())


def landed(entry: Flying, numbering: Numbering) -> Iterator[Part]:
    """An item's part placed in its file, unless it is left out."""
    item, pending = entry
    if isinstance(item, Known):
        part = numbering.place(item.key, item.part, item.end)
    else:
        assert pending is not None  # a unit is always sent
        part = numbering.place(item.key, finished(item, pending))
    if part is not None:
        yield part


def _ready(entry: Flying) -> bool:
    """Whether an item's part can be taken without waiting."""
    return entry[1] is None or entry[1].done()


def ordered(items: Iterable[Item], submit: Submit, limit: int,
            here: Submit | None = None) -> Iterator[Part]:
    """The parts of ``items`` in input order, their games placed in their files.

    At most ``limit`` units are in flight. A unit that fills the flight while the first
    in line is not ready, the consumer would wait for: with ``here``, it is given to
    ``here`` instead (work done in this process meanwhile). Whatever stops the iteration
    (the consumer, an interrupt) cancels the units still in flight.
    """
    numbering = Numbering()
    flight: collections.deque[Flying] = collections.deque()

    def route() -> Submit:
        if (here is not None and len(flight) + 1 >= limit and flight
                and not _ready(flight[0])):
            return here
        return submit

    try:
        for entry in flying(items, submit, numbering, route):
            flight.append(entry)
            # the first in line as soon as it is ready (a part worked here, say), or once
            # the flight is full
            while flight and (len(flight) >= limit or _ready(flight[0])):
                yield from landed(flight.popleft(), numbering)
        while flight:
            yield from landed(flight.popleft(), numbering)
    finally:
        for _item, pending in flight:
            if pending is not None:
                pending.cancel()
