"""A record with a tag value of megabytes costs ``tags``, ``fmt`` and ``cat`` what it costs
``validate``: the value sliced from its line once, and nothing copied whole again.

They once held it four to six times at their peak (155-220 MB for a 32 MB value, against
84 MB for ``validate``): Lark's match and token of the tag line beside the piece and the
value (``fmt``), and on the way out the value quoted, joined into its line, made
printable, ended with a line break and encoded, each a copy. Now the full parse is given
the line without its long value (``fastpath.hollowed``), and what is written goes out a
piece at a time (``format_pieces``, ``game_pieces``, the tag line's pieces); the pieces
are the text the whole was, which the tests here hold with pieces of a few characters.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from json.encoder import encode_basestring as quoted
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation.core.tree import GameNode
import notation
from notation.save import sink
from notation.cli import archive
from notation.cli.common import shown
from notation.core import fastpath, writer
from notation.core.ast import Tag
from notation.read import scanner
from notation.read.reading import parse

from conftest import HANG_BREAKER, SAMPLES, cpu_limited, notation_exe
from test_fuzz import mutated

MB = 1 << 20

#: Runs ``notation ARGS...`` and prints its exit status and its peak RSS in bytes: this
#: small parent's RUSAGE_CHILDREN counts its one child (the test process's would count
#: every child it ever had, and keep the peak of the image before ``exec``).
PEAK = r"""
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
sys.stderr.write(done.stderr.decode("utf-8", "replace")[-2000:])
print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)
"""


def peak_rss(*args: str) -> int:
    """The peak RSS in bytes of ``notation ARGS``, run as a user runs it."""
    done = subprocess.run([sys.executable, "-c", PEAK, *notation_exe(), *args],
                          capture_output=True, text=True, timeout=HANG_BREAKER,
                          preexec_fn=cpu_limited(), env=dict(os.environ, NO_COLOR="1"))
    status, peak = done.stdout.split()
    assert status in ("0", "1"), done.stderr
    return int(peak)


#: The commands measured, and the bound of their peak RSS on one game with a 32 MB tag
#: value. Measured: validate 82 MB; tags 90 (was 215), tags --json 90, cat 89 (was 151),
#: fmt 99 (was 185), fmt -i 92 (was 155). About 25 MB of it is the program itself.
BOUND = 110 * MB
COMMANDS = ["tags", "tags --json", "cat", "fmt", "fmt --in-place"]


@pytest.fixture(scope="module")
def long_tag(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("memory") / "long-tag.tilewe"
    with open(path, "w", encoding="utf-8") as out:
        out.write(f'[Game "tilewe"]\n[Event "{"x" * (32 * MB)}"]\n\n1. W5n-a1a1\n')
    return path


@pytest.mark.slow
@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is in KiB on Linux")
@pytest.mark.parametrize("command", COMMANDS)
def test_a_32_mb_tag_value_costs_each_command_what_it_costs_validate(long_tag, tmp_path,
                                                                     command):
    path = tmp_path / long_tag.name
    shutil.copyfile(long_tag, path)  # (fmt --in-place rewrites its copy)
    peak = peak_rss(*command.split(), str(path))
    assert peak < BOUND, (f"notation {command}: peak RSS {peak / MB:.0f} MB on a 32 MB tag "
                          f"value (bound {BOUND / MB:.0f} MB)")
    assert path.stat().st_size == long_tag.stat().st_size  # what fmt -i wrote reads so


# -- the pieces are the whole ------------------------------------------------------------

VALUES = st.text(st.sampled_from('ab "\\\n\r\t\x1b\u00e9\U0001F600\udc80\u2028'), max_size=40)
TAGS = st.lists(st.tuples(st.sampled_from(["Game", "Event", "Site", "X_1"]), VALUES),
                max_size=4)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(tags=TAGS)
def test_the_tag_line_and_its_json_in_pieces_are_the_whole(monkeypatch, tags):
    monkeypatch.setattr(archive, "PIECE", 3)
    record = GameNode("tilewe", [Tag(k, v) for k, v in tags], source="a\x1bb.tilewe")
    record.index = 7
    line = f"{shown(record.source)}:{record.index}: " + " ".join(
        f"{k}={quoted(v)}" for k, v in tags)
    assert "".join(archive._tags_line(record)) == line
    whole = json.dumps({"file": record.source, "index": record.index, "game": record.game,
                        "tags": dict(record.headers)})
    assert "".join(archive._tags_json(record)) == whole


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=st.text(st.sampled_from("ab\n"), max_size=30))
def test_a_game_in_pieces_is_its_text(monkeypatch, text):
    monkeypatch.setattr(sink, "PIECE", 4)
    assert "".join(sink.game_pieces(text)) == sink.game_text(text)
    assert all(len(piece) <= 4 for piece in sink.game_pieces(text * 3 + "x"))


def sample_records() -> list[GameNode]:
    return [record for path in sorted(SAMPLES.rglob("*")) if path.suffix in (
        ".tilewe", ".flows", ".philosophy", ".sanguine", ".nomic")
        for record in notation.load(path) if not notation.run(record).problems]


def test_a_record_written_in_pieces_is_its_text(monkeypatch):
    """Every sample record, with tags of long values: pieces of 5 characters, joined, are
    the text written whole (the tag lines, then a blank line, then the body)."""
    records = sample_records()
    assert len(records) > 20
    for record in records:
        record.tags.append(Tag("Annotator", 'a "long" \\ value\nof lines ' * 3))
        whole = "\n".join(writer.format_tags(record.tags, None)) + "\n\n"
        text = writer.format_record(record)
        assert text.startswith(whole)
        monkeypatch.setattr(writer, "PIECE", 5)
        assert writer.format_record(record) == text
        assert max(map(len, writer.format_pieces(record))) > 5  # (the body is one piece)
        monkeypatch.setattr(writer, "PIECE", 1 << 20)


# -- Lark is given the tag line without its long value -----------------------------------

def _read(text: str, game: str) -> list[tuple]:
    """Everything a reading says of ``text``: each record's tags (with their positions),
    items, lines and problems."""
    return [(r.game, r.index, r.raw, repr(r.tags), repr(r.items),
             [(p.line, p.column, p.message) for p in notation.run(r).problems])
            for r in parse(text, game)]


#: Sample games of the games whose records hold no deck blocks, with their game's name.
TEXTS = [(path.read_text(encoding="utf-8"), path.suffix[1:]) for path in sorted(SAMPLES.rglob("*"))
         if path.suffix in (".tilewe", ".flows", ".philosophy", ".nomic")]


def test_a_long_tag_value_is_read_around_lark_to_the_same_record(monkeypatch):
    """With every value long (the bound set to 0), each sample game reads as it reads with
    Lark given the whole line: the same tags and positions, items and problems."""
    assert len(TEXTS) > 20
    as_read = [_read(text, game) for text, game in TEXTS]
    monkeypatch.setattr(fastpath, "LONG_VALUE", 0)
    monkeypatch.setattr(scanner, "LONG_VALUE", 0)  # (else a plain game is scanned, not parsed)
    assert fastpath.hollowed('[Game "tilewe"]\n[Event "x"]\n\n1. W5n-a1a1\n',
                             notation.get_game("tilewe")) is not None
    assert [_read(text, game) for text, game in TEXTS] == as_read


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(case=st.sampled_from(TEXTS), data=st.data())
def test_a_broken_record_is_read_around_lark_to_the_same_record(case, data):
    """Broken copies of the samples (a tag cut short, a quote lost, lines swapped): the same
    records either way, whichever tag lines are well-formed."""
    text, game = case
    text = data.draw(mutated(text))
    as_read = _read(text, game)
    before, fastpath.LONG_VALUE = fastpath.LONG_VALUE, 0
    scanner.LONG_VALUE = 0  # (else a plain game is scanned, not parsed)
    try:
        assert _read(text, game) == as_read
    finally:
        fastpath.LONG_VALUE = scanner.LONG_VALUE = before
