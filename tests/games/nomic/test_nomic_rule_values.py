"""A rule changed is the rule ``dataclasses.replace`` makes, its event added to its history."""
from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from notation.games.nomic.state import Rule

TEXTS = st.text(max_size=8)
FIELDS: dict[str, st.SearchStrategy[Any]] = {
    "number": st.integers(100, 400), "text": TEXTS, "origin": st.sampled_from(
        ["initial", "enacted", "judgment"]), "adopted": st.booleans(),
    "in_effect": st.booleans(), "status": st.sampled_from(
        ["in effect", "proposed", "adopted, pending", "failed", "repealed"]),
    "history": st.lists(TEXTS, max_size=3).map(tuple), "amended": st.booleans()}


@given(st.fixed_dictionaries(FIELDS), st.fixed_dictionaries({}, optional={
    name: strategy for name, strategy in FIELDS.items() if name != "history"}), TEXTS)
def test_a_changed_rule_is_the_replaced_one(given_fields: dict[str, Any],
                                            changes: dict[str, Any], event: str) -> None:
    rule = Rule(**given_fields)
    expected = dataclasses.replace(rule, history=(*rule.history, event), **changes)
    assert rule.changed(event, **changes) == expected
    assert rule.history == given_fields["history"]  # (the rule itself is left as it was)


def test_a_second_history_is_refused_as_replace_refuses_it() -> None:
    rule = Rule(101, "x", "initial")
    with pytest.raises(TypeError, match="multiple values for keyword argument 'history'"):
        rule.changed("e", history=())
