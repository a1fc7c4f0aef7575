"""A game as the core sees it, made of the parts that implement the protocols.

``ComposedGame(SPEC, rules=rules, notation=notation, pictures=render, ...)``: the
spec says what the game is called and where its grammar is; each part (most often
a module) implements one protocol of :mod:`notation.core.protocols`. Every member
of the core's :class:`~notation.core.game.Game` interface is answered here once,
by the part that implements it or by the core's default, so a game writes no
method that only forwards a call.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence, TypeVar

from .ast import Record, Tag
from .errors import InputError, NotationError
from .game import Game, LineColumns
from .plugins import GameSpec
from .protocols import (CAPABILITIES, REFINEMENTS, Conversion, Coordinates, Notation, Pictures,
                        Result, Rules, Scores, Symmetries)

if TYPE_CHECKING:  # (start-up: ``random`` only names the type of an argument)
    import random

S = TypeVar("S")
E = TypeVar("E")
C = TypeVar("C")


class MissingCapability(NotationError):
    """A command needs a capability the game does not implement (one line, exit 2)."""


class ComposedGame(Game[S, E]):
    """One game: its :class:`~notation.core.plugins.GameSpec` and its parts.

    ``rules`` and ``notation`` are required; ``pictures``, ``symmetries``,
    ``conversion``, ``coordinates`` and ``scores`` are capabilities (None: a command
    that needs one refuses in one line); the refinements (``report``, ``positions``,
    ``identity``, ``layout``, ``columns``, ``fast_apply``, ``setup``, ``random``) may
    implement any of their members, the others keep the core's default. A part
    missing a member its protocol requires is refused when the game is made.
    """

    def __init__(self, spec: GameSpec, *, rules: Rules[S, E], notation: Notation[S, E],
                 pictures: Pictures[S] | None = None, symmetries: Symmetries[E] | None = None,
                 conversion: Conversion | None = None, coordinates: Coordinates | None = None,
                 scores: Scores[S] | None = None, report: object = None,
                 positions: object = None, identity: object = None, layout: object = None,
                 columns: object = None, fast_apply: object = None, setup: object = None,
                 random: object = None, compiled: tuple[str, ...] = ()) -> None:
        self.spec = spec
        self.name, self.title, self.extensions = spec.name, spec.title, spec.extensions
        self.grammar, self.grammar_package = spec.grammar, spec.grammar_package
        self.events_module, self.tags, self.directives = (spec.events_module, spec.tags,
                                                          spec.directives)
        self.setup_positions, self.event_per_line = spec.setup_positions, spec.event_per_line
        self.numbered, self.dialects, self.options = spec.numbered, spec.dialects, spec.options
        self.winner_names = spec.winners
        self.compiled = compiled
        _check(spec, "rules", rules, Rules)
        _check(spec, "notation", notation, Notation)
        self.rules, self.notation = rules, notation
        self.pictures, self.symmetries, self.conversion = pictures, symmetries, conversion
        self.coordinates, self.scores = coordinates, scores
        for name, part in (("pictures", pictures), ("symmetries", symmetries),
                           ("conversion", conversion), ("coordinates", coordinates),
                           ("scores", scores)):
            if part is not None:
                _check(spec, name, part, CAPABILITIES[name][0])
        refined = {"report": report, "positions": positions, "identity": identity,
                   "layout": layout, "columns": columns, "fast_apply": fast_apply,
                   "setup": setup, "random": random}
        #: Each refinement member a part gives, by name (the rest keep the default).
        self.refined: dict[str, Callable[..., Any]] = {
            member: getattr(part, member) for name, part in refined.items() if part is not None
            for member in REFINEMENTS[name] if hasattr(part, member)}
        # The hot paths, bound once.
        self.apply = rules.apply  # type: ignore[method-assign, assignment]
        self.copy = rules.copy  # type: ignore[method-assign, assignment]
        self.format_event = notation.format_event  # type: ignore[method-assign, assignment]

    @property
    def event_types(self) -> tuple[type, ...] | None:
        return self.notation.event_types

    # -- notation ---------------------------------------------------------------------
    def read_event(self, kind: str, text: str) -> E:
        try:
            read = self.notation.readers[kind]
        except KeyError:
            raise NotationError(f"{self.name} has no event terminal {kind}") from None
        return read(text)

    def event_reader(self, kind: str) -> Callable[[str], E]:
        return self.notation.readers[kind]

    def applier(self, state: S) -> Callable[[E], None]:
        own = self.refined.get("applier")
        if own is not None:
            return own(state)  # type: ignore[no-any-return]
        return super().applier(state)

    def diagnose(self, text: str) -> str:
        return self.notation.diagnose(text)

    def glyph_blank(self, event: E) -> bool:
        own = self.refined.get("glyph_blank")
        return bool(own(event)) if own is not None else self.event_per_line

    def fills_line(self, event: E) -> bool:
        own = self.refined.get("fills_line")
        return bool(own(event)) if own is not None else False

    # -- rules ------------------------------------------------------------------------
    def setup(self, options: Mapping[str, Any]) -> Record:
        own = self.refined.get("new_record")
        if own is not None:
            return own(options)  # type: ignore[no-any-return]
        rewrite = self.refined.get("setup_options")
        options = rewrite(options) if rewrite is not None else options
        tagged = self.refined.get("option_tags")
        if tagged is None:
            return super().setup(options)
        own_tags: dict[str, Tag] = tagged(options)
        record = super().setup({k: v for k, v in options.items() if k not in own_tags})
        record.tags += own_tags.values()
        return record

    def start(self, record: Record) -> S:
        return self.rules.start(record)

    def apply(self, state: S, event: E) -> None:  # (bound to the rules' in __init__)
        self.rules.apply(state, event)

    def legal_moves(self, state: S, **options: Any) -> list[E]:
        return self.rules.legal_moves(state, **options)

    def is_over(self, state: S) -> bool:
        return self.rules.is_over(state)

    def copy(self, state: S) -> S:  # (bound to the rules' in __init__)
        return self.rules.copy(state)

    def to_move(self, state: S) -> str | None:
        return self.rules.to_move(state)

    def result(self, state: S) -> Result:
        """How the game stands in ``state`` (the rules' :class:`Result`)."""
        return self.rules.result(state)

    def result_tags(self, state: S) -> dict[str, str]:
        return self.rules.result(state).tags

    def winner_words(self, state: S) -> list[str]:
        return self.rules.result(state).winners

    def result_json(self, state: S) -> dict[str, Any]:
        return self.rules.result(state).details

    # -- positions and output ---------------------------------------------------------
    def position(self, state: S) -> str:
        own = self.refined.get("compact_position")
        return own(state) if own is not None else self.notation.write_position(state)

    def full_position(self, state: S) -> str:
        return self.notation.write_position(state)

    def read_position(self, text: str) -> S:
        return self.notation.read_position(text)

    @property
    def compact_is_full(self) -> bool:
        return "compact_position" not in self.refined

    def timeless_position(self, full_position: str) -> str:
        own = self.refined.get("timeless_position")
        return own(full_position) if own is not None else full_position

    @property
    def counts_time(self) -> bool:
        return "timeless_position" in self.refined

    def line_columns(self, state: S, events: Iterable[E]) -> LineColumns:
        own = self.refined.get("line_columns")
        return own(state, events) if own is not None else super().line_columns(state, events)

    def event_columns(self, events: list[E]) -> tuple[Sequence[str], Sequence[str]] | None:
        own = self.refined.get("event_columns")
        return own(self, events) if own is not None else None

    def state_json(self, state: S) -> dict[str, Any]:
        own = self.refined.get("state_json")
        return own(state) if own is not None else {"position": self.position(state)}

    def cells(self, state: S) -> dict[str, str]:
        own = self.refined.get("cells")
        return own(state) if own is not None else {"position": self.full_position(state)}

    def render(self, state: S, color: bool = False, **options: Any) -> str:
        return need(self, self.pictures, "pictures", "a text picture").render(
            state, color, **options)

    def drawing(self, state: S, **options: Any) -> Any:
        return need(self, self.pictures, "pictures", "a drawing").drawing(state, **options)

    # -- symmetries -------------------------------------------------------------------
    @property
    def has_symmetries(self) -> bool:
        return self.symmetries is not None

    def least_image(self, full_position: str) -> tuple[str, tuple[str, ...]]:
        if self.symmetries is None:
            return full_position, ()
        return self.symmetries.least_image(full_position)

    def transform_event(self, transform: str, event: E) -> E:
        return need(self, self.symmetries, "symmetries", "an image of a move").transform_event(
            transform, event)

    def symmetric_keys(self, record: Record, transforms: Sequence[str] | None = None
                       ) -> list[str] | None:
        if self.symmetries is None:
            return None
        return self.symmetries.symmetric_keys(record, transforms)

    # -- identity ---------------------------------------------------------------------
    def event_identity(self, event: E) -> str:
        own = self.refined.get("event_identity")
        return own(event) if own is not None else self.format_event(event)

    def canonical_event(self, state: S, event: E) -> E:
        own = self.refined.get("canonical_event")
        return own(state, event) if own is not None else event

    def event_keys(self, record: Record) -> list[str]:
        own = self.refined.get("event_keys")
        return own(record) if own is not None else super().event_keys(record)

    def setup_identity(self, state: S, symmetric: bool = False) -> str:
        own = self.refined.get("setup_identity")
        if own is not None:
            return own(state, symmetric)  # type: ignore[no-any-return]
        return super().setup_identity(state, symmetric)

    def notation_identity(self, state: S) -> str:
        own = self.refined.get("notation_identity")
        return own(state) if own is not None else ""

    def quick_keys(self, words: list[str]) -> list[str] | None:
        own = self.refined.get("quick_keys")
        return own(words) if own is not None else None

    # -- archives ---------------------------------------------------------------------
    def seats(self, state: S) -> list[str] | None:
        return self.scores.seats(state) if self.scores is not None else None

    def player_count(self, state: S) -> int | None:
        return self.scores.player_count(state) if self.scores is not None else None

    def facts(self, state: S) -> dict[str, Any]:
        return self.scores.facts(state) if self.scores is not None else {}

    # -- generation and conversion ----------------------------------------------------
    def random_record(self, rng: random.Random, options: Mapping[str, Any]) -> Record:
        own = self.refined.get("random_record")
        if own is not None:
            return own(rng, options)  # type: ignore[no-any-return]
        return super().random_record(rng, options)

    def random_tags(self, options: Mapping[str, Any]) -> dict[str, str]:
        tags = super().random_tags(options)
        adjust = self.refined.get("random_tags")
        return adjust(tags) if adjust is not None else tags

    def random_events(self, rng: random.Random, record: Record,
                      max_plies: int = 10_000) -> list[E]:
        own = self.refined.get("random_events")
        if own is not None:
            return own(rng, self.start(record))  # type: ignore[no-any-return]
        played = self.refined.get("record_events")
        if played is not None:
            return played(rng, record)  # type: ignore[no-any-return]
        return super().random_events(rng, record, max_plies)

    def convert(self, record: Record, **options: Any) -> Record:
        return need(self, self.conversion, "conversion", "convert").convert(record, **options)

    def convert_coordinate(self, text: str, to: str, options: Mapping[str, Any]) -> str:
        return need(self, self.coordinates, "coordinates", "coords").convert_coordinate(
            text, to, options)

    def capabilities(self) -> list[str]:
        """The capabilities this game implements, by name (``notation games``)."""
        return [name for name in CAPABILITIES if getattr(self, name) is not None]


def need(game: Game[Any, Any], part: C | None, capability: str, feature: str) -> C:
    """``part`` (one of ``game``'s capabilities), or :class:`MissingCapability` naming the
    feature that needs it and the members it lacks."""
    if part is None:
        protocol, noun = CAPABILITIES[capability]
        wanted = ", ".join(_members(protocol))
        raise MissingCapability(f"{game.name} has no {noun}; {feature} needs the "
                                f"{protocol.__name__} capability ({wanted})")
    return part


def needed(game: Game[Any, Any], capability: str, feature: str) -> Any:
    """:func:`need` of ``game``'s part for ``capability`` (a command checks it before it
    does ``feature``'s work). A game of the class interface is that part itself for
    every capability but the board symmetries it says it lacks."""
    if isinstance(game, ComposedGame):
        part = getattr(game, capability)
    else:
        part = game if capability != "symmetries" or game.has_symmetries else None
    return need(game, part, capability, feature)


def _members(protocol: type) -> list[str]:
    return [name for name in vars(protocol) if not name.startswith("_")]


def _check(spec: GameSpec, role: str, part: object, protocol: type) -> None:
    """Refuse a part that lacks a member of its protocol, naming them all."""
    missing = [name for name in _members(protocol) if not hasattr(part, name)]
    if missing:
        raise InputError(spec.game, f"its {role} lack {', '.join(missing)} "
                                    f"({protocol.__name__}: {', '.join(_members(protocol))})")
