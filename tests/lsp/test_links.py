"""Go to definition from a deck tag leads to the deck file, and only inside the record's
folder: the reader's own rule for the files a record names."""
from __future__ import annotations

import os

import pytest

from notation.lsp.links import link_at

TEXT = '[Game "Sanguine"]\n[RedDeck "{red}"]\n[Rows "3"]\n'


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "ember.deck").write_text("deck\n")
    (tmp_path.parent / "outside.deck").write_text("deck\n")
    return tmp_path


def test_a_deck_tag_leads_to_its_file(folder):
    source = str(folder / "game.sanguine")
    found = link_at(TEXT.format(red="decks/ember.deck"), source, 2, 3)
    assert found is not None and found.path == str(folder / "decks" / "ember.deck")
    assert (found.line, found.column, found.end_column) == (2, 11, 27)


@pytest.mark.parametrize("red", ["../outside.deck", "/etc/passwd", "inline", "decks/none.deck",
                                 "decks", "decks/out.deck"])
def test_a_deck_tag_leads_nowhere_outside_the_folder_or_to_no_file(folder, red):
    os.symlink(folder.parent / "outside.deck", folder / "decks" / "out.deck")
    assert link_at(TEXT.format(red=red), str(folder / "game.sanguine"), 2, 3) is None


def test_only_tags_that_name_files_lead_anywhere(folder):
    source = str(folder / "game.sanguine")
    text = TEXT.format(red="decks/ember.deck")
    assert link_at(text, source, 3, 3) is None  # [Rows]
    assert link_at(text, source, 2, 30) is None  # past the tag
    assert link_at(text, "<stdin>", 2, 3) is None  # a record with no folder
    assert link_at(text.replace("Sanguine", "tilewe"), source, 2, 3) is None
