"""The reader's fast path agrees with the full Lark parse and replay.

On well-formed games (random games from each engine's own generator, and the
samples) the fast path must take them and give the same outcome; on mutated
text it must either step aside or give the same verdict. Any difference is a
wrong answer without a word, so this is property-tested for every game.
"""
from __future__ import annotations

import io
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
import pytest

from notation.core.new_games import random_record
import notation
from notation.read.reading import source_records
from notation.core.writer import format_record

from conftest import SAMPLES
from test_fuzz import mutated

DECKS = SAMPLES / "sanguine" / "decks"
OPTIONS = {"sanguine": {"red": str(DECKS / "legion.deck"), "blue": str(DECKS / "legion.deck")}}
GAMES = ("tilewe", "flows", "philosophy", "sanguine", "nomic")


def random_text(game_name: str, seed: int, count: int = 2) -> str:
    from notation.core.results import with_result_tags
    game = notation.get_game(game_name)
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        record, _outcome = with_result_tags(random_record(game, rng, OPTIONS.get(game_name, {})))
        out.append(format_record(record, game))
    return "\n".join(out)


def verdicts(text: str, game: str, checked: bool):
    rows = []
    for record in source_records(io.StringIO(text), game, checked=checked):
        outcome = notation.run(record)
        g = outcome.game
        rows.append((record.index, record.game, record.headers, outcome.valid, outcome.plies,
                     [p.as_json() for p in outcome.problems],
                     g.position(outcome.state) if g and outcome.state is not None else None,
                     g.result_json(outcome.state) if g and outcome.state is not None else None))
    return rows


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10**6))
def test_fast_path_takes_valid_games_and_agrees(game, seed):
    text = random_text(game, seed)
    fast = verdicts(text, game, True)
    assert fast == verdicts(text, game, False)
    assert all(row[3] for row in fast)
    taken = [r.outcome is not None for r in source_records(io.StringIO(text), game, checked=True)]
    assert all(taken), "a generated well-formed game should take the fast path"


#: Comments a game reads at the end of an event's line. Sanguine's "#" alone: a deal's
#: names run to the end of the line or a "#" (a card may be named "{x}" or ";").
COMMENTS = {game: ["{ a note }", "; a note", "{[%clk 0:01:00]}"] for game in GAMES}
COMMENTS["sanguine"] = ["# a note", "#"]


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(data=st.data(), game=st.sampled_from(GAMES), seed=st.integers(0, 10**6))
def test_fast_path_passes_over_comments_and_agrees(data, game, seed):
    """A comment says nothing a verdict needs: a valid game with comments at its lines'
    ends still takes the fast path, with the verdict and state of the full one."""
    text = random_text(game, seed, count=1)
    lines = text.split("\n")
    (record,) = notation.parse(text, game)
    ends = sorted({item.pos.line - 1 for item in record.items  # lines that end on an event
                   if isinstance(item, notation.EventNode)})
    said = data.draw(st.lists(st.tuples(st.sampled_from(ends), st.sampled_from(COMMENTS[game])),
                              min_size=1))
    for at, comment in said:
        lines[at] += " " + comment
    text = "\n".join(lines)
    fast = verdicts(text, game, True)
    assert fast == verdicts(text, game, False)
    assert all(row[3] for row in fast)
    taken = [r.outcome is not None for r in source_records(io.StringIO(text), game, checked=True)]
    assert all(taken), text


def test_an_export_still_reads_comments_in_full():
    """The events table keeps each event's comment: the fast path's plain events, which
    an export replays itself, never pass one over."""
    from notation.core.fastpath import plain_events
    (record,) = source_records(io.StringIO('[Game "tilewe"]\n\n1. W5n-a1a1 {corner}\n'),
                               "tilewe", headers=True)
    assert plain_events(record) is None
    (record,) = source_records(io.StringIO('[Game "tilewe"]\n\n1. W5n-a1a1\n'), "tilewe",
                               headers=True)
    assert plain_events(record) is not None


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(data=st.data(), game=st.sampled_from(GAMES), seed=st.integers(0, 10**6))
def test_fast_path_gives_the_same_verdict_on_mutated_games(data, game, seed):
    text = data.draw(mutated(random_text(game, seed)))
    assert verdicts(text, game, True) == verdicts(text, game, False)


def test_samples_agree_both_ways():
    # read from their files, so decks named by the records are found beside them
    for path in sorted(p for p in SAMPLES.rglob("*") if p.is_file() and p.suffix != ".deck"
                       and "__pycache__" not in p.parts and p.suffix not in (".py", ".pyc")):
        fast = [(r.index, notation.run(r).valid, notation.run(r).plies)
                for r in source_records(path, checked=True)]
        full = [(r.index, notation.run(r).valid, notation.run(r).plies) for r in notation.read_games(path)]
        assert fast == full, path


def _random_moves(seed: int, count: int):
    """Tilewe and the first ``count`` moves of one of its random games, as written."""
    game = notation.get_game("tilewe")
    record = random_record(game, random.Random(seed), {})
    return game, [game.format_event(e) for e in record.events][:count]


def _layouts(draw, words: list[str]) -> str:
    """The same events laid out as a hostile or careless writer might."""
    numbering = draw(st.sampled_from(["all", "none", "some", "wrong", "glued"]))
    parts = []
    for n, word in enumerate(words, 1):
        number = ""
        if numbering == "all" or (numbering == "some" and draw(st.booleans())):
            number = f"{n}." + draw(st.sampled_from([" ", "", "\t", "  "]))
        elif numbering == "wrong":
            number = f"{n + draw(st.integers(0, 1))}. "
        elif numbering == "glued":
            number = f"{n}."
        parts.append(number + word)
    seps = st.sampled_from([" ", "\n", "  ", "\t", " \n ", "\u00a0", "\x1c"])
    return draw(seps).join(parts) if len(set(parts)) else ""


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(data=st.data(), seed=st.integers(0, 10**6))
def test_split_reading_of_plain_bodies_agrees_with_the_general_one(data, seed):
    """``body.split()`` (the usual layout, in C) reads what the number-by-number path reads."""
    from notation.core.fastpath import _numbered_words, _plain_words
    from notation.read.scanner import scanner
    game, words = _random_moves(seed, data.draw(st.integers(1, 30)))
    body = _layouts(data.draw, words) + data.draw(st.sampled_from(["", "\n", " \n\n"]))
    scan = scanner(game)
    general = _numbered_words(scan, body) if scan.whole.fullmatch(body) else None
    assert _plain_words(scan, body) == general
    if general is not None:
        assert general == words


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(data=st.data(), seed=st.integers(0, 10**6))
def test_the_words_played_in_one_call_are_the_words_the_scanner_reads(data, seed):
    """A game that plays its words in one call (Tilewe, compiled) takes a body's words
    without the event pattern over the body: they must be the scanner's words, or None.
    Where such a body is none (a number alone on its line, a glyph), the other paths read
    it, with the full parse's verdict."""
    from notation.core.fastpath import _plain_words, _usual_words
    from notation.read.scanner import scanner
    game, words = _random_moves(seed, data.draw(st.integers(1, 30)))
    body = _layouts(data.draw, words) + data.draw(st.sampled_from(["", "\n", " \n\n"]))
    body = body.replace(" ", data.draw(st.sampled_from([" ", "\n", " !\n", " $1 "])), 1)
    usual = _usual_words(body)
    if usual is not None:
        assert usual == _plain_words(scanner(game), body)
    text = f'[Game "tilewe"]\n\n{body}'
    assert verdicts(text, "tilewe", True) == verdicts(text, "tilewe", False)


def test_a_body_in_the_usual_layout_is_played_in_one_call():
    from notation.core.fastpath import _usual_words
    game, words = _random_moves(5, 40)
    assert game.plays_words  # (compiled: tests/games/tilewe/test_tilewe_compiled_rules.py)
    assert _usual_words(" ".join(f"{n}. {w}" for n, w in enumerate(words, 1)) + "\n") == words
    assert _usual_words("\n".join(f"{n}. {w}" for n, w in enumerate(words, 1))) == words
    assert _usual_words("1.\nW5n-a1a1\n") is None  # (its number alone on its line)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(data=st.data(), game=st.sampled_from(["flows", "philosophy", "nomic", "sanguine"]),
       seed=st.integers(0, 10**6))
def test_split_reading_of_many_kinds_of_events_agrees_with_the_token_loop(data, game, seed):
    """A game of several event terminals: a body split in C and read a word at a time
    (each word one whole token) gives the events the token loop gives, or steps aside."""
    from notation.core.fastpath import _plain_events, _token_events
    from notation.core.tree import GameNode
    from notation.read.scanner import scanner
    rules = notation.get_game(game)
    record = random_record(rules, random.Random(seed), OPTIONS.get(game, {}))
    words = [rules.format_event(e) for e in record.events][:data.draw(st.integers(1, 30))]
    body = _layouts(data.draw, words) + data.draw(st.sampled_from(["", "\n", " \n\n"]))
    scan = scanner(rules)
    plain = _plain_events(scan, body)
    if plain is not None:
        read = _token_events(scan, body, 1, GameNode(game, [], []))
        assert read is not None and [reader(word) for reader, word in read] == plain


@pytest.mark.parametrize("word", ["In+)", "In+(", "In+$1", "In+!", "In+{c}", "In+;c", "In+["])
def test_a_word_an_event_starts_but_does_not_fill_is_read_as_the_full_parse_reads_it(word):
    """``In+)`` starts with a join the token loop would end before ``)``: split in C, the
    word must be one whole token, or the stray ``)`` would go unseen."""
    text = f'[Game "philosophy"]\n\n1. {word} 2. Te+ 3. In:C1PuNo\n'
    assert verdicts(text, "philosophy", True) == verdicts(text, "philosophy", False)


@pytest.mark.parametrize("word, kind", [("In+", "JOIN"), ("C5", "CHOICE"), ("No", "CHOICE"),
                                        ("Te:C7ReNe[We]", "PLACEMENT"), ("R:In", "RESPECT")])
def test_a_word_is_read_as_its_event_only_when_one_token_fills_it(word, kind):
    """The reader of split words (:attr:`Scanner.event_of`) reads a whole token as its
    terminal's reader does, and refuses one followed by anything (a choice's reader
    takes any text: the scanner, not the reader, must see the ``)``)."""
    from notation.core.errors import NotationError
    from notation.read.scanner import scanner
    rules = notation.get_game("philosophy")
    scan = scanner(rules)
    assert scan.event_of(word) == rules.read_event(kind, word)
    for tail in (")", "(", "!", "$1", "{c}", ";c"):
        with pytest.raises(NotationError):
            scan.event_of(word + tail)


@pytest.mark.parametrize("game", ["flows", "philosophy"])
def test_a_body_in_the_usual_layout_is_split_not_scanned(game):
    from notation.core.fastpath import _plain_events
    from notation.read.scanner import scanner
    rules = notation.get_game(game)
    record = random_record(rules, random.Random(3), OPTIONS.get(game, {}))
    body = format_record(record, rules).split("\n\n", 1)[1]
    assert _plain_events(scanner(rules), body) == record.events


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(data=st.data(), seed=st.integers(0, 10**6))
def test_dedupe_keys_from_words_as_written_equal_the_parsed_ones(data, seed):
    """``dedupe`` reads a plain game's moves without parsing; its key must be the parse's."""
    from notation.archive import game_key
    from notation.read.reading import parse
    game, words = _random_moves(seed, data.draw(st.integers(1, 12)))
    odd = st.sampled_from(["hello", "F5e-a2d4;", "1.", "F5E-a2d4", "I2s-a1t20", "I2n-a2t20",
                           "O1n-a1a1", "{x}", "F5e-a2d4x"])
    for _ in range(data.draw(st.integers(0, 2))):
        words.insert(data.draw(st.integers(0, len(words))), data.draw(odd))
    text = '[Game "tilewe"]\n\n' + _layouts(data.draw, words) + "\n"
    (headers,) = notation.read_headers(io.StringIO(text), "tilewe")
    (parsed,) = parse(text, "tilewe")
    assert game_key(headers, False) == game_key(parsed, False)


@pytest.mark.parametrize("body", ["1[. In+:indigo 2. Sa+", "In+ x[y", "In+\n[not a tag line"])
def test_a_headers_read_never_takes_two_games_for_one(body):
    """A ``[`` in a body may start a tag token where the word before it ends (``1[``), and a
    tag after events starts a new game: the headers path once took such a piece as one
    game, and reading its events back (``dedupe``) failed as an internal error."""
    text = f' "philosophy"]\n[Game "philosophy"]\n[Result "Te"]\n\n{body}\n'
    fast = list(notation.read_headers(io.StringIO(text), "philosophy"))
    full = list(notation.read_games(io.StringIO(text), "philosophy"))
    assert [r.headers for r in fast] == [r.headers for r in full]
    assert [r.items for r in fast] == [r.items for r in full]


# -- records read on the fast path ---------------------------------------------------------

SAMPLE_OF = {"tilewe": "tilewe/tw-sample-1.tilewe", "flows": "flows/flows-090.flows",
             "philosophy": "philosophy/phil-0009.philosophy",
             "sanguine": "sanguine/random-5x7.sanguine", "nomic": "nomic/example-1.nomic"}


@pytest.mark.parametrize("game", sorted(SAMPLE_OF))
@pytest.mark.parametrize("how", ["checked", "headers"])
def test_a_fast_read_record_never_pretends_to_have_no_events(game, how):
    """``read_games(checked=True)`` once gave records whose replay failed falsely and whose
    ``notation.format`` dropped every move."""
    path = SAMPLES / SAMPLE_OF[game]
    full = notation.load(path)[0]
    fast = next(source_records(str(path), **{how: True}))
    assert fast.unread  # it did take the fast reading
    assert fast.events == full.events and len(fast.events) > 0
    assert [(s.ply, s.event) for s in notation.replay(fast)] == [(s.ply, s.event) for s in notation.replay(full)]
    assert notation.format_record(fast) == notation.format_record(full)
    assert notation.run(fast).valid and notation.run(fast, until=2).plies == 2
    assert fast.items == full.items and fast.tags == full.tags


def test_a_fast_read_record_keeps_file_positions():
    text = ('[Game "tilewe"]\n[Players "2"]\n\n1. W5n-a1a1 2. I2n-a1t1\n\n'
            '[Game "tilewe"]\n[Players "2"]\n\n1. W5n-a1a1 2. I2n-a1t1 3. F5e-a2d4\n')
    second = list(source_records(io.StringIO(text), checked=True))[1]
    assert [item.pos.line for item in second.items] == [9, 9, 9]
    assert second.tags[0].pos.line == 6


@pytest.mark.parametrize("sample", ["sanguine/example-1.sanguine", "nomic/example-1.nomic"])
def test_a_position_tag_a_game_cannot_start_from_is_refused_by_every_path(sample, tmp_path):
    """Sanguine and Nomic take no set-up position: the fast path of validate refused a
    [Position] tag no more (it started the game itself) and said ``ok``."""
    text = (SAMPLES / sample).read_text(encoding="utf-8")
    first, rest = text.split("\n", 1)
    path = tmp_path / Path(sample).name
    path.write_text(f'{first}\n[Position "anything"]\n{rest}', encoding="utf-8")
    verdicts = list(notation.read_verdicts(path))
    full = notation.run(notation.load(path)[0])
    assert len(verdicts) == 1 and not verdicts[0].valid and not full.valid
    assert verdicts[0].error.rule == full.error.rule == "tag Position"


@pytest.mark.parametrize("game", ["tilewe", "philosophy"])
def test_a_judged_outcome_keeps_the_result_its_end_check_asked_for_whole(game):
    """A game without result tags of its own (Tilewe) is checked against its whole
    result, kept on the outcome for ``stats``; one with them (Philosophy) keeps none."""
    rules = notation.get_game(game)
    record = random_record(rules, random.Random(3), OPTIONS.get(game, {}))
    from notation.core.results import with_result_tags
    text = format_record(with_result_tags(record)[0])
    (read,) = source_records(io.StringIO(text), game, checked=True)
    outcome = notation.run(read)
    assert outcome.valid and read.outcome is not None  # (the fast path judged it)
    if rules.gives_result_tags:
        assert outcome.standing is None
    else:
        assert outcome.standing == rules.result(outcome.state)
    assert (game == "philosophy") == rules.gives_result_tags
