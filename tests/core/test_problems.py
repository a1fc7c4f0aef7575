"""A problem quotes the record within bounds: a 10 MB bad token makes no 10 MB line."""
from __future__ import annotations

from notation.core.errors import EVENT_CHARS, MESSAGE_CHARS, Problem, ProblemKind


def test_a_long_event_and_message_are_shortened_saying_how_long() -> None:
    problem = Problem(ProblemKind.SYNTAX, 1, 1, 1, "x" * 10_000, "y" * 5_000)
    assert problem.event == "x" * EVENT_CHARS + "...(10,000 characters)"
    assert problem.message == "y" * MESSAGE_CHARS + "...(5,000 characters)"


def test_short_ones_are_kept_as_given() -> None:
    event, message = "x" * EVENT_CHARS, "y" * MESSAGE_CHARS
    problem = Problem(ProblemKind.RULE, 1, 1, 1, event, message, "on the board")
    assert (problem.event, problem.message, problem.rule) == (event, message, "on the board")
    assert Problem(ProblemKind.SYNTAX, 0, 0, 0, None, "m").event is None
