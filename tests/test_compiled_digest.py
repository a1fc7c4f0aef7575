"""Position keys made by the compiled module (``compiled/digest.c``) equal ``hashlib``'s.

The module must be built here (the install compiles it where a C compiler is at hand);
the keys of every game's samples are also taken with the module away, as on a machine
without one.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.core import registry
from notation.core.replay import run
from notation.core.reading import chunks, records_of
from notation.tables import keys
from notation.tables.rows import plain_rows, rows_as_lists, table_rows

from conftest import SAMPLES


def _hashlib(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


def test_the_compiled_module_is_built() -> None:
    assert keys.COMPILED, ("notation.tables.compiled.digest was not built: install a C "
                           "compiler and the Python headers, then reinstall")


@pytest.mark.parametrize("size", [0, 1, 63, 64, 127, 128, 129, 255, 256, 257, 1000, 5000])
def test_every_length_around_a_block(size: int) -> None:
    """BLAKE2b takes 128 bytes a block, the last one padded: every edge of that."""
    text = "".join(chr(48 + (i * 7) % 75) for i in range(size))
    assert keys.digests([text]) == [_hashlib(text)]


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
    assert rows() == compiled
