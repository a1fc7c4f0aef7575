"""``--index K``: one game of a file, for commands that otherwise take every game.

``legal``, ``replay`` and ``diff`` pick a game the way ``render`` does: the
file is read no further than game K, and a file with fewer games is a usage
error (exit 2) that says how many it has.
"""
from __future__ import annotations

from typing import Iterator

import click


from notation.core.tree import GameNode
from .common import plural, shown
from .inputs import FileRecords

INDEX_OPTION = click.option(
    "--index", "game_index", type=click.IntRange(min=1), metavar="K",
    help="Only game K of each file (default: every game).")


def game_at(records: FileRecords, index: int) -> GameNode | None:
    """Game ``index`` of one file; None when the file could not be read that far (its
    input error is the run's already); a usage error when the file has fewer games."""
    seen = 0
    for record in records:
        seen += 1
        if seen == index:
            return record
    if records.failed:
        return None
    raise click.UsageError(f"--index {index}: {shown(records.source)} has "
                           f"{plural(seen, 'game')}")


def chosen(records: FileRecords, index: int | None) -> Iterator[GameNode]:
    """Every game of one file, or only game ``index`` (see :func:`game_at`)."""
    if index is None:
        yield from records
        return
    record = game_at(records, index)
    if record is not None:
        yield record
