"""What two copies of one game share (``notation dedupe``): a key of its start and its
canonical events."""
from __future__ import annotations

import hashlib
from array import array
from bisect import bisect_right


from notation.core.tree import GameNode
from notation.core.game import MissingCapability, needed
from notation.core.outcome import Outcome
from notation.core.fastpath import quick_words
from notation.core.replay import game_of
from notation.save.sink import game_text

from .digests import DigestNumbers
from .starts import Starts

#: Bytes of a game key: 128 bits, so a billion distinct games share one by chance with a
#: probability near 1.5e-21 (n² / 2¹²⁹); 64 bits would make it about 3%.
KEY_SIZE = 16


def game_key(record: GameNode, symmetric: bool = False, starts: Starts | None = None
             ) -> bytes | None:
    """A digest (:data:`KEY_SIZE` bytes) of the game's name, what its start sets up
    (:mod:`.starts`: a tag at its default or left out alike) and its events in canonical
    form, in one frame: equal for two copies of one game however they are written.
    ``symmetric``: also equal for the game played on a turned or mirrored board (raises
    :class:`~notation.core.game.MissingCapability` for a game without board
    symmetries). ``starts``: the starts already built (a run of games shares them). None
    for a record of no known game."""
    game = game_of(record)
    if game is None or record.game_problem:
        return None
    keys: list[str] | None = None
    symmetries = needed(game, "symmetries", "a symmetric game key") if symmetric else None
    start, transforms = (starts if starts is not None else Starts()).setup_of(
        game, record, symmetric)
    if symmetries is not None:
        # one frame for the start and the moves: the moves are taken in the images that
        # give the start's least image alone (from a start with its own symmetries, those)
        keys = symmetries.symmetric_keys(record, transforms)
    elif record.unread:
        words = quick_words(record)  # a plain game read in headers mode
        keys = game.quick_keys(words) if words is not None else None
    if keys is None:
        keys = game.event_keys(record)  # (a record read in headers mode reads its events now)
    # (the start's length first: where it ends is never taken for where the events begin)
    text = "\n".join([game.name, f"{len(start)}:{start}", *keys]).encode(
        "utf-8", "surrogatepass")
    return hashlib.sha256(text).digest()[:KEY_SIZE]  # (truncated SHA-256: hardware-fast)


class FirstPlaces:
    """Where each of a run of games was met (``"file:index"``), numbered 0, 1, 2... in
    order: an 8-byte index per game, and a file name per stretch of games from one file
    (a file's games come together), rather than a string per game."""

    def __init__(self) -> None:
        self._indexes = array("q")
        #: the number of the first game of each stretch, and its file
        self._starts = array("q")
        self._sources: list[str] = []

    def __len__(self) -> int:
        return len(self._indexes)

    def add(self, source: str, index: int) -> None:
        """Remember the next game's place."""
        if not self._sources or self._sources[-1] != source:
            self._starts.append(len(self._indexes))
            self._sources.append(source)
        self._indexes.append(index)

    def __getitem__(self, number: int) -> str:
        if not 0 <= number < len(self._indexes):
            raise IndexError(f"no game numbered {number}")
        source = self._sources[bisect_right(self._starts, number) - 1]
        return f"{source}:{self._indexes[number]}"


class Duplicates:
    """The first copy of every game seen so far: :meth:`original_of` tells a later copy.
    Each distinct game costs about 40 bytes: its key in a :class:`DigestNumbers` and its
    place in :class:`FirstPlaces`, under the same number."""

    def __init__(self, symmetric: bool = False) -> None:
        self.symmetric = symmetric
        self._starts = Starts()
        self._keys = DigestNumbers(KEY_SIZE)
        self._places = FirstPlaces()

    def original_of(self, record: GameNode) -> str | None:
        """Where the first copy of ``record`` was (``"file:index"``), or None if this is
        the first (which is then remembered)."""
        key = game_key(record, self.symmetric, self._starts)
        return None if key is None else self.first_copy(key, record.source, record.index)

    def first_copy(self, key: bytes, source: str, index: int) -> str | None:
        """Where the game of ``key`` was first met (``"file:index"``), or None if it is
        met now, at ``source:index`` (which is then remembered)."""
        number = self._keys.number(key)
        if number < len(self._places):
            return self._places[number]
        self._places.add(source, index)
        return None

    @property
    def distinct(self) -> int:
        """How many distinct games were seen."""
        return len(self._keys)


#: The starts a worker has built, shared by the games it keys (a start is a few dozen
#: bytes and a run has few: the tags that set one up).
_WORKER_STARTS = Starts()


def keyed(symmetric: bool, record: GameNode) -> Outcome:
    """A game's key as a task's outcome (it pickles: ``dedupe`` on a cluster): ``data``
    is ``{"key": HEX}`` (null: a record of no known game, never a copy) and ``text`` the
    game as written; a game its symmetries are missing for, ``{"missing": MESSAGE}``."""
    try:
        game = game_of(record) if symmetric else None
        if game is not None:  # said as dedupe says it here
            needed(game, "symmetries", "dedupe --symmetric")
        key = game_key(record, symmetric, _WORKER_STARTS)
    except MissingCapability as exc:
        return Outcome(record, None, None, 0, data={"missing": str(exc)})
    outcome = Outcome(record, None, None, 0, data={"key": None if key is None else key.hex()})
    outcome.text = game_text(record)
    return outcome
