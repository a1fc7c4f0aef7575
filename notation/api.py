"""Small library entry points that sit on top of the core."""
from __future__ import annotations

from .core import registry
from .core.ast import Record
from .core.diffing import RecordDiff, diff_records
from .core.game import AnyGame
from .core.writer import format_record


def get_game(name: str) -> AnyGame:
    """The registered game called ``name``; raises ``KeyError`` naming the known ones."""
    return registry.require(name)


def diff(a: Record, b: Record, until: int | None = None) -> RecordDiff:
    """Compare two records of the same game (first differing event, differing state)."""
    if a.game is None or a.game != b.game:
        raise ValueError(f"cannot compare a {a.game!r} record with a {b.game!r} record")
    return diff_records(a, b, get_game(a.game), until)


def format(record: Record) -> str:  # noqa: A001 - mirrors the CLI's `fmt`
    """Canonical text of one record."""
    return format_record(record, get_game(record.game or ""))
