"""Export's one-pass path for plain games gives the rows the full path gives.

``tabled`` reads a plain game (tags, then events) and replays it once, writing every
ply's row as it goes (``plain_rows``); any other game is parsed in full, replayed and
walked (``table_rows``). These tests hold the two to the same rows, on every sample and
on random games of every game (Tilewe's cheaper ``line_positions`` is held to the
game-neutral one in ``test_tilewe_compiled.py``, compiled and in Python).
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.core.new_games import random_record
from notation.core import registry
from notation.read.reading import chunks, records_of
from notation.core.replay import run
from notation.core.writer import format_record
from notation.tables.rows import plain_rows, table_rows

from conftest import rows_as_lists, SAMPLES

GAMES = ("tilewe", "flows", "philosophy", "sanguine", "nomic")


def _both(text: str, source: str) -> list[tuple[Any, Any]]:
    """Each game of ``text``: its rows by the one-pass path (None where it is not taken)
    and by the full path."""
    fast = [plain_rows(r) for r in records_of(chunks((text,)), source, headers=True)]
    full = []
    for record in records_of(chunks((text,)), source):
        outcome = run(record)
        full.append(rows_as_lists(table_rows(record, outcome)))
    assert len(fast) == len(full)
    return [(None if f is None else rows_as_lists(f.data), rows) for f, rows in zip(fast, full)]


def _sample_files() -> list[Path]:
    return sorted(p for game in GAMES for p in (SAMPLES / game).glob(f"*.{game}"))


@pytest.mark.parametrize("path", _sample_files(), ids=lambda p: p.name)
def test_every_sample_gives_the_same_rows_on_both_paths(path: Path) -> None:
    for fast, full in _both(path.read_text(encoding="utf-8"), str(path)):
        if fast is not None:
            assert fast == full


def test_the_one_pass_path_is_taken_for_plain_games_of_every_game() -> None:
    """(Else the equality above would hold by never being tested.)"""
    taken = {game: 0 for game in GAMES}
    for path in _sample_files():
        for fast, _full in _both(path.read_text(encoding="utf-8"), str(path)):
            game = path.suffix[1:]
            taken[game] += fast is not None
    assert all(taken.values()), taken


def _random_text(game_name: str, seed: int) -> str:
    game = registry.get(game_name)
    assert game is not None
    rng = random.Random(seed)
    options: dict[str, Any] = {}
    record = random_record(game, rng, options)
    return format_record(record, game)


@pytest.mark.slow
@given(st.sampled_from(GAMES), st.integers(0, 2**32))
@settings(max_examples=40, deadline=None)
def test_random_games_give_the_same_rows_on_both_paths(game_name: str, seed: int) -> None:
    text = _random_text(game_name, seed)
    pairs = _both(text, f"random.{game_name}")
    assert len(pairs) == 1
    fast, full = pairs[0]
    if game_name == "tilewe":  # nothing but tags and moves (in others, a "[" or "{" may be)
        assert fast is not None
    if fast is not None:
        assert fast == full


