"""The advice a refusal gives about a tag reads back as the change it advises (an editor
offers it as a fix): every form :func:`tag_advice` and :func:`tag_choices` write."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from notation.read.other_readings import advised_tags, tag_advice, tag_choices

KEYS = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,12}", fullmatch=True)
VALUES = st.text(st.characters(blacklist_characters='"\\\n', blacklist_categories=("Cs",)),
                 min_size=1, max_size=30)


@given(key=KEYS, given_value=st.none() | VALUES, wanted=VALUES, default=st.none() | VALUES)
def test_advice_reads_back_as_its_change(key, given_value, wanted, default):
    advice = f"the record replays in X: {tag_advice(key, given_value, wanted, default)}"
    expected = None if given_value is not None and wanted == default else wanted
    assert advised_tags(advice) == [(key, expected)]


@given(key=KEYS, values=st.lists(VALUES, min_size=1, max_size=6))
def test_choices_read_back_in_their_order(key, values):
    advice = f"replays under {len(values)} seatings: add the right one of {tag_choices(key, values)}"
    assert advised_tags(advice) == [(key, value) for value in values]


def test_a_message_without_advice_advises_nothing():
    assert advised_tags('blue has already placed N5 [rule: each piece once]') == []
