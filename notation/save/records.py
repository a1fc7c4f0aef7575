"""``notation.write``: records saved to a file, whole or not at all.

The file is written through a temporary beside it and a rename (a failure or an
interrupt leaves it as it was), compressed as its name ends (``.gz``, ``.bz2``,
``.xz``, ``.zst``), in the format its name says: a record format's own extension
(``.blksgf``, ``.json``) writes that format, any other name the game's notation, a
blank line between games.
"""
from __future__ import annotations

import os
from typing import Any, Iterable, Union

from notation.core import formats

from notation.read.compression import plain_name
from notation.core.errors import NotationError
from notation.core.formats import RecordFormat
from notation.core.protocols import RecordView
from notation.core.writer import format_record

from .sink import GameSink

#: What :func:`write` takes: one record or game tree, or any number of them.
Writable = Union[RecordView, Iterable[RecordView]]


def write(records: Writable, path: str | os.PathLike[str], encoding: str = "utf-8") -> int:
    """Write ``records`` to ``path`` as one file and say how many were written.

    :raises WriteError: the file cannot be written (nothing is changed).
    :raises NotationError: a record the file's format cannot hold, or several records
        for a format that holds one game a file (nothing is changed).
    """
    target = os.fspath(path)
    kind = format_named_by(target)
    given = records if isinstance(records, Iterable) else [records]  # (a record is not)
    with GameSink(target, encoding) as sink:
        for record in given:
            if kind is not None and kind.one_game_a_file and sink.count:
                raise NotationError(f"{target}: one game a file: {kind.one_game_a_file}")
            sink.add(format_record(record) if kind is None else kind.write(record))
        sink.commit()
        return sink.count


def format_named_by(path: str) -> RecordFormat[Any] | None:
    """The record format whose extension ``path`` ends in (under any compression
    ending), None for a game's own notation."""
    name = plain_name(path).lower()
    for plugin in formats.plugins():
        if name.endswith(plugin.extensions):
            return formats.get(plugin.name)
    return None
