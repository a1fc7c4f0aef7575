"""Random complete legal games from each engine's own move generator (``notation random``).

Each game of a run plays from its own generator, seeded by the run's seed and
its round (:func:`round_seed`), so the games do not depend on one another: the
same seed and count give the same text on one process or many, and any game
can be made again from its ``[Seed]`` and ``[Round]`` tags.
"""
from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any, Generator

from notation.core import registry
from notation.core.ast import Tag
from notation.core.new_games import random_record
from notation.core.replay import run
from notation.core.results import with_result_tags
from notation.core.writer import format_record
from notation.parallel import workers_for

from .pool import map_in_order

#: Fewer games than this are made in this process unless ``--jobs`` asks otherwise:
#: starting workers costs more than a few games.
FEW_GAMES = 8


@dataclass(frozen=True)
class Plan:
    """What one run of ``random`` makes: which game, with which options, from which seed."""

    game: str
    seed: int
    options: dict[str, Any]


def round_seed(seed: int, round_number: int) -> int | str:
    """The seed of game ``round_number`` of a run: the run's own for the first (a single
    game is the one ``--seed`` has always given), one drawn from both for the others."""
    return seed if round_number == 1 else f"{seed}/{round_number}"


def made(plan: Plan, round_number: int) -> str:
    """Game ``round_number`` of the run, as canonical text with its result tags.

    Raises :class:`NotationError` for options the game refuses, and RuntimeError
    when the generator broke its own rules (a bug of ours).
    """
    game = registry.get(plan.game)
    if game is None:  # the run checked the name; a worker sees the same registry
        raise RuntimeError(f"unknown game {plan.game!r}")
    rng = random.Random(round_seed(plan.seed, round_number))
    record = random_record(game, rng, plan.options)
    record.tags += [Tag("Seed", str(plan.seed)), Tag("Round", str(round_number))]
    outcome = run(record)  # once: every move checked, and the end it reaches
    if outcome.error is None and outcome.state is not None:
        results = game.result_tags(outcome.state)
        if any(isinstance(t, Tag) and t.key in results for t in record.tags):
            record, outcome = with_result_tags(record)  # the game wrote some: set in place
        else:  # what with_result_tags gives such a record, without replaying it twice more
            record.tags += [Tag(key, value) for key, value in results.items()]
    if outcome.error is not None:  # the generator broke its own rules: a bug of ours
        raise RuntimeError(f"random game {round_number} is not valid: "
                           f"{outcome.error.describe()}")
    return format_record(record, game)


def games_made(plan: Plan, count: int, jobs: int) -> Generator[str, None, None]:
    """The run's games in round order, made here (one job) or by worker processes."""
    rounds = range(1, count + 1)
    if jobs < 2:
        return (made(plan, n) for n in rounds)
    return map_in_order(functools.partial(made, plan), rounds, jobs)


def how_many_jobs(asked: int | None, count: int) -> int:
    """Worker processes for ``count`` games (``asked``: ``--jobs``; None: the cores, or
    one for a few games); never more than the cores nor than the games."""
    if asked is None and count < FEW_GAMES:
        return 1
    return workers_for(asked, count)
