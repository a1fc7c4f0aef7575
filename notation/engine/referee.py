"""One refereed game: bots seated, the only authoritative position, chance played from a
seed, every event a bot sends checked by the rules ``validate`` applies.

The referee plays what no seat chooses: chance's events (a tile or card drawn, a die
rolled), the game's opening (Philosophy's joins, one a seat) and the rules' own events
(the nomic game's turn order and a vote's outcome: :meth:`Game.actor` says None). Every
other event is asked of the seat that plays it (``genmove``), checked, and told to every
other bot (``play``); every bot is told every event, as the five games keep nothing
hidden. A bot that answers an illegal event, an event of another seat, garbage, nothing
in time, or stops, forfeits: the game ends there and its record says who and why
(:mod:`notation.core.forfeit`), the offending answer kept in a comment.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

from notation.core.ast import Comment, EventNode, Item
from notation.core.errors import Error, MoveError
from notation.core.forfeit import DETAILS, FORFEIT, TERMINATION, ending
from notation.core.new_games import new
from notation.core.position import Position
from notation.core.tree import GameNode

from .client import EngineError, read_answer
from .players import QUIT_GRACE, STARTUP_TIME, Faults, Player
from .session import CHANCE, acting_seat

#: ``[Termination]`` of a game stopped at the referee's ply limit.
ADJOURNED = "adjourned"
#: ``[Termination]`` of a game the board ended.
NORMAL = "normal"
#: What each kind of bot failure counts as, and its ``[Termination]``.
FAILURES = {"refused": ("protocol_errors", "protocol error"),
            "garbage": ("protocol_errors", "protocol error"),
            "time": ("time_outs", "time forfeit"),
            "closed": ("crashes", "abandoned")}


@dataclass
class Forfeit:
    """A seat that broke off: why (``[Termination]``), in a line, and what it answered."""

    seat: str
    termination: str
    why: str
    answer: str | None = None


@dataclass
class PlayedGame:
    """A finished game: its record and what a tournament's results keep of it."""

    index: int
    record: GameNode
    seats: dict[str, str]  # seat -> the command that played it
    result: dict[str, str]
    winners: list[str]
    facts: dict[str, Any]
    plies: int
    termination: str
    forfeit: Forfeit | None = None
    faults: dict[str, Faults] = field(default_factory=dict)  # seat -> its faults


class Forfeited(Error):
    """Raised inside a game when a seat forfeits (caught by :func:`play_game`)."""

    def __init__(self, forfeit: Forfeit) -> None:
        super().__init__(forfeit.why)
        self.forfeit = forfeit


def seat_count_options(game: str, players: int, options: dict[str, str]) -> Position[Any]:
    """The game's start for ``players`` seats, with the referee's tag ``options``.

    :raises Error: a number of seats or an option the game refuses."""
    return new(game, players=players, **options)


def play_game(game: str, commands: Sequence[str], options: dict[str, str], *, index: int = 1,
              seed: int | str | None = None, move_time: float = 10.0,
              max_plies: int = 1000, startup_time: float = STARTUP_TIME,
              quit_grace: float = QUIT_GRACE, live: list[Player] | None = None
              ) -> PlayedGame:
    """Play one game of ``game`` between ``commands`` (one a seat, in seat order).

    ``live`` (if given) holds the players while their bots run, for a caller that must
    end them at once (an interrupted referee).

    :raises Error: the game cannot seat that many, or refuses an option (no bot started).
    """
    position = seat_count_options(game, len(commands), options)
    rng = random.Random(f"{seed}:{index}")
    opening = position.game.opening(position.state, len(commands))
    for event in opening:
        position.push(event)
    seats = position.game.seats(position.state) or []
    if len(seats) != len(commands):
        raise Error(f"{game} seats {len(seats)} here, not {len(commands)}")
    players = [Player(seat, command, move_time, startup_time, quit_grace)
               for seat, command in zip(seats, commands)]
    if live is not None:
        live.extend(players)
    clocks: list[str | None] = [None] * len(position.history())
    forfeit: Forfeit | None = None
    try:
        for player in players:
            _start(player, position)
        while not position.is_over() and position.ply < max_plies:
            if not position.is_chance() and not position.legal_moves:
                break  # (nothing the rules list comes next: the game stops, adjourned)
            _step(position, players, rng, clocks, move_time)
        if not position.is_over():
            _adjourn(position, players, clocks)
    except Forfeited as stop:
        forfeit = stop.forfeit
    finally:
        for player in players:
            player.stop()
        if live is not None:
            for player in players:
                live.remove(player)
    return _played(index, position, players, clocks, forfeit)


def _start(player: Player, position: Position[Any]) -> None:
    try:
        player.start(position)
    except EngineError as exc:
        raise _failure(player, exc, None) from None


def _step(position: Position[Any], players: list[Player], rng: random.Random,
          clocks: list[str | None], move_time: float) -> None:
    """Play the next event: chance's, the rules' own, or a seat's answer."""
    game = position.game
    if position.is_chance():
        before = position.copy(stack=False)
        event = position.sample_chance(rng)
        _tell(players, before, CHANCE, event, None)
        clocks.append(None)
        return
    acting = acting_seat(position)
    if acting is None:  # (the rules' own: nomic's next turn, a vote's outcome)
        before = position.copy(stack=False)
        event = position.push(position.legal_moves[0])
        _tell(players, before, "", event, None, referee=True)
        clocks.append(None)
        return
    player = next((p for p in players if p.seat == acting), None)
    if player is None:
        raise Error(f"{acting} is to play, but no bot sits there")
    before = position.copy(stack=False)
    began = time.monotonic()
    try:
        answer = player.ask()
    except EngineError as exc:
        raise _failure(player, exc, None) from None
    spent = time.monotonic() - began
    try:
        event = read_answer(position, answer)
        if game.actor(position.state, event) != player.seat:
            raise Forfeited(Forfeit(player.seat, "rules infraction",
                                    f"{player.seat} answered {answer.strip()[:80]!r}, "
                                    f"which is not {player.seat}'s to play", answer))
        position.push(event)
    except MoveError as exc:
        player.faults.illegal_events += 1
        raise Forfeited(Forfeit(player.seat, "rules infraction",
                                f"{player.seat} answered an illegal event: "
                                f"{exc.problem.describe()}", answer)) from None
    except Forfeited:
        player.faults.illegal_events += 1
        raise
    clocks.append(_clock(move_time - spent))
    _tell(players, before, player.seat, event, player)


def _tell(players: list[Player], before: Position[Any], seat: str, event: Any,
          mover: Player | None, referee: bool = False) -> None:
    """Every bot but the one that chose ``event`` is told it."""
    word = seat if not referee else (before.turn or CHANCE)
    for player in players:
        if player is mover:
            continue
        try:
            player.tell(before, word, event)
        except EngineError as exc:
            raise _failure(player, exc, None) from None


def _adjourn(position: Position[Any], players: list[Player], clocks: list[str | None]) -> None:
    """At the ply limit: the rules' own ending where the game has one (nomic's ``end``
    between turns), else the game stops where it stands."""
    for event in position.legal_moves:
        if position.game.actor(position.state, event) is None:
            trial = position.copy(stack=False)
            trial.push(event)
            if trial.is_over():
                position.push(event)
                clocks.append(None)
                return


def _failure(player: Player, exc: EngineError, answer: str | None) -> Forfeited:
    counter, termination = FAILURES.get(exc.kind, FAILURES["garbage"])
    setattr(player.faults, counter, getattr(player.faults, counter) + 1)
    return Forfeited(Forfeit(player.seat, termination, f"{player.seat}: {exc}", answer))


def _clock(left: float) -> str:
    """``[%clk]``'s time: what was left of the move's time, h:mm:ss.s."""
    left = max(left, 0.0)
    hours, rest = divmod(left, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{int(hours)}:{int(minutes):02d}:{seconds:04.1f}"


def _played(index: int, position: Position[Any], players: list[Player],
            clocks: list[str | None], forfeit: Forfeit | None) -> PlayedGame:
    game = position.game
    tags = {"Event": "notation referee", "Round": str(index),
            **{_bot_tag(p.seat): p.command for p in players}}
    if forfeit is not None:
        tags.update({FORFEIT: forfeit.seat, TERMINATION: forfeit.termination,
                     DETAILS: _one_line(forfeit.why, 300)})
        termination = forfeit.termination
    elif game.is_over(position.state):
        termination = NORMAL
    else:
        termination = tags[TERMINATION] = ADJOURNED
    result = game.result_tags(position.state)
    record = GameNode.from_position(position, **tags, **result)
    # The set-up lines, then each written event with its clock (a draw no record writes
    # is left out, with its place in the clocks).
    items: list[Item] = [item for item in record.items if not isinstance(item, EventNode)]
    for (_, event), clock in zip(position.history(), clocks):
        if getattr(event, "written", True):
            items.append(EventNode(event))
            if clock is not None:
                items.append(Comment.make("", {"clk": clock}))
    if forfeit is not None:
        answer = _one_line(forfeit.answer or "", 200)
        said = forfeit.why + (f" (answered {answer!r})" if answer and answer not in
                              forfeit.why else "")
        items.append(Comment.make(_one_line(said, 400).replace("}", ")")))
    record = GameNode(game, list(record.tags), items)
    _, winners = ending(record, game, position.state)  # (what stats counts: the same rule)
    return PlayedGame(index, record, {p.seat: p.command for p in players}, result, winners,
                      game.facts(position.state), position.ply, termination, forfeit,
                      {p.seat: p.faults for p in players})


def _one_line(text: str, most: int) -> str:
    """``text`` on one line, at most ``most`` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= most else flat[:most - 3] + "..."


def _bot_tag(seat: str) -> str:
    """``[BotBlue "..."]``: the tag naming the command that played a seat."""
    word = "".join(ch for ch in seat.title() if ch.isalnum())
    return f"Bot{word or 'Seat'}"


__all__ = ["ADJOURNED", "Forfeit", "NORMAL", "PlayedGame", "play_game"]
