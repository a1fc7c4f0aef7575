"""notation.write: records saved whole or not at all, compressed and formatted as the
file's name says; read back game for game."""
from __future__ import annotations

import os

import pytest

import notation
from notation.read.compression import kind_of_file

from conftest import ROOT

SAMPLE = ROOT / "samples" / "tilewe" / "random-4p-three-games.tilewe"
PENTOBI = ROOT / "tests" / "data" / "pentobi" / "blokus.blksgf"


def texts(records) -> list[str]:
    return [notation.format_record(r) for r in records]


@pytest.mark.parametrize("name", ["out.tilewe", "out.tilewe.gz", "out.tilewe.bz2",
                                  "out.tilewe.xz", "deep/er/out.tilewe.zst",
                                  "out.notation.jsonl"])
def test_records_written_read_back_as_they_were(tmp_path, name):
    records = list(notation.read_games(SAMPLE))
    path = tmp_path / name
    assert notation.write(records, path) == len(records) == 3
    back = list(notation.read_games(path))
    assert texts(back) == texts(records)
    assert all(notation.run(r).valid for r in back)
    suffix = name.rsplit(".", 1)[-1]
    assert kind_of_file(path) == {"gz": "gzip", "bz2": "bzip2", "xz": "xz",
                                  "zst": "zstd"}.get(suffix)


def test_a_game_tree_and_a_single_record_are_written_too(tmp_path):
    (record,) = notation.read_games(PENTOBI)
    tree = record.copy()
    assert notation.write(tree, tmp_path / "game.blksgf") == 1
    (back,) = notation.read_games(tmp_path / "game.blksgf")
    assert notation.run(back).valid and back.events == record.events
    assert notation.write(record, tmp_path / "game.tilewe") == 1
    assert texts(notation.read_games(tmp_path / "game.tilewe")) == texts([record])


def test_a_refused_record_leaves_the_file_as_it_was(tmp_path):
    """A second game for a one-game format: an error, and nothing of the file changes."""
    (record,) = notation.read_games(PENTOBI)
    path = tmp_path / "game.blksgf"
    path.write_text("before")
    with pytest.raises(notation.NotationError, match="one game a file"):
        notation.write([record, record], path)
    assert path.read_text() == "before"
    assert os.listdir(tmp_path) == ["game.blksgf"]  # no temporary left


def test_an_interrupted_write_leaves_the_file_as_it_was(tmp_path):
    records = list(notation.read_games(SAMPLE))
    path = tmp_path / "games.tilewe"
    path.write_text("before")

    def interrupted():
        yield records[0]
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        notation.write(interrupted(), path)
    assert path.read_text() == "before" and os.listdir(tmp_path) == ["games.tilewe"]


def test_a_file_that_cannot_be_written_is_one_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(notation.WriteError):
        notation.write(list(notation.read_games(SAMPLE)), blocker / "under.tilewe")


def test_a_tree_saves_itself_as_its_name_says_edits_and_all(tmp_path):
    """``GameNode.save``: an edited tree, compressed by its name, reads back as written."""
    (record,) = notation.read_games(PENTOBI)
    tree = record.copy()
    first = tree.next()
    assert first is not None
    alternative = tree.add_variation(first.move, comment="played again")  # (a second node)
    tree.promote_to_main(alternative)
    path = tmp_path / "edited.tilewe.xz"
    tree.save(path)
    assert kind_of_file(path) == "xz"
    (back,) = notation.read_games(path)
    assert texts([back]) == texts([tree])
    assert back.next() is not None and back.next().comment == "played again"
    tree.save(tmp_path / "edited.blksgf")  # Pentobi's format, by the name
    (sgf,) = notation.read_games(tmp_path / "edited.blksgf")
    assert sgf.events == tree.events


def test_a_tree_a_format_cannot_hold_leaves_the_file_as_it_was(tmp_path):
    """A record the file's format refuses (Pentobi's classic board is written for four
    colours): an error, and the file as it was; an unwritable place: one WriteError."""
    record = notation.GameNode.from_position(notation.new("tilewe", players="3"))
    path = tmp_path / "three.blksgf"
    path.write_text("before")
    with pytest.raises(notation.NotationError, match="four colours"):
        record.save(path)
    assert path.read_text() == "before" and os.listdir(tmp_path) == ["three.blksgf"]
    with pytest.raises(notation.WriteError):
        record.save(tmp_path / "three.blksgf" / "under.tilewe")
