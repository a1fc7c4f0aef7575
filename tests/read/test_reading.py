"""The streaming reader gives the same records as one parse of the whole text.

The whole-text parse (the game's LALR parser over the entire file, as the
toolkit read files before streaming) is the oracle; the reader cuts the text
into games and parses each alone, from blocks of any size.
"""
from __future__ import annotations

import io
import re
import tracemalloc

import pytest
from hypothesis import example, assume, given, settings
from hypothesis import strategies as st

import notation
from notation.read import text as text_stage
from notation.read.parsing import parser_for
from notation.core.errors import InputError
from notation.read.reading import choose_game

from conftest import SAMPLES
from test_fuzz import mutated

GAMES = {
    game: [p.read_text() for p in sorted((SAMPLES / game).glob(f"*.{game}"))]
    for game in ("tilewe", "flows", "philosophy", "sanguine", "nomic")
}


def whole_parse(text: str, game: str):
    """The oracle: one LALR parse of all the text (line ends already LF)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return parser_for(choose_game(text, f"x.{game}", game)).parse(text)


def shape(records):
    return [(r.game, r.tags, [(type(i).__name__, i, i.pos) for i in r.items], r.pos)
            for r in records]


@st.composite
def archives(draw):
    game = draw(st.sampled_from(sorted(GAMES)))
    parts = draw(st.lists(st.sampled_from(GAMES[game]), min_size=1, max_size=4))
    text = "\n".join(parts)
    if draw(st.booleans()):
        text = draw(mutated(text))
    if draw(st.booleans()):
        text = text.replace("\n", draw(st.sampled_from(["\r\n", "\r"])))
    return game, text


#: Tag lines alone before a game that gives them again: read as that game's opening by
#: the whole parse and the stream alike (a stray bracket first; found by this test).
TAGS_GIVEN_TWICE = ("flows", '][aGme "flows"]\n' + (SAMPLES / "flows" / "flows-000.flows")
                    .read_text().replace("[Game", "[aGme", 1))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(data=archives(), block=st.sampled_from([1, 2, 7, 64, 1 << 16]))
@example(data=TAGS_GIVEN_TWICE, block=1)
def test_streaming_equals_one_whole_parse(data, block):
    game, text = data
    # Each game takes its own [Game] tag (else the file's game); the oracle reads the whole
    # text as one game, so they agree when every [Game] tag names the file's game.
    names = {m.lower() for m in re.findall(r'\[[ \t]*Game[ \t]+"([^"\r\n]*)"', text, re.I)}
    assume(names <= {game})
    expected = shape(whole_parse(text, game))
    old = text_stage.BLOCK
    text_stage.BLOCK = block
    try:
        got = list(notation.read_games(io.BytesIO(text.encode("utf-8")), game))
    finally:
        text_stage.BLOCK = old
    assert shape(got) == expected
    assert [r.index for r in got] == list(range(1, len(got) + 1))


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(text=st.text(st.sampled_from("ab\r\n"), max_size=40),
       cuts=st.lists(st.integers(0, 40), max_size=8))
def test_chunks_are_runs_of_whole_lines_whatever_the_blocks(text, cuts):
    """A CRLF split between blocks, a lone CR, empty blocks, a line over many blocks:
    the runs join to the text with LF line ends, none is empty, each but the last ends
    a line; ``lines`` gives those lines."""
    at = sorted(min(cut, len(text)) for cut in cuts)
    blocks = [text[a:b] for a, b in zip([0, *at], [*at, len(text)])]
    runs = list(text_stage.chunks(blocks))
    expected = text.replace("\r\n", "\n").replace("\r", "\n")
    assert "".join(runs) == expected
    assert all(runs) and all(run.endswith("\n") for run in runs[:-1])
    assert list(text_stage.lines(blocks)) == re.findall(r"[^\n]*\n|[^\n]+\Z", expected)


def pieces_line_by_line(text: str):
    """The oracle of :func:`text_stage.pieces`: the :class:`Cutter`, fed one line at a time,
    each piece from its first line that is not blank to its last (blank lines between games
    are no game's)."""
    cutter, buffer, start = text_stage.Cutter(), [], 1

    def trimmed():
        lines = [i for i, line in enumerate(buffer) if line.strip()]
        if lines:
            yield start + lines[0], "".join(buffer[lines[0]:lines[-1] + 1])
    for number, line in enumerate(text_stage.lines((text,)), 1):
        if cutter.feed(line):
            yield from trimmed()
            buffer, start = [], number
        buffer.append(line)
    yield from trimmed()


_AWKWARD = st.sampled_from(["[Game \"tilewe\"]\n", " [Round \"1\"]\n", "[broken\n", "\n",
                            "1. F5e-a2d4\n", "; note [Round \"2\"]\n", "# x\n", "{ a\n",
                            "[Round \"1\"] 1. F5e-a2d4\n", "\t[X \"\"]", "\x0c\n", "\u2028x\n",
                            "\u00a0[A \"b\"]\n", "  \n", "}\n"])


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_pieces_cut_by_blocks_equal_the_line_by_line_cutter(data):
    """The block-level cutter (regular expressions over whole chunks) cuts exactly where the
    line-by-line rule does, whatever the chunk sizes."""
    if data.draw(st.booleans()):
        game, text = data.draw(archives())
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    else:
        text = "".join(data.draw(st.lists(_AWKWARD, max_size=30)))
    expected = list(pieces_line_by_line(text))
    rows = list(text_stage.lines((text,)))
    cuts = sorted(data.draw(st.sets(st.integers(0, len(rows)), max_size=6)))
    runs = ["".join(rows[a:b]) for a, b in zip([0, *cuts], [*cuts, len(rows)])]
    assert list(text_stage.pieces(r for r in runs if r)) == expected
    assert list(text_stage.pieces(text_stage.chunks((text,)))) == expected


@pytest.mark.slow
def test_memory_stays_flat_whatever_the_archive_size():
    one = GAMES["tilewe"][0] + "\n"

    def peak(copies: int) -> int:
        data = io.BytesIO(one.encode() * copies)
        tracemalloc.start()
        for record in notation.read_games(data, "tilewe"):
            notation.run(record)
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return top

    peak(2)  # imports and caches
    small, large = peak(300), peak(3000)  # ten times the games: the same peak (the
    assert large < small * 2, (small, large)  # collector's garbage bound, not the archive)


def test_line_numbers_and_errors_mid_stream(monkeypatch):
    monkeypatch.setattr(text_stage, "BLOCK", 64)  # the bad byte is read long after game 3
    text = (GAMES["tilewe"][0] + "\n") * 3 + b"\xff".decode("latin-1")
    data = io.BytesIO(text.encode("utf-8")[:-2] + b"\xff\n")
    records = []
    with pytest.raises(notation.InputError, match="byte 0xff at offset"):
        for record in notation.read_games(data, "tilewe"):
            records.append(record)
    assert len(records) == 2  # the third game was not complete when the bad byte came
    lines_per_game = (GAMES["tilewe"][0] + "\n").count("\n")
    assert [r.pos.line for r in records] == [1, 1 + lines_per_game]


# -- what load takes -----------------------------------------------------------------------

def test_load_accepts_paths_strings_and_open_files():
    path = SAMPLES / "tilewe" / "tw-sample-3.tilewe"
    expected = [r.events for r in notation.load(path)]
    assert [r.events for r in notation.load(str(path))] == expected
    with open(path, encoding="utf-8") as fh:
        assert [r.events for r in notation.load(fh)] == expected
    with open(path, "rb") as fh:
        records = notation.load(fh)
    assert [r.events for r in records] == expected and records.source == str(path)
    assert [r.events for r in notation.load(io.BytesIO(path.read_bytes()), "tilewe")] == expected
    with pytest.raises(InputError):
        notation.load(SAMPLES)
