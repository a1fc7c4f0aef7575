"""A document's findings, kept game by game between edits, are exactly what a reading of
the whole text finds (``validate``'s problems), after any run of edits."""
from __future__ import annotations

import io
import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import notation
from notation.lsp.findings import Document, Finding, finding
from notation.read.reading import source_records

from conftest import SAMPLES
from test_fuzz import mutated

ARCHIVES = [p for p in sorted(SAMPLES.rglob("*")) if p.suffix[1:] in
            ("tilewe", "flows", "philosophy", "nomic", "sanguine") and p.is_file()]


def whole(text: str, source: str) -> list[Finding]:
    """The findings of one reading of the whole text, as ``validate`` reads it."""
    found = []
    for record in source_records(io.StringIO(text), name=source, checked=True):
        found.extend(finding(p, record.index) for p in notation.run(record).problems)
    return found


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(ARCHIVES), data=st.data())
def test_findings_after_edits_are_those_of_the_whole_text(path, data):
    text = path.read_text(encoding="utf-8")
    document = Document(str(path))
    assert document.findings(text) == whole(text, str(path))
    for _ in range(data.draw(st.integers(1, 3))):
        text = data.draw(mutated(text))
        assert document.findings(text) == whole(text, str(path))


def test_an_edit_to_one_game_of_a_thousand_rereads_that_game_only():
    sample = (SAMPLES / "tilewe" / "random-4p-three-games.tilewe").read_text(encoding="utf-8")
    games = sample.split("\n\n[")  # three games, each made a thousand-odd times over
    texts = [g if i == 0 else "[" + g for i, g in enumerate(games)]
    archive = "\n\n".join(t.replace('[Round "', f'[Annotator "{n}"]\n[Round "', 1)
                          for n in range(334) for t in texts)
    document = Document("big.tilewe")
    assert document.findings(archive) == []
    edited = archive.replace("1. ", "1. O1n-a1a1 ", 1)  # the first game's first ply twice
    began = time.process_time()
    found = document.findings(edited)
    took = time.process_time() - began
    assert document.read_afresh == 1
    assert found and all(f.message.startswith("game 1,") for f in found)
    assert took < 1.0, f"{took:.2f} CPU s for one edited game of {len(texts) * 334}"
