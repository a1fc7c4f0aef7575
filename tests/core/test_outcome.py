"""A verdict (a valid game's outcome with its place and plies alone) answers every question
an outcome read back from JSON answers, the same way; it cannot be changed."""
from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from notation.core.outcome import Facts, Outcome, Verdict

places = st.tuples(st.sampled_from(["a.tilewe", "b/c.flows"]), st.integers(1, 10**6),
                   st.sampled_from(["tilewe", "flows", None]), st.integers(0, 500))


def read_back(file: str, index: int, game: str | None, plies: int) -> Outcome:
    return Outcome(None, None, None, plies, [], None, None, Facts(file, index, game, {}, None, {}))


@given(places, st.integers(-5, 5))
def test_a_verdict_answers_as_the_outcome_read_back(place, by):
    verdict, outcome = Verdict(*place), read_back(*place)
    for question in ("file", "index", "game_name", "valid", "plies", "problems", "error",
                     "tags", "result", "lines", "record", "game", "state", "text", "data",
                     "standing", "facts"):
        assert getattr(verdict, question) == getattr(outcome, question), question
    assert verdict.to_json() == outcome.to_json()
    assert verdict.verdict_json() == outcome.verdict_json()
    assert verdict == outcome and outcome == verdict
    assert verdict.shifted(by).to_json() == outcome.shifted(by).to_json()
    assert verdict.detached() is verdict
    assert pickle.loads(pickle.dumps(verdict)).to_json() == outcome.to_json()


def test_a_verdict_differs_from_another_games():
    assert Verdict("a.tilewe", 1, "tilewe", 3) != read_back("a.tilewe", 2, "tilewe", 3)
    assert Verdict("a.tilewe", 1, "tilewe", 3) != Verdict("a.tilewe", 1, "tilewe", 4)


@pytest.mark.parametrize("field", ["record", "problems", "text", "data", "facts", "file"])
def test_a_verdict_cannot_be_given_fields_it_does_not_hold(field):
    verdict = Verdict("a.tilewe", 1, "tilewe", 3)
    with pytest.raises(AttributeError):
        setattr(verdict, field, None)


def test_a_verdict_keeps_what_is_done_to_its_problems_and_facts():
    """A problem added to a verdict's list stays (and makes it invalid); its facts are the
    same object each time, so a tag added to them stays too."""
    from notation.core.errors import Problem, ProblemKind
    verdict = Verdict("a.tilewe", 1, "tilewe", 3)
    problem = Problem(ProblemKind.RULE, 3, 1, 2, "X", "no", "on the board")
    verdict.problems.append(problem)
    assert not verdict.valid and verdict.problems == [problem] and verdict.error == problem
    verdict.facts.tags["Event"] = "e"
    assert verdict.tags == {"Event": "e"} and verdict.facts is verdict.facts
    assert verdict.shifted(2).to_json() == dict(verdict.to_json(), index=3)
    assert verdict.as_outcome().to_json() == verdict.to_json()


def test_a_verdict_and_an_outcome_without_facts_are_not_equal():
    assert Verdict("a.tilewe", 1, "tilewe", 3) != Outcome(None, None, None, 3)
