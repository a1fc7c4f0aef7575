"""Position keys made by the compiled module (``compiled/columns.c``) equal ``hashlib``'s,
and its text offsets the running sums of the lengths.

The module must be built here (the install compiles it where a C compiler is at hand);
the keys of every game's samples are also taken with the module away, as on a machine
without one.
"""
from __future__ import annotations

import hashlib
import sys
from array import array
from itertools import accumulate
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.core import registry
from notation.core.replay import run
from notation.read.reading import chunks, records_of
from notation.read.texts import LENGTH, Texts
from notation.tables import keys, parquet
from notation.tables.rows import plain_rows, table_rows

from conftest import rows_as_lists, SAMPLES


def _hashlib(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


def test_the_compiled_module_is_built() -> None:
    assert keys.COMPILED, ("notation.tables.compiled.columns was not built: install a C "
                           "compiler and the Python headers, then reinstall")


@pytest.mark.parametrize("size", [0, 1, 63, 64, 127, 128, 129, 255, 256, 257, 1000, 5000])
def test_every_length_around_a_block(size: int) -> None:
    """BLAKE2b takes 128 bytes a block, the last one padded: every edge of that."""
    text = "".join(chr(48 + (i * 7) % 75) for i in range(size))
    assert keys.digests([text]) == [_hashlib(text)]


@pytest.mark.slow
@given(st.lists(st.text(max_size=400),
                max_size=20))
@settings(max_examples=300, deadline=None)
def test_random_texts_give_hashlibs_digests(texts: list[str]) -> None:
    assert keys.digests(texts) == [_hashlib(text) for text in texts]


def test_the_compiled_module_refuses_what_is_no_list_of_texts() -> None:
    assert keys.hex_digests is not None
    with pytest.raises(TypeError):
        keys.hex_digests(("a",))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        keys.hex_digests(["a", b"b"])  # type: ignore[list-item]
    with pytest.raises(UnicodeEncodeError):
        keys.hex_digests(["\udc80"])


@pytest.mark.slow
@given(st.lists(st.text(max_size=400), max_size=20))
@settings(max_examples=300, deadline=None)
def test_texts_in_one_buffer_give_hashlibs_digests(texts: list[str]) -> None:
    """``hex_digest_texts``: the same keys from texts held as one buffer (as export's
    Tilewe positions come), back as one buffer of 16 digits each."""
    assert keys.hex_digest_texts is not None
    held = Texts.of(texts)
    assert keys.hex_digest_texts(held.data, held.lengths) == "".join(
        map(_hashlib, texts)).encode("ascii")


@pytest.mark.parametrize("symmetric", [False, True])
def test_position_keys_of_texts_are_the_keys_of_the_strings(symmetric: bool) -> None:
    """Given :class:`Texts`, keys come back as texts (compiled, when the positions are
    their own identity) and equal the keys of the same positions given as strings."""
    tilewe, flows = registry.get("tilewe"), registry.get("flows")
    assert tilewe is not None and flows is not None
    positions = [f"{'20/' * 19}20 b 1fffff", f"19b/{'20/' * 18}20 y 1ffffe"]
    for game in (tilewe, flows):  # (Flows' positions are no Tilewe board: a text is a text)
        given = keys.position_keys(game, Texts.of(positions), symmetric)
        assert list(given) == list(keys.position_keys(game, positions, symmetric))
    assert isinstance(keys.position_keys(tilewe, Texts.of(positions)), Texts)
    assert isinstance(keys.position_keys(tilewe, Texts.of(positions), True), list)


@pytest.mark.parametrize("data, lengths", [
    (b"abc", b"\x03\x00\x00"),  # a length of 3 bytes
    (b"abc", (4).to_bytes(4, sys.byteorder)),  # past the data
    (b"abc", (2).to_bytes(4, sys.byteorder)),  # data past the lengths
    (b"abc", (-1).to_bytes(4, sys.byteorder, signed=True)),
])
def test_texts_whose_lengths_do_not_cut_the_data_are_refused(data: bytes, lengths: bytes) -> None:
    assert keys.hex_digest_texts is not None
    with pytest.raises(ValueError):
        keys.hex_digest_texts(data, lengths)


def test_texts_must_be_bytes() -> None:
    assert keys.hex_digest_texts is not None
    with pytest.raises(TypeError):
        keys.hex_digest_texts(bytearray(b"a"), (1).to_bytes(4, sys.byteorder))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        keys.hex_digest_texts(b"a")  # type: ignore[call-arg]


@pytest.mark.slow
@given(st.lists(st.integers(0, 2**20), max_size=50))
@settings(max_examples=300, deadline=None)
def test_text_offsets_are_the_running_sums_of_the_lengths(lengths: list[int]) -> None:
    """Compiled and in Python: 0, then each text's end, as native 32-bit ints."""
    held = array(LENGTH, lengths).tobytes()
    expected = array(LENGTH, [0, *accumulate(lengths)]).tobytes()
    assert parquet.text_offsets is not None
    assert parquet.offsets_of(held) == expected
    saved, parquet.text_offsets = parquet.text_offsets, None
    try:
        assert parquet.offsets_of(held) == expected
    finally:
        parquet.text_offsets = saved


@pytest.mark.parametrize("lengths", [
    b"\x01\x00", (-1).to_bytes(4, sys.byteorder, signed=True),
    array(LENGTH, [2**30, 2**30]).tobytes()])  # (past 32-bit offsets)
def test_text_offsets_refuse_what_no_texts_have(lengths: bytes) -> None:
    assert parquet.text_offsets is not None
    with pytest.raises(ValueError):
        parquet.text_offsets(lengths)
    with pytest.raises(TypeError):
        parquet.text_offsets(bytearray(lengths))  # type: ignore[arg-type]


@pytest.mark.slow
@pytest.mark.parametrize("sample", sorted(p for game in registry.names()
                                          for p in (SAMPLES / game).glob(f"*.{game}")),
                         ids=lambda p: p.name)
def test_sample_keys_are_the_same_without_the_module(sample: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Export's keys (one call for a game's every position) and the full path's (one
    digest a position, in Python), with the module and without it."""
    text = sample.read_text(encoding="utf-8")

    def rows() -> list[object]:
        return [[None if (o := plain_rows(r, symmetric)) is None else rows_as_lists(o.data)
                 for r in records_of(chunks((text,)), str(sample), headers=True)]
                + [rows_as_lists(table_rows(r, run(r), symmetric))
                   for r in records_of(chunks((text,)), str(sample))]
                for symmetric in (False, True)]

    compiled = rows()
    monkeypatch.setattr(keys, "hex_digests", None)
    monkeypatch.setattr(keys, "hex_digest_texts", None)
    assert rows() == compiled
