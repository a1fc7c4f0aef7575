"""What two copies of one game share (``notation dedupe``): a key of its canonical events."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from notation.core.ast import Record
from notation.core.fastpath import quick_words
from notation.core.replay import game_of

from .errors import NoSymmetries


def game_key(record: Record, symmetric: bool = False) -> str | None:
    """A digest of the game's name and its events in canonical form, in one frame: equal
    for two copies of one game however they are written. ``symmetric``: also equal for
    the game played on a turned or mirrored board (raises :class:`NoSymmetries` for a
    game without board symmetries). None for a record of no known game."""
    game = game_of(record)
    if game is None or record.game_problem:
        return None
    keys: list[str] | None = None
    if symmetric:
        keys = game.symmetric_keys(record)
        if keys is None:
            raise NoSymmetries(game.name)
    elif record.unread:
        words = quick_words(record)  # a plain game read in headers mode
        keys = game.quick_keys(words) if words is not None else None
    if keys is None:
        keys = game.event_keys(record)  # (a record read in headers mode reads its events now)
    digest = hashlib.sha256("\n".join([game.name, *keys]).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


@dataclass
class Duplicates:
    """The first copy of every game seen so far: :meth:`original_of` tells a later copy."""

    symmetric: bool = False
    #: key -> ``"file:index"`` of the first copy
    seen: dict[str, str] = field(default_factory=dict)

    def original_of(self, record: Record) -> str | None:
        """Where the first copy of ``record`` was (``"file:index"``), or None if this is
        the first (which is then remembered)."""
        key = game_key(record, self.symmetric)
        if key is None:
            return None
        original = self.seen.get(key)
        if original is None:
            self.seen[key] = f"{record.source}:{record.index}"
        return original

    @property
    def distinct(self) -> int:
        """How many distinct games were seen."""
        return len(self.seen)
