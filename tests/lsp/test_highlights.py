"""The colours of a record: every event written in it is coloured whole (its parts as
events, movers, coordinates, its number as a number), every tag as a tag, every comment as
a comment; on any text at all (mutated records), the words are in order, on their lines,
apart, and the scan ends."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import notation
from notation.core.ast import Comment, EventNode, Tag, Variation
from notation.lsp.highlights import KINDS, Word, words

from conftest import SAMPLES
from test_fastpath import GAMES, random_text
from test_fuzz import mutated

ARCHIVES = [p for p in sorted(SAMPLES.rglob("*")) if p.suffix[1:] in GAMES and p.is_file()]
#: What an event's words may be.
EVENT_PARTS = {"event", "mover", "coordinate", "number"}


def well_formed(found: list[Word], text: str) -> None:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    last = (0, 0)
    for word in found:
        assert word.kind in KINDS and word.length > 0
        assert (word.line, word.column) >= last, "words in order, none over another"
        assert word.column - 1 + word.length <= len(lines[word.line - 1])
        last = (word.line, word.column + word.length)


def covered(found: list[Word], line: int, column: int, text: str, kinds: set[str]) -> bool:
    """Whether ``text`` written at ``line``, ``column`` is coloured whole, by words of
    ``kinds`` that follow each other (a brace comment's lines one word each)."""
    spans = {(w.line, w.column): w for w in found}
    for part in text.split("\n"):
        at = column
        while at < column + len(part):
            word = spans.get((line, at))
            if word is None or word.kind not in kinds:
                return False
            at += word.length
        if at != column + len(part):
            return False
        line, column = line + 1, 1
    return True


def items_of(items):
    for item in items:
        yield item
        if isinstance(item, Variation):
            yield from items_of(item.items)


def every_part_coloured(text: str, source: str, game: str) -> None:
    found = words(text, source)
    well_formed(found, text)
    for record in notation.parse(text, game, source=source):
        for tag in record.tags:
            if isinstance(tag, Tag):
                row = text.split("\n")[tag.pos.line - 1]
                end = row.rindex("]") + 1  # (a tag has its line to itself)
                assert covered(found, tag.pos.line, tag.pos.column,
                               row[tag.pos.column - 1:end], {"tag"})
        for item in items_of(record.items):
            if isinstance(item, EventNode):
                assert covered(found, item.pos.line, item.pos.column, item.text, EVENT_PARTS), \
                    (item.text, item.pos)
            elif isinstance(item, Comment) and item.brace:
                assert covered(found, item.pos.line, item.pos.column, "{" + item.text + "}",
                               {"comment"}), item


def test_every_part_of_every_sample_is_coloured():
    for path in ARCHIVES:
        every_part_coloured(path.read_text(encoding="utf-8"), str(path), path.suffix[1:])


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10**6))
def test_every_part_of_a_random_game_is_coloured(game, seed):
    every_part_coloured(random_text(game, seed), f"random.{game}", game)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(ARCHIVES), data=st.data())
def test_any_text_is_coloured_in_order(path, data):
    text = data.draw(mutated(path.read_text(encoding="utf-8")))
    well_formed(words(text, str(path)), text)


def test_a_half_typed_word_is_left_uncoloured_and_the_rest_goes_on():
    text = '[Game "tilewe"]\n\n1. O1n-a1a1 2. W5zz 3. I2n-a1a1\n'
    kinds = [(text.split("\n")[w.line - 1][w.column - 1:w.column - 1 + w.length], w.kind)
             for w in words(text, "x.tilewe")]
    assert ("W5zz", "event") not in kinds and ("3. ", "number") in kinds
    assert ("a1", "coordinate") in kinds[-2:]
