"""Spans: the fast search for where a span ends (a few scans in C a span) cuts every file
exactly where the line-by-line definition does, whatever its lines, encoding, blocks and
length; the spans cover the file, each starting where a game may."""
from __future__ import annotations

import io
from unittest import mock

import pytest

from hypothesis import example, given, settings
from hypothesis import strategies as st

from notation.parallel import spans
from notation.parallel.spans import Span

#: Lines of every kind the cut rule tells apart: tag lines (indented too), broken tags,
#: body lines, comment lines, comments over several lines, blank lines of every blank,
#: and lines that are ASCII only in some encodings.
LINES = ['[Game "tilewe"]', '   \t  [Event  "long head"]', '\x0c\x0c\x0c\x0c\x0cbody after blanks', 'Key_1 { brace late', '[x' * 9, ' [Event "x"]', '\t[Round  "1"]', '[broken', '[ "no key"]',
         '[1a "x"]', '1. W5n-a1a1', '  2. F5e-a2d4', '; a comment', '# a note', '{ a comment',
         'more } of it', 'x { y } z', '', '   ', '\t', '\x0c', '\x1c', '\u00a0[Event "nbsp"]',
         '\u00e9t\u00e9 {', '\u2028', '[Event "\u00e9"]', '\u3000body']


@st.composite
def files(draw: st.DrawFn) -> tuple[bytes, str]:
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "latin-1", "cp1252", "ascii",
                                     "shift_jis", "utf-16", "utf-8-sig", "iso2022_jp",
                                     "utf-7", "koi8-r"]))
    lines = draw(st.lists(st.sampled_from(LINES), max_size=60))
    ends = draw(st.lists(st.sampled_from(["\n", "\n", "\r\n"]), min_size=len(lines),
                         max_size=len(lines)))
    text = "".join(line + end for line, end in zip(lines, ends))
    if draw(st.booleans()) and text:
        text = text[:-1]  # a last line without its line break
    if draw(st.integers(0, 5)) == 0:
        text = "\ufeff" + text
    data = text.encode(encoding, "replace")
    if draw(st.integers(0, 6)) == 0:  # a byte no encoding reads
        at = draw(st.integers(0, len(data)))
        data = data[:at] + b"\xff" + data[at:]
    return data, encoding


def cut(function, data: bytes, encoding: str, target: int, first: int) -> list[Span]:
    whole = Span("f", 1, 0, 0, 1, None, encoding, identity=spans.Identity(len(data), 0, ""))
    return list(function(io.BytesIO(data), whole, target, first))


@settings(max_examples=1500, deadline=None)
@given(files(), st.integers(1, 400), st.integers(1, 400), st.integers(1, 64),
       st.integers(0, 300), st.integers(1, 24))
@example(file=(b'\xef\xbb\xbfmore } of it\n[Game "tilewe"]\n', 'utf-8'), target=1, first=1,
         read=1, hold=0, long=3)  # a long first line: its head is a byte-order mark
@example(file=(b'\xef\xbb\xbf[Game "tilewe"]\n[Game "tilewe"]\n', 'utf-8'), target=1,
         first=1, read=1, hold=0, long=1)  # ... or a part of one
def test_the_fast_search_cuts_where_the_line_cutter_does(file, target, first, read, hold,
                                                         long):
    """Blocks of a few bytes and a small hold push every line across a block's end and
    every span in and out of the line-by-line search, where lines of a few bytes are
    long lines, told by their heads."""
    data, encoding = file
    with mock.patch.object(spans, "READ", read), mock.patch.object(spans, "HOLD", hold), \
            mock.patch.object(spans, "LONG", long):
        fast = cut(spans._cut, data, encoding, target, first)
    assert fast == cut(spans._cut_by_lines, data, encoding, target, first)


@settings(max_examples=200, deadline=None)
@given(files(), st.integers(1, 400), st.integers(1, 400))
def test_spans_cover_the_file_each_from_a_line_start(file, target, first):
    data, encoding = file
    found = cut(spans._cut, data, encoding, target, first)
    assert found[0].start == 0 and found[-1].end == len(data)
    assert all(a.end == b.start for a, b in zip(found, found[1:]))
    assert [s.number for s in found] == list(range(1, len(found) + 1))
    if spans.cuttable(encoding):
        for span in found[1:]:
            assert data[span.start - 1:span.start] == b"\n"
            assert span.first_line == data.count(b"\n", 0, span.start) + 1


@pytest.mark.parametrize("body", ["\x0c\x0c\x0c\x0c\x0cbody after blanks",
                                  "\u00a0\u00a0\u00a0\u3000body after wide blanks",
                                  "      ; a comment after blanks",
                                  "Key_of_a_tag_1 { a brace late in a long line"])
@pytest.mark.parametrize("encoding", ["utf-8", "shift_jis"])
def test_a_long_line_is_told_as_the_whole_line_is(body, encoding):
    """A line longer than its head is told by the head only where the head can tell it: a
    head of blanks alone can open a body line or a comment line."""
    text = f'[Game "tilewe"]\n{body}\n[Game "tilewe"]\n1. W5n-a1a1\n'
    data = text.encode(encoding, "replace")
    with mock.patch.object(spans, "LONG", 4), mock.patch.object(spans, "HOLD", 0):
        fast = cut(spans._cut, data, encoding, 1, 1)
    assert fast == cut(spans._cut_by_lines, data, encoding, 1, 1)


def test_the_search_is_linear_in_a_file_of_tag_lines(monkeypatch):
    """A file of games of tags alone: each tag line tried walked back over every tag line
    before it (1 MB: minutes). Counted in lines looked at, not in time."""
    looked = []
    kind = spans.line_kind
    monkeypatch.setattr(spans, "line_kind", lambda text, start: looked.append(1) or
                        kind(text, start))
    for count in (2000, 8000):
        looked.clear()
        data = b'[Game "tilewe"]\n1. W5n-a1a1\n' + b'[Event "e"]\n' * count
        found = cut(spans._cut, data, "utf-8", 256, 256)
        assert found == cut(spans._cut_by_lines, data, "utf-8", 256, 256)
        assert len(looked) <= 3 * count


@pytest.mark.parametrize("encoding", ["iso2022_jp", "utf-7", "hz", "utf-16"])
def test_a_file_in_an_encoding_with_shifts_is_one_span(encoding):
    """ISO-2022-JP reads a byte by a shift made lines before: a span that started after an
    open shift read as text what the whole file reads as an error."""
    text = '[Game "tilewe"]\n1. W5n-a1a1\n\n' * 200
    data = text.encode(encoding)
    assert not spans.cuttable(encoding)
    assert len(cut(spans._cut, data, encoding, 64, 64)) == 1
