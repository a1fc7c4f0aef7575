"""The opening tag lines read in C (``notation/read/compiled/tags.c``) against their
definition, the scanner's ``opening_tags`` and the visitor's ``tag_parts`` (from the
grammar's TAG terminal): the same tags, of the same types, at the same lines and columns,
and the same body start, on near-usual headers, or None where it leaves a header to
them."""
from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import notation
from notation.core import registry
from notation.core.ast import Pos, Tag
from notation.read.scanner import (COMPILED_TAG, compiled_opening_tags, opening_tag_records,
                                   opening_tag_records_python, scanner)

pytestmark = pytest.mark.skipif(compiled_opening_tags is None,
                                reason="the compiled tag reader is not built here")
SCAN = scanner(notation.get_game("tilewe"))


def compiled(text: str, first_line: int = 1) -> tuple[list[tuple[object, ...]], int, int] | None:
    """The compiled reading as plain values: each tag's type, key, value, its place's
    type and its place (a Tag compares neither type nor place)."""
    assert compiled_opening_tags is not None
    return as_values(compiled_opening_tags(text, first_line, Tag, Pos))


def defined(text: str, first_line: int = 1) -> tuple[list[tuple[object, ...]], int, int] | None:
    """The definition's reading, as :func:`compiled` gives it."""
    return as_values(opening_tag_records_python(text, first_line, SCAN))


def as_values(found: tuple[list[Tag], int, int] | None
              ) -> tuple[list[tuple[object, ...]], int, int] | None:
    if found is None:
        return None
    tags, at, line = found
    return [(type(t), t.key, t.value, type(t.pos), tuple(t.pos)) for t in tags], at, line

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
@given(st.lists(LINES, max_size=8), st.sampled_from(["", "\n", "\n\n1. W5n-a1a1\n", "\n[x"]),
       st.integers(1, 10**6))
def test_the_compiled_tag_reader_reads_as_the_grammar_does(lines: list[str], tail: str,
                                                             first_line: int) -> None:
    text = "\n".join(lines) + tail
    expected = defined(text, first_line)
    found = compiled(text, first_line)
    if found is not None:
        assert found == expected
    if "\\" not in text and max(map(ord, text), default=0) < 256:
        assert found == expected  # (taken whenever it can be: None only for a broken line)
    assert as_values(opening_tag_records(text, first_line, SCAN)) == expected


#: A usual tag line's parts, and what each may be broken into (one at a time, below).
PARTS = {"before": ("", ["\t", " ", "x", "\r"]), "open": ("[", ["", "(", "[["]),
         "inside": ("", [" ", "\t", "\n", "\r"]), "key": ("Players", ["9P", "P-x", "_P", "",
                                                                     "Pé", "P\u0101"]),
         "between": (" ", ["", "\t\t", "\n", "\r"]), "quote": ('"', ["'", "", "\"\""]),
         "value": ("4", ['4"', "4\\", "\\\"", "é", "\u20ac", "4\n", ""]),
         "close": ('"', ["", "'"]), "after": ("", [" ", "\t", "\r", "x"]),
         "bracket": ("]", ["", "]]", ")"]), "end": ("", [" ", "\t", "\r", " x", "["])}


@st.composite
def headers_with_one_part_broken(draw: st.DrawFn) -> tuple[str, int]:
    """A usual header of a few tag lines, one part of one line changed (a part broken
    alone shows its rule, where a line broken everywhere fails at its first break)."""
    count = draw(st.integers(1, 5))
    line, part = draw(st.integers(0, count - 1)), draw(st.sampled_from(sorted(PARTS)))
    lines = []
    for n in range(count):
        parts = {name: usual for name, (usual, _) in PARTS.items()}
        if n == line:
            parts[part] = draw(st.sampled_from(PARTS[part][1]))
        lines.append("".join(parts[name] for name in PARTS))
    return "\n".join(lines) + "\n\n1. W5n-a1a1\n", draw(st.integers(1, 99))


@settings(max_examples=300, deadline=None)
@given(headers_with_one_part_broken())
def test_a_header_with_one_part_broken_is_read_as_the_grammar_reads_it(
        header: tuple[str, int]) -> None:
    text, first_line = header
    expected = defined(text, first_line)
    found = compiled(text, first_line)
    assert found is None or found == expected, text
    if "\\" not in text and max(map(ord, text)) < 256:
        assert found == expected, text


def test_the_grammars_tag_terminal_is_the_one_the_compiled_reader_reads() -> None:
    """Every game's TAG terminal is record.lark's, which the C reads; one written
    otherwise would have its tags read in Python alone."""
    for game in registry.games():
        assert scanner(game).compiled_tags is compiled_opening_tags, game.name
    assert COMPILED_TAG.startswith(r"\[[ \t]*[A-Za-z]")


def test_a_usual_header_is_read_in_c() -> None:
    text = '[Game "tilewe"]\n [Players\t"4" ] \n\n[Result "*"]\n\n1. W5n-a1a1\n'
    assert compiled(text, 7) == (
        [(Tag, "Game", "tilewe", Pos, (7, 1)), (Tag, "Players", "4", Pos, (8, 2)),
         (Tag, "Result", "*", Pos, (10, 1))], text.index("1."), 5)
    assert compiled('[Game "a\\"b"]\n\n1. x') is None  # (a backslash: Python)
    assert compiled('[Game "tilewe"] x\n') is None  # (a broken line)


def test_the_compiled_tag_reader_refuses_what_it_is_not_given() -> None:
    assert compiled_opening_tags is not None
    for args in [("[A \"1\"]",), ("[A \"1\"]", "1", Tag, Pos), ("[A \"1\"]", 1, Tag, list),
                 (b"[A]", 1, Tag, Pos)]:
        with pytest.raises(TypeError):
            compiled_opening_tags(*args)  # type: ignore[arg-type]


def test_a_place_made_in_c_is_a_place_as_python_makes_it() -> None:
    """Equal, hashed alike (a dict of places finds it), and of the named tuple's class."""
    found = opening_tag_records('[Game "tilewe"]\n\n1. x', 7, SCAN)
    assert found is not None
    pos = found[0][0].pos
    assert pos == Pos(7, 1) and hash(pos) == hash(Pos(7, 1)) and {Pos(7, 1): "a"}[pos] == "a"
    assert (pos.line, pos.column) == (7, 1) and type(pos) is Pos


@pytest.mark.parametrize("first_line", [sys.maxsize, sys.maxsize - 3, 2**70, -5, 0])
def test_any_first_line_is_counted_as_python_counts_it(first_line: int) -> None:
    text = '[Game "tilewe"]\n[Players "4"]\n\n1. x'
    assert as_values(opening_tag_records(text, first_line, SCAN)) == defined(text, first_line)


def test_the_tag_class_must_be_a_class_of_its_own() -> None:
    """Only a plain class is made here without its constructor: a type's type, an int's
    subclass or a built-in one is refused before anything is made."""
    assert compiled_opening_tags is not None

    class Number(int):
        pass

    for wrong in (type, Number, int, tuple):
        with pytest.raises(TypeError):
            compiled_opening_tags('[A "1"]\n', 1, wrong, Pos)  # type: ignore[arg-type]


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
        expected = defined(text)
        found = compiled(text)
        assert found is None or found == expected, text
        if "\\" not in text and max(map(ord, text)) < 256:
            assert found == expected, text
