"""The record container shared by every game (grammars/record.lark)."""
from __future__ import annotations

import pytest
from lark import Lark

import notation
from notation.core import registry
from notation.core.ast import Comment, EventNode, Malformed
from notation.read.grammars import grammar_text
from notation.read.reading import choose_game
from notation.read.text import decode
from notation.core.errors import InputError

from conftest import SAMPLES, TILEWE, no_traceback, run_cli, write

HEAD = '[Game "tilewe"]\n[Players "1"]\n\n'


def parse(text: str, **kw):
    return notation.parse(text, **kw)


@pytest.mark.parametrize("name", ["record.lark"] + [g.grammar for g in registry.games()])
def test_every_grammar_builds_in_strict_lalr(name):
    # strict=True turns any shift/reduce conflict or terminal collision into an error.
    Lark.open_from_package("notation.grammars", name, parser="lalr", strict=True)


def test_tags_comments_and_numbers_are_kept():
    rec = parse(HEAD + '; before\n1. W5n-a1a1 {after the first move} 2. F5e-a2d4 ; end\n')[0]
    assert rec.headers == {"Game": "tilewe", "Players": "1"}
    kinds = [type(i) for i in rec.items]
    assert kinds == [Comment, EventNode, Comment, EventNode, Comment]
    assert rec.items[0] == Comment(" before", False)
    assert rec.items[2] == Comment("after the first move", True)
    assert [i.number for i in rec.items if isinstance(i, EventNode)] == [1, 2]
    assert notation.run(rec).valid


def test_event_numbers_are_optional_and_checked():
    assert notation.run(parse(HEAD + "W5n-a1a1 2. F5e-a2d4")[0]).valid
    out = notation.run(parse(HEAD + "1. W5n-a1a1 3. F5e-a2d4")[0])
    assert not out.valid and out.plies == 1
    assert out.error.kind == "syntax" and out.error.ply == 2
    assert "event number 3. should be 2." in out.error.message


def test_number_glued_to_its_event_and_dangling_number():
    assert notation.run(parse(HEAD + "1.W5n-a1a1 2.F5e-a2d4")[0]).valid
    out = notation.run(parse(HEAD + "1. W5n-a1a1 2.")[0])
    assert not out.valid and out.error.ply == 2
    assert "not followed by an event" in out.error.message


def test_many_games_per_file_each_with_its_own_tags():
    text = HEAD + "W5n-a1a1\n\n" + '[Game "tilewe"]\n[Players "2"]\nW5n-a1a1 I2n-a1t1\n'
    records = parse(text)
    assert len(records) == 2
    assert [r.index for r in records] == [1, 2]
    assert records[1].headers["Players"] == "2"
    assert [notation.run(r).plies for r in records] == [1, 2]


def test_bad_game_never_stops_the_others():
    text = HEAD + "W5n-a1a1 W5n-a1a1\n\n" + HEAD + "Zz9\n\n" + HEAD + "W5n-a1a1\n"
    outs = [notation.run(r) for r in parse(text)]
    assert [o.valid for o in outs] == [False, False, True]
    assert outs[0].error.kind == "rule" and outs[1].error.kind == "syntax"


def test_every_syntax_error_is_reported_in_one_run():
    rec = parse(HEAD + "W5n-a1a1 Q5n-a1a1 F5e-a2d4 X5q-a1a1 I3n-a2a1")[0]
    out = notation.run(rec)
    assert [p.ply for p in out.problems] == [2, 4, 5]
    assert out.plies == 1  # replay stops before the first bad event
    assert {p.kind for p in out.problems} == {"syntax"}


def test_positions_are_line_and_column_of_the_event():
    rec = parse(HEAD + "W5n-a1a1\n   Q5n-a1a1")[0]
    p = notation.run(rec).error
    assert (p.line, p.column, p.event) == (5, 4, "Q5n-a1a1")


def test_bom_and_crlf():
    text = decode(("\ufeff" + HEAD + "1. W5n-a1a1 ; note\r\n2. F5e-a2d4\r\n").encode("utf-8"), "x")
    rec = parse(text)[0]
    assert notation.run(rec).valid and notation.run(rec).plies == 2
    assert rec.items[1] == Comment(" note", False)  # no stray \r kept


def test_undecodable_bytes_name_the_offset_and_the_option():
    with pytest.raises(InputError) as info:
        decode(b"abc\xffdef", "f.tilewe")
    assert "offset 3" in str(info.value) and "--encoding" in str(info.value)
    assert decode("é".encode("latin-1"), "f", "latin-1") == "é"


def test_game_choice_tag_then_option_then_extension(tilewe):
    assert choose_game(HEAD, "x.txt", None) is tilewe
    assert choose_game("W5n-a1a1", "x.txt", "tilewe") is tilewe
    assert choose_game("W5n-a1a1", "x.tilewe", None) is tilewe
    assert choose_game("W5n-a1a1", "x.txt", None) is None
    assert choose_game('[Game "chess"]', "x.tilewe", "tilewe") is None  # the tag wins


def test_unknown_and_mixed_games_are_record_errors():
    out = notation.run(parse('[Game "chess"]\n1. e4')[0])
    assert not out.valid and "unknown game 'chess'" in out.error.message
    recs = parse(HEAD + "W5n-a1a1\n\n" + '[Game "chess"]\ne4\n')
    assert notation.run(recs[0]).valid
    assert "unknown game 'chess'" in notation.run(recs[1]).error.message


def test_each_game_of_a_file_is_read_as_its_own_game():
    flows = (SAMPLES / "flows" / "flows-090.flows").read_text()
    recs = parse(HEAD + "W5n-a1a1\n\n" + flows)
    assert [r.game for r in recs] == ["tilewe", "flows"]
    assert all(notation.run(r).valid for r in recs)


def test_duplicate_and_malformed_tags():
    out = notation.run(parse('[Game "tilewe"]\n[Players "2"]\n[Players "3"]\nW5n-a1a1')[0])
    assert "given twice" in out.error.message and out.error.ply == 0
    out = notation.run(parse('[Game "tilewe"]\n[Players 2]\nW5n-a1a1')[0])
    assert "malformed tag" in out.error.message


def test_tag_values_may_hold_escaped_quotes():
    rec = parse('[Game "tilewe"]\n[Event "the \\"big\\" one"]\nW5n-a1a1')[0]
    assert rec.headers["Event"] == 'the "big" one'
    assert '[Event "the \\"big\\" one"]' in notation.format_record(rec)


def test_comment_between_tags_and_leading_comment_stay_with_the_game():
    recs = parse('; archive of 2026\n[Game "tilewe"]\n; between\n[Players "1"]\nW5n-a1a1\n')
    assert len(recs) == 1
    rec = recs[0]
    assert rec.headers == {"Game": "tilewe", "Players": "1"}
    assert [i.text for i in rec.items if isinstance(i, Comment)] == [" archive of 2026", " between"]


def test_unclosed_brace_comment():
    out = notation.run(parse(HEAD + "W5n-a1a1 {never closed F5e-a2d4")[0])
    assert not out.valid and "never closed" in out.error.message and out.plies == 1


def test_records_without_tags_use_the_fallback_game():
    recs = parse("W5n-a1a1 I2n-a1t1", game="tilewe")
    assert notation.run(recs[0]).valid and notation.run(recs[0]).plies == 2


def test_empty_text_and_header_only():
    assert len(parse("", game="tilewe")) == 0
    rec = parse('[Game "tilewe"]\n[Players "3"]\n')[0]
    out = notation.run(rec)
    assert out.valid and out.plies == 0


def test_replay_generator_steps_and_raises_at_the_first_problem():
    rec = parse(HEAD + "W5n-a1a1 F5e-a2d4 F5e-a2d4")[0]
    seen = []
    with pytest.raises(notation.ReplayError) as info:
        for step in notation.replay(rec):
            seen.append((step.ply, str(step.event)))
    assert seen == [(1, "W5n-a1a1"), (2, "F5e-a2d4")]
    assert info.value.problem.ply == 3 and info.value.problem.rule == "each piece once"
    assert [s.ply for s in notation.replay(rec, until=1)] == [1]


def test_run_until_stops_at_that_ply(tilewe):
    rec = parse(HEAD + "W5n-a1a1 F5e-a2d4 Q5n-a1a1")[0]
    out = notation.run(rec, until=1)
    assert out.valid and out.plies == 1
    assert tilewe.state_json(out.state)["board"][-1] == "00.................."


def test_grammar_files_are_package_resources():
    assert "start:" in grammar_text("record.lark")
    assert "%import .record" in grammar_text("tilewe.lark")


def test_malformed_event_kept_verbatim():
    rec = parse(HEAD + "W5n-a1a1 F5e-a2d4x")[0]
    bad = rec.items[-1]
    assert isinstance(bad, Malformed) and bad.text == "F5e-a2d4x"


def test_problem_lines_and_caret_excerpts():
    from notation.core.errors import caret, problem_line
    text = HEAD + "W5n-a1a1\n  Q5n-a1a1\n"
    rec = parse(text, source="x.tilewe")[0]
    problem = notation.run(rec).error
    assert problem_line("x.tilewe", 1, problem).startswith(
        "x.tilewe:5:3: error: game 1, ply 2 (Q5n-a1a1): unknown piece 'Q5'")
    assert caret(rec.source_line(problem.line), problem) == "      Q5n-a1a1\n      ^~~~~~~~"
    assert problem.as_json()["rule"] is None


def test_a_changed_container_is_never_read_from_a_stale_parser_cache(tmp_path, monkeypatch):
    """Lark checks an imported grammar for changes only at a path it can open; the
    container is a package resource, so the loader's repr carries its digest."""
    from notation.read import grammars

    cache = str(tmp_path / "parser.cache")
    before = grammars.load(grammars.GRAMMAR_PACKAGE, "tilewe.lark", cache=cache)
    assert "%" not in before.get_terminal("COMMENT").pattern.to_regexp()
    changed = grammars.grammar_text("record.lark").replace(
        "LINE_COMMENT: /;[^\\n]*/", "LINE_COMMENT: /[;%][^\\n]*/")
    assert changed != grammars.grammar_text("record.lark")
    monkeypatch.setattr(grammars, "grammar_text", lambda name: changed)
    grammars.container_digest.cache_clear()
    try:
        after = grammars.load(grammars.GRAMMAR_PACKAGE, "tilewe.lark", cache=cache)
    finally:
        monkeypatch.undo()
        grammars.container_digest.cache_clear()
    assert "[;%]" in after.get_terminal("COMMENT").pattern.to_regexp()


# -- hostile and mistaken records ----------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("name, text, words", [
    ("a.tilewe", TILEWE + "1. W5n-a11a1\n", "contact a11 of W5n is outside the piece"),
    ("b.tilewe", TILEWE + "1. I2n-a11t1\n", "contact a11 of I2n"),
    ("c.tilewe", TILEWE + "1" * 5000 + ". W5n-a1a1\n", "is too large"),
    ("d.tilewe", TILEWE + "1" * 5000 + ".\n", "is not followed by an event"),
    ("e.tilewe", '[Game "tilewe"]\n[Players "' + "2" * 5000 + '"]\n', "1 to 4 players"),
    ("f.tilewe", '[Game "tilewe"]\n[Players "²"]\n', "1 to 4 players"),
    ("g.flows", '[Game "flows"]\n[Seats "²"]\n', "side numbers"),
    ("h.flows", '[Game "flows"]\n[Players "' + "3" * 5000 + '"]\n', "2 to 6 players"),
    ("i.flows", '[Game "flows"]\n\nP' + "1" * 70000 + "\n", "is not a Flows move"),
    ("j.sanguine", '[Game "Sanguine"]\n[Rows "' + "1" * 5000 + '"]\n', "too large"),
    ("k.nomic", '[Game "nomic"]\n\nround ' + "1" * 5000 + "\n", "too large"),
    ("l.nomic", '[Game "nomic"]\n[Players "A"]\n\nround 1\nturn A\nroll ' + "9" * 5000 + "\n",
     "too large"),
    ("m.nomic", '[Game "nomic"]\n[Players "A"]\n\nround 1\nturn A\nroll 3\nmove to ('
     + "1" * 5000 + ",0)\n", "too large"),
    ("n.sanguine", '[Game "Sanguine"]\n\nR place Spark (' + "1" * 5000 + ",0)\n", "too large"),
    ("o.sanguine", '[Game "Sanguine"]\n\nresult ' + "1" * 5000 + "-0 red\n", "too large"),
])
def test_inputs_that_crashed_are_errors_at_their_position(tmp_path, name, text, words):
    path = write(tmp_path, name, text)
    after = write(tmp_path, "z-after.tilewe", TILEWE + "1. W5n-a1a1\n")
    result = run_cli("validate", str(path), str(after))
    no_traceback(result)
    assert result.returncode == 1 and words in result.stdout, result.stdout
    assert f"{path}:" in result.stdout and "z-after.tilewe: game 1: ok, 1 ply" in result.stdout


def test_lone_cr_line_ends_end_comments(tmp_path):
    text = TILEWE.replace("\n", "\r") + "1. W5n-a1a1 ; a comment\r2. Q9n-a1a1\r"
    path = write(tmp_path, "x.tilewe", text)
    result = run_cli("validate", str(path))
    assert result.returncode == 1 and "x.tilewe:5:4: error: game 1, ply 2 (Q9n-a1a1)" in result.stdout


@pytest.mark.slow
def test_an_unclosed_brace_does_not_swallow_the_next_games(tmp_path):
    text = (TILEWE + "1. W5n-a1a1 { never closed\nmore text\n\n" + TILEWE
            + "1. Q5n-a1a1 {a closed comment}\n")
    path = write(tmp_path, "x.tilewe", text)
    result = run_cli("validate", str(path))
    assert "game 1, ply 2: comment opened with '{' is never closed; 2 lines skipped, from here to the next tag line" \
        in result.stdout
    assert "x.tilewe:10:4: error: game 2, ply 1 (Q5n-a1a1): unknown piece" in result.stdout


def test_tag_name_case_mistakes_are_named():
    outcome = notation.run(notation.parse('[game "TILEWE"]\n[players "2"]\n\n1. W5n-a1a1\n', "tilewe")[0])
    messages = [p.message for p in outcome.problems]
    assert any("unknown tag [game]; did you mean [Game]?" in m for m in messages)
    assert any("did you mean [Players]?" in m for m in messages)
    assert notation.run(notation.parse('[Game "TileWe"]\n\n1. W5n-a1a1\n')[0]).valid
