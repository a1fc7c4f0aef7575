"""``Texts``: many texts as one UTF-8 buffer and their lengths, read back as strings."""
from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.read.texts import Texts


@pytest.mark.slow
@given(st.lists(st.text(max_size=30), max_size=30))
@settings(max_examples=300, deadline=None)
def test_texts_read_back_as_written(texts: list[str]) -> None:
    """Lengths count bytes, so texts beyond ASCII read back whole too."""
    held = Texts.of(texts)
    assert len(held) == len(texts)
    assert list(held) == texts
    assert [held[i] for i in range(len(texts))] == texts
    assert [held[-i] for i in range(1, len(texts) + 1)] == [texts[-i] for i in range(1, len(texts) + 1)]
    assert held[1:3] == texts[1:3]
    assert held.data == "".join(texts).encode("utf-8")
    assert pickle.loads(pickle.dumps(held)) == held
    assert held == Texts(held.data, held.lengths) and held != Texts.of([*texts, ""])


def test_an_index_past_the_end_is_refused() -> None:
    held = Texts.of(["a", "é"])
    with pytest.raises(IndexError):
        held[2]
    with pytest.raises(IndexError):
        held[-3]
    assert held[-1] == "é" and len(Texts.of([])) == 0 and list(Texts.of([])) == []


def test_texts_are_no_list_and_cannot_be_hashed() -> None:
    """(Compared by value with texts only: a list of the same strings is another thing.)"""
    held = Texts.of(["a"])
    assert held != ["a"]
    with pytest.raises(TypeError):
        hash(held)
