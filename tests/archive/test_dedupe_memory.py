"""``dedupe``'s memory: at most 100 bytes per distinct game (issue 23), and its compact
tables (digests numbered in an open-addressing table, first places as integer indexes)
answer exactly as a plain ``dict`` of keys to ``"file:index"`` strings did."""
from __future__ import annotations

import hashlib
import json
import tracemalloc

from hypothesis import given, settings
from hypothesis import strategies as st
import pytest

import notation
from notation.archive import Duplicates, game_key
from notation.archive.digests import DigestNumbers
from notation.archive.keys import KEY_SIZE, FirstPlaces

from conftest import SAMPLES, run_cli

BYTES_PER_GAME = 100  # the bound (224 with hex-string keys and "file:index" strings)
GAMES = 100_000


def synthetic_key(number: int) -> bytes:
    """A game key as ``game_key`` makes them (a truncated SHA-256), without a game."""
    return hashlib.sha256(number.to_bytes(8, "little")).digest()[:KEY_SIZE]


@pytest.mark.slow
def test_a_distinct_game_costs_at_most_100_bytes():
    """Held memory (tracemalloc: not the process's peak, which earlier tests may have
    raised) after 100,000 distinct games from ten files, each remembered with its place."""
    sources = [f"archive-{n}.tilewe" for n in range(10)]
    keys = [synthetic_key(n) for n in range(GAMES)]
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        duplicates = Duplicates()
        for number, key in enumerate(keys):
            assert duplicates.first_copy(key, sources[number * 10 // GAMES], number + 1) is None
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert duplicates.distinct == GAMES
    assert duplicates.first_copy(keys[12_345], "later", 1) == "archive-1.tilewe:12346"
    per_game = (held - before) / GAMES
    assert per_game <= BYTES_PER_GAME, f"{per_game:.0f} bytes per distinct game"


def test_a_game_key_is_a_16_byte_digest():
    (record,) = notation.load(SAMPLES / "tilewe" / "tw-sample-1.tilewe")
    key = game_key(record)
    assert isinstance(key, bytes) and len(key) == KEY_SIZE == 16


#: Digests whose slot hashes (first 8 bytes) share their low bits, so that they collide in
#: a small table and probe runs wrap around its end, but differ further on.
colliding_digests = st.builds(
    lambda low, high, tail: bytes([low]) + bytes([high]) * 7 + tail,
    st.sampled_from([0, 1, 0x80, 0xFF]), st.integers(0, 3),
    st.binary(min_size=8, max_size=8) | st.sampled_from([bytes(8), b"\xff" * 8]))


@pytest.mark.slow
@settings(max_examples=300)
@given(st.lists(colliding_digests | st.binary(min_size=16, max_size=16), max_size=120),
       st.sampled_from([2, 4, 8, 64]))
def test_digest_numbers_are_a_dict_of_first_sights(digests, capacity):
    table = DigestNumbers(16, capacity)
    model: dict[bytes, int] = {}
    for digest in digests:
        assert table.number(digest) == model.setdefault(digest, len(model))
    assert len(table) == len(model)
    assert [table.number(digest) for digest in model] == list(range(len(model)))
    assert [table.digest(number) for number in range(len(model))] == list(model)


@given(st.lists(st.binary(min_size=24, max_size=24), max_size=40))
def test_digest_numbers_take_any_size_of_whole_words(digests):
    table = DigestNumbers(24, 2)
    model: dict[bytes, int] = {}
    for digest in digests:
        assert table.number(digest) == model.setdefault(digest, len(model))


def test_digest_numbers_refuse_digests_of_another_size():
    with pytest.raises(ValueError):
        DigestNumbers(12)
    with pytest.raises(ValueError):
        DigestNumbers(16, 6)
    with pytest.raises(ValueError):
        DigestNumbers(16).number(b"short")
    with pytest.raises(IndexError):
        DigestNumbers(16).digest(0)


@given(st.lists(st.tuples(st.sampled_from(["a.tilewe", "b.flows", "<stdin>"]),
                          st.integers(-(2**63), 2**63 - 1)), max_size=60))
def test_first_places_are_the_file_index_strings(places):
    """Stretches of one file in any order (a file named twice, files taking turns)."""
    table = FirstPlaces()
    for source, index in places:
        table.add(source, index)
    assert len(table) == len(places)
    assert [table[number] for number in range(len(places))] == [f"{s}:{i}" for s, i in places]
    with pytest.raises(IndexError):
        table[len(places)]


@given(st.lists(st.tuples(st.integers(0, 8), st.sampled_from(["x.tilewe", "y.tilewe"]),
                          st.integers(1, 10**9)), max_size=60))
def test_duplicates_answer_as_a_dict_of_places(games):
    """What ``dedupe`` printed with a ``dict`` of hex keys to ``"file:index"`` strings."""
    duplicates = Duplicates()
    model: dict[str, str] = {}
    for which, source, index in games:
        key = synthetic_key(which)
        expected = model.get(key.hex())
        if expected is None:
            model[key.hex()] = f"{source}:{index}"
        assert duplicates.first_copy(key, source, index) == expected
    assert duplicates.distinct == len(model)


@pytest.mark.slow
def test_dedupe_on_the_command_line_names_every_first_copy(tmp_path):
    """Real records over several files, some named twice: each row's original is the first
    record of its key, as a plain ``dict`` finds it."""
    paths = [*sorted((SAMPLES / "flows").glob("*.flows")), SAMPLES / "flows" / "flows-000.flows",
             *sorted((SAMPLES / "tilewe").glob("*.tilewe"))]
    model: dict[bytes, str] = {}
    expected = []
    for path in paths:
        for record in notation.load(path):
            key = game_key(record)
            first = model.get(key) if key is not None else None
            if key is not None and first is None:
                model[key] = f"{record.source}:{record.index}"
            expected.append(first)
    result = run_cli("dedupe", "--json", *map(str, paths))
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line)["duplicate_of"] for line in result.stdout.splitlines()]
    assert rows == expected and any(rows)
