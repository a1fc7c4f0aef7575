"""Every terminal is bounded in memory, however long the line it reads.

Python's regex engine keeps a frame (about 200 bytes) for each pass through a
plain repeated group whose body is more than one character: a line of a
million escapes, cards or dice once took 200-1400 bytes a character (a 10 MB
line, gigabytes). A repeat over single characters keeps none, nor does a
possessive one (``*+``, ``++``). These tests read every terminal's compiled
pattern and refuse a plain repeated group, then prove that each possessive or
rewritten pattern matches exactly what its plain form would.
"""
from __future__ import annotations

import re
from functools import lru_cache

# The pattern parser behind ``re`` (Lark's ``get_regexp_width`` reads patterns with it too).
import re._constants as sre
import re._parser as sre_parse

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.core import registry
from notation.read.scanner import scanner
from notation.read.grammars import grammar, terminal_pattern
from notation.read.parsing import parser_for

UNIT_CODES = {sre.ANY, sre.IN, sre.LITERAL, sre.NOT_LITERAL, sre.CATEGORY}


def framed_repeats(pattern: str) -> list[str]:
    """The plain repeated groups of ``pattern`` that may pass more than once."""
    found: list[str] = []

    def walk(items) -> None:
        for op, av in items:
            if op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
                low, high, body = av
                single = len(body) == 1 and body[0][0] in UNIT_CODES
                if high > 1 and not single:
                    found.append(str(body)[:120])
                walk(body)
            elif op == sre.POSSESSIVE_REPEAT:
                walk(av[2])
            elif op == sre.SUBPATTERN:
                walk(av[-1])
            elif op == sre.BRANCH:
                for branch in av[1]:
                    walk(branch)
            elif op in (sre.ASSERT, sre.ASSERT_NOT):
                walk(av[1])
            elif op == sre.ATOMIC_GROUP:
                walk(av)

    walk(sre_parse.parse(pattern))
    return found


@lru_cache(maxsize=None)
def every_terminal() -> tuple[tuple[str, str, str], ...]:
    """(where, terminal, pattern) for every game's lexer, the deck grammar, the container,
    the JSON records' grammar and Pentobi's SGF."""
    found = []
    for game in registry.games():
        for terminal in parser_for(game).terminals:
            found.append((game.name, terminal.name, terminal.pattern.to_regexp()))
    for name in ("sanguine_deck.lark", "container.lark", "json_record.lark", "blksgf.lark"):
        for terminal in grammar(name).terminals:
            found.append((name, terminal.name, terminal.pattern.to_regexp()))
    return tuple(found)


def test_the_repeat_finder_finds_one():
    assert framed_repeats(r'"[^"\\]*(?:\\.[^"\\]*)*"')
    assert not framed_repeats(r'"[^"\\]*(?:\\.[^"\\]*)*+"')
    assert not framed_repeats(r"(?:ab)?[a-z]*x+")


def test_no_terminal_keeps_a_frame_per_repeat():
    offenders = [f"{where} {name}: {framed_repeats(pattern)}"
                 for where, name, pattern in every_terminal() if framed_repeats(pattern)]
    assert not offenders, "plain repeated groups (make them possessive):\n" + "\n".join(offenders)


def test_the_fast_scanners_keep_no_frame_per_event():
    for game in registry.games():
        scan = scanner(game)
        for compiled in (getattr(scan, "whole", None), getattr(scan, "words", None)):
            if compiled is not None:
                assert not framed_repeats(compiled.pattern), (game.name, compiled.pattern)


def test_blocks_break_lines_where_the_cut_rule_does():
    """A brace comment and a deck block write NEXT_LINE out (to repeat it possessively):
    it must be NEXT_LINE's own pattern, or a block could run over a line the reader cuts at."""
    next_line = terminal_pattern("container.lark", "NEXT_LINE").pattern
    by_name = {(where, name): pattern for where, name, pattern in every_terminal()}
    for where in ("tilewe", "flows", "philosophy", "nomic", "sanguine"):
        assert next_line in by_name[(where, "COMMENT")]
        assert next_line in by_name[(where, "UNCLOSED")]
    assert next_line in by_name[("sanguine", "DECK_BLOCK")]


def plain(pattern: str) -> str:
    """``pattern`` with its possessive repeats made plain (our grammars escape no ``*`` or ``+``)."""
    return pattern.replace("*+", "*").replace("++", "+")


POSSESSIVE = [(where, name, pattern) for where, name, pattern in every_terminal()
              if "*+" in pattern or "++" in pattern]
#: Each distinct terminal among them once, with every grammar that has it (the
#: container's TAG is every game's: one test of its pattern is a test of all five).
DISTINCT: dict[tuple[str, str], list[str]] = {}
for _where, _name, _pattern in POSSESSIVE:
    DISTINCT.setdefault((_name, _pattern), []).append(_where)


def pieces(pattern: str) -> list[str]:
    """What texts for ``pattern`` are made of: its words, its literals, a few of every class."""
    words = set(re.findall(r"[A-Za-z]{2,}", pattern))
    literal = {c for c in pattern if c.isprintable() and c != "\\"}
    return sorted(words | literal | set(" \t\n\"\\;#{}[]()-.01aRB"))


#: Beginnings from which a terminal's repeat is reached (Hypothesis cannot build
#: a placement from its pattern: the lookaheads that capture are unsatisfiable to it).
OPENINGS = {"PLACEMENT": ["Te:C7ReNe[", "Te:C7ReNe(", "Te:C7ReNe[ReWe]("]}


#: Where the possessive form means something else, on purpose. A plain ROLL gave dice
#: back: "roll 3 4x" read as the event "roll 3" and a stray "4x". Possessive, the line
#: is one BAD_LINE, as nomic.lark says of every line that starts like an event and
#: is not one (tests/games/nomic/test_nomic.py holds the error it gets).
def roll_line_is_whole(text: str, fast: re.Match[str] | None, slow: re.Match[str] | None) -> bool:
    return fast is None and slow is not None and re.match(r"[ \t]+-?[0-9]", text[slow.end():]) is not None


#: A plain CARD (Sanguine) gave back a name's end where it looked like a comment: "R draw
#: a;b(" read as the draw of "a" and a comment ";b(". Possessive, the name is "a;b" (any
#: name a deck holds is one: rules 4.6) and the line, with its "(", one BAD_LINE.
def name_is_whole(text: str, fast: re.Match[str] | None, slow: re.Match[str] | None) -> bool:
    return fast is None and slow is not None and text[slow.end():slow.end() + 1] in (";", "{")


INTENDED = {"ROLL": roll_line_is_whole, "DRAW": name_is_whole}


def end_lookahead_dropped(pattern: str) -> str:
    """``pattern`` without a closing lookahead ``(?=...)`` that the end of a text satisfies
    (a line end or the end, after blanks): a text is a full match of the pattern exactly
    when it is one of the pattern without it. Hypothesis writes a lookahead's text out after
    the rest, and the examples where that text is not empty are no full match: thrown away,
    most of them, at seconds a terminal. (:func:`texts_for` keeps the full matches only.)"""
    start = pattern.rfind("(?=")
    if start < 0:
        return pattern
    try:
        closing = sre_parse.parse(pattern[start:])
    except re.error:  # the lookahead does not close the pattern
        return pattern
    if len(closing) != 1 or closing[0][0] != sre.ASSERT or closing[0][1][0] != 1:
        return pattern
    return pattern[:start] if re.fullmatch(pattern[start + 3:-1], "") else pattern


def texts_for(name: str, pattern: str) -> st.SearchStrategy[str]:
    """Texts the pattern matches, then anything: its full matches (or known openings)
    followed by a tail made of its own pieces, and texts of pieces alone."""
    tail = st.lists(st.sampled_from(pieces(pattern)), max_size=16).map("".join)
    whole = re.compile(plain(pattern)).fullmatch
    heads = (st.sampled_from(OPENINGS[name]) if name in OPENINGS
             else st.from_regex(re.compile(plain(end_lookahead_dropped(pattern))),
                                fullmatch=True).filter(whole))
    return st.one_of(st.tuples(heads, tail).map("".join), tail)


@pytest.mark.slow
@pytest.mark.parametrize("name, pattern", list(DISTINCT),
                         ids=[f"{'+'.join(w)}-{n}" for (n, _), w in DISTINCT.items()])
def test_possessive_terminals_match_what_their_plain_form_matches(name, pattern):
    fast, slow = re.compile(pattern), re.compile(plain(pattern))
    matched = []

    @settings(max_examples=100, deadline=None)
    @given(texts_for(name, pattern))
    def agree(text: str) -> None:
        a, b = fast.match(text), slow.match(text)
        if name in INTENDED and INTENDED[name](text, a, b):
            return
        assert (a and (a.end(), a.groups())) == (b and (b.end(), b.groups())), text
        matched.append(a is not None)

    agree()
    assert any(matched), "no example matched: the comparison proved nothing"


def test_possessive_terminals_are_found():
    """The agreement test above runs on the terminals this fix touched (not on none)."""
    names = {(where, name) for where, name, _ in POSSESSIVE}
    assert {("tilewe", "TAG"), ("tilewe", "COMMENT"), ("sanguine", "DEAL"),
            ("sanguine", "DECK_BLOCK"), ("nomic", "ROLL"), ("nomic", "NOTE"),
            ("philosophy", "PLACEMENT"), ("philosophy", "JOIN"),
            ("json_record.lark", "STRING"), ("blksgf.lark", "VALUE"),
            ("blksgf.lark", "UNCLOSED")} <= names


# The two BAD_LINE terminals are written over single characters or with possessive
# repeats; their plain spelling, (blanks words)+, is kept here as the specification they
# must equal. Sanguine's: a deal's words run to a "#" (its names may begin with ";" or
# "{"); any other line's stop at a ";" or "{" after a blank, but for the name's place.
WORDS_SPEC = {
    "sanguine": r"[RB][^\S\n]+(?:deal(?![^\s#])(?:[^\S\n]*[^\s#]+)*"
                r"|[^\s;#{][^\s#]*(?:[^\S\n]+[^\s#]+)?(?:[^\S\n]+[^\s;#{][^\s#]*)*)",
    "nomic": r"(?:round|join|turn|roll|move|reveal|propose|vote|invoke|judgment|note)\b"
             r"[^\s;#{]*(?:[^\S\n]+[^\s;#{]+)*",
}


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(WORDS_SPEC))
@settings(max_examples=500, deadline=None)
@given(text=st.text(" \t\n\r\xa0;#{xR1$(", max_size=30),
       word=st.sampled_from(["R", "B", "roll", "note", "R deal", "B draw"]))
def test_bad_line_equals_its_specification(game, text, word):
    ours = re.compile(next(p for w, n, p in every_terminal() if (w, n) == (game, "BAD_LINE")))
    spec = re.compile(WORDS_SPEC[game])
    for candidate in (text, word + text, word + " " + text):
        a, b = ours.match(candidate), spec.match(candidate)
        assert (a and a.end()) == (b and b.end()), candidate
