"""The opening tag lines read in C (``notation/read/compiled/tags.c``) against their
definition, the scanner's ``opening_tags`` and the visitor's ``tag_parts`` (from the
grammar's TAG terminal): the same tags, lines, columns and body start on near-usual
headers, or None where it leaves a header to them."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import notation
from notation.core import registry
from notation.read.scanner import (COMPILED_TAG, compiled_opening_tags, opening_tag_parts,
                                   opening_tag_parts_python, scanner)

pytestmark = pytest.mark.skipif(compiled_opening_tags is None,
                                reason="the compiled tag reader is not built here")
SCAN = scanner(notation.get_game("tilewe"))

BLANKS = st.sampled_from(["", " ", "\t", "  ", " \t"])
KEYS = st.sampled_from(["Game", "Players", "Result", "k9_", "X"] * 3
                       + ["9Key", "Ke-y", "_Key", "", "Ké"])
VALUES = st.sampled_from(["tilewe", "4", "", "45 55 62 47", "red yellow", "a]b", "x\r"] * 3
                         + ['a"b', "a\\\"b", "back\\\\slash", "é", "€", "tab\\t"])


@st.composite
def tag_lines(draw: st.DrawFn) -> str:
    line = (draw(BLANKS) + "[" + draw(BLANKS) + draw(KEYS)
            + draw(st.sampled_from([" ", "\t", "", "  "])) + '"' + draw(VALUES) + '"'
            + draw(BLANKS) + "]" + draw(BLANKS))
    return line + draw(st.sampled_from(["", "", "", "", "", "", "\r", " x", "]"]))


LINES = tag_lines() | tag_lines() | tag_lines() | BLANKS | st.sampled_from(
    ["1. F5e-a2d4", "[broken", "{c}", ";c", " \r", "\x0c"])


@settings(max_examples=400, deadline=None)
@given(st.lists(LINES, max_size=8), st.sampled_from(["", "\n", "\n\n1. W5n-a1a1\n", "\n[x"]))
def test_the_compiled_tag_reader_reads_as_the_grammar_does(lines: list[str], tail: str
                                                             ) -> None:
    text = "\n".join(lines) + tail
    expected = opening_tag_parts_python(text, SCAN)
    found = compiled_opening_tags(text)
    if found is not None:
        assert found == expected
    if "\\" not in text and max(map(ord, text), default=0) < 256:
        assert found == expected  # (taken whenever it can be: None only for a broken line)
    assert opening_tag_parts(text, SCAN) == expected


def test_the_grammars_tag_terminal_is_the_one_the_compiled_reader_reads() -> None:
    """Every game's TAG terminal is record.lark's, which the C reads; one written
    otherwise would have its tags read in Python alone."""
    for game in registry.games():
        assert scanner(game).compiled_tags is compiled_opening_tags, game.name
    assert COMPILED_TAG.startswith(r"\[[ \t]*[A-Za-z]")


def test_a_usual_header_is_read_in_c() -> None:
    text = '[Game "tilewe"]\n [Players\t"4" ] \n\n[Result "*"]\n\n1. W5n-a1a1\n'
    assert compiled_opening_tags(text) == (
        [("Game", "tilewe", 0, 1), ("Players", "4", 1, 2), ("Result", "*", 3, 1)],
        text.index("1."), 5)
    assert compiled_opening_tags('[Game "a\\"b"]\n\n1. x') is None  # (a backslash: Python)
    assert compiled_opening_tags('[Game "tilewe"] x\n') is None  # (a broken line)


def test_every_tag_line_of_the_parts_above_is_read_as_the_grammar_reads_it() -> None:
    """Each key, blank, value and ending above in one tag line, every combination
    (some 7,000): the one-line header read alike, its body line after it."""
    import itertools
    keys = ["Game", "k9_", "X", "9Key", "Ke-y", "_Key", "", "Ké", "K\u0101"]
    values = ["4", "", "a]b", "x\r", 'a"b', "a\\\"b", "back\\\\slash", "é", "€", "tab\\t"]
    for before, key, between, value, after, end in itertools.product(
            ["", " \t"], keys, [" ", "\t", "", " \t"], values, ["", " "],
            ["", "\r", " x", "]", "\n"]):
        text = f'{before}[{before}{key}{between}"{value}"{after}]{after}{end}\n1. x'
        expected = opening_tag_parts_python(text, SCAN)
        found = compiled_opening_tags(text)
        assert found is None or found == expected, text
        if "\\" not in text and max(map(ord, text)) < 256:
            assert found == expected, text
