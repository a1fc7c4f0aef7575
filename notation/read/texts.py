"""Many short texts held as one UTF-8 buffer and their lengths, not as a string each.

A game can hand ``export`` its positions this way (``Game.line_columns``): compiled code
writes them straight into one buffer, a table takes that buffer as it is (Arrow's
strings are such a buffer and their offsets), keys are digested from it, and a worker
sends it home as two byte strings. Only a writer of text (CSV, JSON lines) reads the
texts one by one.
"""
from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate
from typing import overload

#: The machine type of a length: a 32-bit signed int, as Arrow's string offsets.
LENGTH = "i"


class Texts(Sequence[str]):
    """Texts ``data`` (their UTF-8, one after another) cut by ``lengths`` (native 32-bit
    ints, a byte count each)."""

    __slots__ = ("data", "lengths", "_ends")

    def __init__(self, data: bytes, lengths: bytes) -> None:
        self.data = data
        self.lengths = lengths
        self._ends: list[int] | None = None

    @classmethod
    def of(cls, texts: Iterable[str]) -> Texts:
        """The texts of an iterable of strings."""
        encoded = [text.encode("utf-8") for text in texts]
        return cls(b"".join(encoded), array(LENGTH, map(len, encoded)).tobytes())

    def _offsets(self) -> list[int]:
        if self._ends is None:
            self._ends = [0, *accumulate(array(LENGTH, self.lengths))]
        return self._ends

    def __len__(self) -> int:
        return len(self.lengths) // array(LENGTH).itemsize

    def __iter__(self) -> Iterator[str]:
        data, ends = self.data, self._offsets()
        return (data[start:end].decode("utf-8") for start, end in zip(ends, ends[1:]))

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return list(self)[index]
        ends = self._offsets()
        at = range(len(ends) - 1)[index]  # (negative indices, and IndexError past the end)
        return self.data[ends[at]:ends[at + 1]].decode("utf-8")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Texts):
            return self.data == other.data and self.lengths == other.lengths
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # (mutable in spirit: equal by value)

    def __repr__(self) -> str:
        return f"Texts({list(self)!r})"

    def __reduce__(self) -> tuple[type[Texts], tuple[bytes, bytes]]:
        return Texts, (self.data, self.lengths)
