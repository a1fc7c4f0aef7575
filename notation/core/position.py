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
from typing import (TYPE_CHECKING, Any, Callable, Generic, Iterator, Mapping, Sequence, TypeVar,
                    cast, overload)

from .protocols import RecordView
from .ast import NOWHERE, Directive
from .errors import (Error, IllegalMoveError, InvalidEventError, NotationError, Problem,
                     ProblemKind, RuleError, TagError, shorten)
from .events import game_named, parse_event
from .game import AnyGame, Game
from .protocols import Result as Result
from .replay import game_of, replay
from .replayer import refusal

if TYPE_CHECKING:  # (start-up: only names a type)
    import random


#: The type of a position's events (``Position[Move]`` for Tilewe).
EventT = TypeVar("EventT")


class LegalMoves(Generic[EventT]):
    """The legal events of one state, in the game's reference order: a sequence (indexed,
    sized, iterated; a ``collections.abc.Sequence`` at run time) whose ``in`` takes text
    as well as events, a move in any spelling (the game's ``event_identity``). Declared
    apart from ``Sequence[EventT]`` so that a type checker takes ``"W5n-a1a1" in legal``."""

    def __init__(self, game: Game[Any, EventT], state: Any,
                 read: Callable[[str], EventT]) -> None:
        self._game = game
        self._state = state
        self._read = read
        self._events: list[EventT] | None = None
        self._identities: frozenset[str] | None = None

    @property
    def _list(self) -> list[EventT]:
        if self._events is None:
            game, state = self._game, self._state
            events = game.legal_moves(state)
            if game.chance_due(state):  # (its outcomes first; no player chooses a tile)
                events = [event for event, _ in game.chance_outcomes(state)] + [
                    event for event in events
                    if not (game.chance_event(event) or game.carries_chance(event))]
            self._events = events
        return self._events

    @overload
    def __getitem__(self, index: int) -> EventT: ...
    @overload
    def __getitem__(self, index: slice) -> list[EventT]: ...

    def __getitem__(self, index: int | slice) -> EventT | list[EventT]:
        return self._list[index]

    def __len__(self) -> int:
        return len(self._list)

    def __iter__(self) -> Iterator[EventT]:
        return iter(self._list)

    @property
    def by_chance(self) -> bool:
        """Whether chance is due: the events begin with its outcomes, not a player's to
        choose (a tile or card drawn, a die rolled: :meth:`Position.sample_chance` plays
        one); any after them are the alternatives to it (the nomic game's new round, once
        rule 102 changed)."""
        return self._game.chance_due(self._state)

    def __call__(self, **options: Any) -> list[EventT]:
        """The legal events narrowed by the game's own options (Flows' ``tile``:
        ``pos.legal_moves(tile=2)``), worked out afresh."""
        return self._game.legal_moves(self._state, **options)

    def __contains__(self, move: str | EventT) -> bool:
        if isinstance(move, str):
            try:
                move = self._read(move)
            except InvalidEventError:
                return False
        if self._identities is None:
            identity = self._game.event_identity
            self._identities = frozenset(identity(event) for event in self._list)
        try:
            return self._game.event_identity(move) in self._identities
        except (AttributeError, TypeError, ValueError):  # not an event of the game
            return False

    def __eq__(self, other: object) -> bool:
        """Equal to a list (or any sequence but text) of the same events in the same order."""
        if isinstance(other, LegalMoves):
            return self._list == other._list
        if isinstance(other, Sequence) and not isinstance(other, str):
            return self._list == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # (a view of a changing position)

    def index(self, move: str | EventT) -> int:
        """Where ``move`` (text or event, any spelling) stands in the list; ValueError if
        it is not legal."""
        if isinstance(move, str):
            move = self._read(move)
        identity = self._game.event_identity
        wanted = identity(move)
        for at, event in enumerate(self._list):
            if identity(event) == wanted:
                return at
        raise ValueError(f"{self._game.format_event(move)} is not a legal move here")

    def __repr__(self) -> str:
        shown = ", ".join(self._game.format_event(event) for event in self._list[:8])
        more = f", ... ({len(self)} moves)" if len(self) > 8 else ""
        whose = " by chance" if self.by_chance else ""
        return f"<LegalMoves{whose}: {shown}{more}>"



Sequence.register(LegalMoves)


class Position(Generic[EventT]):
    """A game in progress: push and pop events, ask what is legal (python-chess's Board).

    Build one with :func:`notation.new`, :func:`from_position` or
    :meth:`from_record`; :meth:`GameNode.from_position` records one.
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
        self._unwritten = 0  # (events on the stack no record writes: see ``moves``)
        self._kinds = game.event_types  # (asked at every push)

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
                drawn = self._chance_named(move)
                if drawn is not None:  # (chance's, where no record writes it: T2)
                    return drawn
                raise InvalidEventError(Problem(ProblemKind.SYNTAX, 0, 0, self.ply + 1,
                                                move.strip(), str(exc))) from None
        kinds = self.game.event_types
        if kinds is not None and not isinstance(move, kinds):
            names = ", ".join(kind.__name__ for kind in kinds)
            raise TypeError(f"push takes a {self.game.name} move as text in its notation or as "
                            f"one of its events ({names}), not {type(move).__name__} "
                            f"{shorten(repr(move))}")
        return move

    def _chance_named(self, text: str) -> EventT | None:
        """The outcome of the chance event due that ``text`` writes, if one does."""
        word = text.strip()
        game = self.game
        return next((event for event, _ in game.chance_outcomes(self.state)
                     if game.format_event(event) == word), None)

    def push(self, move: str | EventT) -> EventT:
        """Play ``move`` (text or an event) and return it as an event; a move that cannot
        be played changes nothing.

        :raises InvalidEventError: text that is no event of the game.
        :raises IllegalMoveError: an event the rules forbid now.
        :raises TypeError: a value that is neither text nor one of the game's events.
        """
        # (an event of the game's own classes needs no reading: the usual push, a search's)
        kinds = self._kinds
        event = (cast(EventT, move) if kinds is not None and type(move) in kinds
                 else self.read(move))
        state = self._state
        before = self.game.copy(state)
        try:
            self.game.apply(state, event)
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
        if not getattr(event, "written", True):
            self._unwritten += 1
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
        if not getattr(event, "written", True):
            self._unwritten -= 1
        self._state, self._legal = before, None
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
        """The events pushed so far that a record writes, first to last (a copy): a Flows
        tile drawn ahead of its placement is not one (the placement names it)."""
        if not self._unwritten:
            return [event for event, _ in self._stack]
        return [event for event, _ in self._stack if getattr(event, "written", True)]

    def history(self, chance: str = "chance") -> list[tuple[str | None, EventT]]:
        """Each event pushed, first to last, written or not, with who played it: the seat
        to move before it, or ``chance`` where it was chance's (a draw, a deal, a roll)."""
        game = self.game
        return [(chance if game.chance_event(event) and game.chance_due(before)
                 else game.to_move(before), event) for event, before in self._stack]

    @property
    def ply(self) -> int:
        """How many events a record writes were pushed since the position was set up."""
        return len(self._stack) - self._unwritten

    # -- how it stands -------------------------------------------------------------------
    @property
    def turn(self) -> str | None:
        """Who moves next, in the game's own words (``blue``, ``P2``, ``Te``); None when over."""
        return self.game.to_move(self.state)

    def is_over(self) -> bool:
        return self.game.is_over(self.state)

    # -- chance --------------------------------------------------------------------------
    def is_chance(self) -> bool:
        """Whether the next event is chance's, not a player's: a card drawn or a hand
        dealt (Sanguine), a die rolled or a space revealed (nomic). A bot loop plays
        :meth:`sample_chance` there, never one of the :attr:`legal_moves`."""
        return self.game.chance_due(self.state)

    def chance_outcomes(self) -> list[tuple[EventT, float]]:
        """The outcomes of the chance event due now, each with its probability (they sum
        to 1); [] when a player is to move."""
        return self.game.chance_outcomes(self.state)

    def sample_chance(self, rng: random.Random) -> EventT:
        """Draw the chance event due now with its probability, push it and return it.

        :raises ValueError: the next event is a player's, not chance's."""
        event = self.game.sample_chance(self.state, rng)
        if event is None:
            raise ValueError(f"no chance event is due: {self.turn or 'nobody'} is to move")
        return self.push(event)

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
    def from_record(cls, record: RecordView, ply: int | None = None) -> Position[Any]:
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
            other._unwritten = self._unwritten
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


def started(game: AnyGame, record: RecordView, said: Callable[[TagError], str]) -> Position[Any]:
    """The position a record's tags set up; a tag the game cannot start from raises
    :class:`Error` saying ``said(exc)``."""
    try:
        state = game.start(record)
    except TagError as exc:
        raise Error(said(exc)) from None
    return Position(game, state, record.headers, directives=directives_of(record))


def directives_of(record: RecordView) -> list[Directive]:
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


def at_start(record: RecordView) -> Position[Any]:
    """The position before a record's first event (its tags set it up); a tag the game
    cannot start from raises :class:`Error`."""
    game = game_of(record)
    if game is None:
        raise Error(f"{record.source}: game {record.index}: {record.game_problem or 'no game'}")
    return started(game, record, lambda exc: f"{record.source}: game {record.index}: "
                                              f"[{exc.key}]: {exc.message}")

