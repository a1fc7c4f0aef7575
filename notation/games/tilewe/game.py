"""Tilewe behind the core's :class:`~notation.core.game.Game` interface: wiring only.

Moves are ``events.py``, the board ``state.py``, the rules ``rules.py``, the
position notation ``position.py``, pictures ``text.py`` and ``svg.py``, the
board's symmetries ``symmetry.py``, random games ``generate.py``.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from notation.core.ast import Record
from notation.core.errors import NotationError
from notation.core.game import Game, LineColumns

from . import blokus, columns, position, rules, symmetry, text
from .events import Move, diagnose, read_move
from .identity import canonical_spelling, placement_key, placement_keys
from . import OPTIONS
from .state import COLORS, COMPILED, Board, replayed_columns

if TYPE_CHECKING:  # (start-up: these only name types)
    from notation.core.svg import Drawing
    import random


class Tilewe(Game[Board, Move]):
    name = "tilewe"
    title = "Tilewe, the Blokus-like tile game (1-4 players), moves like F5e-a2d4"
    extensions = (".tilewe",)
    grammar = "tilewe.lark"
    events_module = "notation.games.tilewe.events"
    tags = {
        "Game": '"tilewe"',
        "Players": "number of players, 1 to 4 (default 4); colours blue, yellow, red, green",
        "Position": "a set-up position in TPN to start from (the players are its hands)",
        "Result": '"*" while the game goes on, else the winners\' colours ("blue", "blue red")',
        "Scores": 'every colour\'s score (tiles placed, or Blokus points under [Scoring]) at '
                  'the record\'s end, e.g. "66 56 53 60"',
        "Corners": '"fixed": each colour\'s first piece covers its own corner (blue a20, '
                   'yellow t20, red t1, green a1); "any" (default): any free corner',
        "Owners": 'the player holding each colour, e.g. "1 2 1 2", "shared" for a colour the '
                  'players take in turn (Blokus Three-Player); default each its own',
        "Scoring": '"blokus": tiles +15 for all pieces placed, +5 more for the monomino last; '
                   '"tiles" (default)',
    }
    setup_positions = True
    options = OPTIONS
    compiled = ("position text",) if COMPILED else ()

    # -- notation -------------------------------------------------------------
    def read_event(self, kind: str, text: str) -> Move:
        return read_move(text)

    def event_identity(self, event: Move) -> str:
        """The cells the move covers (``identity.py``): one key for all its spellings."""
        return placement_key(event)

    def canonical_event(self, state: Board, event: Move) -> Move:
        """The spelling the Pentobi reader gives the move's cells (``identity.py``)."""
        return canonical_spelling(state, event)

    def event_reader(self, kind: str) -> Callable[[str], Move]:
        return read_move

    def diagnose(self, text: str) -> str:
        return diagnose(text)

    # -- rules ----------------------------------------------------------------
    def start(self, record: Record) -> Board:
        return rules.start(record.headers)

    def apply(self, state: Board, event: Move) -> None:
        rules.play(state, event)

    def applier(self, state: Board) -> Callable[[Move], None]:
        return partial(rules.play, state)

    def result_tags(self, state: Board) -> dict[str, str]:
        return rules.result_tags(state)

    def legal_moves(self, state: Board, **options: Any) -> list[Move]:
        if options:
            raise NotationError(f"tilewe legal moves take no options ({', '.join(options)})")
        return rules.legal_moves(state)

    def is_over(self, state: Board) -> bool:
        return rules.is_over(state)

    def copy(self, state: Board) -> Board:
        return state.copy()

    def to_move(self, state: Board) -> str | None:
        mover = state.to_move()
        return None if mover is None else COLORS[mover]

    def winner_words(self, state: Board) -> list[str]:
        return rules.winner_words(state)

    def seats(self, state: Board) -> list[str]:
        return list(COLORS[:state.players])

    winner_names = COLORS

    def player_count(self, state: Board) -> int:
        return state.players

    def facts(self, state: Board) -> dict[str, Any]:
        return state.facts()

    # -- positions and output -------------------------------------------------
    def position(self, state: Board) -> str:
        return state.position()

    def line_columns(self, state: Board, events: Iterable[Move]) -> LineColumns:
        """As the game's, all positions of the line written at once, and without the
        search for who is to move at every ply (:func:`~.state.replayed_columns`)."""
        movers, positions = replayed_columns(state, self.applier(state), events)
        return movers, positions, positions

    def event_columns(self, events: list[Move]) -> tuple[Sequence[str], Sequence[str]] | None:
        return columns.event_columns(self, events)

    def least_image(self, full_position: str) -> tuple[str, tuple[str, ...]]:
        return symmetry.least_position_image(full_position)

    def setup_identity(self, board: Board, symmetric: bool = False) -> str:
        """The full position, then the Blokus rules that TPN does not hold."""
        return f"{super().setup_identity(board, symmetric)} {blokus.rules_text(board)}"

    def transform_event(self, transform: str, event: Move) -> Move:
        return symmetry.transform_move(transform, event)

    def read_position(self, text: str) -> Board:
        return position.read(text)

    def state_json(self, state: Board) -> dict[str, Any]:
        return state.as_json()

    def result_json(self, state: Board) -> dict[str, Any]:
        return rules.result_json(state)

    def drawing(self, state: Board, **options: Any) -> Drawing:
        if options:
            raise NotationError(f"tilewe pictures take no view options ({', '.join(options)})")
        from notation.games.tilewe.svg import draw  # (start-up: pictures load when drawn)

        return draw(state)

    def render(self, state: Board, color: bool = False, **options: Any) -> str:
        if options:
            raise NotationError(f"tilewe boards take no view options ({', '.join(options)})")
        return text.render(state, color)

    def cells(self, state: Board) -> dict[str, str]:
        return state.cells()

    # -- symmetries -------------------------------------------------------------
    def convert(self, record: Record, **options: Any) -> Record:
        """``transform``: the same game on a turned or mirrored board (comments kept)."""
        name = options.pop("transform", None)
        if name not in symmetry.NAMES or options:
            raise NotationError(f"tilewe converts with --transform {'|'.join(symmetry.NAMES)}")
        return symmetry.transform_record(name, record)

    def quick_keys(self, words: list[str]) -> list[str] | None:
        """Each word's placement, when every one is a move in canonical spelling."""
        keys = placement_keys()
        try:
            return list(map(keys.__getitem__, words))
        except KeyError:
            return None

    def symmetric_keys(self, record: Record, transforms: Sequence[str] | None = None
                       ) -> list[str]:
        return symmetry.least_image(record.events, transforms)

    # -- generation -----------------------------------------------------------
    def random_events(self, rng: random.Random, record: Record,
                      max_plies: int = 10_000) -> list[Move]:
        # (start-up: only random games need the move search's tables)
        from notation.games.tilewe.generate import random_events

        return random_events(rng, self.start(record), max_plies)
