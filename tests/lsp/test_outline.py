"""A document's outline (games, their variations, the folds) is the records' own shape,
and the outline kept game by game between edits is the outline of the new text read
afresh."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import notation
from notation.core.ast import Variation
from notation.lsp.findings import Document
from notation.lsp.outline import Branch, line_comment_folds, outline

from conftest import SAMPLES
from test_fuzz import mutated

ARCHIVES = [p for p in sorted(SAMPLES.rglob("*")) if p.suffix[1:] in
            ("tilewe", "flows", "philosophy", "nomic", "sanguine") and p.is_file()]


def variations(items) -> int:
    return sum(1 + variations(i.items) for i in items if isinstance(i, Variation))


def branches(found: tuple[Branch, ...]) -> int:
    return sum(1 + branches(b.branches) for b in found)


def test_each_game_is_outlined_at_its_lines_with_its_variations():
    text = ('[Game "tilewe"]\n[Event "first"]\n\n1. O1n-a1a1 (1. I2n-a1a1\n (1. O1n-t1t1)) '
            '2. O1n-t20t20\n\n\n[Game "tilewe"]\n[Players "4"]\n\n1. O1n-a1a1 {two\nlines}\n')
    document = Document("x.tilewe")
    document.findings(text)
    first, second = document.outlines
    assert (first.number, first.line, first.end_line, first.name) == (1, 1, 5, "first")
    assert (second.number, second.line, second.end_line, second.name) == (2, 8, 12, "")
    (variation,) = first.branches
    assert (variation.line, variation.column, variation.end_line, variation.ply,
            variation.first) == (4, 13, 5, 1, "I2n-a1a1")
    assert [(b.line, b.first) for b in variation.branches] == [(5, "O1n-t1t1")]
    assert [(f.line, f.end_line, f.kind) for f in first.folds] == [(4, 5, "variation")]
    assert [(f.line, f.end_line, f.kind) for f in second.folds] == [(11, 12, "comment")]


def test_a_variation_counts_its_plies_from_the_event_it_replaces():
    record = notation.parse('[Game "tilewe"]\n\n1. O1n-a1a1 2. O1n-a1t20 (2. I2n-a1t20 '
                            '3. I2n-t1t20 (3. O1n-t1t1))\n', "tilewe")[0]
    (branch,) = outline(record, 1).branches
    assert branch.ply == 2 and [b.ply for b in branch.branches] == [3]


def test_runs_of_line_comments_fold():
    lines = ["; one", "; two", "1. O1n-a1a1", "# three", "  # four", "; five", "x"]
    assert [(f.line, f.end_line) for f in line_comment_folds(lines)] == [(1, 2), (4, 6)]


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(ARCHIVES), data=st.data())
def test_the_outline_kept_between_edits_is_that_of_the_text_read_afresh(path, data):
    text = path.read_text(encoding="utf-8")
    document = Document(str(path))
    document.findings(text)
    records = notation.load(path)
    assert len(document.outlines) == len(records)
    assert [branches(o.branches) for o in document.outlines] == \
        [variations(r.items) for r in records]
    for _ in range(data.draw(st.integers(1, 3))):
        text = data.draw(mutated(text))
        document.findings(text)
        fresh = Document(str(path))
        fresh.findings(text)
        assert document.outlines == fresh.outlines
