"""Fixed-size digests numbered in order of first sight, held in flat arrays.

``dedupe`` remembers every distinct game it meets, so its memory grows with the archive:
a ``dict`` of ``bytes`` keys costs over 100 bytes a game in object headers and entries,
where here a digest costs its own bytes plus 8 to 16 bytes of slot table.
"""
from __future__ import annotations

import sys
from array import array

#: The slot table's item type, and the largest number plus one it holds.
_SLOT_TYPE = "I"
_SLOT_LIMIT = 1 << (8 * array(_SLOT_TYPE).itemsize)
_WIDE_SLOT_TYPE = "Q"


class DigestNumbers:
    """Numbers digests 0, 1, 2... in the order they are first met.

    The digests sit back to back in one ``bytearray``; an open-addressing table (linear
    probing, a power-of-two size, at most half full) holds at each slot the number plus one
    of the digest found there (0: empty). The digests must be uniformly random, as a
    cryptographic hash's are: the first 8 bytes of one pick its slot.
    """

    def __init__(self, size: int = 16, capacity: int = 8) -> None:
        """``size``: the bytes of every digest (a multiple of 8); ``capacity``: the slot
        table's first size, a power of two (small ones let tests reach long probe runs)."""
        if size < 8 or size % 8:
            raise ValueError(f"digest size {size}: a multiple of 8 bytes is needed")
        if capacity < 2 or capacity & (capacity - 1):
            raise ValueError(f"capacity {capacity}: a power of two from 2 is needed")
        self.size = size
        self._digests = bytearray()
        self._count = 0
        self._slots = array(_SLOT_TYPE, bytes(capacity * array(_SLOT_TYPE).itemsize))
        self._mask = capacity - 1

    def __len__(self) -> int:
        return self._count

    def number(self, digest: bytes) -> int:
        """``digest``'s number: how many distinct digests were met before it first was.
        A new digest gets ``len(self)`` and is remembered."""
        size = self.size
        if len(digest) != size:
            raise ValueError(f"a {size}-byte digest is needed, not {len(digest)} bytes")
        slots, mask, digests = self._slots, self._mask, self._digests
        slot = int.from_bytes(digest[:8], sys.byteorder) & mask
        held = slots[slot]
        while held:
            start = (held - 1) * size
            if digests[start:start + size] == digest:
                return held - 1
            slot = (slot + 1) & mask
            held = slots[slot]
        count = self._count
        digests += digest
        slots[slot] = count + 1
        self._count = count + 1
        if 2 * self._count > mask + 1:
            self._grow()
        return count

    def digest(self, number: int) -> bytes:
        """The digest numbered ``number``."""
        if not 0 <= number < self._count:
            raise IndexError(f"no digest numbered {number}")
        start = number * self.size
        return bytes(self._digests[start:start + self.size])

    def _grow(self) -> None:
        """Double the slot table and file every digest again (each one's slot hash read
        in place, through a view of the digests as 8-byte words)."""
        capacity = 2 * (self._mask + 1)
        mask = capacity - 1
        kind = _SLOT_TYPE if capacity < _SLOT_LIMIT else _WIDE_SLOT_TYPE
        slots = array(kind, bytes(capacity * array(kind).itemsize))
        with (memoryview(self._digests) as raw, raw.cast("Q") as words,
              words[::self.size // 8] as firsts):
            for number, word in enumerate(firsts, 1):
                slot = word & mask
                while slots[slot]:
                    slot = (slot + 1) & mask
                slots[slot] = number
        self._slots, self._mask = slots, mask
