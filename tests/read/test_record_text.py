"""Record text as the commands write it: every character of a comment or a tag is data
and is kept (an ANSI escape sequence too) when the output is a pipe or a file; only a
terminal gets control characters written as escapes, for its safety."""
from __future__ import annotations

import io
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import notation
from notation.core.ast import Comment
from notation.core.writer import writable_comments

from conftest import HANG_BREAKER, TILEWE, invoke, notation_exe

# Canonical already: ``fmt`` writes it back byte for byte.
HOSTILE = ('[Game "tilewe"]\n[Players "2"]\n[Event "a\x1b[31mred\x1b[0m b\x07c\x00d"]\n\n'
           '1. W5n-a1a1 {x \x1b[1mbold\x1b[0m\x1b]0;title\x07 y\x01z\x7f\x0c\x0b} '
           '2. I2n-a1t1\n')


def said(text: str) -> tuple[dict[str, str], list[str]]:
    """The tags and the comments' texts of the one record in ``text``."""
    (record,) = notation.parse(text, "tilewe")
    assert notation.run(record).valid
    return record.headers, [i.text for i in record.items if isinstance(i, Comment)]


@pytest.mark.parametrize("command", [["fmt"], ["cat"], ["select"], ["strip", "-N"],
                                     ["convert", "--to", "tilewe"]])
def test_records_written_to_standard_output_keep_every_character(tmp_path, command):
    path = tmp_path / "x.tilewe"
    path.write_bytes(HOSTILE.encode("utf-8"))
    result = invoke(*command, str(path))
    assert result.exit_code == 0, result.output
    assert result.output == HOSTILE
    assert said(result.output) == said(HOSTILE)
    assert said(HOSTILE)[1] == ["x \x1b[1mbold\x1b[0m\x1b]0;title\x07 y\x01z\x7f\x0c\x0b"]


def test_json_and_back_through_standard_output_keep_every_character(tmp_path):
    path = tmp_path / "x.tilewe"
    path.write_bytes(HOSTILE.encode("utf-8"))
    as_json = invoke("convert", "--to", "json", str(path)).output
    converted = tmp_path / "x.notation.jsonl"
    converted.write_text(as_json, encoding="utf-8")
    assert invoke("convert", "--to", "tilewe", str(converted)).output == HOSTILE


@pytest.mark.slow
def test_fmt_into_a_file_then_diff_is_the_same_byte_for_byte(tmp_path):
    """``fmt x > y; notation diff x y``, with a real pipe to a file."""
    original, written = tmp_path / "x.tilewe", tmp_path / "y.tilewe"
    original.write_bytes(HOSTILE.encode("utf-8"))
    with open(written, "wb") as out:
        subprocess.run(notation_exe() + ["fmt", str(original)], stdout=out, check=True,
                       timeout=HANG_BREAKER)
    assert written.read_bytes() == original.read_bytes()
    compared = subprocess.run(notation_exe() + ["diff", str(original), str(written)],
                              capture_output=True, timeout=HANG_BREAKER)
    assert compared.returncode == 0, compared.stdout


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_the_control_characters_as_escapes(monkeypatch):
    from cli.common import emit

    screen = Terminal()
    monkeypatch.setattr(sys, "stdout", screen)
    emit(HOSTILE, nl=False)
    shown = screen.getvalue()
    assert "\x1b" not in shown and "\x07" not in shown and "\x00" not in shown
    assert "{x \\x1b[1mbold\\x1b[0m\\x1b]0;title\\x07 y\\x01z" in shown
    assert shown.count("\n") == HOSTILE.count("\n")  # the lines stay lines


# -- comments: written so that they read back as written, or refused in one line ---------

PIECES = st.sampled_from(["\r", "\n", "\r\n", "{", "}", '[Event "x"]', ' [Event "', ";",
                          "[%clk 0:01:30]", " ", "\x00", "\x1b[31m", "2. I3n-a1t1", "(", ")"])


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@example(text='a\r[Event "x"]', brace=True)
@example(text="a\rb", brace=False)
@given(text=st.lists(st.one_of(PIECES, st.text(max_size=3)), max_size=8).map("".join),
       brace=st.booleans())
def test_the_native_writer_never_writes_a_broken_comment(text, brace):
    comment = Comment(text, brace)
    (record,) = notation.parse('[Game "tilewe"]\n[Players "2"]\n\n1. W5n-a1a1 2. I2n-a1t1\n')
    record.items.insert(1, comment)
    try:
        written = notation.format_record(record)
    except notation.NotationError as refused:
        assert "\r" in text and "\n" not in str(refused) and "\r" not in str(refused)
        return
    (back,) = notation.parse(written, "tilewe")  # one record: no comment ran into a tag line
    assert notation.run(back).valid
    comments = [(c.text, c.brace) for c in back.items if isinstance(c, Comment)]
    assert comments == [(c.text, c.brace) for c in writable_comments(comment)]
    if brace and "}" not in text and "\n" not in text:
        assert comments == [(text, True)]


# -- tag values ----------------------------------------------------------------------------

def test_tag_values_with_line_breaks_are_written_back_escaped():
    record = notation.parse(TILEWE + "1. W5n-a1a1\n", "tilewe")[0]
    record.tags.append(notation.Tag("Note", 'line one\rline two\n"quoted" \\ end'))
    text = notation.format_record(record)
    again = notation.parse(text, "tilewe")[0]
    assert again.headers["Note"] == 'line one\rline two\n"quoted" \\ end'
    assert notation.run(again).valid
