"""What every game's events share: one read from its text with the game's own grammar
terminals, readers that remember what they read, and comparison and ``repr`` by type.

Light: a game's events module imports it at load, and a check loads no more of the
core's positions than it plays (:mod:`notation.core.position` builds on this).
"""
from __future__ import annotations

from typing import Any, Callable, TypeVar

from . import registry
from .errors import NotationError, shorten
from .fastpath import scanner
from .game import AnyGame


def game_named(game: str | AnyGame) -> AnyGame:
    """The game of that name (any case), or the game itself; Error for an unknown one."""
    return registry.require(game) if isinstance(game, str) else game


def parse_event(game: str | AnyGame, text: str) -> Any:
    """One event written in the game's notation, read with its own grammar terminals.

    Raises :class:`NotationError` (with the game's own diagnosis) for text that
    is not exactly one event; an event number in front (``12. F5e-a2d4``) is not
    part of the event.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_event takes an event's text (a str), not "
                        f"{type(text).__name__} {shorten(repr(text))}")
    game = game_named(game)
    scan = scanner(game)
    word = text.strip()
    m = scan.token.fullmatch(word)
    kind = m.lastgroup if m is not None else None
    if m is None or kind is None or kind not in scan.readers:  # a set-up line, a comment
        raise NotationError(game.diagnose(word))
    if word[:1].isdigit():
        raise NotationError(f"{word!r}: write the event without its number")
    reader = scan.readers[kind]
    return reader(m.group(m.lastindex or 0))


def parse_event_as(game: str | AnyGame, kind: type, text: str) -> Any:
    """One event of type ``kind`` (``Move.parse``): :func:`parse_event`, then a
    :class:`NotationError` if the text is another kind of event."""
    event = parse_event(game, text)
    if not isinstance(event, kind):
        raise NotationError(f"{text.strip()!r} is a {type(event).__name__}, not a {kind.__name__}")
    return event


def event_repr(event: Any) -> str:
    """An event's ``repr`` in its notation, the same shape in every game: ``Move('F5e-a2d4')``."""
    return f"{type(event).__name__}({str(event)!r})"


def _same_event(self: tuple[Any, ...], other: object) -> bool:
    """Equal when of one type and equal fields: nomic's ``join Bob`` is not ``turn Bob``."""
    return type(self) is type(other) and tuple.__eq__(self, other) is True


def _other_event(self: tuple[Any, ...], other: object) -> bool:
    return not _same_event(self, other)


def _event_hash(self: tuple[Any, ...]) -> int:
    return hash((type(self).__name__, tuple.__hash__(self)))


Kind = TypeVar("Kind")


def event_type(kind: type[Kind]) -> type[Kind]:
    """A game's event type (a ``NamedTuple``) given its comparisons by type and fields (two
    event types with the same fields never compare equal, as plain tuples would) and its
    ``repr`` as written (:func:`event_repr`)."""
    setattr(kind, "__eq__", _same_event)
    setattr(kind, "__ne__", _other_event)
    setattr(kind, "__hash__", _event_hash)
    setattr(kind, "__repr__", event_repr)
    return kind


#: What a remembering reader makes.
Read = TypeVar("Read")



# -- readers that remember ---------------------------------------------------------------

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
