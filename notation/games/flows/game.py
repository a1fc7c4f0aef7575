"""Flows behind the core's :class:`~notation.core.game.Game` interface: wiring only."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping

from notation.core.ast import Record
from notation.core.errors import NotationError
from notation.core.game import Game

from . import convert, events, generate, reading, rules
from .events import Event
from . import DIALECTS, OPTIONS
from .position import read_position
from .state import FlowsState, cells, mover_name, result_json, state_json, write_position
from .text import render as text_picture
from .views import picture_side

if TYPE_CHECKING:  # (start-up: these only name types)
    from notation.core.svg import Drawing
    import random


class Flows(Game[FlowsState, Event]):
    """Flows for the core: each method hands over to the module that owns the concern."""

    name = "flows"
    title = "Flows (Quortex), hex tiles and flows (2-6 players), moves like P1A2T0N"
    extensions = (".flows",)
    grammar = events.GRAMMAR
    events_module = "notation.games.flows.events"
    directives = frozenset({"SEED_HEADER", "ABRIDGED"})
    setup_positions = True
    tags = {
        "Game": '"flows"',
        "Players": "2 to 6 (default: the seed header 'Game: N-player', else the seats, else 2)",
        "Seats": "each player's side in turn order, e.g. \"0 3\" (defaults: 2p 0 3, 3p 0 2 4, "
                 "4p 0 1 3 4, 5p 0 1 2 3 4, 6p 0 1 2 3 4 5)",
        "Perspective": "P1..P6 or side:K: every move is written in that view (default: each "
                       "move in its mover's own view)",
        "Position": "a set-up position to start from (its seats decide the players)",
        "Dialect": '"quortextt": placements in the quortextt app\'s notation (its export: '
                   'the seats are found); "quortextt-v1" its earlier one; default "seed"',
        "Result": '"*" while the game goes on, else how it ended and the winners: "flow P2", '
                  '"tie P1 P2", "constraint P2 P4"',
    }
    options = OPTIONS
    dialects = DIALECTS

    # -- notation ---------------------------------------------------------------------
    def read_event(self, kind: str, text: str) -> Event:
        return events.READERS.get(kind, events.read)(text)

    def event_reader(self, kind: str) -> Callable[[str], Event]:
        return events.READERS.get(kind, events.read)

    def diagnose(self, text: str) -> str:
        return events.diagnose(text)

    # -- rules ------------------------------------------------------------------------
    def start(self, record: Record) -> FlowsState:
        return reading.start(record)

    def apply(self, state: FlowsState, event: Event) -> None:
        rules.apply(state, event)

    def applier(self, state: FlowsState) -> Callable[[Event], None]:
        return rules.applier(state)

    def result_tags(self, state: FlowsState) -> dict[str, str]:
        return rules.result_tags(state)

    def legal_moves(self, state: FlowsState, **options: Any) -> list[Event]:
        return rules.legal_moves(state, options)

    def is_over(self, state: FlowsState) -> bool:
        return state.over

    def copy(self, state: FlowsState) -> FlowsState:
        return state.copy()

    def to_move(self, state: FlowsState) -> str | None:
        return mover_name(state)

    def winner_words(self, state: FlowsState) -> list[str]:
        return rules.winner_words(state)

    def seats(self, state: FlowsState) -> list[str]:
        return [f"P{seat}" for seat in range(1, state.seating.players + 1)]

    winner_names = tuple(f"P{seat}" for seat in range(1, 7))

    def player_count(self, state: FlowsState) -> int:
        return state.seating.players

    def facts(self, state: FlowsState) -> dict[str, Any]:
        return rules.facts(state)

    # -- positions and output ---------------------------------------------------------
    def position(self, state: FlowsState) -> str:
        return write_position(state)

    def full_position(self, state: FlowsState) -> str:
        return write_position(state, view=True)

    def setup_identity(self, state: FlowsState, symmetric: bool = False) -> str:
        """The position without the view: a game written in another view is the same game."""
        position = write_position(state)
        return self.least_image(position)[0] if symmetric else position

    def notation_identity(self, state: FlowsState) -> str:
        """The dialect, and the side every move is written from (``mover``: each its own)."""
        view = "mover" if state.view is None else f"side:{state.view}"
        return f"{state.notation.name} {view}"

    def read_position(self, text: str) -> FlowsState:
        return read_position(text)

    def state_json(self, state: FlowsState) -> dict[str, Any]:
        return state_json(state)

    def result_json(self, state: FlowsState) -> dict[str, Any]:
        return result_json(state)

    def render(self, state: FlowsState, color: bool = False, **options: Any) -> str:
        """The board from ``perspective`` (P2, side:3; default: the record's view, else P1's)."""
        return text_picture(state, picture_side(state, options), color)

    def drawing(self, state: FlowsState, **options: Any) -> Drawing:
        """The board from ``perspective`` (as :meth:`render`): the picture turns, and its
        labels are that view's."""
        from notation.games.flows.svg import draw  # (start-up: pictures load when drawn)

        return draw(state, picture_side(state, options))

    def cells(self, state: FlowsState) -> dict[str, str]:
        return cells(state)

    # -- generation -------------------------------------------------------------------
    def random_tags(self, options: Mapping[str, Any]) -> dict[str, str]:
        """The set-up's tags, and the usual seats of its players unless ``seats`` says."""
        return generate.with_seats(super().random_tags(options))

    def random_events(self, rng: random.Random, record: Record,
                      max_plies: int = 10_000) -> list[Event]:
        """Draw from the bag, then place uniformly among the legal (hex, rotation) pairs."""
        return generate.random_events(rng, rules.start(record))

    def event_keys(self, record: Record) -> list[str]:
        """Moves compared in side 0's view and the seed's notation, so a converted record
        equals its original."""
        try:
            mainline = record.without_variations()
            spelling = {"to": "seed"} if "Dialect" in record.headers else {}
            return [str(e) for e in self.convert(mainline, perspective="side:0",
                                                 **spelling).events]
        except NotationError:  # a move that cannot be read: compare as written
            return super().event_keys(record)

    # -- perspectives -----------------------------------------------------------------
    def convert(self, record: Record, **options: Any) -> Record:
        """Rewrite every move into one seat's view (``perspective``: P2, side:3 or mover)."""
        return convert.convert_record(record, options)

    def convert_coordinate(self, text: str, to: str, options: Mapping[str, Any]) -> str:
        """``P2A4`` -> ``P1G4`` (``to="P1"``), ``6,3`` (``to="internal"``), ``side:K``."""
        return convert.convert_coordinate(text, to, options)
