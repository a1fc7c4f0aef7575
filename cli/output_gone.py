"""The one exception for output that cannot be written any more.

Apart from :mod:`.common` so that ``notation --help`` (whose group catches it)
starts without the registry and the record model that ``common`` brings.
"""
from __future__ import annotations


class OutputGone(Exception):
    """Standard output cannot be written any more (a closed pipe, a full disk).

    Not an ``OSError``, so no per-record guard mistakes it for a record's problem.
    """

    def __init__(self, error: OSError) -> None:
        super().__init__(error.strerror or str(error))
        self.error = error
