"""The bots of ``notation engine``: each chooses one of the legal events of a position,
built on :class:`~notation.core.position.Position` alone, so every game has them.

- ``random``: any legal event, uniformly (python-chess users' first bot).
- ``greedy``: the event after which the mover's own score (the game's figures, ``stats``'s
  ``<seat> score``) is highest, ties broken at random; a game that keeps no score plays
  as ``random`` does.
"""
from __future__ import annotations

import random
from typing import Any, Callable

from notation.core.position import Position

#: A bot: the event it plays of ``moves`` (the legal events that are its seat's) from a
#: position where its seat (not chance) is to play.
Bot = Callable[[Position[Any], list[Any], str, random.Random], Any]


def random_bot(position: Position[Any], moves: list[Any], seat: str, rng: random.Random) -> Any:
    return rng.choice(moves)


def greedy_bot(position: Position[Any], moves: list[Any], seat: str, rng: random.Random) -> Any:
    key = f"{seat} score"
    if key not in position.game.facts(position.state):
        return rng.choice(moves)
    best: list[Any] = []
    best_score = None
    for move in moves:
        position.push(move)
        score = position.game.facts(position.state).get(key)
        position.pop()
        if best_score is None or (score is not None and score > best_score):
            best, best_score = [move], score
        elif score == best_score:
            best.append(move)
    return rng.choice(best)


#: The bots by name, as ``--bot`` names them.
BOTS: dict[str, Bot] = {"random": random_bot, "greedy": greedy_bot}

__all__ = ["BOTS", "Bot", "greedy_bot", "random_bot"]
