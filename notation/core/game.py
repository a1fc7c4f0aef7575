"""The one small interface every game implements.

The core (parsing, replay, diff, output, CLI) talks to games only through
:class:`Game`. A game brings its grammar file, its event value type and a
mutable state type of its own; the core never looks inside either.
"""
from __future__ import annotations

import types
from abc import ABC, abstractmethod
from functools import lru_cache
from typing import (TYPE_CHECKING, Any, Callable, Generic, Iterable, Mapping, Sequence, TypeVar,
                    Union, get_args, get_origin)

from .ast import EventNode, Record, Tag
from .errors import Error, NotationError, TagError
from .options import GameOption, check_setup, setup_options, under_names
from .protocols import LineColumns as LineColumns

if TYPE_CHECKING:  # (start-up: ``random`` only names the type of an argument)
    import random

#: A game's own mutable state type and event value type.
State = TypeVar("State")
Event = TypeVar("Event")


class Game(ABC, Generic[State, Event]):
    """Rules and notation of one game.

    ``apply`` mutates the state in place (replay of long archives should not
    allocate a board per ply); use :meth:`copy` to keep a snapshot.
    """

    #: Registry name, also the value of the ``[Game "..."]`` tag.
    name: str = ""
    #: One-line description for ``notation games``.
    title: str = ""
    #: File extensions (with the dot) that hold records of this game.
    extensions: tuple[str, ...] = ()
    #: Grammar file, in the package ``grammar_package`` (a third-party game ships its own;
    #: it imports the container with ``%import record (...)``).
    grammar: str = ""
    grammar_package: str = "notation.grammars"
    #: The module of the game's event types, which ``notation.<name>`` gives
    #: (``notation.tilewe.Move.parse("F5e-a2d4")``); "" for none.
    events_module: str = ""
    #: Tags the game reads, with a short description and default.
    tags: Mapping[str, str] = {}
    #: Grammar terminals that are directives (kept in the AST, not events).
    directives: frozenset[str] = frozenset()
    #: Whether a ``[Position]`` tag can set up the starting state (``start`` reads it).
    setup_positions: bool = False
    #: How ``fmt`` writes events: one per line (events with spaces in them),
    #: and with their ``N.`` numbers or not.
    event_per_line: bool = False
    numbered: bool = True
    #: Other notations of this game's moves (Flows: the quortextt app's), which a
    #: ``[Dialect]`` tag or ``--dialect`` reads and ``convert --to NAME`` writes; ``convert``
    #: then takes ``to=NAME`` (the game's own name: its canonical notation).
    dialects: tuple[str, ...] = ()
    #: Options this game adds to some commands (``legal --tile``, ``random --hand-size``).
    options: tuple[GameOption, ...] = ()
    #: The parts of this game served by compiled code in this install (``notation
    #: --version`` lists them); each has a Python definition that runs where it is missing.
    compiled: tuple[str, ...] = ()

    # -- what the core asks before choosing a path ------------------------
    @property
    def event_types(self) -> tuple[type, ...] | None:
        """The classes of the game's events, as its class declares them (``Game[State,
        Event]``: Sanguine's ``Deal | Draw | Place | Pass | Result``); None for none."""
        return _declared_events(type(self))

    @property
    def compact_is_full(self) -> bool:
        """Whether :meth:`position` and :meth:`full_position` write one text (export then
        writes it once)."""
        return type(self).full_position is Game.full_position

    @property
    def counts_time(self) -> bool:
        """Whether :meth:`timeless_position` changes anything (position keys then need it)."""
        return type(self).timeless_position is not Game.timeless_position

    @property
    def has_symmetries(self) -> bool:
        """Whether the board has symmetries (:meth:`least_image` finds other images)."""
        return type(self).least_image is not Game.least_image

    # -- notation -------------------------------------------------------
    @abstractmethod
    def read_event(self, kind: str, text: str) -> Event:
        """Build an event from one grammar token (``kind`` is its terminal name).

        Raises :class:`NotationError` when the text is shaped like an event
        but does not denote one.
        """

    def event_reader(self, kind: str) -> Callable[[str], Event]:
        """``read_event`` for one terminal, as a plain function (the reader's hot path)."""
        read = self.read_event
        return lambda text: read(kind, text)

    def applier(self, state: State) -> Callable[[Event], None]:
        """``apply`` bound to one state, as a plain function (the reader's hot path)."""
        apply = self.apply
        return lambda event: apply(state, event)

    @abstractmethod
    def diagnose(self, text: str) -> str:
        """Why ``text`` (which the grammar could not read as an event) is not one."""

    def glyph_blank(self, event: Event) -> bool:
        """Whether ``fmt`` writes a blank between ``event`` and its glyph (``R draw Spark !``):
        where the event's last word could take the glyph in (a card's name), or the game
        writes one event per line."""
        return self.event_per_line

    def fills_line(self, event: Event) -> bool:
        """Whether ``event`` runs to the end of its line (or a ``#`` comment), so that ``fmt``
        writes its annotations and other comments on the lines after it: Sanguine's deal,
        whose card names run so far (any name a deck holds, ``;a`` and ``$5`` too)."""
        return False

    def format_event(self, event: Event) -> str:
        """Canonical text of one event; ``read_event`` of it gives the event back.

        Event types write their own notation with ``str()``; a game overrides
        this only if its events cannot.
        """
        return str(event)

    # -- rules ----------------------------------------------------------
    def setup(self, options: Mapping[str, Any]) -> Record:
        """The record a new game starts from (``notation.new(game, **options)``).

        An option is one of the game's tags in snake case (``hand_size=3`` is
        ``[HandSize "3"]``); a list is written with spaces between its items. An
        option the game does not read raises :class:`~notation.core.errors.Error`
        naming the ones it does. A game whose options are more than tag values
        (Sanguine's decks) overrides this.
        """
        known = {snake_case(key): key for key in self.tags if key not in ("Game", "Result")}
        tags = [Tag("Game", self.name)]
        for option, value in options.items():
            key = known.get(option)
            if key is None:
                raise Error(f"{self.name} has no option {option!r}; its options are "
                            f"{', '.join(sorted(known)) or 'none'}")
            text = " ".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)
            tags.append(Tag(key, text))
        return Record(self.name, list(tags))

    @abstractmethod
    def start(self, record: Record) -> State:
        """The state before the first event, from the record's tags.

        Raises :class:`~notation.core.errors.TagError` for a bad tag value.
        """

    @abstractmethod
    def apply(self, state: State, event: Event) -> None:
        """Check ``event`` against the rules and play it, or raise ``RuleError``."""

    def finish(self, record: Record, state: State) -> None:
        """Checks at the end of a whole record beyond its result tags; raise ``RuleError``."""

    def result_tags(self, state: State) -> dict[str, str]:
        """The result tags a record ending in ``state`` carries, with their values.

        ``"*"`` stands for a game that is not over. The replay driver checks
        each of these tags that a record gives; ``fmt --fix-results`` and
        ``notation random`` write them. A game with no result says ``{}``.
        """
        return {}

    @abstractmethod
    def legal_moves(self, state: State, **options: Any) -> list[Event]:
        """Every event the player to move may play now (empty once the game is over).

        ``options`` narrow the question where a game needs it (Flows: ``tile``);
        an option the game does not know raises :class:`NotationError`.
        """

    @abstractmethod
    def is_over(self, state: State) -> bool:
        """True when the rules say the game has ended."""

    @abstractmethod
    def copy(self, state: State) -> State:
        """An independent snapshot of ``state``."""

    # -- positions and output -------------------------------------------
    @abstractmethod
    def position(self, state: State) -> str:
        """The compact position notation of ``state``."""

    def line_columns(self, state: State, events: Iterable[Event]) -> LineColumns:
        """Export's columns of a line: as each event is applied to ``state`` in turn, who
        was to move before it (:meth:`to_move`; ``None`` for the start), and ``state``'s
        position before and after each, as :meth:`position` and as :meth:`full_position`
        write it (the same sequence where the two are one). A game whose positions cost
        less to write once the next event is known, or all at once, overrides it; a test
        holds an override to this."""
        full = not self.compact_is_full
        movers: list[str | None] = [None]
        positions = [self.position(state)]
        fulls = [self.full_position(state)] if full else positions
        for event in events:
            movers.append(self.to_move(state))
            self.apply(state, event)
            positions.append(self.position(state))
            if full:
                fulls.append(self.full_position(state))
        return movers, positions, fulls

    def event_columns(self, events: list[Event]) -> tuple[Sequence[str], Sequence[str]] | None:
        """The canonical text and the fields (``notation.core.fields.fields_json``) of each
        event, for a game that has them cheaper than by writing each text and reading it
        back (export's events table); None: read back. A test holds an override to that."""
        return None

    def timeless_position(self, full_position: str) -> str:
        """A :meth:`full_position` without what only counts time (a move counter), so
        that a position reached by two move orders reads the same (position keys,
        ``explore``). Most notations have no such counter."""
        return full_position

    def least_image(self, full_position: str) -> tuple[str, tuple[str, ...]]:
        """A full position under the board's symmetries: the image whose text sorts first
        and the names of the transforms that give it (several when the position is
        symmetric in itself). A game without symmetries: the position and none."""
        return full_position, ()

    def transform_event(self, transform: str, event: Event) -> Event:
        """The event played on the board's image under ``transform`` (a name that
        :meth:`least_image` gave)."""
        raise NotationError(f"{self.name} has no board symmetries")

    def full_position(self, state: State) -> str:
        """The position notation that :meth:`read_position` reads back into the same game
        (``Position.position``): whose turn, hands, open choices and all. Most games'
        :meth:`position` already is; a game whose ``replay --json`` position is a board
        alone (Philosophy's, a reference contract) says more here, as python-chess's
        ``fen()`` says more than its ``board_fen()``."""
        return self.position(state)

    def setup_identity(self, state: State, symmetric: bool = False) -> str:
        """What a record's start (``state``) sets up, spelled one way whatever its tags
        said (a default given or left out, ``04`` for 4): its position and the rules it is
        played under, but not how the moves are written (:meth:`notation_identity`). Two
        records with the same moves from starts equal here are one game (``dedupe``,
        ``merge``). ``symmetric``: the same for the start's images under the board's
        symmetries (:meth:`least_image`). By default the :meth:`full_position`; a game
        whose rules it does not hold, or which holds a point of view, says otherwise."""
        position = self.full_position(state)
        return self.least_image(position)[0] if symmetric else position

    def notation_identity(self, state: State) -> str:
        """How a record starting in ``state`` writes its moves, where
        :meth:`setup_identity` leaves it out (Flows: its dialect and point of view):
        copies equal in both can share one tree (``merge``). By default nothing."""
        return ""

    @abstractmethod
    def read_position(self, text: str) -> State:
        """Parse a position string (what :meth:`full_position` writes); raises
        :class:`NotationError`."""

    @abstractmethod
    def state_json(self, state: State) -> dict[str, Any]:
        """The ``state`` object of ``replay --json``."""

    @abstractmethod
    def result_json(self, state: State) -> dict[str, Any]:
        """The ``result`` object of ``replay --json``."""

    @abstractmethod
    def render(self, state: State, color: bool = False, **options: Any) -> str:
        """A text picture of the state for people.

        ``options`` are the game's own (Flows: ``perspective``); an unknown
        one raises :class:`NotationError`.
        """

    @abstractmethod
    def drawing(self, state: State, **options: Any) -> Any:
        """The position as a :class:`notation.core.svg.Drawing` (``perspective`` where
        the game has views; an unknown option raises :class:`NotationError`)."""

    def svg(self, state: State, **options: Any) -> str:
        """The position as SVG text (``options`` as for :meth:`drawing`)."""
        return str(self.drawing(state, **options))

    @abstractmethod
    def cells(self, state: State) -> dict[str, str]:
        """The state flattened to named parts, for diffing two states."""

    def to_move(self, state: State) -> str | None:
        """Who moves next, in the game's own words (``None`` when over)."""
        return None

    # -- archives ---------------------------------------------------------------
    def winner_words(self, state: State) -> list[str]:
        """The winners in the game's own words (``blue``, ``P2``, ``Sa``, ``red``); [] while
        the game goes on. More than one is a tie (or a team)."""
        return []

    def seats(self, state: State) -> list[str] | None:
        """The game's seats in seat order, named as :meth:`to_move` and :meth:`winner_words`
        name them (and in the order of ``result_json``'s ``scores``); None when the game
        cannot say (``explore`` then takes them in the order they moved)."""
        return None

    #: Every word :meth:`winner_words` may say (Tilewe's colours), so that ``select --winner``
    #: can refuse a word no game says; () for a game without winners, None when it cannot say.
    winner_names: tuple[str, ...] | None = None

    def player_count(self, state: State) -> int | None:
        """How many players the game has (``select --players``)."""
        return None

    def facts(self, state: State) -> dict[str, Any]:
        """Per-game figures ``stats`` summarises: numbers are averaged, words counted."""
        return {}

    # -- generation -----------------------------------------------------
    def random_tags(self, options: Mapping[str, Any]) -> dict[str, str]:
        """Tags for a random game: those of the record ``notation.new`` starts from with
        the same options (``notation random``'s, the game's set-up options), each declared
        default first and every value checked by its declaration (:class:`NotationError`)."""
        declared = setup_options(self.options)
        values = {name: option.default for name, option in declared.items()
                  if option.default is not None}
        values.update(under_names(self.name, self.options, {
            name: value for name, value in options.items() if value is not None}))
        check_setup(self.name, self.options, values)
        return self.setup(values).headers

    def random_record(self, rng: random.Random, options: Mapping[str, Any]) -> Record:
        """A complete random game: tags from ``random_tags``, then ``random_events``."""
        tags = self.random_tags(options)
        record = Record(self.name, [Tag(k, v) for k, v in tags.items()])
        try:
            record.items = [EventNode(e) for e in self.random_events(rng, record)]
        except TagError as exc:  # a set-up the game cannot start from (Tilewe's owners)
            raise NotationError(f"{self.name}: option {snake_case(exc.key)}: "
                                f"{exc.message}") from None
        return record

    def random_events(self, rng: random.Random, record: Record,
                      max_plies: int = 10_000) -> list[Event]:
        """A random complete legal game, chosen uniformly among legal moves."""
        state = self.start(record)
        events: list[Event] = []
        while not self.is_over(state) and len(events) < max_plies:
            moves = self.legal_moves(state)
            if not moves:
                break
            move = rng.choice(moves)
            self.apply(state, move)
            events.append(move)
        return events

    def event_identity(self, event: Event) -> str:
        """What makes two events one move: equal for every spelling of the same move, so
        that ``diff``, ``dedupe``, ``explore``, ``merge`` and the tree API compare moves,
        not how they are written. By default the canonical text (aliases already fold
        there); a game whose moves have several spellings of one effect (Tilewe: any
        contact tile of a placement) says what the move is (the cells it covers)."""
        return self.format_event(event)

    def canonical_event(self, state: State, event: Event) -> Event:
        """The one spelling of ``event``, played in ``state`` (where it is legal), that
        every spelling of the same move is written as (``fmt --canonical``). By default
        the event itself: its canonical text is already one spelling."""
        return event

    def event_keys(self, record: Record) -> list[str]:
        """The record's mainline as :meth:`event_identity` keys: equal means the same
        moves (for ``diff`` and ``dedupe``). Games whose text depends on a point of view
        (Flows) compare in one fixed frame.
        """
        identity = self.event_identity
        return [identity(e) for e in record.events]

    def quick_keys(self, words: list[str]) -> list[str] | None:
        """``event_keys`` straight from the words as written, when the game can tell
        cheaply that they already are (``dedupe``'s fast path); None: read the events."""
        return None

    def symmetric_keys(self, record: Record, transforms: Sequence[str] | None = None
                       ) -> list[str] | None:
        """The record's keys in the one image under the board's symmetries that sorts
        first (``dedupe --symmetric``), among ``transforms`` (names :meth:`least_image`
        gave; None: all); None when the game has no symmetries."""
        return None

    # -- conversion -------------------------------------------------------
    def convert(self, record: Record, **options: Any) -> Record:
        """The same game written another way (another player's view, say).

        Replaying the result gives the same states; comments are kept.
        """
        raise NotationError(f"{self.name} records have nothing to convert")

    def convert_coordinate(self, text: str, to: str, options: Mapping[str, Any]) -> str:
        """One coordinate rewritten into another point of view (``notation coords``)."""
        raise NotationError(f"{self.name} has no coordinates to convert")


#: A game of any state and event types: what the game-neutral core handles.
AnyGame = Game[Any, Any]


def state_repr(game: str, position: Callable[[], str]) -> str:
    """A state's ``repr``: its position notation, ``<tilewe position '...'>``; a state
    half built (a bug's traceback shows one) still gets something readable."""
    try:
        return f"<{game} position {position()!r}>"
    except Exception:
        return f"<{game} state (no position yet)>"


def snake_case(key: str) -> str:
    """A tag's name as an option: ``HandSize`` -> ``hand_size``."""
    return "".join(f"_{c.lower()}" if c.isupper() and i else c.lower() for i, c in enumerate(key))


@lru_cache(maxsize=None)
def _declared_events(kind: type) -> tuple[type, ...] | None:
    """The event type a game class (or the game it derives from) gives ``Game``, once."""
    for klass in kind.__mro__:
        for base in klass.__dict__.get("__orig_bases__", ()):
            if get_origin(base) is Game:
                return _classes(get_args(base)[1])
    return None


def _classes(declared: Any) -> tuple[type, ...] | None:
    """The classes a type hint names (a class or a union of them); None for a type
    variable, ``Any`` or anything else that names no class."""
    if get_origin(declared) in (Union, types.UnionType):
        found = [_classes(member) for member in get_args(declared)]
        return None if None in found else tuple(c for one in found if one for c in one)
    origin = get_origin(declared) or declared  # (a generic class: its class)
    return (origin,) if isinstance(origin, type) else None
