"""Which games of an archive to keep (``notation select``): tests on tags, verdicts,
results and positions reached.

Filters are plain data (they pickle), so worker processes apply them as the
main process does. Bad filters raise :class:`~notation.archive.errors.FilterError`
when they are made, before any game is read; a position is read in the notation
of each game met, so a position a game cannot read is said when that game comes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from notation.core.tree import GameNode
from notation.core import registry

from notation.core.game import MissingCapability, needed
from notation.core.errors import NotationError
from notation.core.game import Game
from notation.core.outcome import Outcome
from notation.core.replay import game_of, replay, run
from notation.core.walk import Step, walk

from .errors import FilterError
from notation.save.sink import game_text

#: The ply range of an open ``MIN:`` bound.
NO_LIMIT = 10**12


@dataclass(frozen=True)
class TagTest:
    """One tag test: the tag equals ``value``, or matches ``pattern`` (a missing tag is
    an empty value to a pattern, and equals no value)."""

    key: str
    value: str | None = None
    pattern: re.Pattern[str] | None = None

    @classmethod
    def parse(cls, spec: str) -> TagTest:
        """``KEY=VALUE`` or ``KEY~REGEX`` (whichever of ``=`` and ``~`` comes first)."""
        if "~" in spec and ("=" not in spec or spec.index("~") < spec.index("=")):
            key, pattern = spec.split("~", 1)
            try:
                return cls(key, pattern=re.compile(pattern))
            except re.error as exc:
                raise FilterError("tag", f"{spec}: bad regular expression: {exc}") from None
        if "=" not in spec:
            raise FilterError("tag", f"{spec}: expected KEY=VALUE or KEY~REGEX")
        key, value = spec.split("=", 1)
        return cls(key, value=value)

    def matches(self, record: GameNode) -> bool:
        if self.pattern is not None:
            return self.pattern.search(record.headers.get(self.key, "")) is not None
        return record.headers.get(self.key) == self.value


def parse_plies(spec: str) -> tuple[int, int]:
    """A ply range ``MIN:MAX``, either bound left out (``30:``, ``:2``)."""
    low, _, high = spec.partition(":")
    try:
        return (int(low) if low else 0, int(high) if high else NO_LIMIT)
    except ValueError:
        raise FilterError("plies", f"{spec}: expected MIN:MAX (either may be left out)") \
            from None


def reaches(record: GameNode, wanted: str, at_ply: int | None = None,
            in_variations: bool = False) -> bool:
    """Whether the game shows position ``wanted`` (canonical text) at some ply, or at
    ``at_ply`` (0: the start), on its mainline or, with ``in_variations``, in any of its
    variations too (a variation's plies count from the game's start, as its numbers do).
    A line that cannot be replayed that far does not."""
    game = game_of(record)
    if game is None:
        return False
    if _safely(_shows, game, record, wanted, at_ply):
        return True
    return (in_variations and record.has_variations
            and _safely(_shows_inside, game, record, wanted, at_ply))


def _safely(test: Callable[[Game[Any, Any], GameNode, str, int | None], bool],
            game: Game[Any, Any], record: GameNode, wanted: str, at_ply: int | None) -> bool:
    """The test's answer; a ReplayError or a bug of ours is no."""
    try:
        return test(game, record, wanted, at_ply)
    except Exception:
        return False


def _shows(game: Game[Any, Any], record: GameNode, wanted: str, at_ply: int | None) -> bool:
    if at_ply in (0, None) and game.position(game.start(record)) == wanted:
        return True
    if at_ply == 0:
        return False
    for step in replay(record):
        if at_ply is None and game.position(step.state) == wanted:
            return True
        if step.ply == at_ply:
            return game.position(step.state) == wanted
    return False


def _shows_inside(game: Game[Any, Any], record: GameNode, wanted: str,
                  at_ply: int | None) -> bool:
    """Whether a variation's line shows ``wanted`` (a line ends at its first problem)."""
    found: list[int] = []

    def visit(node: object, step: Step, state: Any) -> None:
        if step.label and at_ply in (None, step.ply) and game.position(state) == wanted:
            found.append(step.ply)

    walk(record, run(record), visit)
    return bool(found)


@dataclass
class Filters:
    """Every filter a game must pass; empty filters pass every game.

    ``tags``: ``KEY=VALUE`` or ``KEY~REGEX`` tests; ``validity``: valid (True)
    or invalid (False) games only; ``plies``: a ``(min, max)`` range of plies
    applied; ``winners``: all of these won, in the game's words; ``players``:
    the number of players; ``positions``: every one of these positions is
    reached (at ply ``after_ply`` exactly, if given) on the mainline, or with
    ``in_variations`` on the mainline or in any variation (each position
    anywhere in the tree, not all on one line).
    """

    tags: tuple[str, ...] = ()
    validity: bool | None = None
    plies: tuple[int, int] | None = None
    winners: tuple[str, ...] = ()
    players: int | None = None
    positions: tuple[str, ...] = ()
    after_ply: int | None = None
    in_variations: bool = False
    tag_tests: tuple[TagTest, ...] = field(init=False, repr=False)
    #: The positions in each game's canonical text, read when a game of it first comes.
    canonical: dict[str, list[str]] = field(init=False, repr=False, default_factory=dict)

    def __post_init__(self) -> None:
        if self.in_variations and not self.positions:
            raise FilterError("in-variations", "goes with --position")
        self.tag_tests = tuple(TagTest.parse(spec) for spec in self.tags)
        for word in self.winners:
            _a_winner_somewhere(word)

    @property
    def headers_only(self) -> bool:
        """Whether the tags alone decide (no game needs replaying)."""
        return not (self.needs_verdict or self.positions)

    @property
    def needs_verdict(self) -> bool:
        return bool(self.validity is not None or self.plies or self.winners
                    or self.players is not None)

    def matches(self, record: GameNode) -> bool:
        """Whether ``record`` passes every filter (:class:`MissingCapability` when its
        game cannot say what one asks: the players of a game without scores)."""
        if self.players is not None:
            game = game_of(record)
            if game is not None:
                needed(game, "scores", "select --players")
        if not all(test.matches(record) for test in self.tag_tests):
            return False
        if self.needs_verdict and not self._verdict_passes(run(record)):
            return False
        return not self.positions or self._reaches_all(record)

    def _verdict_passes(self, outcome: Outcome) -> bool:
        if self.validity is not None and outcome.valid != self.validity:
            return False
        if self.plies and not self.plies[0] <= outcome.plies <= self.plies[1]:
            return False
        if not (self.winners or self.players is not None):
            return True
        game, state = outcome.game, outcome.state
        if game is None or state is None or not outcome.valid:
            return False
        if self.winners and not set(self.winners) <= set(game.winner_words(state)):
            return False
        return self.players is None or game.player_count(state) == self.players

    def _reaches_all(self, record: GameNode) -> bool:
        wanted = self.wanted_positions(record)
        return wanted is not None and all(
            reaches(record, p, self.after_ply, self.in_variations) for p in wanted)

    def wanted_positions(self, record: GameNode) -> list[str] | None:
        """The positions in the canonical text of the record's game (None: no game)."""
        game = game_of(record)
        if game is None:
            return None
        if game.name not in self.canonical:
            try:
                self.canonical[game.name] = [game.position(game.read_position(p))
                                             for p in self.positions]
            except NotationError as exc:
                raise FilterError("position", f"for {game.name}: {exc}") from None
        return self.canonical[game.name]


def _a_winner_somewhere(word: str) -> None:
    """A ``--winner`` word some game can say (``Game.winner_names``: one archive may hold
    games of several kinds), else a :class:`FilterError` naming each game's: a misspelt
    colour would match nothing. A game that cannot say its winners' words lets any pass."""
    games = registry.games()
    if any(game.winner_names is None or word in game.winner_names for game in games):
        return
    said = "; ".join(f"{game.name}: {', '.join(game.winner_names or ()) or 'none'}"
                     for game in games if game.winner_names is not None)
    raise FilterError("winner", f"{word}: no game has a winner called so ({said})")


@dataclass(frozen=True)
class Selector:
    """The filters as ``select`` applies them: ``invert`` selects the games that fail,
    ``verdict`` gives a selected game's verdict too (``select --json``)."""

    filters: Filters
    invert: bool = False
    verdict: bool = False

    @property
    def needs_events(self) -> bool:
        """Positions are looked for in the events (a fast verdict is not enough)."""
        return bool(self.filters.positions)


def selection(selector: Selector, record: GameNode) -> Outcome:
    """One game's answer to the selector, as a task's outcome (it pickles): ``data`` is
    ``{"selected": bool}``, or ``{"usage": ..., "filter": ...}`` for a filter that cannot
    be applied to the game, or ``{"missing": ...}`` for one its game lacks the capability
    for; a selected game has its text as written in ``text`` and, with ``verdict``, is
    replayed for its verdict."""
    try:
        selected = selector.filters.matches(record) != selector.invert
    except FilterError as exc:  # said once by whoever reads the answers
        return Outcome(record, None, None, 0, data={"usage": str(exc), "filter": exc.name})
    except MissingCapability as exc:  # (likewise)
        return Outcome(record, None, None, 0, data={"missing": str(exc)})
    outcome = run(record) if selected and selector.verdict else Outcome(record, None, None, 0)
    outcome.data = {"selected": selected}
    if selected:
        outcome.text = game_text(record)
    return outcome
