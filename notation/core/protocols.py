"""What a game implements: two required protocols and optional capabilities.

A game is a bundle (:class:`~notation.core.game.Game`) of parts, most
often modules: :class:`Rules` (what may be played, and the end) and :class:`Notation`
(how events and positions are written) are required. The *capabilities*
(:class:`Pictures`, :class:`Symmetries`, :class:`Conversion`, :class:`Coordinates`,
:class:`Scores`) are optional: a command that needs a missing one says so in one
line. The *refinements* (:class:`Report` to :class:`RandomGames`) have a default in
the core; a refinement part may implement any of its members, the others keep the
default.

Leading parameters are positional-only, so that a module whose functions name their
state ``board`` or ``state`` satisfies the protocol as it is.
"""
from __future__ import annotations

from dataclasses import field
from typing import (TYPE_CHECKING, Any, Callable, Iterable, Mapping, NamedTuple, Protocol,
                    Sequence, TypeVar, runtime_checkable)

from .ast import Item, Pos, Tag
from .ast import Malformed
from .hand_dataclass import hand_dataclass

if TYPE_CHECKING:  # (start-up: these only name types)
    import random

    from notation.render.svg import Drawing

S = TypeVar("S")
E = TypeVar("E")
S_in = TypeVar("S_in", contravariant=True)
E_in = TypeVar("E_in", contravariant=True)
#: A record type (a conversion gives back the type it was given).
Rec = TypeVar("Rec", bound="RecordView")
#: A line's movers, positions and full positions (:meth:`ExportColumns.line_columns`).
LineColumns = tuple[list[str | None], Sequence[str], Sequence[str]]


@hand_dataclass(frozen=True)
class Result:
    """How a game stands: over or not, who won (the game's own words), its result tags
    (``*`` while it goes on) and the ``result`` object of ``replay --json`` (scores)."""

    over: bool
    winners: list[str]
    tags: dict[str, str]
    details: dict[str, Any] = field(default_factory=dict)

    def __init__(self, over: bool, winners: list[str], tags: dict[str, str],
                 details: dict[str, Any] | None = None) -> None:
        object.__setattr__(self, "over", over)
        object.__setattr__(self, "winners", winners)
        object.__setattr__(self, "tags", tags)
        object.__setattr__(self, "details", {} if details is None else details)

    @property
    def scores(self) -> Any:
        """The scores, where the game keeps any (Tilewe, Sanguine), else None."""
        return self.details.get("scores")


class RecordView(Protocol):
    """What the core's replay and a game's rules read of a game record. A record is a
    tree's root (:class:`~notation.core.tree.GameNode`, which sits above the replay and the
    games' parts); this is its face as the layers below the tree see it."""

    @property
    def game(self) -> str | None:
        """The registered game's name (None when the record names no known game)."""
    @property
    def game_problem(self) -> str | None:
        """Why no game could be chosen (unknown, or two named), if so."""
    @property
    def tags(self) -> list[Tag | Malformed]:
        """The tag lines as read (a broken one is Malformed)."""
    @property
    def headers(self) -> Mapping[str, str]:
        """The tags by name."""
    @property
    def items(self) -> list[Item]:
        """The body in file order: directives, comments, events, variations, unreadable text."""
    @property
    def events(self) -> list[Any]:
        """The mainline's events."""
    @property
    def source(self) -> str:
        """The file it was read from."""
    @property
    def raw(self) -> str:
        """Its own lines of that file, as written."""
    @property
    def index(self) -> int:
        """Its 1-based place in that file."""
    @property
    def pos(self) -> Pos:
        """Where it starts in that file."""
    @property
    def outcome(self) -> Any:
        """The verdict a reader's fast path already reached, if one did."""
    @property
    def has_variations(self) -> bool:
        """Whether the body holds a variation."""
    def source_line(self, line: int, /) -> str | None:
        """Line ``line`` of the file, where it lies in this record's piece."""
    def source_lines(self, lines: Iterable[int], /) -> dict[int, str | None]:
        """Several lines of the file (one pass)."""


class SetUp(NamedTuple):
    """What a new game starts from: its tags, and its set-up lines (Sanguine's decks)."""

    tags: list[Tag]
    items: list[Item]


# -- required ---------------------------------------------------------------------------

@runtime_checkable
class Rules(Protocol[S, E]):
    """What the game is: a start, an event played or refused, what may be played, the end.
    ``apply`` mutates the state (replaying an archive allocates no board per ply)."""

    def start(self, record: RecordView, /) -> S:
        """The state before the first event, from the record's tags (TagError)."""

    def apply(self, state: S, event: E, /) -> None:
        """Check ``event`` against the rules and play it, or raise RuleError."""

    def legal_moves(self, state: S, /, **options: Any) -> list[E]:
        """Every event the mover may play ([] once over); NotationError for an option
        the game does not take."""

    def is_over(self, state: S, /) -> bool:
        """Whether the rules say the game has ended."""

    def copy(self, state: S, /) -> S:
        """An independent snapshot (``apply`` mutates)."""

    def to_move(self, state: S, /) -> str | None:
        """Who moves next, in the game's words (None when over or nobody is named)."""

    def result(self, state: S, /) -> Result:
        """Over or not, winners, result tags (``"*"`` while on), replay --json's details."""


@runtime_checkable
class Notation(Protocol[S, E]):
    """How events and positions are written; the grammar file is named in the spec."""

    @property
    def readers(self) -> Mapping[str, Callable[[str], E]]:
        """One reader per event terminal of the grammar (the reader's hot path); each
        raises NotationError for text shaped like an event that denotes none."""

    @property
    def event_types(self) -> tuple[type, ...]:
        """The classes of the game's events (what ``Position.push`` accepts)."""

    def format_event(self, event: E, /) -> str:
        """Canonical text: the reader of its terminal gives the event back."""

    def diagnose(self, text: str, /) -> str:
        """Why ``text``, which no event terminal took, is not an event."""

    def read_position(self, text: str, /) -> S:
        """The state a position text writes (NotationError for a bad one)."""

    def write_position(self, state: S, /) -> str:
        """What :meth:`read_position` reads back: whose turn, hands, everything."""


# -- capabilities: a command that needs a missing one says so -------------------------

@runtime_checkable
class Pictures(Protocol[S_in]):
    """Pictures of a position for people: text, and SVG."""

    def render(self, state: S_in, /, color: bool = False, **options: Any) -> str:
        """A text picture (``options``: the game's own, such as ``perspective``)."""

    def drawing(self, state: S_in, /, **options: Any) -> Drawing:
        """The position as a :class:`~notation.render.svg.Drawing`."""


@runtime_checkable
class Symmetries(Protocol[E]):
    """The board's symmetries (``dedupe --symmetric``, symmetric keys)."""

    def least_image(self, full_position: str, /) -> tuple[str, tuple[str, ...]]:
        """The image that sorts first, and the transforms that give it."""

    def transform_event(self, transform: str, event: E, /) -> E:
        """``event`` on the board's image under ``transform``."""

    def symmetric_keys(self, record: RecordView, transforms: Sequence[str] | None = None, /
                       ) -> list[str] | None:
        """The record's event keys in the image that sorts first, among ``transforms``."""


@runtime_checkable
class Conversion(Protocol):
    """Another way to write the same game (another player's view, another notation)."""

    def convert(self, record: Rec, /, **options: Any) -> Rec:
        """The record rewritten: replaying it gives the same states; comments kept."""


@runtime_checkable
class Coordinates(Protocol):
    """One coordinate in another point of view (``notation coords``)."""

    def convert_coordinate(self, text: str, to: str, options: Mapping[str, Any], /) -> str:
        """``text`` rewritten into the view ``to``."""


@runtime_checkable
class Scores(Protocol[S_in]):
    """Seats and per-game figures (``select --players``, ``stats``, ``explore``)."""

    def seats(self, state: S_in, /) -> list[str] | None:
        """Seat order, named as ``to_move`` and the winners name them."""

    def player_count(self, state: S_in, /) -> int | None:
        """How many players the game has."""

    def facts(self, state: S_in, /) -> dict[str, Any]:
        """Figures ``stats`` summarises: numbers averaged, words counted."""


# -- refinements: the core has a default for each member ------------------------------

class Report(Protocol[S_in]):
    """``replay --json``'s state object, and the parts ``diff`` compares (default: the
    position text as one part)."""

    def state_json(self, state: S_in, /) -> dict[str, Any]: ...
    def cells(self, state: S_in, /) -> dict[str, str]: ...


class PositionViews(Protocol[S_in]):
    """A compact position (``replay --json``; default the full one) and a full position
    without move counters (position keys; default unchanged)."""

    def compact_position(self, state: S_in, /) -> str: ...
    def timeless_position(self, full_position: str, /) -> str: ...


class Identity(Protocol[S_in, E]):
    """What makes two events, starts and notations one (``diff``, ``dedupe``, ``merge``);
    defaults: the canonical text, the full position, nothing."""

    def event_identity(self, event: E, /) -> str: ...
    def canonical_event(self, state: S_in, event: E, /) -> E: ...
    def event_keys(self, record: RecordView, /) -> list[str]: ...
    def setup_identity(self, state: S_in, symmetric: bool = False, /) -> str: ...
    def notation_identity(self, state: S_in, /) -> str: ...
    def quick_keys(self, words: list[str], /) -> list[str] | None: ...


class Layout(Protocol[E_in]):
    """How ``fmt`` lays events out (defaults: a blank before a glyph when one event per
    line; no event fills its line)."""

    def glyph_blank(self, event: E_in, /) -> bool: ...
    def fills_line(self, event: E_in, /) -> bool: ...


class ExportColumns(Protocol[S_in, E]):
    """Export's columns at less cost than replaying ply by ply, or reading texts back
    (``event_columns`` is given the game: its grammar names the fields)."""

    def line_columns(self, state: S_in, events: Iterable[E], /) -> LineColumns: ...
    def event_columns(self, game: Any, events: list[E], /
                      ) -> tuple[Sequence[str], Mapping[str, Sequence[str | None]]] | None: ...


class FastApply(Protocol[S_in, E_in]):
    """The reader's hot path: ``apply`` bound to one state, as a plain function; the
    result tags alone (``result``'s details, ``replay --json``'s scores and lines, are
    more than a check of a record's ``[Result]`` needs); and, for a game of one event
    terminal, a whole game's words played in one call (compiled), or its body in the
    usual layout ("1. X 2. Y"), cut into its words in that call too."""

    def applier(self, state: S_in, /) -> Callable[[E_in], None]: ...
    def result_tags(self, state: S_in, /) -> dict[str, str]: ...
    def replay_words(self, state: S_in, words: list[str], /) -> bool | None: ...
    def replay_body(self, state: S_in, body: str, /) -> int | bool | None: ...


class Setup(Protocol):
    """What ``notation.new`` starts from (default: each option a tag): the whole set-up
    (Sanguine's decks), or the options rewritten before they become tags, or the tags the
    game makes of some options itself, by option (written after the others: Philosophy's
    ``color_in`` is ``[ColorIn]``, a tag its spec declares only as ``ColorXx``)."""

    def set_up(self, options: Mapping[str, Any], /) -> SetUp: ...
    def setup_options(self, options: Mapping[str, Any], /) -> Mapping[str, Any]: ...
    def option_tags(self, options: Mapping[str, Any], /) -> dict[str, Tag]: ...


class RandomGames(Protocol[E]):
    """A random complete game (default: the new game's set-up with the options' defaults,
    then uniform legal moves): the whole set-up drawn (Sanguine's decks), or the tags
    adjusted, or the events, drawn from the start of a record whose tags may say more
    than the state holds (Philosophy's ``[Players]``)."""

    def random_setup(self, rng: random.Random, options: Mapping[str, Any], /) -> SetUp: ...
    def random_tags(self, tags: dict[str, str], /) -> dict[str, str]: ...
    def random_events(self, rng: random.Random, record: RecordView, /) -> list[E]: ...


class Chance(Protocol[S_in, E]):
    """The events no player chooses: a tile drawn from a bag, a hand dealt, a die rolled
    (default: none; every event is a player's)."""

    def chance_due(self, state: S_in, /) -> bool: ...
    def chance_outcomes(self, state: S_in, /) -> list[tuple[E, float]]: ...
    def sample_chance(self, state: S_in, rng: random.Random, /) -> E | None: ...
    def chance_event(self, event: E, /) -> bool: ...
    def carries_chance(self, event: E, /) -> bool: ...


class Actors(Protocol[S_in, E]):
    """Who plays each event, for a referee seating programs (default: the seat to move
    plays every event, and nothing comes before the first move)."""

    def opening(self, state: S_in, players: int, /) -> list[E]: ...
    def actor(self, state: S_in, event: E, /) -> str | None: ...
    def read_answer(self, state: S_in, text: str, /) -> E | None: ...


#: Each capability's protocol, the noun a refusal uses, and its members.
CAPABILITIES: dict[str, tuple[type, str]] = {
    "pictures": (Pictures, "pictures"),
    "symmetries": (Symmetries, "board symmetries"),
    "conversion": (Conversion, "conversions"),
    "coordinates": (Coordinates, "coordinates"),
    "scores": (Scores, "scores"),
}
#: The refinement parts and the members each may implement.
REFINEMENTS: dict[str, tuple[str, ...]] = {
    "report": ("state_json", "cells"),
    "positions": ("compact_position", "timeless_position"),
    "identity": ("event_identity", "canonical_event", "event_keys", "setup_identity",
                 "notation_identity", "quick_keys"),
    "layout": ("glyph_blank", "fills_line"),
    "columns": ("line_columns", "event_columns"),
    "fast_apply": ("applier", "result_tags", "replay_words", "replay_body"),
    "setup": ("set_up", "setup_options", "option_tags"),
    "random": ("random_setup", "random_tags", "random_events"),
    "chance": ("chance_due", "chance_outcomes", "sample_chance", "chance_event",
               "carries_chance"),
    "actors": ("opening", "actor", "read_answer"),
}

