"""The opening tree of an archive: positions (transpositions meet) and the moves played
from them, with how many games went each way and how they ended, seat by seat.

Only a game's mainline counts: variations are analysis, not games played. Only the
first ``depth`` plies are filed, so memory grows with the distinct positions up to that
depth and never with the archive beyond it. ``games`` at a position counts each time a
game passes through it (a game that came back to a position counts again), so that the
games of its moves, plus the games that ended there (``ended``) and those that went on
past the depth bound (``cut``), are its games.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterator


from notation.core import registry
from notation.core.game import AnyGame
from notation.core.tree import GameNode
from notation.core.forfeit import ending
from notation.core.outcome import Outcome
from notation.core.fastpath import plain_words, replayed_state
from notation.core.protocols import RecordView, Result
from notation.core.replay import end_checks, run

from .frames import Place, move_key, move_text
from .opening import Opening, opening, plain_opening, played_opening
from .seats import SeatResult, seat_results
from .tally import GameResults, Tally

#: Plies filed when no ``--depth`` is given.
DEFAULT_DEPTH = 10


@dataclass(slots=True)
class MoveEntry:
    """A move played from a position: its text (the canonical spelling, whichever the
    games wrote), its games, where it leads, and the results of the games that played it."""

    text: str
    next_key: str
    games: int = 0
    results: Tally = field(default_factory=Tally)


@dataclass(slots=True)
class PositionEntry:
    """A position of the tree (``ply``: the fewest plies it was reached in)."""

    key: str
    notation: str
    ply: int
    games: int = 0
    ended: int = 0
    cut: int = 0
    results: Tally = field(default_factory=Tally)
    moves: dict[str, MoveEntry] = field(default_factory=dict)

    def sorted_moves(self) -> list[MoveEntry]:
        """The moves, the most played first (ties in text order)."""
        return sorted(self.moves.values(), key=lambda m: (-m.games, m.text))


@dataclass(slots=True)
class GameTree:
    """One game's tree: its starting positions (``roots``, in the order first met; a
    mixed archive or other set-ups give several) and its positions by key."""

    name: str
    #: Whether its positions were folded by the board's symmetries (``--symmetric``, for
    #: a game that has them).
    folded: bool = False
    roots: list[str] = field(default_factory=list)
    positions: dict[str, PositionEntry] = field(default_factory=dict)
    games: int = 0

    def enter(self, place: Place, ply: int, results: GameResults) -> PositionEntry:
        """Count one game passing through ``place`` at ``ply``."""
        entry = self.positions.get(place.key)
        if entry is None:
            entry = self.positions[place.key] = PositionEntry(place.key, place.notation, ply)
        entry.ply = min(entry.ply, ply)
        entry.games += 1
        entry.results.add(results)
        return entry


class OpeningTree:
    """The trees of the games added, one per game name."""

    def __init__(self, depth: int = DEFAULT_DEPTH, symmetric: bool = False) -> None:
        self.depth = depth
        self.symmetric = symmetric
        self.trees: dict[str, GameTree] = {}
        self.invalid = 0

    @property
    def games(self) -> int:
        """The valid games counted."""
        return sum(tree.games for tree in self.trees.values())

    def add(self, record: GameNode, outcome: Outcome) -> None:
        """File one valid game's mainline (``outcome``: its full replay); only its first
        ``depth`` plies are played again (:mod:`.opening`)."""
        self.file(filing(record, outcome, self.depth, self.symmetric), outcome.game)

    def file(self, game: Filing, rules: AnyGame | None = None) -> None:
        """File one game as :func:`filing` made it (here, or in a worker); ``rules``: its
        game (default: the registered one of its name), which writes a move the tree
        meets for the first time."""
        tree = self.trees.get(game.game)
        if tree is None:
            tree = self.trees[game.game] = GameTree(game.game, game.folded)
        tree.games += 1
        results = GameResults(game.results)  # (made once: added at every ply)
        places = game.places
        for ply, place in enumerate(places):
            entry = tree.enter(place, ply, results)
            if ply == 0 and place.key not in tree.roots:
                tree.roots.append(place.key)
            if ply == game.plies:
                entry.ended += 1
            elif ply == self.depth:
                entry.cut += 1
            else:
                key, event = game.moves[ply]
                move = entry.moves.get(key)
                if move is None:  # its text is one for the key: written once
                    if rules is None:
                        rules = registry.require(game.game)
                    move = entry.moves[key] = MoveEntry(move_text(rules, event, place),
                                                        places[ply + 1].key)
                move.games += 1
                move.results.add(results)


@dataclass(slots=True)
class Filing:
    """One valid game as the tree files it, in plain values (made where the game is
    replayed, a worker process or a Dask worker, and filed where the tree is): its game,
    whether its positions were folded by symmetry, its plies, the positions to the depth,
    the move played from each but the last (its key, and its event in canonical spelling:
    its text is written only where the tree meets the key first), and each seat's
    result."""

    game: str
    folded: bool
    plies: int
    places: list[Place]
    moves: list[tuple[str, Any]]
    results: list[SeatResult]


def filing(record: GameNode, outcome: Outcome, depth: int, symmetric: bool) -> Filing:
    """What :meth:`OpeningTree.file` files of one valid game (``outcome``: its full
    replay); only its first ``depth`` plies are played again (:mod:`.opening`)."""
    game, state = outcome.game, outcome.state
    if game is None or state is None or not outcome.valid:
        raise ValueError("only a valid game is filed")
    return _filed(game, record, state, opening(game, record, depth, symmetric), outcome.plies,
                  symmetric)


def _filed(game: AnyGame, record: RecordView, state: Any, line: Opening, plies: int,
           symmetric: bool, standing: Result | None = None) -> Filing:
    """The filing of a valid game that ended in ``state``, its opening ``line`` played
    (``standing``: ``game.result(state)``, where the caller has it)."""
    results = seat_results(game, state, line.movers, ending(record, game, state, standing),
                           None if standing is None else standing.details)
    places = line.places
    moves = [(move_key(game, line.events[ply], place), line.events[ply])
             for ply, place in enumerate(places[:-1])]
    return Filing(game.name, symmetric and game.has_symmetries, plies, places, moves, results)


def explored_game(depth: int, symmetric: bool, record: GameNode) -> Outcome:
    """One game's verdict and, for a valid game, its :class:`Filing` as ``data``: the task
    ``explore`` runs, here or where the games are (worker processes, a Dask cluster). A
    plain game read in headers mode is judged and filed in one pass over its events, with
    no tree (``validate``'s work and its first ``depth`` plies); any other, or one with a
    problem, through the full replay, which says what is wrong."""
    fast = _plain_explored(depth, symmetric, record) if record.unread else None
    if fast is not None:
        return fast
    outcome = run(record)
    if outcome.valid:
        outcome.data = filing(record, outcome, depth, symmetric)
    return outcome


def _plain_explored(depth: int, symmetric: bool, record: GameNode) -> Outcome | None:
    """:func:`explored_game` of a plain game in one pass; None: not plain, or a problem."""
    plain = plain_words(record)
    if plain is None:
        return None
    start, game, pairs = plain
    played = _played(start, game, pairs, depth, symmetric)
    if played is None:  # a rule broken, or a bug of ours: the full path says where and what
        return None
    state, line = played
    standing = game.result(state)  # (asked once: the checks and the results share it)
    if end_checks(start, game, state, len(pairs), standing) is not None:
        return None
    outcome = Outcome(record, game, state, len(pairs), [])
    outcome.data = _filed(game, start, state, line, len(pairs), symmetric, standing)
    return outcome


def _played(start: GameNode, game: AnyGame, pairs: list[tuple[Callable[[str], Any], str]],
            depth: int, symmetric: bool) -> tuple[Any, Opening] | None:
    """The state a plain game's words lead to, and its opening. A game that plays its
    words in one call (``Game.replay_words``, compiled) and names its seats has its
    opening read and played on its start, and the rest of its words played on from there
    in that call: one start, and no ply played twice. Any other: every event read and
    replayed, then its opening played again. None at the first problem (the full path
    says it)."""
    if game.plays_words:
        try:
            state = game.start(start)
            if game.seats(state) is not None:  # (else the movers past the depth are read)
                head = [read(word) for read, word in pairs[:depth]]
                places, spelled, movers = played_opening(game, state, head, symmetric)
                played = game.replay_words(state, [word for _, word in pairs[depth:]])
                if played is not None:
                    return (state, Opening(places, spelled, iter(movers))) if played else None
        except Exception:  # a rule broken, or a bug of ours: the full path says which
            return None
    try:
        events = [read(word) for read, word in pairs]
    except Exception:  # an event that is no event, or a bug of ours
        return None
    state = replayed_state(start, game, events)
    if state is None:
        return None
    return state, plain_opening(game, start, events, depth, symmetric)
