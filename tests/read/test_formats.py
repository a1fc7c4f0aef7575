"""Record formats as plug-ins: a file is a format's by its extension or its first
characters; every reading command then reads it; ``convert --to`` writes one.

A toy format stands in for a real one here: one game per line, ``moves: A B C``, read
as Tilewe events with their file positions.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable, Iterator

import pytest

from notation.core.tree import GameNode
import notation
from notation.core import formats
from notation.core.ast import EventNode, Malformed, MalformedKind, Pos, Tag
from notation.core.errors import NotationError
from notation.core.game import AnyGame
from notation.core.events import parse_event

from conftest import invoke


class MovesLines(formats.RecordFormat):
    name = "moves"

    def records(self, text: Iterable[str], source: str,
                game: AnyGame | None = None) -> Iterator[GameNode]:
        row = 0
        for chunk in text:
            for line in chunk.splitlines():
                row += 1
                if not line.startswith("moves:"):
                    continue
                items: list = []
                for found in re.finditer(r"\S+", line[len("moves:"):]):
                    word, pos = found.group(), Pos(row, len("moves:") + found.start() + 1)
                    try:
                        items.append(EventNode(parse_event("tilewe", word), None, pos, word))
                    except NotationError as exc:
                        items.append(Malformed(word, str(exc), MalformedKind.EVENT, None, pos))
                yield GameNode("tilewe", [Tag("Game", "tilewe"), Tag("Players", "2")], items,
                             source=source, pos=Pos(row, 1))

    def write(self, record: GameNode) -> str:
        if len(record.events) > 3:
            raise NotationError("a moves line holds three moves at most")
        return "moves: " + " ".join(str(e) for e in record.events) + "\n"


PLUGIN = formats.FormatPlugin("moves", (".moves",), r"moves:", f"{__name__}:FORMAT")
FORMAT = MovesLines()


@pytest.fixture(autouse=True)
def announced():
    formats.announce(PLUGIN)
    yield
    formats.withdraw("moves")


def test_a_file_is_the_formats_by_extension_or_by_its_first_characters(tmp_path: Path):
    named = tmp_path / "games.moves"
    named.write_text("moves: W5n-a1a1 I2n-a1t1\nmoves: W5n-a1a1 I2n-a1a1\n")
    renamed = tmp_path / "games.txt"
    renamed.write_text(named.read_text())
    for path in (named, renamed):
        records = notation.load(path, game="tilewe").records
        assert [r.index for r in records] == [1, 2]
        assert [notation.run(r).valid for r in records] == [True, False]
    problem = notation.run(notation.load(named)[1]).problems[0]
    assert (problem.line, problem.column, problem.event) == (2, 17, "I2n-a1a1")


def test_every_command_reads_it_and_convert_writes_it(tmp_path: Path):
    path = tmp_path / "games.moves"
    path.write_text("moves: W5n-a1a1 I2n-a1t1\nmoves: W5n-a1a1 I2n-a1a1\n")
    checked = invoke("validate", str(path))
    assert checked.exit_code == 1
    assert f"{path}:2:17: error: game 2, ply 2 (I2n-a1a1)" in checked.output
    good = tmp_path / "good.moves"
    good.write_text("moves: W5n-a1a1 I2n-a1t1\n")
    native = invoke("convert", "--to", "tilewe", str(good))
    assert native.exit_code == 0
    assert native.output == '[Game "tilewe"]\n[Players "2"]\n\n1. W5n-a1a1 2. I2n-a1t1\n'
    back = tmp_path / "back.tilewe"
    back.write_text(native.output)
    assert invoke("convert", "--to", "moves", str(back)).output == good.read_text()
    assert invoke("diff", str(good), str(back)).exit_code == 0
    assert str(good) in invoke("validate", str(tmp_path)).output  # a folder's files too


def test_a_record_the_format_cannot_hold_is_refused_with_the_reason(tmp_path: Path):
    path = tmp_path / "long.tilewe"
    path.write_text('[Game "tilewe"]\n[Players "2"]\n\n'
                    "1. W5n-a1a1 2. I2n-a1t1 3. F5e-a2d4 4. O1n-a1s3\n")
    refused = invoke("convert", "--to", "moves", str(path))
    assert refused.exit_code == 1  # a problem of that record: its file is not written
    assert refused.output == (
        f"{path}:1:1: error: game 1: cannot be written as moves: a moves line holds three "
        f"moves at most\n{path}: not converted: 1 game with problems (listed above); nothing "
        f"was written\n")
    unknown = invoke("convert", "--to", "nothing", str(path))
    assert unknown.exit_code == 2 and "cannot convert to 'nothing'" in unknown.output
    in_place = invoke("convert", "--to", "moves", "-i", str(path))
    assert in_place.exit_code == 2 and "--to, --index and --split write elsewhere" in in_place.output


def test_a_native_record_is_not_claimed():
    assert formats.claiming("x.tilewe", '[Game "tilewe"]\n') is None
    assert formats.claiming("x.tilewe", "{moves: a comment}\n") is None
    assert formats.claiming("x.tilewe", "\ufeff  moves: W5n-a1a1") is FORMAT


def test_a_file_in_another_format_is_never_rewritten_in_place_in_the_games_own(tmp_path: Path):
    path = tmp_path / "games.moves"
    text = "moves: W5n-a1a1 I2n-a1t1\n"
    path.write_text(text)
    for command in (("fmt", "-i"), ("fmt", "--check"), ("strip", "-C", "-i"),
                    ("convert", "--transform", "rot90", "-i")):
        result = invoke(*command, str(path))
        assert result.exit_code == 2, (command, result.output)
        assert "a moves file; this writes the game's own notation" in result.output
        assert path.read_text() == text


def test_games_written_in_another_format_follow_one_another_without_a_blank_line(tmp_path):
    path = tmp_path / "two.tilewe"
    path.write_text('[Game "tilewe"]\n[Players "2"]\n\n1. W5n-a1a1\n\n'
                    '[Game "tilewe"]\n[Players "2"]\n\n1. I2n-a1a1\n')
    written = invoke("convert", "--to", "moves", str(path))
    assert written.output == "moves: W5n-a1a1\nmoves: I2n-a1a1\n"
