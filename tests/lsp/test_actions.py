"""The fixes offered on a record, each made of the library's own commands: the tag a
refusal advises, a legal event for an illegal one, the result tags, variations stripped."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import notation
from notation.lsp.actions import Action, actions_at

from conftest import SAMPLES
from test_fuzz import mutated

ARCHIVES = [p for p in sorted(SAMPLES.rglob("*")) if p.suffix[1:] in
            ("tilewe", "flows", "philosophy", "nomic") and p.is_file()]


def applied(text: str, action: Action) -> str:
    lines = text.split("\n")
    for edit in sorted(action.edits, key=lambda e: (e.line, e.column), reverse=True):
        head = lines[edit.line - 1][:edit.column - 1]
        tail = lines[edit.end_line - 1][edit.end_column - 1:] if edit.end_line <= len(lines) \
            else ""
        lines[edit.line - 1:edit.end_line] = (head + edit.text + tail).split("\n")
    return "\n".join(lines)


def test_a_tag_is_added_after_the_others_changed_in_place_or_removed():
    text = '[Game "flows"]\n[Dialect "nosuch"]\n\n1. P1F6T3S\n'
    from notation.lsp.actions import _tag_action
    record = notation.parse(text, "flows")[0]
    added = _tag_action(record, 1, "Seats", "0 3")
    assert added.title == 'Add [Seats "0 3"]'
    assert applied(text, added) == '[Game "flows"]\n[Dialect "nosuch"]\n[Seats "0 3"]\n\n1. P1F6T3S\n'
    changed = _tag_action(record, 1, "Dialect", "quortextt")
    assert applied(text, changed) == '[Game "flows"]\n[Dialect "quortextt"]\n\n1. P1F6T3S\n'
    removed = _tag_action(record, 1, "Dialect", None)
    assert removed.title == "Remove [Dialect]"
    assert applied(text, removed) == '[Game "flows"]\n\n1. P1F6T3S\n'


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(ARCHIVES), data=st.data())
def test_every_fix_that_rewrites_a_game_leaves_it_valid(path, data):
    text = data.draw(mutated(path.read_text(encoding="utf-8")))
    lines = text.count("\n") + 1
    first = data.draw(st.integers(1, lines))
    for action in actions_at(text, str(path), first, first):
        assert action.edits and action.title
        if action.title.startswith(("Strip", "Set the result")):
            (edit,) = action.edits
            rewritten = applied(text, action)
            piece = "\n".join(rewritten.split("\n")[edit.line - 1:
                                                   edit.line - 1 + edit.text.count("\n") + 1])
            records = notation.parse(piece, source=str(path))
            assert records and all(notation.run(r).valid for r in records)
