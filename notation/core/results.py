"""Result tags: filling them in from the replay (``fmt --fix-results``, ``notation random``)."""
from __future__ import annotations


from .tree import GameNode
from .ast import Malformed, Tag
from .outcome import Outcome
from .replay import game_of, run


def with_result_tags(record: GameNode) -> tuple[GameNode, Outcome]:
    """The record with its result tags set to what its replay reaches.

    Wrong or missing result tags are corrected; any other problem is left for
    the caller to see in the returned outcome (and the record is then returned
    unchanged).
    """
    game = game_of(record)
    outcome = run(record)
    if game is None or outcome.state is None:
        return record, outcome
    keys = set(game.result_tags(outcome.state))
    if not keys:
        return record, outcome
    stripped = _retagged(record, [t for t in record.tags
                                  if not (isinstance(t, Tag) and t.key in keys)])
    outcome = run(stripped)
    if not outcome.valid:
        return record, outcome
    expected = game.result_tags(outcome.state)
    tags: list[Tag | Malformed] = []
    placed: set[str] = set()
    for tag in record.tags:  # corrected in place, missing ones added at the end
        if isinstance(tag, Tag) and tag.key in expected:
            if tag.key not in placed:
                tags.append(Tag(tag.key, expected[tag.key], tag.pos))
                placed.add(tag.key)
            continue
        tags.append(tag)
    tags += [Tag(k, v) for k, v in expected.items() if k not in placed]
    fixed = _retagged(record, tags)
    return fixed, run(fixed)


def _retagged(record: GameNode, tags: list[Tag | Malformed]) -> GameNode:
    """``record`` with other tags, its body and the text its excerpts quote kept."""
    other = record.rewritten(record.items, tags)
    other.text, other.first_line, other.raw = record.text, record.first_line, record.raw
    return other
