"""``select --tag KEY=VALUE`` passes over games that cannot match (``notation.archive.skim``):
the records it reads are the full reader's, a stand-in with no tags in place of each game
passed over, and every game the filter selects comes exactly as the full reader gives it."""
from __future__ import annotations

import re
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st
import pytest

from notation.archive import Filters
from notation.archive.skim import is_simple, needles, skimmed_records
from notation.core import formats
from notation.core.ast import Comment
from notation.read.reading import records_of
from notation.read.text import chunks, pieces

import notation.cli.archive as archive_cli
from conftest import SAMPLES, invoke
from test_fuzz import mutated

GAMES = {
    game: [p.read_text() for p in sorted((SAMPLES / game).glob(f"*.{game}"))]
    for game in ("tilewe", "flows", "philosophy", "sanguine", "nomic")
}

#: Lines that make a piece anything but simple, or a tag value hard to see.
_AWKWARD = ['[Round "7"]\n', '[Round "\\7"]\n', '[Round "7\\"]\n', '[Round "7"\n',
            '; [Round "7"]\n', '{ [Round "7"] }\n', "{ open\n", "}\n", '1[Round "7"]\n',
            '[Game "nosuchgame"]\n', '[Event "7"]\n', "\n", "# x\n", '  [Round  "7" ]\n',
            '[Round "07"]\n', '[Round ""]\n', "\t[Round \"7\"]\n", '[]Game "x"]\n',
            '[Round "5"] x\n', 'x [Round "5"]\n', '[A "1"] [B "2"]\n', "\x0c\n"]

_FILTERS = [("Round=7",), ("Round=7", "Game=tilewe"), ("Event=7", "Round~7"),
            ("Round=",), ("Round=7", "Round=07"), ('Round=7"',), ("Event=7",)]


def with_round(text: str, number: int) -> str:
    """A sample game with a ``[Round]`` tag after its first line."""
    first, _, rest = text.partition("\n")
    return f'{first}\n[Round "{number}"]\n{rest}'


def body_as(text: str, kind: str) -> str:
    """A game whose body is one brace comment, or ``;`` comment lines: tags and comments
    only, which the reader hands on to the next game."""
    head, blank, body = text.partition("\n\n")
    if kind == "braced":
        return f"{head}{blank}{{ {body.rstrip()} }}\n"
    return head + blank + "".join(f"; {line}\n" for line in body.splitlines())


@st.composite
def archives(draw: st.DrawFn) -> tuple[str, str]:
    game = draw(st.sampled_from(sorted(GAMES)))
    parts = []
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(["game", "game", "game", "mutated", "awkward", "braced",
                                     "commented", "escaped"]))
        text = with_round(draw(st.sampled_from(GAMES[game])), draw(st.integers(5, 8)))
        if kind == "mutated":
            text = draw(mutated(text))
        elif kind == "awkward":  # most often among the tags
            lines = text.splitlines(keepends=True)
            at = draw(st.integers(0, len(lines)) | st.integers(0, 3))
            lines[at:at] = draw(st.lists(st.sampled_from(_AWKWARD), min_size=1, max_size=3))
            text = "".join(lines)
        elif kind in ("braced", "commented"):
            text = body_as(text, kind)
        elif kind == "escaped":  # the same value, written another way
            text = re.sub(r'\[Round "', r'[Round "\\', text, count=1)
        parts.append(text)
    return game, draw(st.sampled_from(["\n", "", "\n\n"])).join(parts)


def read_both(text: str, game: str, filters: Filters, block: int) -> tuple[list, list]:
    runs = list(chunks(text[i:i + block] for i in range(0, len(text), block)))
    full = list(records_of(iter(runs), f"x.{game}", game, headers=True))
    skim = list(skimmed_records(iter(runs), f"x.{game}", game, needles(filters)))
    return full, skim


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(data=archives(), specs=st.sampled_from(_FILTERS), block=st.sampled_from([7, 300, 1 << 16]),
       long_opening=st.booleans())
def test_skimmed_reading_equals_the_full_reading(data, specs, block, long_opening):
    game, text = data
    filters = Filters(specs)
    if long_opening:  # a real opening game long enough to hold any format's signature
        text = with_round(GAMES[game][0], 1).replace("\n", f'\n[Event "{"x" * 4100}"]\n', 1) \
            + "\n" + text
        full, skim = read_both(text, game, filters, block)
    else:  # the first piece may be passed over too
        with mock.patch.object(formats, "HEAD", 1):
            full, skim = read_both(text, game, filters, block)
    assert len(skim) == len(full)
    for whole, read in zip(full, skim):
        assert filters.matches(read) == filters.matches(whole)
        if read.index:  # read in full: the very record
            assert read.index == whole.index
            assert (read.tags, read.raw, read.text, read.first_line, read.pos, read.game) == \
                (whole.tags, whole.raw, whole.text, whole.first_line, whole.pos, whole.game)
        else:  # a stand-in: a game that fails the filter
            assert not read.tags and not filters.matches(whole)


def test_skimming_passes_over_most_games_of_a_plain_archive():
    """The property above is not empty: on a plain archive most games are stand-ins."""
    text = "\n".join(with_round(GAMES["tilewe"][0], n) for n in range(1, 200))
    full, skim = read_both(text, "tilewe", Filters(("Round=7",)), 1 << 16)
    assert sum(1 for r in skim if not r.index) > 190
    assert [r.raw for r in full if Filters(("Round=7",)).matches(r)] == \
        [r.raw for r in skim if r.tags and Filters(("Round=7",)).matches(r)]


def test_needles_only_for_values_seen_as_written():
    assert needles(Filters(("Round=7", "Event~x", 'Site=a"b', "Site=a\\b"))) == ('"7"',)
    assert needles(Filters(("Round=7",), validity=True)) == ()


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(data=archives())
def test_a_simple_piece_is_one_game_that_hands_nothing_on(data):
    """What passing over rests on: a simple piece, read alone, is one record, and a
    simple piece never carries its tags or comments into the next."""
    game, text = data
    for _line, piece in pieces((text,)):
        if is_simple(piece):
            records = list(records_of(iter([piece]), f"x.{game}", game, start_line=2))
            assert len(records) == 1
            assert not all(isinstance(item, Comment) for item in records[0].items)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(data=archives(), specs=st.sampled_from(_FILTERS), invert=st.booleans(),
       count=st.booleans())
def test_select_says_the_same_skimming_or_not(tmp_path_factory, data, specs, invert, count):
    """The command: the same output, messages and exit whether games are passed over."""
    game, text = data
    path = tmp_path_factory.mktemp("skim") / f"big.{game}"
    path.write_text(f'[Game "{game}"]\n[Event "{"x" * 4100}"]\n\n; long\n\n' + text)
    args = ["select", str(path), *(f"--tag={s}" for s in specs)]
    args += ["--invert"] * invert + ["--count"] * count
    skimmed = invoke(*args)
    with mock.patch.object(archive_cli, "needles", lambda filters: ()):
        full = invoke(*args)
    assert (skimmed.exit_code, skimmed.output) == (full.exit_code, full.output)
