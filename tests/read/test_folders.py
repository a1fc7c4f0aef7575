"""Folders read by the library as by the commands: record files walked in sorted order,
subfolders too, compressed ones included; one error for what cannot be read."""
from __future__ import annotations

import os

import pytest

import notation

from conftest import ROOT, invoke

SAMPLES = ROOT / "samples"


def test_read_games_on_a_folder_reads_its_record_files_in_sorted_order(tmp_path):
    records = list(notation.read_games(SAMPLES / "tilewe" / "random-4p-three-games.tilewe"))
    notation.write(records[:1], tmp_path / "b.tilewe")
    notation.write(records[1:], tmp_path / "a" / "z.tilewe.gz")
    (tmp_path / "notes.txt").write_text("not a record")
    read = list(notation.read_games(tmp_path))
    assert [(os.path.relpath(r.source, tmp_path), r.index) for r in read] == [
        ("b.tilewe", 1), (os.path.join("a", "z.tilewe.gz"), 1), ("a/z.tilewe.gz", 2)]
    verdicts = list(notation.read_verdicts(tmp_path))
    assert [v.valid for v in verdicts] == [True, True, True]
    assert [h.headers["Round"] for h in notation.read_headers(tmp_path)] == ["1", "2", "3"]


def test_the_library_and_the_command_line_walk_a_folder_alike():
    from_library = sorted({r.source for r in notation.read_games(SAMPLES)})
    result = invoke("validate", "--json", str(SAMPLES))
    from_cli = sorted({line.split('"file": "')[1].split('"')[0]
                       for line in result.output.splitlines() if '"file": "' in line})
    assert from_library == from_cli and len(from_library) > 10


def test_a_folder_without_record_files_is_one_input_error(tmp_path):
    (tmp_path / "readme.txt").write_text("")
    with pytest.raises(notation.InputError, match="no record files here"):
        list(notation.read_games(tmp_path))


def test_a_fifo_in_a_folder_is_left_out(tmp_path):
    records = list(notation.read_games(SAMPLES / "tilewe" / "random-4p-three-games.tilewe"))
    notation.write(records, tmp_path / "a.tilewe")
    os.mkfifo(tmp_path / "b.tilewe")  # opening it would block
    assert len(list(notation.read_games(tmp_path))) == 3
