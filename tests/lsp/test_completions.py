"""Completion offers the legal events of the point of the record the cursor is at: after
a line's last event, and in a variation just opened, the position it starts from; in any
text it answers or says nothing, never raises."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import notation
from notation.lsp.completions import completions_at

from test_fastpath import GAMES, random_text
from test_fuzz import mutated


def legal_words(record, ply: int) -> list[str]:
    position = notation.Position.from_record(record, ply)
    if position.is_over():
        return []
    return [position.game.format_event(m) for m in position.game.legal_moves(position.state)]


def cut_after(text: str, event: notation.EventNode) -> str:
    lines = text.split("\n")[:event.pos.line]
    lines[-1] = lines[-1][:event.pos.column - 1 + len(event.text)]
    return "\n".join(lines)


def at_end(text: str, game: str) -> list[str] | None:
    lines = text.split("\n")
    return completions_at(text, f"x.{game}", len(lines), len(lines[-1]) + 1, game)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10**6), data=st.data())
def test_completion_after_an_event_and_in_a_new_variation(game, seed, data):
    text = random_text(game, seed, count=1)
    (record,) = notation.parse(text, game)
    events = [i for i in record.items if isinstance(i, notation.EventNode)]
    ply = data.draw(st.integers(1, len(events)))
    head = cut_after(text, events[ply - 1])
    after = "\n" if notation.get_game(game).event_per_line else " "
    assert at_end(head + after, game) == legal_words(record, ply)
    # a variation opened after it: the position its first event replaces is played from
    assert at_end(head + "\n(", game) == legal_words(record, ply - 1)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10**6), data=st.data())
def test_completion_anywhere_in_any_text_answers_or_says_nothing(game, seed, data):
    text = data.draw(mutated(random_text(game, seed, count=2)))
    line = data.draw(st.integers(1, text.count("\n") + 2))
    column = data.draw(st.integers(1, 120))
    found = completions_at(text, f"x.{game}", line, column, game)
    assert found is None or all(isinstance(word, str) for word in found)
