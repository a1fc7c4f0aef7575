"""What the archive tools raise: a root of their own (under ``notation.Error``), so a caller
can catch them all at once."""
from __future__ import annotations

from notation.core.errors import Error


class ArchiveError(Error):
    """An archive tool cannot do what it was asked (a bad filter, an unwritable output)."""


class FilterError(ArchiveError, ValueError):
    """A filter that cannot be applied: a bad tag test or ply range, or a position the
    game cannot read. ``name`` is the filter's name (``tag``, ``plies``, ``position``),
    so a command line can name its own option."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.name = name
