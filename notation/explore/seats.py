"""One game's result seat by seat: who won alone, who shared first place, who lost, and
each seat's score where the game keeps scores.

The seats are the game's own (``Game.seats``: Tilewe's colours, Flows' P1..Pn, Sanguine's
red and blue, the players of Philosophy and Nomic as they joined), named as ``to_move`` and
``winner_words`` name them. A game that cannot name its seats has them read from the game
as it was played: the words ``to_move`` gave before each mainline event and at its end, in
the order they first came, then any winner not among them. Scores (``result["scores"]``
of ``replay --json``) are taken seat by seat in that order.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Iterable

from notation.core.game import AnyGame

#: What a seat made of one game, as the explorer counts it.
WIN, SHARED, LOSS, NO_WINNER, UNFINISHED = "wins", "shared", "losses", "no_winner", "unfinished"
KINDS = (WIN, SHARED, LOSS, NO_WINNER, UNFINISHED)


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's part in one game: a kind from :data:`KINDS` and its score, if any."""

    seat: str
    kind: str
    score: float | None


def seat_names(game: AnyGame, state: Any, movers: Iterable[str | None],
               winners: list[str]) -> list[str]:
    """The game's seats (``Game.seats``), or, where it cannot say, those of a game played
    with these movers, in the order they first moved."""
    named = game.seats(state)
    if named is not None:
        return named
    found: dict[str, None] = {}
    for word in (*movers, *winners):
        if word is not None:
            found.setdefault(word)
    return list(found)


def _scores(result: Any, seats: list[str]) -> list[float | None]:
    """The game's scores by seat, when it has one number per seat; else none."""
    scores = result.get("scores") if isinstance(result, dict) else None
    if (isinstance(scores, list) and len(scores) == len(seats)
            and all(isinstance(s, (int, float)) and not isinstance(s, bool) for s in scores)):
        return [float(s) for s in scores]
    return [None] * len(seats)


def seat_results(game: AnyGame, state: Any, movers: Iterable[str | None],
                 ended: tuple[bool, list[str]] | None = None,
                 details: dict[str, Any] | None = None) -> list[SeatResult]:
    """Every seat's result in the game that ended (or stopped) in ``state`` (``ended``:
    whether it ended and its winners, where a record says more than the board: a
    forfeit; see :func:`notation.core.forfeit.ending`; ``details``: the game's
    ``result_json``, where the caller has it).

    A game over with one winner: a win for it, a loss for the others; several winners:
    a shared win for each; none: ``no_winner`` for all. A game not over: unfinished,
    and no score (a score half-way through a game is no final score).
    """
    over, winners = ended if ended is not None else (
        game.is_over(state), game.winner_words(state) if game.is_over(state) else [])
    # ``movers`` read only where the game cannot name its seats (they may be played on)
    seats = seat_names(game, state, itertools.chain(movers, (game.to_move(state),)), winners)
    scores = (_scores(game.result_json(state) if details is None else details, seats)
              if over else [None] * len(seats))
    results = []
    for seat, score in zip(seats, scores):
        if not over:
            kind = UNFINISHED
        elif not winners:
            kind = NO_WINNER
        elif seat in winners:
            kind = WIN if len(winners) == 1 else SHARED
        else:
            kind = LOSS
        results.append(SeatResult(seat, kind, score))
    return results
