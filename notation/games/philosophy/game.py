"""Philosophy behind the core's :class:`~notation.core.game.Game` interface: wiring only.

Events are in events.py, the state in state.py, the rules in rules.py, the
position notation in position.py, pictures in text.py and svg.py.
"""
from __future__ import annotations

import re
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Mapping

from notation.core.ast import Record, Tag
from notation.core.errors import NotationError
from notation.core.game import Game

from . import events, generate, legal, report, rules
from .convert import convert_choices
from .events import Event
from . import CHOICE_FORMS, OPTIONS
from .position import read_position, timeless, write_position
from .state import PLAYER_CODES, PhilosophyState
from .text import render as render_text

if TYPE_CHECKING:  # (start-up: these only name types)
    from notation.core.svg import Drawing
    import random


#: Who acts while fewer than two players have joined: someone new joins.
JOINING = "new player"
#: ``notation.new("philosophy", color_in="Indiana Jones")`` sets ``[ColorIn]``.
_COLOUR_OPTION = re.compile(r"color_([a-z])([a-z])")


class Philosophy(Game[PhilosophyState, Event]):
    name = "philosophy"
    title = "Philosophy, tiles that push and turn (2-4 players), events like Te:C7ReNe[We]"
    extensions = (".philosophy", ".phil")
    grammar = events.GRAMMAR
    events_module = "notation.games.philosophy.events"
    tags = {
        "Game": '"philosophy"',
        "ColorXx": "display name of the player with code Xx, e.g. [ColorIn \"Indiana Jones\"]",
        "JoinPermitted": '"Only Before Any Placement" (default) or "Between Turns"',
        "JoinWhere": '"Immediately Next" (default) or "After A Full Turn"',
        "LeavePermitted": '"Only Before Any Placement" (default), "Never" or "Anytime"',
        "LeaveEffect": '"Ends Game" (default), "Rollback Placement" or "Remove Their Tiles"',
        "Position": "a set-up board in the board-state notation (players still join)",
        "Players": "informational (written by notation random); the joins decide who plays",
        "Result": '"*" while the game goes on, else the winner\'s code ("Sa"), or "none" when '
                  'a leave ended it without one',
    }
    setup_positions = True
    options = OPTIONS

    # -- notation ----------------------------------------------------------------------
    def read_event(self, kind: str, text: str) -> Event:
        return events.read(kind, text)

    def event_reader(self, kind: str) -> Callable[[str], Event]:
        return events.READERS.get(kind) or super().event_reader(kind)

    def diagnose(self, text: str) -> str:
        return events.diagnose(text)

    def glyph_blank(self, event: Event) -> bool:
        """A joiner's unquoted name would take a glyph in (``In+:indigo!``): a blank then."""
        return isinstance(event, events.Join) and not str(event).endswith(('"', "+"))

    # -- rules -------------------------------------------------------------------------
    def setup(self, options: Mapping[str, Any]) -> Record:
        """The base game's options (``join_permitted="between_turns"``, ``position=...``),
        and ``color_in="Indiana Jones"`` for a ``[ColorIn]`` display name."""
        colours = {key: value for key, value in options.items() if _COLOUR_OPTION.fullmatch(key)}
        record = super().setup({k: v for k, v in options.items() if k not in colours})
        for key, value in colours.items():
            m = _COLOUR_OPTION.fullmatch(key)
            assert m is not None  # chosen by this pattern above
            record.tags.append(Tag(f"Color{m[1].upper()}{m[2]}", str(value)))
        return record

    def start(self, record: Record) -> PhilosophyState:
        return rules.start(record)

    def apply(self, state: PhilosophyState, event: Event) -> None:
        rules.apply(state, event)

    def applier(self, state: PhilosophyState) -> Callable[[Event], None]:
        return partial(rules.apply, state)

    def legal_moves(self, state: PhilosophyState, **options: Any) -> list[Event]:
        if options:
            raise NotationError(f"philosophy legal moves take no options ({', '.join(options)})")
        return legal.legal_moves(state)

    def is_over(self, state: PhilosophyState) -> bool:
        return state.over

    def copy(self, state: PhilosophyState) -> PhilosophyState:
        return state.copy()

    def to_move(self, state: PhilosophyState) -> str | None:
        """The player to place or to choose; :data:`JOINING` while fewer than two have
        joined (``replay --json``'s ``to_move`` stays the head of the order)."""
        if not state.over and state.pending is None and len(state.order) < 2:
            return JOINING
        return state.to_move

    def result_tags(self, state: PhilosophyState) -> dict[str, str]:
        return rules.result_tags(state)

    winner_names = PLAYER_CODES

    def winner_words(self, state: PhilosophyState) -> list[str]:
        return rules.winners(state)

    # -- positions and output ------------------------------------------------------------
    def position(self, state: PhilosophyState) -> str:
        """The board alone: ``replay --json``'s ``position``, checked against the reference."""
        return state.position()

    def full_position(self, state: PhilosophyState) -> str:
        """The whole game in progress (players, hands, rules, an open choice ...), which
        :meth:`read_position` reads back into an identical state."""
        return write_position(state)

    def read_position(self, text: str) -> PhilosophyState:
        return read_position(text)

    def timeless_position(self, full_position: str) -> str:
        return timeless(full_position)

    def state_json(self, state: PhilosophyState) -> dict[str, Any]:
        return report.state_json(state)

    def result_json(self, state: PhilosophyState) -> dict[str, Any]:
        return report.result_json(state)

    def cells(self, state: PhilosophyState) -> dict[str, str]:
        return report.cells(state)

    def seats(self, state: PhilosophyState) -> list[str]:
        """The players who joined, in the order they joined."""
        return list(state.hands)

    def player_count(self, state: PhilosophyState) -> int:
        return len(state.hands)

    def facts(self, state: PhilosophyState) -> dict[str, Any]:
        return report.facts(state)

    def render(self, state: PhilosophyState, color: bool = False, **options: Any) -> str:
        if options:
            raise NotationError(f"philosophy boards take no view options ({', '.join(options)})")
        return render_text(state, color)

    def drawing(self, state: PhilosophyState, **options: Any) -> Drawing:
        if options:
            raise NotationError(f"philosophy pictures take no view options ({', '.join(options)})")
        from notation.games.philosophy.svg import draw  # (start-up: pictures load when drawn)

        return draw(state)

    # -- generation and conversion -------------------------------------------------------
    def random_events(self, rng: random.Random, record: Record,
                      max_plies: int = 400) -> list[Event]:
        return generate.random_events(rng, record, max_plies)

    def convert(self, record: Record, **options: Any) -> Record:
        choices = options.pop("choices", None)
        if choices not in CHOICE_FORMS or options:
            raise NotationError("philosophy converts with --choices inline or --choices separate")
        return convert_choices(record, choices)
