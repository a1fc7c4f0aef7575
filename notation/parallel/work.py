"""What a worker does with a batch or a span: every game's outcome, numbered within it.

These functions run in worker processes and on Dask workers; what they return
(:class:`Part`) is pickled home: a bare outcome as its plies, any other as its JSON (no
game, no state).
"""
from __future__ import annotations

import codecs
import io
from dataclasses import dataclass, field
from typing import Any, Iterator, Union

from notation.parallel.batch import Batch, batch_records
from notation.core.errors import InputError
from notation.core.outcome import Facts, Outcome
from notation.read.reading import records_of
from notation.read.text import chunks, decoded_blocks, source_chunks
from notation.parallel.spans import Span, open_whole, read_span

from .tasks import Task, outcome_of

#: What a worker is given: a batch (text read here) or a span (bytes it reads itself).
Job = Union[Batch, Span]


@dataclass(slots=True)
class Part:
    """The outcomes of one batch or span, in file order, or what went wrong with it.

    Games are numbered from 1 within a part until the runner places them in
    their file. ``input_error`` is the message of an input error (the file
    could not be read, or is not the file the client measured): the games
    before it are kept, the file ends there. ``failure`` is the exception of
    a worker or cluster that failed on this part (the file ends there too).
    ``warning`` is set on the empty part that closes an input without games.
    """

    source: str
    outcomes: list[Outcome] = field(default_factory=list)
    size: int = 0  # what the part covers: input bytes (characters of a batch read from a pipe)
    input_error: str | None = None
    failure: Exception | None = None
    warning: str | None = None

    def input_failure(self) -> InputError | None:
        """The input error as an exception (its text: ``FILE: error: MESSAGE``)."""
        return None if self.input_error is None else InputError(self.source, self.input_error)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled with each bare outcome as its plies alone (:func:`packed`): sent as
        JSON, an outcome cost a worker and the runner more than checking its game."""
        return _unpacked, (self.source, *packed(self.source, self.outcomes), self.size,
                           self.input_error, self.failure, self.warning)


#: A part's outcomes as they travel: an int for a bare outcome (its plies), else the
#: outcome (which travels as its JSON).
Packed = list[Union[int, Outcome]]


def packed(source: str, outcomes: list[Outcome]) -> tuple[str | None, Packed]:
    """The first outcome's game, and each outcome packed: as its plies alone, where that
    is all it holds beyond its place (a valid game of that game, ``index`` its place in the
    list from 1, of ``source``, without tags, result, text or data: what a worker sends
    home for :data:`~notation.parallel.tasks.VERDICTS`), else as it is. :func:`unpacked`
    gives back outcomes equal to these."""
    game = outcomes[0].facts.game if outcomes and outcomes[0].facts is not None else None
    out: Packed = []
    for index, outcome in enumerate(outcomes, 1):
        facts = outcome.facts
        bare = (facts is not None and outcome.record is None and not outcome.problems
                and outcome.text is None and outcome.data is None and facts.index == index
                and facts.file == source and facts.game == game and not facts.tags
                and facts.result is None and not facts.lines)
        out.append(outcome.plies if bare else outcome)
    return game, out


def unpacked(source: str, game: str | None, items: Packed) -> list[Outcome]:
    """The outcomes :func:`packed` packed."""
    return [Outcome(None, None, None, item, [], None, None,
                    Facts(source, index, game, {}, None, {}))
            if isinstance(item, int) else item
            for index, item in enumerate(items, 1)]


def _unpacked(source: str, game: str | None, items: Packed, size: int,
              input_error: str | None, failure: Exception | None,
              warning: str | None) -> Part:
    return Part(source, unpacked(source, game, items), size, input_error, failure, warning)


def batch_part(batch: Batch, task: Task) -> Part:
    """Every game of a batch (text already read and decoded)."""
    outcomes = [outcome_of(task, record).detached(task.facts)
                for record in batch_records(batch, task.checked, task.headers)]
    return Part(batch.source, outcomes, batch.progress)


def span_part(span: Span, task: Task) -> Part:
    """Every game of a span, read here from the file the client measured.

    A span that cannot be read, or whose file is not the client's, gives no
    games and its input error; one that stops decoding part way keeps the
    games before.
    """
    part = Part(span.source, size=span.size)
    try:
        if span.streamed:  # the whole file, read (decompressed) as a stream
            with open_whole(span) as handle:
                _read_games(source_chunks(handle, span.encoding, span.source), span, task, part)
            return part
        data = read_span(span)
    except InputError as exc:
        part.input_error = exc.message
        return part
    encoding = span.encoding
    if span.start and codecs.lookup(encoding).name == "utf-8":
        encoding = "utf-8"  # a byte-order mark can only open the file
    text = chunks(decoded_blocks(io.BytesIO(data), span.source, encoding, base=span.start))
    _read_games(text, span, task, part)
    return part


def _read_games(text: Iterator[str], span: Span, task: Task, part: Part) -> None:
    """The outcomes of the games of a span's text into ``part``; an input error met on the
    way ends it, the games before kept."""
    try:
        for record in records_of(text, span.source, span.game, checked=task.checked,
                                 headers=task.headers,
                                 start_line=span.first_line):
            part.outcomes.append(outcome_of(task, record).detached(task.facts))
    except InputError as exc:
        part.input_error = exc.message


def part_of(job: Job, task: Task) -> Part:
    """A batch's or a span's part."""
    if isinstance(job, Batch):
        return batch_part(job, task)
    return span_part(job, task)
