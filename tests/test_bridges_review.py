"""What a hostile review of the bridges found, each kept found: comments another format
holds but a record cannot, JSON text Python reads loosely, problems of a Pentobi tree's
structure, refusals of a format, and a hint that must not promise too much."""
from __future__ import annotations

from pathlib import Path

import notation
from notation.core.writer import writable_comments

from conftest import DATA, invoke


def test_a_comment_a_brace_cannot_hold_is_written_as_line_comments(tmp_path: Path):
    for text in ("C[a } b]", 'C[x\n\n[Event "y"\\]\nz]'):
        path = tmp_path / "c.blksgf"
        path.write_text(f"(;GM[Blokus];1[a18,a19,a20]{text})")
        assert invoke("validate", str(path)).exit_code == 0
        native = invoke("convert", "--to", "tilewe", str(path)).output
        (record,) = notation.parse(native)
        assert notation.run(record).valid, native
        json_path = tmp_path / "c.notation.json"
        json_path.write_text(invoke("convert", "--to", "json", str(path)).output)
        assert invoke("validate", str(json_path)).exit_code == 0
    (comment,) = [i for i in notation.parse("[Game \"tilewe\"]\n1. W5n-a1a1 {x}")[0].items
                  if isinstance(i, notation.Comment)]
    assert writable_comments(comment) == [comment]


def test_json_a_record_reader_would_take_loosely_is_refused_or_read_exactly(tmp_path: Path):
    lone = tmp_path / "lone.notation.json"
    lone.write_text('{"format": "notation-record", "version": 1, "game": "tilewe", '
                    '"tags": [["Event", "\\ud800"]], "moves": [{"event": "I3n-a3a20"}]}\n')
    result = invoke("validate", str(lone))
    assert result.exit_code == 1 and "half a surrogate pair" in result.output
    flat = tmp_path / "flat.notation.json"
    flat.write_text('{\n"format": "notation-record",\n"version": 1,\n"game": "tilewe",\n'
                    '"moves": [\n{\n"event": "O1n-a1a20"\n}\n]\n}\n')
    assert invoke("validate", str(flat)).output == f"{flat}: game 1: ok, 1 ply\n"
    odd = tmp_path / "odd.tilewe"
    odd.write_text('[Game "tilewe"]\n[Event "x\u2028y\x0cz\x85"]\n\n1. I3n-a3a20 {a\u2028b}\n')
    back = tmp_path / "odd.notation.json"
    back.write_text(invoke("convert", "--to", "json", str(odd)).output)
    assert invoke("validate", str(back)).output == f"{back}: game 1: ok, 1 ply\n"
    assert invoke("convert", "--to", "tilewe", str(back)).output == invoke("fmt", str(odd)).output


def test_a_pentobi_trees_own_problems_stand_where_the_file_has_them(tmp_path: Path):
    path = tmp_path / "t.blksgf"
    path.write_text("(;GM[Blokus];1[a18,a19,a20];2[t20];3[a1]))")
    lines = invoke("validate", str(path)).output.splitlines()
    assert [line.split(": error: ")[0] for line in lines] == [f"{path}:1:36", f"{path}:1:42"]
    assert "ply 3 (O1n-a1a1)" in lines[0] and "')' closes no game tree" in lines[1]


def test_a_record_a_format_cannot_hold_is_that_records_problem(tmp_path: Path):
    path = tmp_path / "two.tilewe"
    path.write_text('[Game "tilewe"]\n[Players "2"]\n\n1. W5n-a1a1\n')
    result = invoke("convert", "--to", "blksgf", str(path))
    assert result.exit_code == 1
    assert result.output.startswith(f"{path}:1:1: error: game 1: cannot be written as blksgf: ")
    assert "nothing was written" in result.output


def test_no_notation_is_said_to_read_a_record_with_an_unreadable_event():
    problems = notation.run(notation.load(DATA / "flows" / "seed-sample.flows")[0]).problems
    assert problems and not any("Dialect" in p.message for p in problems)
