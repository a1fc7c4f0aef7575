"""Reading as visits: a user's visitor sees what the reader's own record builder sees,
at the file's lines and columns, game after game of one open file."""
from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

import notation
from notation.core.ast import EventNode, Malformed, Variation

from conftest import SAMPLES


class Visits(notation.BaseVisitor[list[tuple[Any, ...]]]):
    """Every visit, in order, with its span."""

    def begin_game(self) -> None:
        self.seen: list[tuple[Any, ...]] = []

    def visit_tag(self, name: str, value: str, span: notation.Span) -> None:
        self.seen.append(("tag", name, value, span.line, span.column))

    def visit_event(self, text: str, span: notation.Span) -> None:
        self.seen.append(("event", text, span.line, span.column))

    def visit_error(self, text, message, what, span, number=None) -> None:
        if what == "annotation":  # ($999: with the nags, which the builder attaches)
            self.seen.append(("nag", None))
        else:
            self.seen.append(("error", str(what), span.line, span.column))

    def visit_nag(self, nag: int, span: notation.Span) -> None:
        self.seen.append(("nag", nag))

    def begin_variation(self, span: notation.Span) -> None:
        self.seen.append(("(",))

    def end_variation(self, span: notation.Span) -> None:
        self.seen.append((")",))

    def result(self) -> list[tuple[Any, ...]]:
        return self.seen


def built(record: notation.GameNode) -> list[tuple[Any, ...]]:
    """What the visits of ``record``'s text would be, read from the record."""
    seen: list[tuple[Any, ...]] = [
        ("tag", t.key, t.value, t.pos.line, t.pos.column) if isinstance(t, notation.Tag)
        else ("error", "tag", t.pos.line, t.pos.column) for t in record.tags]

    def items(body: list[Any]) -> None:
        for item in body:
            if isinstance(item, EventNode):
                seen.append(("event", item.text, item.pos.line, item.pos.column))
            elif isinstance(item, Malformed) and item.what != "annotation":
                # (a glyph after no event is the builder's finding: a nag is visited)
                seen.append(("error", str(item.what), item.pos.line, item.pos.column))
            elif isinstance(item, Variation):
                seen.append(("(",))
                items(item.items)
                seen.append((")",))

    items(record.items)
    return seen


def visited(path: Path) -> list[list[tuple[Any, ...]]]:
    with path.open() as handle:
        return joined(list(iter(lambda: notation.read_game(handle, Visitor=Visits), None)))


def joined(games: list[list[tuple[Any, ...]]]) -> list[list[tuple[Any, ...]]]:
    """The games as records hold them: a game of tags and comments alone is read as the
    opening of the next (a file's leading comment, a comment between tags), unless the
    next gives one of its tags again (a game that ended before its first event)."""
    out: list[list[tuple[Any, ...]]] = []
    carry: list[tuple[Any, ...]] = []

    def names(seen: list[tuple[Any, ...]]) -> set[str]:
        return {v[1] for v in seen if v[0] == "tag"}

    for at, seen in enumerate(games):
        seen = carry + seen
        body = [v for v in seen if v[0] != "tag" and v[:2] != ("error", "tag")]
        if not body and at < len(games) - 1 and not names(seen) & names(games[at + 1]):
            carry = seen
        else:
            out.append(seen)
            carry = []
    return out


def one_kind_order(seen: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """Tags first, then the body (a record keeps them apart; nags are on its events)."""
    return sorted([visit for visit in seen if visit[0] != "nag"], key=lambda visit: visit[0] != "tag" and not (
        visit[0] == "error" and visit[1] == "tag"))


RECORDS = sorted(p for p in SAMPLES.rglob("*.*") if p.suffix[1:] in
                 ("tilewe", "flows", "philosophy", "nomic", "sanguine"))


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_a_visitor_sees_what_the_record_holds_at_its_places(path: Path):
    games = visited(path)
    records = notation.load(path)
    assert len(games) == len(records)
    for seen, record in zip(games, records):
        assert one_kind_order(seen) == built(record)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["W5n-a1a1", "I2n-a1t1", "zz", "(", ")", "{c}", "!", "$7",
                                 "$999", "12.", "\n", "[Bad", "1. I3n-a1a20"]), max_size=30))
def test_any_text_is_visited_as_it_is_read(words: list[str]):
    text = '[Game "tilewe"]\n[Players "2"]\n\n' + " ".join(words) + "\n\n[Game \"tilewe\"]\n\nzz\n"
    games = visited_text(text)
    records = notation.parse(text, "tilewe")
    assert [one_kind_order(seen) for seen in games] == [built(r) for r in records]


def visited_text(text: str) -> list[list[tuple[Any, ...]]]:
    handle = io.StringIO(text)
    return joined(list(iter(lambda: notation.read_game(handle, Visitor=Visits), None)))


def test_read_game_goes_on_where_it_stopped_and_says_none_past_the_end():
    path = SAMPLES / "flows" / "random-3p-two-games.flows"
    with path.open() as handle:
        first, second = notation.read_game(handle), notation.read_game(handle)
        assert notation.read_game(handle) is None and notation.read_game(handle) is None
    assert first is not None and second is not None
    assert [first.events, second.events] == [r.events for r in notation.load(path)]
    with path.open() as handle:  # the events of the second game at the file's lines
        visits = [notation.read_game(handle, Visitor=Visits) for _ in range(2)]
    assert visits[1] is not None
    assert [v[2] for v in visits[1] if v[0] == "event"][0] == second.items[0].pos.line > 10


def test_a_visitor_of_another_format_is_one_error(tmp_path: Path):
    blksgf = tmp_path / "one.blksgf"
    blksgf.write_text("(;GM[Blokus]CA[UTF-8];1[a20])\n")
    with blksgf.open() as handle, pytest.raises(notation.Error, match="read_games"):
        notation.read_game(handle, Visitor=Visits)
