"""A hover over any event of any game shows the ply and the position after it that the
library's Position gives; anywhere in any text it answers or says nothing, never raises."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import notation
from notation.lsp.hovers import hover_at

from test_fastpath import GAMES, random_text
from test_fuzz import mutated


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10**6), data=st.data())
def test_a_hover_on_an_event_shows_the_position_after_it(game, seed, data):
    text = random_text(game, seed, count=1)
    (record,) = notation.parse(text, game)
    events = [i for i in record.items if isinstance(i, notation.EventNode)]
    ply = data.draw(st.integers(1, len(events)))
    event = events[ply - 1]
    column = event.pos.column + data.draw(st.integers(0, len(event.text) - 1))
    hover = hover_at(text, f"x.{game}", event.pos.line, column, game)
    assert hover is not None
    assert (hover.line, hover.column, hover.end_column) == (
        event.pos.line, event.pos.column, event.pos.column + len(event.text))
    after = notation.Position.from_record(record, ply)
    assert f"**ply {ply}**" in hover.text
    assert f"position: `{after.game.full_position(after.state)}`" in hover.text


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10**6), data=st.data())
def test_a_hover_anywhere_in_any_text_answers_or_says_nothing(game, seed, data):
    text = data.draw(mutated(random_text(game, seed, count=2)))
    lines = text.count("\n") + 1
    line = data.draw(st.integers(1, lines + 1))
    column = data.draw(st.integers(1, 120))
    hover = hover_at(text, f"x.{game}", line, column, game)
    assert hover is None or (hover.line == line and hover.column <= column < hover.end_column)
