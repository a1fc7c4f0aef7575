"""The runner's inputs cut into units of work, in input order.

An input is a path, an open binary stream (:class:`Stream`), or an
:class:`InputError` that stands in its place (an input known to be
unreadable, reported where it comes). Files are cut into spans
that the workers (worker processes, Dask's) read themselves; what cannot be cut in
its bytes (a stream, a compressed file, another format) into batches of text read
here, for worker processes, or into one span a Dask worker reads whole. Each input also gives a
closing item, so that the runner knows when an input is over.
"""
from __future__ import annotations

import os
from notation.core.hand_dataclass import hand_dataclass
from typing import Callable, Generator, Iterable, Iterator, Union

from notation.parallel.batch import FIRST, TARGET, batches
from notation.core.errors import InputError
from notation.parallel import Input, Stream
from notation.parallel.spans import cuttable, spans

from .work import Job, Part


@hand_dataclass(frozen=True, slots=True)
class Unit:
    """Work for a worker; ``key`` is the input's place in the run (a file given twice is
    two inputs, each numbered from 1)."""

    key: int
    job: Job

    def __init__(self, key: int, job: Job) -> None:
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "job", job)


@hand_dataclass(frozen=True, slots=True)
class Known:
    """A part known without a worker: an input error met here, or the end of an input
    (an empty part with ``end`` set)."""

    key: int
    part: Part
    end: bool = False

    def __init__(self, key: int, part: Part, end: bool = False) -> None:
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "part", part)
        object.__setattr__(self, "end", end)


Item = Union[Unit, Known]

#: How one input is cut: (input, game, encoding, target) -> jobs.
JobsOf = Callable[[Input, Union[str, None], str, int], Iterator[Job]]


def name_of(given: Input) -> str:
    """What messages call an input."""
    if isinstance(given, Stream):
        return given.label
    if isinstance(given, InputError):
        return given.source
    return os.fspath(given)


def local_jobs(given: Input, game: str | None, encoding: str, target: int) -> Iterator[Job]:
    """Spans of a file that workers read themselves, where its bytes can be cut (a file of
    the games' own notation, not compressed, in an encoding whose line breaks are those
    bytes); batches of text read here otherwise (and from a stream)."""
    if isinstance(given, InputError):
        raise given
    if isinstance(given, Stream):
        yield from batches(given.handle, game, encoding, given.label, target)
        return
    if cuttable(encoding):
        cut = spans(given, game, encoding, target, first=FIRST)
        first = next(cut, None)
        if first is not None and not first.streamed:
            yield first
            yield from cut
            return
        cut.close()
    yield from batches(given, game, encoding, target=target)


def cluster_jobs(given: Input, game: str | None, encoding: str, target: int) -> Iterator[Job]:
    """Spans of a file, for workers that read it themselves (they cannot read a stream)."""
    if isinstance(given, InputError):
        raise given
    if isinstance(given, Stream):
        raise InputError(given.label, "Dask workers read files, not a stream")
    try:
        yield from spans(given, game, encoding, target)
    except OSError as exc:  # the file stopped being readable while it was scanned
        raise InputError(os.fspath(given), f"cannot read: {exc.strerror or exc}") from None


def units(inputs: Iterable[Input], jobs_of: JobsOf, game: str | None = None,
          encoding: str = "utf-8", target: int = TARGET) -> Iterator[Item]:
    """Every input's units in order, an input error where it is met, and each input's end."""
    for key, given in enumerate(inputs):
        label = name_of(given)
        try:
            for job in jobs_of(given, game, encoding, target):
                yield Unit(key, job)
        except InputError as exc:
            yield Known(key, Part(exc.source, input_error=exc.message))
        yield Known(key, Part(label), end=True)
