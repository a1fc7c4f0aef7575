"""Archives cut into batches of whole games, checked anywhere (worker processes, Dask).

The reader's pieces (see :mod:`notation.core.reading`) are grouped into
batches of about ``target`` bytes. A batch never ends after a piece that may
hand comments or tags on to the next game (a piece holding ``{`` or nothing
but comments), so each batch reads exactly as it would in one pass. A batch
knows its file and number; the games in it are numbered from 1, and
:func:`renumber` gives them their places in the file once the batches before
are counted.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import IO, Any, Callable, Iterable, Iterator

from .ast import Record
from .output import replay_json
from .reading import Cutter, label_of, lines, pieces, source_chunks
from .replay import game_of, run

TARGET = 256 << 10


@dataclass(slots=True)
class Batch:
    """Whole games of one file: ``(first line, text)`` pieces."""

    source: str
    number: int
    game: str | None
    pieces: list[tuple[int, str]] = field(default_factory=list)
    size: int = 0


def _may_carry(text: str) -> bool:
    """Whether a piece may end in a game of tags and comments only (merged into the next)."""
    cutter = Cutter()
    for line in lines((text,)):
        cutter.feed(line)
    return cutter.may_carry


def batches(source: str | os.PathLike[str] | IO, game: str | None = None,
            encoding: str = "utf-8", name: str | None = None,
            target: int = TARGET) -> Iterator[Batch]:
    """Batches of whole games from a path or an open file, read as a stream."""
    label = label_of(source, name)
    batch = Batch(label, 1, game)
    for first_line, text in pieces(source_chunks(source, encoding, label)):
        if batch.size >= target and not _may_carry(batch.pieces[-1][1]):
            yield batch
            batch = Batch(label, batch.number + 1, game)
        batch.pieces.append((first_line, text))
        batch.size += len(text)
    if batch.pieces:
        yield batch


def batch_records(batch: Batch, checked: bool = True) -> Iterator[Record]:
    """The records of a batch, numbered from 1 within it (``checked``: valid ones already
    replayed, without their events)."""
    from .reading import records_of

    start = batch.pieces[0][0] if batch.pieces else 1
    texts = (text for _first, text in batch.pieces)
    yield from records_of(texts, batch.source, batch.game, checked=checked,
                          start_line=start)


# -- what a worker does with a batch ---------------------------------------------------

def check_game(record: Record) -> dict[str, Any]:
    """One game's verdict, as ``validate --json`` prints it (index within its batch)."""
    outcome = run(record)
    return {
        "file": record.source, "index": record.index, "game": record.game,
        "valid": outcome.valid, "plies": outcome.plies,
        "errors": [p.as_json() for p in outcome.problems],
        "tags": record.tag_dict,
        "result": (outcome.game.result_json(outcome.state)
                   if outcome.game is not None and outcome.state is not None else None),
        "lines": {p.line: record.source_line(p.line) for p in outcome.problems},
    }


def replay_game(record: Record) -> dict[str, Any]:
    """One game's ``replay --json`` object, plus its file (index within its batch)."""
    return replay_json(run(record))


def format_game(record: Record) -> dict[str, Any]:
    """One game's verdict and, if it has no problem, its canonical text (``fmt``)."""
    from .writer import format_record
    data = check_game(record)
    if data["valid"]:
        data["text"] = format_record(record, game_of(record))
    return data


format_game.needs_events = True  # type: ignore[attr-defined]


def process(batch: Batch, task: Callable[[Record], dict[str, Any]]) -> list[dict[str, Any]]:
    """Apply ``task`` to every game of ``batch``; a bug of ours in one game is that game's."""
    out = []
    for record in batch_records(batch, checked=not getattr(task, "needs_events", False)):
        try:
            out.append(task(record))
        except Exception as exc:  # the run() guard covers rules; this covers the task itself
            out.append({"file": record.source, "index": record.index, "game": record.game,
                        "valid": False, "plies": 0, "internal": f"{exc.__class__.__name__}: "
                                                              f"{exc}",
                        "errors": [], "line": record.pos.line, "column": record.pos.column})
    return out


def renumber(results: Iterable[tuple[str, list[dict[str, Any]]]]) -> Iterator[dict[str, Any]]:
    """Per-game results with their indexes in their files, from ``(file, games)`` of
    consecutive batches or spans in file order (each numbered from 1)."""
    counted: dict[str, int] = {}
    for source, games in results:
        before = counted.get(source, 0)
        for data in games:
            data["index"] += before
            yield data
        counted[source] = before + len(games)
