"""The exploration nomic behind the core's :class:`~notation.core.game.Game` interface: each
method hands over to the module of its concern."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping

from notation.core.ast import Record
from notation.core.errors import NotationError
from notation.core.game import Game

from . import events, generate, legal, position, rules, text
from .events import READERS, Event
from . import OPTIONS
from .state import NomicState

if TYPE_CHECKING:  # (start-up: these only name types)
    from notation.core.svg import Drawing
    import random


def _no_options(refusal: str, options: Mapping[str, Any]) -> None:
    """The game has no options of its own: any given is refused, by name."""
    if options:
        raise NotationError(f"nomic {refusal} ({', '.join(options)})")


class Nomic(Game[NomicState, Event]):
    name = "nomic"
    title = "The exploration nomic (Havvy's rules 101-115): rounds, moves, votes, judgments"
    extensions = (".nomic",)
    grammar = events.GRAMMAR
    events_module = "notation.games.nomic.events"
    event_per_line = True
    numbered = False
    options = OPTIONS
    tags = {
        "Game": '"Nomic"',
        "Players": "names of the players who joined before the game began, space-separated",
        "Ruleset": f'"{rules.RULESET}" (the default and only one known)',
        "Result": '"*": the Initial Set has no end condition, so no game has a result',
    }

    # -- notation -----------------------------------------------------------------------
    def read_event(self, kind: str, text: str) -> Event:
        return READERS[kind](text)

    def event_reader(self, kind: str) -> Callable[[str], Event]:
        return READERS[kind]

    def diagnose(self, text: str) -> str:
        return events.diagnose(text)

    # -- rules --------------------------------------------------------------------------
    def start(self, record: Record) -> NomicState:
        return rules.start(record.headers)

    def apply(self, state: NomicState, event: Event) -> None:
        rules.apply(state, event)

    def applier(self, state: NomicState) -> Callable[[Event], None]:
        apply = rules.apply
        return lambda event: apply(state, event)

    def legal_moves(self, state: NomicState, **options: Any) -> list[Event]:
        _no_options("legal moves take no options", options)
        return legal.legal_moves(state)

    def is_over(self, state: NomicState) -> bool:
        return state.ended

    def copy(self, state: NomicState) -> NomicState:
        return state.copy()

    def to_move(self, state: NomicState) -> str | None:
        return state.to_move()

    def result_tags(self, state: NomicState) -> dict[str, str]:
        return rules.result_tags(state)

    def result_json(self, state: NomicState) -> dict[str, Any]:
        return rules.result_json(state)

    # -- output -------------------------------------------------------------------------
    def position(self, state: NomicState) -> str:
        return state.position()

    def read_position(self, text: str) -> NomicState:
        return position.read(text)

    def timeless_position(self, full_position: str) -> str:
        return position.timeless(full_position)

    def state_json(self, state: NomicState) -> dict[str, Any]:
        return state.as_json()

    def seats(self, state: NomicState) -> list[str]:
        """The players on the world, in the order they joined."""
        return list(state.players)

    winner_names = ()  # the Initial Set has no end condition: no game has winners

    def player_count(self, state: NomicState) -> int:
        return len(state.players)

    def facts(self, state: NomicState) -> dict[str, Any]:
        return {"rules in effect": state.rules_in_effect()}

    def drawing(self, state: NomicState, **options: Any) -> Drawing:
        _no_options("maps take no view options", options)
        from notation.games.nomic.svg import draw  # (start-up: pictures load when drawn)

        return draw(state)

    def render(self, state: NomicState, color: bool = False, **options: Any) -> str:
        _no_options("maps take no view options", options)
        return text.render(state)

    def cells(self, state: NomicState) -> dict[str, str]:
        return text.cells(state)

    # -- generation ---------------------------------------------------------------------
    def setup(self, options: Mapping[str, Any]) -> Record:
        """``players`` by name, or by number (the first of :data:`~notation.games.nomic.NAMES`)."""
        return super().setup(generate.named_players(options))

    def random_tags(self, options: Mapping[str, Any]) -> dict[str, str]:
        return {**super().random_tags(options), "Game": "Nomic"}  # as the records write it

    def random_events(self, rng: random.Random, record: Record,
                      max_plies: int = 10_000) -> list[Event]:
        return generate.random_events(rng, self.start(record))


__all__ = ["Nomic"]
