"""What a worker does with a batch or a span: every game's outcome, numbered within it.

These functions run in worker processes and on Dask workers; what they return
(:class:`Part`) is pickled home: a bare outcome as its plies, any other as its JSON (no
game, no state).
"""
from __future__ import annotations

import codecs
from typing import Any, Iterator, Union

from notation.parallel.batch import Batch, batch_records
from notation.core.errors import InputError
from notation.core.outcome import Outcome, Verdict
from notation.read.reading import records_of
from notation.read.text import chunks, decoded_blocks, source_chunks
from notation.parallel.spans import Span, SpanReader, open_whole

from .tasks import Task, outcome_of

#: What a worker is given: a batch (text read here) or a span (bytes it reads itself).
Job = Union[Batch, Span]


class Part:
    """The outcomes of one batch or span, in file order, or what went wrong with it.

    Games are numbered from 1 within a part until the runner places them in
    their file (:meth:`placed`). ``input_error`` is the message of an input error (the file
    could not be read, or is not the file the client measured): the games
    before it are kept, the file ends there. ``failure`` is the exception of
    a worker or cluster that failed on this part (the file ends there too).
    ``warning`` is set on the empty part that closes an input without games.

    A part that came from another process holds its outcomes packed (:func:`packed`)
    until they are asked for, so that each is made once, at its place in the file.
    """

    __slots__ = ("source", "_outcomes", "_packed", "size", "input_error", "failure",
                 "warning")

    def __init__(self, source: str, outcomes: list[Outcome] | None = None, size: int = 0,
                 input_error: str | None = None, failure: Exception | None = None,
                 warning: str | None = None) -> None:
        self.source = source
        self._outcomes: list[Outcome] = [] if outcomes is None else outcomes
        #: ``(game, items, places on)`` of outcomes not made yet (see :func:`unpacked`).
        self._packed: tuple[str | None, Packed, int] | None = None
        self.size = size  # what the part covers: input bytes (characters of a batch read from a pipe)
        self.input_error = input_error
        self.failure = failure
        self.warning = warning

    @property
    def outcomes(self) -> list[Outcome]:
        if self._packed is not None:
            game, items, by = self._packed
            self._outcomes, self._packed = unpacked(self.source, game, items, by), None
        return self._outcomes

    @outcomes.setter
    def outcomes(self, outcomes: list[Outcome]) -> None:
        self._outcomes, self._packed = outcomes, None

    @property
    def games(self) -> int:
        """How many games it holds (its outcomes are not made to count them)."""
        return len(self._packed[1]) if self._packed is not None else len(self._outcomes)

    def placed(self, by: int) -> Part:
        """The part with its games ``by`` places on in their file (itself if ``by`` is 0)."""
        if not by:
            return self
        part = Part(self.source, None, self.size, self.input_error, self.failure, self.warning)
        if self._packed is not None:
            game, items, before = self._packed
            part._packed = game, items, before + by
        else:
            part._outcomes = [outcome.shifted(by) for outcome in self._outcomes]
        return part

    def warned(self, warning: str) -> Part:
        """The part with ``warning`` set."""
        part = Part(self.source, None, self.size, self.input_error, self.failure, warning)
        part._outcomes, part._packed = self._outcomes, self._packed
        return part

    def input_failure(self) -> InputError | None:
        """The input error as an exception (its text: ``FILE: error: MESSAGE``)."""
        return None if self.input_error is None else InputError(self.source, self.input_error)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Part):
            return NotImplemented
        return (self.source, self.outcomes, self.size, self.input_error, self.failure,
                self.warning) == (other.source, other.outcomes, other.size, other.input_error,
                                  other.failure, other.warning)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"Part(source={self.source!r}, games={self.games}, size={self.size!r}, "
                f"input_error={self.input_error!r}, failure={self.failure!r}, "
                f"warning={self.warning!r})")

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled with each bare outcome as its plies alone (:func:`packed`): sent as
        JSON, an outcome cost a worker and the runner more than checking its game."""
        if self._packed is not None:
            game, items, by = self._packed
            return _unpacked, (self.source, game, items, self.size, self.input_error,
                               self.failure, self.warning, by)
        return _unpacked, (self.source, *packed(self.source, self._outcomes), self.size,
                           self.input_error, self.failure, self.warning)


#: A part's outcomes as they travel: an int for a bare outcome (its plies), else the
#: outcome (which travels as its JSON).
Packed = list[Union[int, Outcome]]


def packed(source: str, outcomes: list[Outcome]) -> tuple[str | None, Packed]:
    """The first outcome's game, and each outcome packed: as its plies alone, where that
    is all it holds beyond its place (see :class:`_Packing`), else as it is.
    :func:`unpacked` gives back outcomes equal to these."""
    packing = _Packing(source, facts=True)
    for outcome in outcomes:
        packing.add(outcome)
    return packing.game, packing.items


def unpacked(source: str, game: str | None, items: Packed, by: int = 0) -> list[Outcome]:
    """The outcomes :func:`packed` packed, ``by`` places on in their file."""
    return [Verdict(source, index, game, item) if isinstance(item, int) else item.shifted(by)
            for index, item in enumerate(items, by + 1)]


def _unpacked(source: str, game: str | None, items: Packed, size: int,
              input_error: str | None, failure: Exception | None,
              warning: str | None, by: int = 0) -> Part:
    part = Part(source, None, size, input_error, failure, warning)
    part._packed = game, items, by
    return part


class _Packing:
    """A part's outcomes detached and packed as they are made: a bare one (a valid game of
    the first one's game, of ``source``, at its place in the list from 1, with no text or
    data) as its plies alone. A live outcome is bare so for a task that sends no
    ``facts`` (:data:`~notation.parallel.tasks.VERDICTS`): the outcome and its facts are
    never made (a worker spent a tenth of its time on them). One read back is bare so
    when its facts hold no tags, result or lines."""

    __slots__ = ("source", "facts", "game", "items")

    def __init__(self, source: str, facts: bool) -> None:
        self.source, self.facts = source, facts
        self.game: str | None = None
        self.items: Packed = []

    def add(self, outcome: Outcome) -> None:
        index = len(self.items) + 1
        known = outcome.record is not None or outcome.facts is not None
        if index == 1:
            self.game = outcome.game_name if known else None
        if known and self._bare(outcome, index):
            self.items.append(outcome.plies)
        else:
            self.items.append(outcome.detached(self.facts))

    def _bare(self, outcome: Outcome, index: int) -> bool:
        if (outcome.problems or outcome.text is not None or outcome.data is not None
                or outcome.index != index or outcome.file != self.source
                or outcome.game_name != self.game):
            return False
        if outcome.record is not None:
            return not self.facts
        facts = outcome.facts
        return facts is not None and not facts.tags and facts.result is None and not facts.lines

    def part(self, size: int) -> Part:
        return _unpacked(self.source, self.game, self.items, size, None, None, None)


def batch_part(batch: Batch, task: Task) -> Part:
    """Every game of a batch (text already read and decoded)."""
    packing = _Packing(batch.source, task.facts)
    for record in batch_records(batch, task.checked, task.headers):
        packing.add(outcome_of(task, record))
    return packing.part(batch.progress)


def span_part(span: Span, task: Task) -> Part:
    """Every game of a span, read here from the file the client measured.

    A span that cannot be read, or whose file is not the client's, gives no
    games and its input error; one that stops decoding part way keeps the
    games before.
    """
    packing = _Packing(span.source, task.facts)
    try:
        if span.streamed:  # the whole file, read (decompressed) as a stream
            with open_whole(span) as handle:
                _read_games(source_chunks(handle, span.encoding, span.source), span, task,
                            packing)
        else:
            encoding = span.encoding
            if span.start and codecs.lookup(encoding).name == "utf-8":
                encoding = "utf-8"  # a byte-order mark can only open the file
            with SpanReader(span) as reader:
                text = chunks(decoded_blocks(reader, span.source, encoding, base=span.start))
                _read_games(text, span, task, packing)
    except InputError as exc:
        part = packing.part(span.size)
        part.input_error = exc.message
        return part
    return packing.part(span.size)


def _read_games(text: Iterator[str], span: Span, task: Task, packing: _Packing) -> None:
    """The outcomes of the games of a span's text, packed; an input error met on the way
    ends them, the games before kept."""
    for record in records_of(text, span.source, span.game, checked=task.checked,
                             headers=task.headers, start_line=span.first_line):
        packing.add(outcome_of(task, record))


def part_of(job: Job, task: Task) -> Part:
    """A batch's or a span's part."""
    if isinstance(job, Batch):
        return batch_part(job, task)
    return span_part(job, task)
