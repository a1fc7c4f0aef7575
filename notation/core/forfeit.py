"""A game ended by forfeit: a seat broke off (an illegal event, no answer in time, a
program that stopped) and the others share the game.

A record says so in two tags, as a referee writes them: ``[Forfeit "red"]`` names the
seat, ``[Termination "time forfeit"]`` says why in PGN's words (``rules infraction``,
``time forfeit``, ``abandoned``) or the protocol's (``protocol error``), and
``[TerminationDetails]`` in a line. The board is
as the last event left it, so the game's own result tags say it goes on (``"*"``); the
forfeit is what ends it. A record may name a forfeit only by a seat of its game and
only while the game goes on on the board."""
from __future__ import annotations

from typing import Any

from .ast import last_tag_value
from .errors import RuleError
from .game import AnyGame
from .protocols import RecordView, Result

#: The tag naming the seat that forfeited.
FORFEIT = "Forfeit"
#: The tag saying why the game ended (PGN's).
TERMINATION = "Termination"
#: The tag saying it in a line (what the seat answered, the rule it broke), for data
#: tools; the record's last comment says it for people.
DETAILS = "TerminationDetails"
#: PGN's and the protocol's words for why a seat forfeited.
REASONS = ("rules infraction", "time forfeit", "abandoned", "protocol error")


def forfeited_seat(record: RecordView) -> str | None:
    """The seat a record says forfeited (None: no forfeit)."""
    return last_tag_value(record.tags, FORFEIT)  # (no ``headers`` view: every game asks)


def check_forfeit(record: RecordView, game: AnyGame, state: Any) -> None:
    """A ``[Forfeit]`` tag must name a seat of the game, of a game the board has not
    ended (:class:`RuleError`, rule ``Forfeit tag``)."""
    seat = forfeited_seat(record)
    if seat is None:
        return
    seats = game.seats(state) or []
    if seat not in seats:
        raise RuleError(f"[Forfeit \"{seat}\"] but the seats are {', '.join(seats) or 'none'}",
                        "Forfeit tag")
    if game.is_over(state):
        raise RuleError(f"[Forfeit \"{seat}\"] but the game ended on the board",
                        "Forfeit tag")


def forfeit_winners(game: AnyGame, state: Any, seat: str) -> list[str]:
    """The seats that share a game ``seat`` forfeited: all the others."""
    return [other for other in game.seats(state) or [] if other != seat]


def ending(record: RecordView, game: AnyGame, state: Any, standing: Result | None = None
           ) -> tuple[bool, list[str]]:
    """Whether a valid record's game ended, and its winners: on the board, or by the
    forfeit it names (the other seats share it). What ``stats``, ``explore`` and the
    tables count (``standing``: ``game.result(state)`` where the caller has it)."""
    seat = forfeited_seat(record)
    over = game.is_over(state) if standing is None else standing.over
    if seat is not None and not over:
        return True, forfeit_winners(game, state, seat)
    if not over:
        return False, []
    return True, game.winner_words(state) if standing is None else standing.winners


__all__ = ["DETAILS", "FORFEIT", "REASONS", "ending", "TERMINATION", "check_forfeit", "forfeit_winners",
           "forfeited_seat"]
