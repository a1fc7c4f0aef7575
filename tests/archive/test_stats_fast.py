"""``stats`` on the reader's fast path gives the figures of the full path.

``stats`` reads games as ``validate`` does (``checked``): a valid plain game comes
already replayed with its events still in its text, and only its first event is read
again, from its words as written (:func:`first_written_event`). Any other game is
parsed in full. These tests hold the two readings to the same figures, game by game
and as printed, on every sample and on random archives of every game (valid games,
broken ones, comments and variations), in one process and with worker processes.
"""
from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.core.new_games import random_record
from notation.core.tree import GameNode
import notation
from notation.archive import Stats
from notation.archive.stats import first_written_event, game_figures
from notation.cli import parallel
from notation.core.ast import Comment, EventNode, Item, Variation
from notation.read.reading import records_of, source_records
from notation.read.text import chunks
from notation.core.results import with_result_tags
from notation.core.writer import format_record
import notation.parallel as workers

from conftest import SAMPLES, invoke
from test_fuzz import mutated

GAMES = ("tilewe", "flows", "philosophy", "sanguine", "nomic")
DECKS = SAMPLES / "sanguine" / "decks"
OPTIONS = {"sanguine": {"red": str(DECKS / "legion.deck"), "blue": str(DECKS / "legion.deck")}}


def _figures(records: list[GameNode]) -> list[dict[str, Any]]:
    return [game_figures(record) for record in records]


def _both(text: str, source: str, game: str | None = None
          ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
    """Every game's figures read on the fast path and in full, and how many games the fast
    path took without parsing them."""
    fast_records = list(records_of(chunks((text,)), source, game, checked=True))
    fast = _figures(fast_records)
    unparsed = sum(1 for r in fast_records if r.outcome is not None and r.unread)
    return fast, _figures(list(records_of(chunks((text,)), source, game))), unparsed


def _sample_files() -> list[Path]:
    """Every file of the samples but the decks, and but the byte code a Python run that
    writes it leaves beside the package's ``__init__`` (no sample)."""
    return sorted(p for p in SAMPLES.rglob("*") if p.is_file() and p.suffix != ".deck"
                  and "__pycache__" not in p.parts)


@pytest.mark.parametrize("path", _sample_files(), ids=lambda p: str(p.relative_to(SAMPLES)))
def test_every_sample_gives_the_same_figures_on_both_paths(path: Path) -> None:
    # read from their files, so decks named by the records are found beside them
    fast = _figures(list(source_records(path, checked=True)))
    assert fast == _figures(list(notation.read_games(path)))


def test_plain_samples_of_every_game_keep_their_events_unparsed() -> None:
    """The first event of a plain game is read from its words: the game is never parsed
    (else the equality above would hold by taking the full path every time)."""
    taken = dict.fromkeys(GAMES, 0)
    for game in GAMES:
        for path in sorted((SAMPLES / game).glob(f"*.{game}")):
            for record in source_records(path, checked=True):
                if record.outcome is not None:
                    assert first_written_event(record, record.outcome.game) is not None
                    game_figures(record)
                    taken[game] += record.unread
    assert all(taken.values()), taken


def test_only_a_replayed_game_has_its_first_event_read_from_its_words() -> None:
    """A game read for its tags alone may hold anything in its body: it is parsed."""
    text = '[Game "tilewe"]\n\n1. Q9n-a1a1 2. F5e-a2d4\n'
    (headers,) = notation.read_headers(io.StringIO(text), "tilewe")
    game = notation.get_game("tilewe")
    assert first_written_event(headers, game) is None
    fast, full, unparsed = _both(text, "bad.tilewe")
    assert fast == full and not fast[0]["valid"] and unparsed == 0


def _decorated(game_name: str, rng: random.Random) -> str:
    """One random complete game of ``game_name``, with its result tags, as written by
    ``fmt``, perhaps with a comment or a variation (the same event played again) in it."""
    game = notation.get_game(game_name)
    record, _outcome = with_result_tags(random_record(game, rng, OPTIONS.get(game_name, {})))
    items: list[Item] = list(record.items)
    events = [at for at, item in enumerate(items) if isinstance(item, EventNode)]
    for _ in range(rng.choice((0, 0, 1, 2))):
        at = rng.choice(events) + 1
        node = items[at - 1]
        assert isinstance(node, EventNode)
        extra: Item = (Comment.make(f"remark {at}") if rng.random() < 0.5
                       else Variation([EventNode(node.event)]))
        items.insert(at, extra)
        events = [e if e < at else e + 1 for e in events]
    if rng.random() < 0.2:
        items.insert(0, Comment.make("before the first event"))
    record.items = items
    return format_record(record, game)


@st.composite
def archives(draw: st.DrawFn) -> tuple[str, str]:
    """A random archive of one game: a few games, some plain, some with comments or
    variations, some broken by random edits."""
    game = draw(st.sampled_from(GAMES))
    rng = random.Random(draw(st.integers(0, 10**6)))
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        text = _decorated(game, rng)
        if draw(st.integers(0, 3)) == 0:
            text = draw(mutated(text))
        parts.append(text)
    return game, "\n".join(parts)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(archives())
def test_random_archives_give_the_same_figures_on_both_paths(archive: tuple[str, str]) -> None:
    game, text = archive
    fast, full, _unparsed = _both(text, f"random.{game}", game)
    assert fast == full


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 10**6))
def test_random_plain_games_are_never_parsed(game: str, seed: int) -> None:
    game_obj = notation.get_game(game)
    rng = random.Random(seed)
    record, _outcome = with_result_tags(random_record(game_obj, rng, OPTIONS.get(game, {})))
    text = format_record(record, game_obj)
    fast, full, unparsed = _both(text, f"random.{game}", game)
    assert fast == full and unparsed == 1


def _printed(text: str, source: str, as_json: bool) -> str:
    """What ``stats`` prints for ``text`` when every game is read in full."""
    figures = Stats()
    for record in records_of(chunks((text,)), source):
        figures.add(game_figures(record))
    if as_json:
        return json.dumps(figures.as_json()) + "\n"
    return "".join(line + "\n" for line in figures.lines())


@pytest.fixture
def pooled(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Worker processes for any input, however small; counts the runs that used them."""
    used: list[int] = []
    monkeypatch.setattr(workers, "SMALL_INPUT", 0)
    in_workers = parallel.in_workers

    def counted(*args: Any, **kwargs: Any) -> Any:
        used.append(1)
        return in_workers(*args, **kwargs)

    monkeypatch.setattr(parallel, "in_workers", counted)
    return used


@settings(max_examples=6, deadline=None)
@given(archives())
def test_printed_figures_equal_the_full_paths(
        tmp_path_factory: pytest.TempPathFactory, archive: tuple[str, str]) -> None:
    game, text = archive
    path = tmp_path_factory.mktemp("stats") / f"archive.{game}"
    path.write_text(text, encoding="utf-8")
    for as_json in (False, True):
        expected = _printed(text, str(path), as_json)
        args = ["stats", *(["--json"] if as_json else []), "--jobs", "1", str(path)]
        assert invoke(*args).stdout == expected


def test_worker_processes_print_the_full_paths_figures(tmp_path: Path,
                                                       pooled: list[int]) -> None:
    rng = random.Random(23)
    texts = {game: "\n".join(_decorated(game, rng) for _ in range(3)) for game in GAMES}
    texts["tilewe"] += "\n" + texts["tilewe"].replace("3. ", "3. Q9n-a1a1 ", 1)
    for game, text in texts.items():
        path = tmp_path / f"archive.{game}"
        path.write_text(text, encoding="utf-8")
        for as_json in (False, True):
            args = ["stats", *(["--json"] if as_json else []), "--jobs", "2", str(path)]
            assert invoke(*args).stdout == _printed(text, str(path), as_json), (game, as_json)
    assert len(pooled) == 2 * len(GAMES)
