"""What may be played now, as python-chess's ``board.legal_moves``: a sequence of events
worked out once per position, that also answers for text (``"W5n-a1a1" in legal``)."""
from __future__ import annotations

from typing import Any, Callable, Generic, Iterator, Sequence, TypeVar, overload

from .errors import InvalidEventError
from .game import Game

EventT = TypeVar("EventT")


class LegalMoves(Generic[EventT]):
    """The legal events of one state, in the game's reference order: a sequence (indexed,
    sized, iterated; a ``collections.abc.Sequence`` at run time) whose ``in`` takes text
    as well as events, a move in any spelling (the game's ``event_identity``). Declared
    apart from ``Sequence[EventT]`` so that a type checker takes ``"W5n-a1a1" in legal``."""

    def __init__(self, game: Game[Any, EventT], state: Any,
                 read: Callable[[str], EventT]) -> None:
        self._game = game
        self._state = state
        self._read = read
        self._events: list[EventT] | None = None
        self._identities: frozenset[str] | None = None

    @property
    def _list(self) -> list[EventT]:
        if self._events is None:
            self._events = self._game.legal_moves(self._state)
        return self._events

    @overload
    def __getitem__(self, index: int) -> EventT: ...
    @overload
    def __getitem__(self, index: slice) -> list[EventT]: ...

    def __getitem__(self, index: int | slice) -> EventT | list[EventT]:
        return self._list[index]

    def __len__(self) -> int:
        return len(self._list)

    def __iter__(self) -> Iterator[EventT]:
        return iter(self._list)

    def __call__(self, **options: Any) -> list[EventT]:
        """The legal events narrowed by the game's own options (Flows' ``tile``:
        ``pos.legal_moves(tile=2)``), worked out afresh."""
        return self._game.legal_moves(self._state, **options)

    def __contains__(self, move: str | EventT) -> bool:
        if isinstance(move, str):
            try:
                move = self._read(move)
            except InvalidEventError:
                return False
        if self._identities is None:
            identity = self._game.event_identity
            self._identities = frozenset(identity(event) for event in self._list)
        try:
            return self._game.event_identity(move) in self._identities
        except (AttributeError, TypeError, ValueError):  # not an event of the game
            return False

    def __eq__(self, other: object) -> bool:
        """Equal to a list (or any sequence but text) of the same events in the same order."""
        if isinstance(other, LegalMoves):
            return self._list == other._list
        if isinstance(other, Sequence) and not isinstance(other, str):
            return self._list == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # (a view of a changing position)

    def index(self, move: str | EventT) -> int:
        """Where ``move`` (text or event, any spelling) stands in the list; ValueError if
        it is not legal."""
        if isinstance(move, str):
            move = self._read(move)
        identity = self._game.event_identity
        wanted = identity(move)
        for at, event in enumerate(self._list):
            if identity(event) == wanted:
                return at
        raise ValueError(f"{self._game.format_event(move)} is not a legal move here")

    def __repr__(self) -> str:
        shown = ", ".join(self._game.format_event(event) for event in self._list[:8])
        more = f", ... ({len(self)} moves)" if len(self) > 8 else ""
        return f"<LegalMoves: {shown}{more}>"



Sequence.register(LegalMoves)
