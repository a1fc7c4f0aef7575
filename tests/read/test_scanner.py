"""The scanner as the reader's second source of visits: where it reads a game at all, its
tokens make exactly the visits Lark's make (every call, every argument, every span), so
the record built from them is the same record. Any difference would be a wrong record
without a word, so this is property-tested on random and mutated games of every game."""
from __future__ import annotations

import io
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import notation
from notation.read import parsing
from notation.read.parsing import parse_games, scan_games
from notation.read.scanner import scanned_tokens
from notation.read.text import pieces

from conftest import SAMPLES
from test_fastpath import COMMENTS, GAMES, random_text
from test_fuzz import mutated


class EveryVisit(notation.BaseVisitor[list[tuple[Any, ...]]]):
    """Each call, with all its arguments."""

    def __init__(self, *_: Any) -> None:
        self.seen: list[tuple[Any, ...]] = []

    def begin_game(self) -> None:
        self.seen.append(("begin",))

    def visit_tag(self, *args: Any) -> None:
        self.seen.append(("tag", *args))

    def visit_number(self, *args: Any) -> None:
        self.seen.append(("number", *args))

    def visit_event(self, *args: Any) -> None:
        self.seen.append(("event", *args))

    def visit_directive(self, *args: Any) -> None:
        self.seen.append(("directive", *args))

    def visit_comment(self, *args: Any) -> None:
        self.seen.append(("comment", *args))

    def visit_nag(self, *args: Any) -> None:
        self.seen.append(("nag", *args))

    def begin_variation(self, *args: Any) -> None:
        self.seen.append(("(", *args))

    def end_variation(self, *args: Any) -> None:
        self.seen.append((")", *args))

    def visit_error(self, *args: Any) -> None:
        self.seen.append(("error", *args))

    def end_game(self) -> None:
        self.seen.append(("end",))

    def result(self) -> list[tuple[Any, ...]]:
        return self.seen


def both(text: str, game_name: str) -> tuple[list[Any] | None, list[Any]]:
    """The visits of ``text`` from the scanner (None: it steps aside) and from Lark."""
    game = notation.get_game(game_name)
    return (scan_games(game, text, EveryVisit, lines=4),
            parse_games(game, text, EveryVisit, lines=4))


def with_comments(text: str, game: str, data: st.DataObject) -> str:
    """``text`` with comments drawn at the ends of some of its lines of events."""
    lines = text.split("\n")
    ends = [at for at, line in enumerate(lines) if line and line[0].isdigit()]
    if ends:
        said = data.draw(st.lists(st.tuples(st.sampled_from(ends),
                                            st.sampled_from(COMMENTS[game]))))
        for at, comment in said:
            lines[at] += " " + comment
    return "\n".join(lines)


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), game=st.sampled_from(GAMES), seed=st.integers(0, 10**6))
def test_the_scanner_reads_a_plain_game_into_the_visits_lark_makes(data, game, seed):
    text = with_comments(random_text(game, seed, count=1), game, data)
    scanned, parsed = both(text, game)
    assert scanned is not None, "a generated plain game should be scanned"
    assert scanned == parsed


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), game=st.sampled_from(GAMES), seed=st.integers(0, 10**6))
def test_on_mutated_games_the_scanner_steps_aside_or_agrees(data, game, seed):
    text = data.draw(mutated(random_text(game, seed, count=1)))
    scanned, parsed = both(text, game)
    assert scanned is None or scanned == parsed


def test_on_every_sample_piece_the_scanner_steps_aside_or_agrees():
    taken = 0
    for path in sorted(SAMPLES.rglob("*")):
        game = path.suffix[1:]
        if game not in GAMES:
            continue
        for _line, text in pieces([path.read_text(encoding="utf-8")], str(path)):
            scanned, parsed = both(text, game)
            if scanned is not None:
                taken += 1
                assert scanned == parsed, (path, text[:200])
    assert taken > 20


@pytest.mark.parametrize("body", [
    "1. W5n-a1a1 (1. I2n-a1t1)",  # a variation
    "1. W5n-a1a1 !",  # an annotation
    "1.\nW5n-a1a1",  # a number alone on its line
    "1. W5n-a1a1 zz",  # a word that is no event
    "{ only a comment }",  # no event
    "1. W5n-a1a1\n[Game \"tilewe\"]\n\n1. W5n-a1a1",  # a second game
])
def test_the_scanner_steps_aside_from_what_only_the_parse_reads(body: str):
    text = f'[Game "tilewe"]\n[Players "2"]\n\n{body}\n'
    assert scanned_tokens(text, notation.get_game("tilewe")) is None
    assert notation.parse(text, "tilewe")  # (and the reader still reads it, in full)


def test_read_game_and_load_give_a_scanned_game_at_its_file_places(monkeypatch):
    """The scanner's tokens count lines from the piece; the reader moves them to the file's,
    as it does Lark's."""
    text = ('[Game "tilewe"]\n[Players "2"]\n\n1. W5n-a1a1 {a\nnote}\n2. I2n-a1t1\n\n'
            '[Game "tilewe"]\n[Players "2"]\n\n1. W5n-a1a1\n   2. I2n-a1t1\n')
    assert all(scanned_tokens(piece, notation.get_game("tilewe")) is not None
               for _line, piece in pieces([text], "x"))

    def places() -> list[Any]:
        handle = io.StringIO(text)
        games = [notation.read_game(handle) for _ in range(2)]
        return [[(i.pos.line, i.pos.column) for i in g.items] for g in games if g is not None]

    scanned = places()
    assert scanned[1] == [(11, 4), (12, 7)]
    monkeypatch.setattr(parsing, "scanned_tokens", lambda text, game: None)
    assert places() == scanned


def opening_tags_line_by_line(text: str, scan: Any) -> Any:
    """``opening_tags``' definition: each line cut at its break, its blanks skipped, its
    tag matched by the ``TAG`` terminal alone and only blanks allowed after it."""
    blanks = __import__("re").compile("[ \t]*")
    places = []
    line, at, size = 0, 0, len(text)
    while at < size:
        end = text.find("\n", at)
        end = size if end < 0 else end
        first = blanks.match(text, at, end).end()  # type: ignore[union-attr]
        if first < end:
            if text[first] != "[":
                break
            m = scan.tag.match(text, first, end)
            if m is None or blanks.match(text, m.end(), end).end() != end:  # type: ignore[union-attr]
                return None
            places.append((line, at, first, m.end()))
        at = end + 1
        line += 1
    return places, at, line


TAG_LINES = st.lists(st.sampled_from([
    '[Game "tilewe"]', '  [Event "a b"]\t', '[Site "x\\"y"]', '', '   ', '\t', '[Bad',
    '[Round "1"] x', '[Date "2024"]\r', '1. O1n-a1a1', '{ a comment }', '[ Key  "v" ]',
    '[Key"v"]', ']', '[Key "v"', '[Key "line\\nbreak"]']), max_size=8)


@settings(max_examples=300, deadline=None)
@given(lines=TAG_LINES, end=st.sampled_from(["", "\n", "\n\n1. O1n-a1a1\n"]))
def test_opening_tags_a_match_a_line_are_read_as_line_by_line(lines: list[str],
                                                               end: str) -> None:
    from notation.read.scanner import opening_tags, scanner
    scan = scanner(notation.get_game("tilewe"))
    text = "\n".join(lines) + end
    assert opening_tags(text, scan) == opening_tags_line_by_line(text, scan)
