"""Sanguine behind the core's :class:`~notation.core.game.Game` interface: each method
hands over to the module of its concern (events, rules, state, position, text, svg)."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from notation.core.ast import Record
from notation.core.errors import NotationError
from notation.core.game import Game

from . import events, rules
from .events import SIDE_NAMES, Event
from . import OPTIONS
from .state import SanguineState

if TYPE_CHECKING:  # (start-up: these only name types)
    from notation.core.svg import Drawing
    import random


class Sanguine(Game[SanguineState, Event]):
    name = "sanguine"
    title = "Sanguine (PawnsBoard), a two-player card game on a grid, events like R place Spark (1,0)"
    extensions = (".sanguine", ".sgr")
    grammar = events.GRAMMAR
    events_module = "notation.games.sanguine.events"
    directives = frozenset({"DECK_BLOCK"})
    event_per_line = True
    numbered = False
    tags = {
        "Game": '"Sanguine"',
        "Rows": "board rows, at least 1 (required)",
        "Cols": "board columns, odd and at least 3 (required)",
        "HandSize": "starting hand H, 1 <= H and 3H <= each deck's size (required)",
        "RedDeck": 'deck file path relative to the record, or "inline" (then a deck R block)',
        "BlueDeck": 'likewise for Blue ("inline": a deck B block)',
        "Order": '"recorded" (default): deals and draws are any cards left; "file": file order',
        "Perspective": '"blue": place columns are written from Blue\'s side (mirrored)',
        "Result": '"*" or "RED-BLUE red|blue|tie"; when the game is over it must match',
    }
    options = OPTIONS

    # -- notation ---------------------------------------------------------------------
    def read_event(self, kind: str, text: str) -> Event:
        return events.read(kind, text)

    def event_reader(self, kind: str) -> Callable[[str], Event]:
        try:
            return events.READERS[kind]
        except KeyError:
            return super().event_reader(kind)

    def diagnose(self, text: str) -> str:
        return events.diagnose(text)

    def fills_line(self, event: Event) -> bool:
        """A deal's names run to the end of its line (rules 4.6): nothing but a ``#``
        comment may follow it there."""
        return isinstance(event, events.Deal)

    # -- rules ----------------------------------------------------------------------------
    def setup(self, options: Mapping[str, Any]) -> Record:
        """Decks are more than a tag's value and a seed shuffles them: newgame.py."""
        from .newgame import new_record  # (start-up: only new games need it; likewise below)

        return new_record(self.name, options)

    def start(self, record: Record) -> SanguineState:
        return rules.start(record)

    def apply(self, state: SanguineState, event: Event) -> None:
        rules.apply(state, event)

    def applier(self, state: SanguineState) -> Callable[[Event], None]:
        return partial(rules.apply, state)  # (bound in C: no Python frame of its own)

    def result_tags(self, state: SanguineState) -> dict[str, str]:
        return rules.result_tags(state)

    def legal_moves(self, state: SanguineState, **options: Any) -> list[Event]:
        if options:
            raise NotationError(f"sanguine legal moves take no options ({', '.join(options)})")
        return rules.legal_moves(state)

    def is_over(self, state: SanguineState) -> bool:
        return state.over

    def copy(self, state: SanguineState) -> SanguineState:
        return state.copy()

    def to_move(self, state: SanguineState) -> str | None:
        """The mover, but before the first turn the first side still to be dealt (either
        deal may come first: ``legal_moves`` offers both sides' until both are dealt)."""
        return state.actor()

    # -- archives -------------------------------------------------------------------------
    def winner_words(self, state: SanguineState) -> list[str]:
        return rules.winner_words(state)

    def seats(self, state: SanguineState) -> list[str]:
        return ["red", "blue"]

    winner_names = SIDE_NAMES

    def player_count(self, state: SanguineState) -> int:
        return 2

    def facts(self, state: SanguineState) -> dict[str, Any]:
        red, blue = state.totals()
        return {"red score": red, "blue score": blue}

    # -- positions and output ---------------------------------------------------------------
    def position(self, state: SanguineState) -> str:
        from .position import write_position  # (start-up: a check writes no position)

        return write_position(state)

    def full_position(self, state: SanguineState) -> str:
        """Hands, decks, cards and the step of the turn besides the board (position.py)."""
        from .position import write_full_position

        return write_full_position(state)

    def read_position(self, text: str) -> SanguineState:
        from .position import read_position

        return read_position(text)

    def timeless_position(self, full_position: str) -> str:
        from .position import timeless

        return timeless(full_position)

    def state_json(self, state: SanguineState) -> dict[str, Any]:
        return state.to_json()

    def result_json(self, state: SanguineState) -> dict[str, Any]:
        return state.result_json()

    def cells(self, state: SanguineState) -> dict[str, str]:
        return state.cells()

    def render(self, state: SanguineState, color: bool = False, **options: Any) -> str:
        view = options.pop("view", "full")
        if options:
            raise NotationError("sanguine boards take --view basic or --view full")
        from .text import render  # (start-up: a check draws nothing)

        return render(state, view)

    def drawing(self, state: SanguineState, **options: Any) -> Drawing:
        """The board as Red sees it, or mirrored with ``perspective="blue"``."""
        seen_by = str(options.pop("perspective", None) or "red").lower()
        if options or seen_by not in SIDE_NAMES:
            raise NotationError("sanguine pictures take --perspective red or blue")
        from notation.games.sanguine.svg import draw  # (start-up: pictures load when drawn)

        return draw(state, SIDE_NAMES.index(seen_by))

    # -- generation and conversion ----------------------------------------------------------
    def random_record(self, rng: random.Random, options: Mapping[str, Any]) -> Record:
        from .generate import random_record  # (start-up: only random games need it)

        return random_record(self.name, rng, options)

    def convert(self, record: Record, **options: Any) -> Record:
        """``perspective="blue"`` writes place columns from Blue's side; ``"red"`` back."""
        target = options.pop("perspective", None)
        if options or not isinstance(target, str):
            raise NotationError("sanguine converts with --perspective red or --perspective blue")
        from .perspective import convert  # (start-up: only conversions need it)

        return convert(record, target)
