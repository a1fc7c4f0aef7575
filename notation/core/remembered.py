"""A reader that remembers what it read, by the text: an archive writes the same few
thousand events again and again, and an event is an immutable value, so one read serves
every game that writes it.
"""
from __future__ import annotations

from typing import Callable, TypeVar

Read = TypeVar("Read")


class Remembered(dict[str, Read]):
    """The values ``read`` made, by their text, at most ``kept`` of them (emptied when
    full: flat memory whatever the archive). Its ``__getitem__`` is the reader: a text
    read before costs one dict look-up in C, with no Python frame."""

    def __init__(self, read: Callable[[str], Read], kept: int) -> None:
        super().__init__()
        self.read = read
        self.kept = kept

    def __missing__(self, text: str) -> Read:
        value = self.read(text)
        if len(self) >= self.kept:
            self.clear()
        self[text] = value
        return value


def remembered(read: Callable[[str], Read], kept: int) -> Callable[[str], Read]:
    """``read``, remembering at most ``kept`` of the values it made (:class:`Remembered`)."""
    return Remembered(read, kept).__getitem__
