"""Positions you can play: python-chess's ``Board`` for every game.

A :class:`Position` holds a game's live state and the events pushed on it,
with a snapshot of the state before each one, so :meth:`Position.pop` gives
back exactly the position before (hands, bags, decks, rule sets and all).
python-chess keeps a snapshot per move for the same reason: undoing an event
by hand is a second, rarely tested copy of every rule.

    >>> pos = notation.new("tilewe", players=2)
    >>> pos.push("F5e-a2d4")
    >>> pos.pop()

Moves are given as text (read with the game's own grammar terminals) or as
event values; text that is no event raises :class:`InvalidEventError`, an event the
rules forbid :class:`IllegalMoveError` (python-chess's pair), with the words
``validate`` prints for it, and either leaves the position as it was.
"""
from __future__ import annotations

import itertools
from typing import Any, Callable, Generic, Mapping, Sequence, TypeVar, overload

from .ast import Directive, EventNode, Item, Pos, Record, Tag
from .errors import (Error, IllegalMoveError, InvalidEventError, NotationError, Problem,
                     ProblemKind, RuleError, TagError, shorten)
from .events import game_named, parse_event
from .game import AnyGame, Game, snake_case
from .protocols import Result as Result
from .legal_moves import LegalMoves
from .options import check_setup, under_names
from .replay import game_of, replay
from .replayer import refusal


#: The type of a position's events (``Position[Move]`` for Tilewe).
EventT = TypeVar("EventT")


#: Where an event played by hand stands in a file: nowhere (its problems say line 0).
NOWHERE = Pos(0, 0)


class Position(Generic[EventT]):
    """A game in progress: push and pop events, ask what is legal (python-chess's Board).

    Build one with :func:`new`, :func:`from_position` or a record's ``end()``.
    ``state`` is the game's own live state object, for code that needs more
    than this class gives; changing it by hand voids what :meth:`pop` restores.
    """

    def __init__(self, game: Game[Any, EventT], state: Any, tags: Mapping[str, str],
                 set_up: str | None = None, directives: Sequence[Directive] = ()) -> None:
        self.game = game
        self._legal: LegalMoves[EventT] | None = None  # (for the state as it stands)
        self.state = state
        #: The tags the position started from (``record()`` writes them first).
        self.tags = dict(tags)
        #: The game's own set-up lines it started from (Sanguine's inline decks), which
        #: ``record()`` writes before the events.
        self.directives = list(directives)
        #: The position notation it was set up from (:func:`from_position`), if it was.
        self.set_up = set_up
        self._stack: list[tuple[EventT, Any]] = []  # (event, the state before it)

    @property
    def state(self) -> Any:
        """The game's own live state (what its rules change)."""
        return self._state

    @state.setter
    def state(self, state: Any) -> None:
        self._state, self._legal = state, None

    # -- moves ---------------------------------------------------------------------------
    @property
    def legal_moves(self) -> LegalMoves[EventT]:
        """Every event the player to move may play, in the game's reference order: a
        sequence worked out once per position, that also takes text
        (``"W5n-a1a1" in pos.legal_moves``, any spelling of the move)."""
        if self._legal is None:
            self._legal = LegalMoves(self.game, self.state, self.read)
        return self._legal

    def read(self, move: str | EventT) -> EventT:
        """``move`` as an event value: text is read with the game's grammar
        (:class:`InvalidEventError` if it is no event), an event of the game is kept.

        :raises InvalidEventError: text that is no event of the game.
        :raises TypeError: neither text nor one of the game's events (a number, another
            game's event)."""
        if isinstance(move, str):
            try:
                event: EventT = parse_event(self.game, move)
                return event
            except NotationError as exc:
                raise InvalidEventError(Problem(ProblemKind.SYNTAX, 0, 0, self.ply + 1,
                                                move.strip(), str(exc))) from None
        kinds = self.game.event_types
        if kinds is not None and not isinstance(move, kinds):
            names = ", ".join(kind.__name__ for kind in kinds)
            raise TypeError(f"push takes a {self.game.name} move as text in its notation or as "
                            f"one of its events ({names}), not {type(move).__name__} "
                            f"{shorten(repr(move))}")
        return move

    def push(self, move: str | EventT) -> EventT:
        """Play ``move`` (text or an event) and return it as an event; a move that cannot
        be played changes nothing.

        :raises InvalidEventError: text that is no event of the game.
        :raises IllegalMoveError: an event the rules forbid now.
        :raises TypeError: a value that is neither text nor one of the game's events.
        """
        event = self.read(move)
        before = self.game.copy(self.state)
        try:
            self.game.apply(self.state, event)
        except RuleError as exc:
            self.state = before
            raise IllegalMoveError(refusal(exc, NOWHERE, self.ply + 1,
                                           self.game.format_event(event))) from None
        except NotationError as exc:  # (an event the game reads, but cannot be one here)
            self.state = before
            raise InvalidEventError(self._problem(event, ProblemKind.SYNTAX, str(exc))
                                    ) from None
        except BaseException:
            self.state = before
            raise
        self._stack.append((event, before))
        self._legal = None  # (the state changed in place)
        return event

    def _problem(self, event: EventT, kind: ProblemKind, message: str,
                 rule: str = "") -> Problem:
        return Problem(kind, 0, 0, self.ply + 1, self.game.format_event(event), message, rule)

    def pop(self) -> EventT:
        """Take back the last event and return it; the position is exactly as before it."""
        if not self._stack:
            raise IndexError("pop from a position with no moves")
        event, before = self._stack.pop()
        self.state = before
        return event

    def peek(self) -> EventT:
        """The last event pushed (IndexError when there is none)."""
        if not self._stack:
            raise IndexError("peek at a position with no moves")
        return self._stack[-1][0]

    def is_legal(self, move: str | EventT) -> bool:
        """Whether ``move`` (text or event) could be pushed now."""
        try:
            event = self.read(move)
        except InvalidEventError:
            return False
        trial = self.game.copy(self.state)
        try:
            self.game.apply(trial, event)
        except (RuleError, NotationError):
            return False
        return True

    @property
    def moves(self) -> list[EventT]:
        """The events pushed so far, first to last (a copy)."""
        return [event for event, _ in self._stack]

    @property
    def ply(self) -> int:
        """How many events were pushed since the position was set up."""
        return len(self._stack)

    # -- how it stands -------------------------------------------------------------------
    @property
    def turn(self) -> str | None:
        """Who moves next, in the game's own words (``blue``, ``P2``, ``Te``); None when over."""
        return self.game.to_move(self.state)

    def is_over(self) -> bool:
        return self.game.is_over(self.state)

    def result(self) -> Result:
        """Over or not, the winners, the result tags and the scores."""
        over = self.game.is_over(self.state)
        return Result(over, self.game.winner_words(self.state) if over else [],
                      self.game.result_tags(self.state), self.game.result_json(self.state))

    def position(self) -> str:
        """The game's full position notation (like FEN): :func:`from_position` reads it back."""
        return self.game.full_position(self.state)

    # -- copies and pictures -------------------------------------------------------------
    @classmethod
    def from_record(cls, record: Record, ply: int | None = None) -> Position[Any]:
        """The position after the first ``ply`` events of ``record``'s mainline (None: all
        of them), those events on its stack (``pop`` takes them back).

        :raises ReplayError: at the record's first problem up to there (a record of no
            known game has one at its start).
        """
        steps = replay(record, until=ply)
        first = next(steps, None)  # (raises for a record of no known game)
        game = game_of(record)
        assert game is not None
        position = cls(game, game.start(record), record.headers,
                       directives=directives_of(record))
        if first is not None:
            for step in itertools.chain((first,), steps):
                position._stack.append((step.event, position.state))
                position.state = game.copy(step.state)
        return position

    def copy(self, stack: bool = True) -> Position[EventT]:
        """An independent position; ``stack=False`` leaves the moves behind (no ``pop``)."""
        other: Position[EventT] = Position(self.game, self.game.copy(self.state), self.tags, self.set_up,
                         self.directives)
        if stack:
            other._stack = [(event, self.game.copy(before)) for event, before in self._stack]
        return other

    def __str__(self) -> str:
        """The game's text picture; a game without pictures: its position notation."""
        if self.game.pictures is None:
            return self.position()
        return self.game.render(self.state)

    def __repr__(self) -> str:
        return f"Position({self.game.name!r}, {self.position()!r})"

    def _repr_svg_(self) -> str | None:
        """Notebooks draw a position as its picture (None: a game without pictures, which
        a notebook then shows as its ``repr``)."""
        return None if self.game.pictures is None else self.game.svg(self.state)

    # -- records -------------------------------------------------------------------------
    def record(self, **tags: Any) -> Record:
        """A record of the events pushed so far: the starting tags, then ``tags``
        (``Event="club night"``), then the result tags where the game has any.

        A position set up from its notation is recorded with a ``[Position]`` tag;
        a game whose records cannot start from one raises :class:`Error`.
        """
        if self.set_up is not None and not self.game.setup_positions:
            raise Error(f"{self.game.name} records cannot start from a set-up position; "
                        f"only a game pushed from the start can be recorded")
        values = {**self.tags, **{key: str(value) for key, value in tags.items()}}
        if self.game.is_over(self.state):
            values.update(self.game.result_tags(self.state))
        body: list[Item] = [*self.directives, *(EventNode(event) for event in self.moves)]
        return Record(self.game.name, [Tag(key, value) for key, value in values.items()], body)


@overload
def new(game: Game[Any, EventT], **options: object) -> Position[EventT]: ...
@overload
def new(game: str, **options: object) -> Position[object]: ...


def new(game: str | Game[Any, EventT], **options: object) -> Position[Any]:
    """A new game at its start; ``options`` are the game's tags in snake case
    (``notation.new("tilewe", players=4)``, ``notation.new("sanguine", rows=3, ...)``).
    A value the game's declared option refuses (``players=5`` for Tilewe) raises
    :class:`Error` naming those it takes (``notation.new`` types each built-in game's
    position by its name: ``Position[tilewe.Move]``), as ``notation random`` refuses it; an option
    given as None is not given (the game's default), as ``notation random`` takes it.
    An option has the name ``random`` gives it (``red_deck=`` is ``--red-deck``), and
    takes its declared aliases as well (``red=``, as ``--red``)."""
    chosen = game_named(game)
    options = {name: value for name, value in options.items() if value is not None}
    try:
        options = under_names(chosen.name, chosen.options, options)
        check_setup(chosen.name, chosen.options, options)
    except NotationError as exc:
        raise Error(str(exc)) from None
    return _started(chosen, chosen.setup(options),
                    lambda exc: f"{chosen.name}: option {snake_case(exc.key)}: {exc.message}")


def _started(game: AnyGame, record: Record, said: Callable[[TagError], str]) -> Position[Any]:
    """The position a record's tags set up; a tag the game cannot start from raises
    :class:`Error` saying ``said(exc)``."""
    try:
        state = game.start(record)
    except TagError as exc:
        raise Error(said(exc)) from None
    return Position(game, state, record.headers, directives=directives_of(record))


def directives_of(record: Record) -> list[Directive]:
    """A record's set-up lines (its directives), without their file positions."""
    return [Directive(item.kind, item.text) for item in record.items if isinstance(item, Directive)]


def from_position(game: str | AnyGame, text: str) -> Position[Any]:
    """A position read from the game's position notation (what :meth:`Position.position`
    writes); its ``record()`` starts from a ``[Position]`` tag where the game allows one."""
    chosen = game_named(game)
    state = chosen.read_position(text)
    tags = {"Game": chosen.name}
    if chosen.setup_positions:
        tags["Position"] = text
    return Position(chosen, state, tags, text)


def at_start(record: Record) -> Position[Any]:
    """The position before a record's first event (its tags set it up); a tag the game
    cannot start from raises :class:`Error`."""
    game = game_of(record)
    if game is None:
        raise Error(f"{record.source}: game {record.index}: {record.game_problem or 'no game'}")
    return _started(game, record, lambda exc: f"{record.source}: game {record.index}: "
                                              f"[{exc.key}]: {exc.message}")

