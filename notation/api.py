"""Small library entry points that sit on top of the core, typed as users see them."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, TypeVar, overload

from .core.tree import GameNode
from .core import new_games, registry

from .core.diffing import RecordDiff, diff_records
from .core.game import AnyGame, Game
from .core.position import Position

if TYPE_CHECKING:  # (each built-in game's events, for the types of its positions alone)
    from .games.flows.events import Event as FlowsEvent
    from .games.nomic.events import Event as NomicEvent
    from .games.philosophy.events import Event as PhilosophyEvent
    from .games.sanguine.events import Event as SanguineEvent
    from .games.tilewe.events import Move as TileweMove

EventT = TypeVar("EventT")


@overload
def new(game: Literal["tilewe"], **options: object) -> Position[TileweMove]: ...
@overload
def new(game: Literal["flows"], **options: object) -> Position[FlowsEvent]: ...
@overload
def new(game: Literal["philosophy"], **options: object) -> Position[PhilosophyEvent]: ...
@overload
def new(game: Literal["sanguine"], **options: object) -> Position[SanguineEvent]: ...
@overload
def new(game: Literal["nomic"], **options: object) -> Position[NomicEvent]: ...
@overload
def new(game: Game[Any, EventT], **options: object) -> Position[EventT]: ...
@overload
def new(game: str, **options: object) -> Position[object]: ...


def new(game: str | Game[Any, Any], **options: object) -> Position[Any]:
    """A new game at its start (:func:`notation.core.new_games.new`), its position typed
    by the game: ``notation.new("tilewe")`` is a ``Position[tilewe.Move]``.

    :raises Error: an unknown game, or an option value the game refuses.
    """
    return new_games.new(game, **options)


def get_game(name: str) -> AnyGame:
    """The registered game called ``name``; raises ``KeyError`` naming the known ones."""
    return registry.require(name)


def diff(a: GameNode, b: GameNode, until: int | None = None) -> RecordDiff:
    """Compare two records of the same game (first differing event, differing state)."""
    if a.game is None or a.game != b.game:
        raise ValueError(f"cannot compare a {a.game!r} record with a {b.game!r} record")
    return diff_records(a, b, get_game(a.game), until)
