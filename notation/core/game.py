"""A game as the core sees it: its spec and the parts that implement the protocols.

``Game(SPEC, rules=rules, notation=notation, pictures=".render", ...)``: the spec
(:class:`~notation.core.plugins.GameSpec`) says what the game is called and where its
grammar is; each part (most often a module) implements one protocol of
:mod:`notation.core.protocols`. A part a check of records never needs (pictures,
conversions, new and random games) may be named by its module (``".render"``: beside
the game's module), which loads when the part is first asked for. The core (parsing, replay, diff, output, CLI) talks to games
only through :class:`Game`, whose every member is answered here once, by the part that
implements it or by the core's default: a game writes no method that only forwards.
"""
from __future__ import annotations

import importlib
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Generic, Iterable, Mapping, Sequence, TypeVar

from .ast import Tag
from .errors import Error, InputError, NotationError, TagError
from .plugins import GameSpec, check_setup, setup_options, under_names
from .protocols import (CAPABILITIES, REFINEMENTS, Conversion, Coordinates, LineColumns,
                        Notation, Pictures, Rec, RecordView, Result, Rules, Scores, SetUp,
                        Symmetries)

if TYPE_CHECKING:  # (start-up: ``random`` only names the type of an argument)
    import random

#: A game's own mutable state type and event value type.
State = TypeVar("State")
Event = TypeVar("Event")
C = TypeVar("C")

__all__ = ["AnyGame", "Game", "LineColumns", "MissingCapability", "need", "needed",
           "snake_case", "state_repr"]

#: Which refinement part answers each refinement member.
_ROLE_OF = {member: role for role, members in REFINEMENTS.items() for member in members}


class MissingCapability(NotationError):
    """A command needs a capability the game does not implement (one line, exit 2)."""


class Game(Generic[State, Event]):
    """One game: its spec and its parts.

    ``rules`` and ``notation`` are required; ``pictures``, ``symmetries``,
    ``conversion``, ``coordinates`` and ``scores`` are capabilities (None: a command
    that needs one refuses in one line); the refinements (``report``, ``positions``,
    ``identity``, ``layout``, ``columns``, ``fast_apply``, ``setup``, ``random``,
    ``chance``, ``actors``) may
    implement any of their members, the others keep the core's default. A part given
    by module name loads when first asked for. A part missing a member its protocol
    requires is refused (:class:`InputError`) when it is first had.

    ``apply`` mutates the state in place (replay of long archives should not allocate
    a board per ply); use :meth:`copy` to keep a snapshot.
    """

    def __init__(self, spec: GameSpec, *, rules: Rules[State, Event],
                 notation: Notation[State, Event],
                 pictures: Pictures[State] | str | None = None,
                 symmetries: Symmetries[Event] | str | None = None,
                 conversion: Conversion | str | None = None,
                 coordinates: Coordinates | str | None = None,
                 scores: Scores[State] | str | None = None, report: object = None,
                 positions: object = None, identity: object = None, layout: object = None,
                 columns: object = None, fast_apply: object = None, setup: object = None,
                 random: object = None, chance: object = None, actors: object = None,
                 compiled: tuple[str, ...] = ()) -> None:
        #: What the game is before its code loads (the entry point's value).
        self.spec = spec
        #: Registry name, also the value of the ``[Game "..."]`` tag; the rest as the spec says.
        self.name, self.title, self.extensions = spec.name, spec.title, spec.extensions
        self.grammar, self.grammar_package = spec.grammar, spec.grammar_package
        self.events_module, self.tags, self.directives = (spec.events_module, spec.tags,
                                                          spec.directives)
        self.setup_positions, self.event_per_line = spec.setup_positions, spec.event_per_line
        self.numbered, self.dialects, self.options = spec.numbered, spec.dialects, spec.options
        self.winner_names, self.file_tags = spec.winners, spec.file_tags
        #: The parts served by compiled code in this install (``notation --version``).
        self.compiled = compiled
        _check(spec, "rules", rules, Rules)
        _check(spec, "notation", notation, Notation)
        self.rules, self.notation = rules, notation
        self._parts: dict[str, object] = {
            "pictures": pictures, "symmetries": symmetries, "conversion": conversion,
            "coordinates": coordinates, "scores": scores, "report": report,
            "positions": positions, "identity": identity, "layout": layout,
            "columns": columns, "fast_apply": fast_apply, "setup": setup, "random": random,
            "chance": chance, "actors": actors}
        #: Each refinement member had so far, by name (None: the core's default).
        self._refined: dict[str, Callable[..., Any] | None] = {}
        # The hot paths, bound once.
        self.apply: Callable[[State, Event], None] = rules.apply
        self.copy: Callable[[State], State] = rules.copy
        self.format_event: Callable[[Event], str] = notation.format_event

    # -- parts ------------------------------------------------------------------------
    def part(self, role: str) -> Any:
        """The part that plays ``role`` (``"pictures"``, ``"report"``, ...), loaded now if
        it was named by its module; None where the game has none."""
        found = self._parts[role]
        if isinstance(found, str):  # (``.render``: beside the module the spec names)
            module = importlib.import_module(found, self.spec.game.partition(":")[0]
                                             .rpartition(".")[0])
            if role in CAPABILITIES:
                _check(self.spec, role, module, CAPABILITIES[role][0])
            self._parts[role] = found = module
        return found

    def _own(self, member: str) -> Callable[..., Any] | None:
        """The game's own refinement ``member``, or None (the core's default)."""
        try:
            return self._refined[member]
        except KeyError:
            part = self.part(_ROLE_OF[member])
            own = self._refined[member] = getattr(part, member, None)
            return own

    def capabilities(self) -> list[str]:
        """The capabilities this game implements, by name (none is loaded to say so)."""
        return [name for name in CAPABILITIES if self._parts[name] is not None]

    @property
    def pictures(self) -> Pictures[State] | None:
        return self.part("pictures")  # type: ignore[no-any-return]

    @property
    def symmetries(self) -> Symmetries[Event] | None:
        return self.part("symmetries")  # type: ignore[no-any-return]

    @property
    def conversion(self) -> Conversion | None:
        return self.part("conversion")  # type: ignore[no-any-return]

    @property
    def coordinates(self) -> Coordinates | None:
        return self.part("coordinates")  # type: ignore[no-any-return]

    @property
    def scores(self) -> Scores[State] | None:
        return self.part("scores")  # type: ignore[no-any-return]

    # -- what the core asks before choosing a path ------------------------------------
    @property
    def event_types(self) -> tuple[type, ...]:
        """The classes of the game's events (what ``Position.push`` accepts)."""
        return self.notation.event_types

    @property
    def compact_is_full(self) -> bool:
        """Whether :meth:`position` and :meth:`full_position` write one text (export then
        writes it once)."""
        return self._own("compact_position") is None

    @property
    def counts_time(self) -> bool:
        """Whether :meth:`timeless_position` changes anything (position keys then need it)."""
        return self._own("timeless_position") is not None

    @property
    def has_symmetries(self) -> bool:
        """Whether the board has symmetries (:meth:`least_image` finds other images)."""
        return self._parts["symmetries"] is not None

    # -- notation ---------------------------------------------------------------------
    def read_event(self, kind: str, text: str) -> Event:
        """An event from one grammar token (``kind``: its terminal); NotationError when
        the text is shaped like an event but denotes none, or ``kind`` is no event
        terminal of the game."""
        return self.event_reader(kind)(text)

    def event_reader(self, kind: str) -> Callable[[str], Event]:
        """The reader of one terminal, as a plain function (the reader's hot path); for a
        name that is no event terminal of the game, one that refuses every text."""
        try:  # (by [], not get(): a game may make its readers on first ask)
            found: Callable[[str], Event] = self.notation.readers[kind]
            return found
        except KeyError:
            pass
        name = self.name

        def no_terminal(text: str) -> Event:
            raise NotationError(f"{name} has no event terminal {kind}")
        return no_terminal

    def applier(self, state: State) -> Callable[[Event], None]:
        """``apply`` bound to one state, as a plain function (the reader's hot path)."""
        own = self._own("applier")
        if own is not None:
            return own(state)  # type: ignore[no-any-return]
        return partial(self.apply, state)  # (called in C: no Python frame of its own)

    @property
    def plays_words(self) -> bool:
        """Whether the game plays a whole game's words in one call (:meth:`replay_words`)."""
        return self._own("replay_words") is not None

    def replay_words(self, state: State, words: list[str]) -> bool | None:
        """Every word (an event's text, as its one terminal matched it) applied to
        ``state`` in one call, and who moves next found: True; False at the first word that
        is not a legal event read there (``state`` is then unspecified); None where the
        game has no such call now (each event is read and applied instead)."""
        own = self._own("replay_words")
        return None if own is None else own(state, words)

    def replay_body(self, state: State, body: str) -> int | bool | None:
        """A body in the usual layout ("1. X 2. Y") applied to ``state`` in one call, cut
        into its words as the fast path cuts it (``fastpath._usual_words``, its
        definition, then :meth:`replay_words`): the words played; False at the first word
        that is not a legal event read there (``state`` is then unspecified); None, the
        state untouched, where the call does not take the body (another layout) or the
        game has no such call."""
        own = self._own("replay_body")
        return None if own is None else own(state, body)

    def diagnose(self, text: str) -> str:
        """Why ``text`` (which the grammar could not read as an event) is not one."""
        return self.notation.diagnose(text)

    def glyph_blank(self, event: Event) -> bool:
        """Whether ``fmt`` writes a blank between ``event`` and its glyph (``R draw Spark
        !``): where the event's last word could take the glyph in, or the game writes one
        event per line."""
        own = self._own("glyph_blank")
        return bool(own(event)) if own is not None else self.event_per_line

    def fills_line(self, event: Event) -> bool:
        """Whether ``event`` runs to the end of its line, so that ``fmt`` writes its
        annotations on the lines after it (Sanguine's deal)."""
        own = self._own("fills_line")
        return bool(own(event)) if own is not None else False

    # -- rules ------------------------------------------------------------------------
    def setup(self, options: Mapping[str, Any]) -> SetUp:
        """What a new game starts from (``notation.new(game, **options)``): tags and set-up
        lines.

        An option is one of the game's tags in snake case (``hand_size=3`` is
        ``[HandSize "3"]``); a list is written with spaces between its items. An option
        the game does not read raises :class:`~notation.core.errors.Error` naming the
        ones it does. The game's Setup part may make the whole set-up, rewrite the options
        first, or make tags of some options itself.
        """
        own = self._own("set_up")
        if own is not None:
            return own(options)  # type: ignore[no-any-return]
        rewrite = self._own("setup_options")
        options = rewrite(options) if rewrite is not None else options
        tagged = self._own("option_tags")
        own_tags: dict[str, Tag] = tagged(options) if tagged is not None else {}
        known = {snake_case(key): key for key in self.tags if key not in ("Game", "Result")}
        tags = [Tag("Game", self.name)]
        for option, value in options.items():
            if option in own_tags:
                continue
            key = known.get(option)
            if key is None:
                raise Error(f"{self.name} has no option {option!r}; its options are "
                            f"{', '.join(sorted(known)) or 'none'}")
            text = " ".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)
            tags.append(Tag(key, text))
        return SetUp(tags + list(own_tags.values()), [])

    def start(self, record: RecordView) -> State:
        """The state before the first event, from the record's tags (TagError): every path
        that replays starts here, so a game that takes no set-up position refuses a
        ``[Position]`` tag here, once for all of them."""
        if not self.setup_positions and "Position" in record.headers:
            raise TagError("Position", f"{self.name} records cannot start from a set-up "
                                       f"[Position]; remove the tag")
        return self.rules.start(record)

    def legal_moves(self, state: State, **options: Any) -> list[Event]:
        """Every event the player to move may play now (empty once the game is over)."""
        return self.rules.legal_moves(state, **options)

    def is_over(self, state: State) -> bool:
        return self.rules.is_over(state)

    def to_move(self, state: State) -> str | None:
        """Who moves next, in the game's own words (``None`` when over)."""
        return self.rules.to_move(state)

    def result(self, state: State) -> Result:
        """How the game stands in ``state`` (the rules' :class:`Result`)."""
        return self.rules.result(state)

    @property
    def gives_result_tags(self) -> bool:
        """Whether the game gives its result tags alone (:meth:`result_tags`: else they
        are its whole result's)."""
        return self._own("result_tags") is not None

    def result_tags(self, state: State) -> dict[str, str]:
        """The result tags a record ending in ``state`` carries (``"*"``: not over)."""
        own = self._own("result_tags")
        return own(state) if own is not None else self.rules.result(state).tags

    def winner_words(self, state: State) -> list[str]:
        """The winners in the game's own words; [] while the game goes on."""
        return self.rules.result(state).winners

    def result_json(self, state: State) -> dict[str, Any]:
        """The ``result`` object of ``replay --json``."""
        return self.rules.result(state).details

    # -- positions and output ---------------------------------------------------------
    def position(self, state: State) -> str:
        """The compact position notation of ``state`` (``replay --json``)."""
        own = self._own("compact_position")
        return own(state) if own is not None else self.notation.write_position(state)

    def full_position(self, state: State) -> str:
        """The position notation :meth:`read_position` reads back into the same game."""
        return self.notation.write_position(state)

    def read_position(self, text: str) -> State:
        """The state a position text writes (NotationError for a bad one)."""
        return self.notation.read_position(text)

    def timeless_position(self, full_position: str) -> str:
        """A full position without what only counts time (a move counter)."""
        own = self._own("timeless_position")
        return own(full_position) if own is not None else full_position

    def line_columns(self, state: State, events: Iterable[Event]) -> LineColumns:
        """Export's columns of a line: as each event is applied to ``state`` in turn, who
        was to move before it (None for the start), and the positions before and after
        each, compact and full (one sequence where the two are one). A game's Columns
        part may have them cheaper; a test holds it to this."""
        own = self._own("line_columns")
        if own is not None:
            return own(state, events)  # type: ignore[no-any-return]
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

    def event_columns(self, events: list[Event]
                      ) -> tuple[Sequence[str], Mapping[str, Sequence[str | None]]] | None:
        """The canonical text of each event and their fields column by column (by name,
        as :func:`notation.core.fields.field_columns` gives them), where the game has them
        cheaper than by writing each text and reading it back; None: read back."""
        own = self._own("event_columns")
        return own(self, events) if own is not None else None

    def state_json(self, state: State) -> dict[str, Any]:
        """The ``state`` object of ``replay --json`` (default: the position)."""
        own = self._own("state_json")
        return own(state) if own is not None else {"position": self.position(state)}

    def cells(self, state: State) -> dict[str, str]:
        """The state flattened to named parts, for diffing two states."""
        own = self._own("cells")
        return own(state) if own is not None else {"position": self.full_position(state)}

    def render(self, state: State, color: bool = False, **options: Any) -> str:
        """A text picture of the state for people (MissingCapability without pictures)."""
        return need(self, self.pictures, "pictures", "a text picture").render(
            state, color, **options)

    def drawing(self, state: State, **options: Any) -> Any:
        """The position as a :class:`notation.render.svg.Drawing`."""
        return need(self, self.pictures, "pictures", "a drawing").drawing(state, **options)

    def svg(self, state: State, **options: Any) -> str:
        """The position as SVG text (``options`` as for :meth:`drawing`)."""
        return str(self.drawing(state, **options))

    # -- symmetries -------------------------------------------------------------------
    def least_image(self, full_position: str) -> tuple[str, tuple[str, ...]]:
        """A full position under the board's symmetries: the image that sorts first and
        the transforms that give it (without symmetries: the position and none)."""
        symmetries = self.symmetries
        return (full_position, ()) if symmetries is None else symmetries.least_image(
            full_position)

    def transform_event(self, transform: str, event: Event) -> Event:
        """The event played on the board's image under ``transform``."""
        return need(self, self.symmetries, "symmetries", "an image of a move"
                    ).transform_event(transform, event)

    def symmetric_keys(self, record: RecordView, transforms: Sequence[str] | None = None
                       ) -> list[str] | None:
        """The record's keys in the image that sorts first (``dedupe --symmetric``);
        None when the game has no symmetries."""
        symmetries = self.symmetries
        return None if symmetries is None else symmetries.symmetric_keys(record, transforms)

    # -- identity ---------------------------------------------------------------------
    def event_identity(self, event: Event) -> str:
        """What makes two events one move, whatever their spelling (default: the text)."""
        own = self._own("event_identity")
        return own(event) if own is not None else self.format_event(event)

    def canonical_event(self, state: State, event: Event) -> Event:
        """The one spelling of ``event`` played in ``state`` (``fmt --canonical``)."""
        own = self._own("canonical_event")
        return own(state, event) if own is not None else event

    def event_keys(self, record: RecordView) -> list[str]:
        """The record's mainline as :meth:`event_identity` keys (``diff``, ``dedupe``)."""
        own = self._own("event_keys")
        if own is not None:
            return own(record)  # type: ignore[no-any-return]
        identity = self.event_identity
        return [identity(e) for e in record.events]

    def setup_identity(self, state: State, symmetric: bool = False) -> str:
        """What a record's start sets up, spelled one way whatever its tags said (default:
        the full position, or its least image when ``symmetric``)."""
        own = self._own("setup_identity")
        if own is not None:
            return own(state, symmetric)  # type: ignore[no-any-return]
        position = self.full_position(state)
        return self.least_image(position)[0] if symmetric else position

    def notation_identity(self, state: State) -> str:
        """How a record starting in ``state`` writes its moves (default: nothing)."""
        own = self._own("notation_identity")
        return own(state) if own is not None else ""

    def quick_keys(self, words: list[str]) -> list[str] | None:
        """``event_keys`` straight from the words as written, where cheap; None: read."""
        own = self._own("quick_keys")
        return own(words) if own is not None else None

    # -- chance -----------------------------------------------------------------------
    def chance_due(self, state: State) -> bool:
        """Whether the next event is chance's (default: whether it has outcomes)."""
        own = self._own("chance_due")
        return bool(own(state) if own is not None else self.chance_outcomes(state))

    def chance_outcomes(self, state: State) -> list[tuple[Event, float]]:
        """The chance event due now (a tile drawn, a hand dealt, a die rolled): each
        outcome with its probability, in the order of ``legal_moves``; [] when the next
        event is a player's (a game without chance: always)."""
        own = self._own("chance_outcomes")
        return [] if own is None else own(state)

    def sample_chance(self, state: State, rng: random.Random) -> Event | None:
        """One outcome of the chance event due now, drawn with its probability (None when
        the next event is a player's)."""
        own = self._own("sample_chance")
        if own is not None:
            return own(state, rng)  # type: ignore[no-any-return]
        outcomes = self.chance_outcomes(state)
        if not outcomes:
            return None
        return rng.choices([event for event, _ in outcomes],
                           weights=[probability for _, probability in outcomes])[0]

    def chance_event(self, event: Event) -> bool:
        """Whether ``event`` is one chance plays (a draw, a deal, a roll), not a player:
        a player's event pushed where chance is due (a Flows placement naming the tile it
        drew) is the player's."""
        own = self._own("chance_event")
        return bool(own(event)) if own is not None else False

    def carries_chance(self, event: Event) -> bool:
        """Whether ``event``'s text carries a chance outcome of its own (a Flows placement
        names the tile it drew): a record's replay plays it where chance is due, but
        :attr:`Position.legal_moves` offers chance's outcomes there instead."""
        own = self._own("carries_chance")
        return bool(own(event)) if own is not None else False

    # -- actors -----------------------------------------------------------------------
    def opening(self, state: State, players: int) -> list[Event]:
        """The events a referee plays itself before any seat moves, to seat ``players``
        (Philosophy's joins); none by default."""
        own = self._own("opening")
        return [] if own is None else list(own(state, players))

    def actor(self, state: State, event: Event) -> str | None:
        """The seat that plays ``event`` from ``state`` (a nomic vote: the voter's), or
        None for an event the rules play themselves, which a referee plays and no seat
        may (nomic's turn order and a vote's outcome, Philosophy's joins); by default the
        seat to move."""
        own = self._own("actor")
        return self.to_move(state) if own is None else own(state, event)

    def read_answer(self, state: State, text: str) -> Event | None:
        """A program's answer written otherwise than in the notation, as the event it
        means in ``state`` (Tilewe: the cells a piece covers, ``a1,a2,b2``, as Pentobi's
        engine answers); None when it is not such an answer (read it as notation)."""
        own = self._own("read_answer")
        return None if own is None else own(state, text)

    # -- archives ---------------------------------------------------------------------
    def seats(self, state: State) -> list[str] | None:
        """The seats in seat order; None when the game cannot say."""
        scores = self.scores
        return None if scores is None else scores.seats(state)

    def player_count(self, state: State) -> int | None:
        """How many players the game has (``select --players``)."""
        scores = self.scores
        return None if scores is None else scores.player_count(state)

    def facts(self, state: State) -> dict[str, Any]:
        """Per-game figures ``stats`` summarises: numbers are averaged, words counted."""
        scores = self.scores
        return {} if scores is None else scores.facts(state)

    # -- generation and conversion ----------------------------------------------------
    def random_tags(self, options: Mapping[str, Any]) -> dict[str, str]:
        """Tags for a random game: those of the record ``notation.new`` starts from with
        the same options, each declared default first and every value checked."""
        declared = setup_options(self.options)
        values = {name: option.default for name, option in declared.items()
                  if option.default is not None}
        values.update(under_names(self.name, self.options, {
            name: value for name, value in options.items() if value is not None}))
        check_setup(self.name, self.options, values)
        tags = {tag.key: tag.value for tag in self.setup(values).tags}
        adjust = self._own("random_tags")
        return adjust(tags) if adjust is not None else tags

    def random_setup(self, rng: random.Random, options: Mapping[str, Any]) -> SetUp:
        """What a random game starts from: the game's own draw (Sanguine's decks), else
        :meth:`setup` of :meth:`random_tags`."""
        own = self._own("random_setup")
        if own is not None:
            return own(rng, options)  # type: ignore[no-any-return]
        return SetUp([Tag(key, value) for key, value in self.random_tags(options).items()], [])

    def random_events(self, rng: random.Random, record: RecordView,
                      max_plies: int = 10_000) -> list[Event]:
        """A random complete legal game from the start of ``record`` (default: uniformly
        among legal moves).

        :raises NotationError: a set-up the game cannot start from (Tilewe's owners)."""
        own = self._own("random_events")
        try:
            if own is not None:
                return own(rng, record)  # type: ignore[no-any-return]
            state = self.start(record)
        except TagError as exc:
            raise NotationError(f"{self.name}: option {snake_case(exc.key)}: "
                                f"{exc.message}") from None
        events: list[Event] = []
        while not self.is_over(state) and len(events) < max_plies:
            moves = self.legal_moves(state)
            if not moves:
                break
            move = rng.choice(moves)
            self.apply(state, move)
            events.append(move)
        return events

    def convert(self, record: Rec, **options: Any) -> Rec:
        """The same game written another way (replaying it gives the same states)."""
        return need(self, self.conversion, "conversion", "convert").convert(record, **options)

    def convert_coordinate(self, text: str, to: str, options: Mapping[str, Any]) -> str:
        """One coordinate rewritten into another point of view (``notation coords``)."""
        return need(self, self.coordinates, "coordinates", "coords").convert_coordinate(
            text, to, options)

    def __repr__(self) -> str:
        return f"<notation game {self.name!r}>"


#: A game of any state and event types: what the game-neutral core handles.
AnyGame = Game[Any, Any]


def need(game: AnyGame, part: C | None, capability: str, feature: str) -> C:
    """``part`` (one of ``game``'s capabilities), or :class:`MissingCapability` naming the
    feature that needs it and the members it lacks."""
    if part is None:
        protocol, noun = CAPABILITIES[capability]
        raise MissingCapability(f"{game.name} has no {noun}; {feature} needs the "
                                f"{protocol.__name__} capability "
                                f"({', '.join(_members(protocol))})")
    return part


def needed(game: AnyGame, capability: str, feature: str) -> Any:
    """:func:`need` of ``game``'s part for ``capability`` (a command checks it before it
    does ``feature``'s work)."""
    return need(game, game.part(capability), capability, feature)


def _members(protocol: type) -> list[str]:
    return [name for name in vars(protocol) if not name.startswith("_")]


def _check(spec: GameSpec, role: str, part: object, protocol: type) -> None:
    """Refuse a part that lacks a member of its protocol, naming them all."""
    missing = [name for name in _members(protocol) if not hasattr(part, name)]
    if missing:
        raise InputError(spec.game, f"its {role} lack {', '.join(missing)} "
                                    f"({protocol.__name__}: {', '.join(_members(protocol))})")


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
