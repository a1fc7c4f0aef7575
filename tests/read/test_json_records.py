"""JSON records (``notation convert --to json``, ``schemas/record.schema.json``): the
output follows the published schema, native -> json -> native is exact up to ``fmt``
for every game's trees, each problem is one line at the file's place of its value, and
every command reads such files."""
from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Iterable, Iterator

import jsonschema
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from notation.core.new_games import random_record
import notation
from notation.archive.rewrite import converted_text
from notation.core import formats, limits, registry
from notation.core.errors import InputError
from notation.core.diffing import diff_records
from notation.core.formats import JSON_RECORDS as PLUGIN
from notation.formats.json_write import document
from notation.formats.jsonrecord import FORMAT
from notation.formats.jsontext import Piece, pieces

from conftest import DATA, ROOT, invoke
from test_positions import GAMES
from test_variations import random_tree

formats.announce(PLUGIN)
SCHEMA = json.loads((ROOT / "schemas" / "record.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
MIXED = DATA / "json" / "mixed.notation.json"


def read(text: str, source: str = "x.notation.jsonl") -> list[notation.GameNode]:
    return list(FORMAT.records(iter(text.splitlines(keepends=True)), source))


def test_the_schema_is_a_2020_12_schema_with_an_id():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"].endswith("2020-12/schema") and SCHEMA["$id"]


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6), depth=st.integers(0, 3))
def test_native_to_json_to_native_is_the_same_record(game, seed, depth):
    tree = random_tree(game, seed, plies=8, depth=depth)
    native = notation.format_record(tree)
    (first,) = notation.parse(native, game)
    written = converted_text(first, to="json")
    assert written.endswith("\n") and written.count("\n") == 1  # one line: JSON Lines
    VALIDATOR.validate(json.loads(written))
    (back,) = read(written)
    outcome = notation.run(back)
    assert outcome.valid, outcome.problems[:2]
    assert notation.format_record(back) == native  # trees, comments, annotations, commands
    rules = notation.get_game(game)
    assert diff_records(first, back, rules).same
    assert FORMAT.write(back) == written


def test_the_schema_refuses_what_the_reader_refuses():
    good = document(random_tree("tilewe", 1, plies=3, depth=1))
    VALIDATOR.validate(good)
    for broken in ({**good, "version": 2}, {**good, "format": "pgn"},
                   {**good, "moves": [{"event": "x", "comment": "y"}]},
                   {**good, "moves": [{"comment": "a } b"}]},
                   {**good, "moves": [{"event": "x", "nags": [256]}]},
                   {**good, "tags": [["1x", "y"]]}, {**good, "extra": 1}):
        assert not VALIDATOR.is_valid(broken), broken


def test_a_file_of_documents_over_many_lines_and_one_a_line_is_read_game_by_game():
    records = list(notation.load(str(MIXED)))
    assert [r.game for r in records] == ["tilewe", "flows", "sanguine"]
    assert all(notation.run(r).valid for r in records)
    lines = MIXED.read_text(encoding="utf-8").split("\n")
    assert lines[records[1].pos.line - 1].startswith('{"format"')  # the flows line
    assert records[2].pos.line == records[1].pos.line + 1
    for record in records:  # each keeps its own document (select and split copy it)
        assert json.loads(record.raw)["game"] == record.game


def test_reading_takes_one_document_at_a_time():
    line = FORMAT.write(random_tree("tilewe", 5, plies=4, depth=0))
    taken: list[int] = []

    def lines() -> Iterator[str]:
        for number in range(1, 10**6):
            taken.append(number)
            yield line

    games = FORMAT.records(lines(), "many.notation.jsonl")
    for _ in range(3):
        assert notation.run(next(games)).valid
    assert len(taken) <= 4  # a document is read when it is asked for, not the file


def test_the_signature_claims_json_records_and_not_a_native_record_opening_with_a_comment():
    assert PLUGIN.claims("game.txt", ' \n{ "format" :\n "notation-record", "version": 1}')
    assert not PLUGIN.claims("game.tilewe", '{ "format" is a comment } [Game "tilewe"]')
    assert not PLUGIN.claims("game.tilewe", '{"format": "pgn"}')
    assert PLUGIN.claims("games.NOTATION.JSONL", "")
    native = '{ a comment first }\n[Game "tilewe"]\n\n1. I2e-b1t1\n'
    (record,) = notation.parse(native, "tilewe")
    assert notation.run(record).valid


# -- problems: one line each, at the file's place of the value ---------------------------

HEAD = '{"format": "notation-record", "version": 1, "game": "tilewe", '


def problems(text: str) -> list[tuple[int, int, str]]:
    out = []
    for record in read(text):
        out += [(p.line, p.column, p.message) for p in notation.run(record).problems]
    return out


KNOWN = [
    ('{"format": "notation-record", "version": 1,, }',
     ', }', "not JSON: unexpected ','"),
    ('{"format": "notation-record",\n "version": 1', '1', "not JSON: the text ends "
                                                      "before the document is complete"),
    ('{"format": "notation-record", "version": @}', '@', "not JSON: unexpected '@'"),
    ('["format"]', '["format"]', "a JSON record is an object {...}, not an array"),
    ('{"format": "pgn", "version": 1}', '"pgn"', 'not a notation record: "format" must be '
                                        '"notation-record"'),
    ('{"format": "notation-record", "version": 2}',
     '2}', '"version" must be 1 (the version this reader knows), not the number 2'),
    ('{"format": "notation-record", "version": 1, "game": "chess"}',
     '"chess"', "unknown game 'chess'; known games: flows, nomic, philosophy, sanguine, "
       "tilewe"),
    ('{"format": "notation-record", "version": 1}',
     '{"format"', 'no "game" in the record, and no --game (known games: flows, nomic, '
       'philosophy, sanguine, tilewe)'),
    (HEAD + '"moves": [], "moves": []}', '"moves": []}', "record: key 'moves' given twice"),
    (HEAD + '"result": "1-0"}', '"result"', "record: unknown key 'result' (known: format, "
                                 "version, game, tags, moves)"),
    (HEAD + '"tags": [["Players", 4]]}',
     '["Players", 4]', 'a tag is a ["Name", "value"] pair of strings'),
    (HEAD + '"tags": [["9lives", "x"]]}',
     '"9lives"', "tag name '9lives' is not a name (a letter, then letters, digits or _)"),
    (HEAD + '"tags": [["Game", "flows"]]}',
     '"flows"', 'tag [Game \'flows\'] is not the record\'s "game" (tilewe)'),
    (HEAD + '"moves": [{"event": "I2e-b1t1"},\n {"event": "Q9z"}]}',
     '"Q9z"', None),
    (HEAD + '"moves": [{"event": 7}]}',
     '7}', "an event is its text in tilewe's notation, not the number 7"),
    (HEAD + '"moves": ["I2e-b1t1"]}',
     '"I2e-b1t1"', "an item of a line of play is one of {\"event\": ...}, {\"comment\": ...}, "
       "{\"variation\": [...]} or {\"directive\": ...}, not the string 'I2e-b1t1'"),
    (HEAD + '"moves": [{"event": "I2e-b1t1", "nags": [3, 300]}]}',
     '300', "annotation 300 is out of range (0 to 255)"),
    (HEAD + '"moves": [{"event": "I2e-b1t1", "clock": 3}]}',
     '"clock"', "event: unknown key 'clock' (known: event, nags)"),
    (HEAD + '"moves": [{"event": "I2e-b1t1"}, {"comment": "a } b"}]}',
     '"a } b"', "a brace comment cannot hold '}'"),
    (HEAD + '"moves": [{"event": "I2e-b1t1"}, {"comment": "x", "line": "#"}]}',
     '"#"', '"line" is the character that opens a line comment in tilewe (;)'),
    (HEAD + '"moves": [{"directive": "Game: 2-player"}]}',
     '"Game: 2-player"', "not a set-up line of tilewe (it has none)"),
]


@pytest.mark.parametrize("text, at, message", KNOWN, ids=[str(i) for i in range(len(KNOWN))])
def test_each_problem_is_one_line_at_its_value(text, at, message):
    """``at``: the offending value, whose last occurrence in ``text`` is the place."""
    offset = text.rindex(at)
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    found = problems(text + "\n")
    assert [(row, col) for row, col, _ in found] == [(line, column)], found
    if message is not None:
        assert found[0][2] == message


def test_an_event_that_is_not_one_says_the_games_own_diagnosis_at_its_string():
    text = HEAD + '"moves": [{"event": "I2e-b1t1"},\n {"event": "Q9z"}]}\n'
    (record,) = read(text)
    (problem,) = notation.run(record).problems
    assert (problem.line, problem.column, problem.ply, problem.event) == (2, 12, 2, "Q9z")
    with pytest.raises(notation.NotationError) as caught:
        notation.parse_event("tilewe", "Q9z")
    assert problem.message == str(caught.value)


def test_an_illegal_event_is_replayed_like_any_and_reported_at_its_string():
    tree = random_tree("flows", 3, plies=4, depth=0)
    doc = document(tree)
    events = [i for i in doc["moves"] if "event" in i]
    events[2]["event"] = events[0]["event"]  # a tile on a taken cell
    text = "\n" + json.dumps(doc, indent=1) + "\n"
    (record,) = read(text)
    (problem,) = notation.run(record).problems
    row = text.split("\n")[problem.line - 1]
    assert row[problem.column - 1:].startswith(json.dumps(events[0]["event"]))
    assert problem.ply == 3


def test_a_broken_document_costs_that_document_alone():
    good = FORMAT.write(random_tree("philosophy", 2, plies=3, depth=0))
    text = good + '{"format": "notation-record", "version": 1, "game": "philo\n' + good
    records = read(text)
    verdicts = [notation.run(r).valid for r in records]
    assert verdicts == [True, False, True]
    (problem,) = notation.run(records[1]).problems
    assert problem.line == 2 and problem.message.startswith("not JSON")


def test_variations_deeper_than_the_limit_are_refused_at_their_place():
    inner: list = [{"event": "Te+"}]
    for _ in range(70):
        inner = [{"event": "Te+"}, {"variation": inner}]
    doc = {"format": "notation-record", "version": 1, "game": "philosophy", "moves": inner}
    (record,) = read(json.dumps(doc) + "\n")
    messages = [p.message for p in notation.run(record).problems]
    assert "variations nested deeper than 64 levels" in messages


def test_a_document_without_a_game_takes_the_named_one():
    text = '{"format": "notation-record", "version": 1, "moves": [{"event": "Te+"}]}\n'
    (record,) = FORMAT.records([text], "x.notation.json", notation.get_game("philosophy"))
    assert record.game == "philosophy" and notation.run(record).valid


def test_records_with_problems_are_not_written():
    (record,) = notation.parse('[Game "tilewe"]\n\n1. Q9z\n', "tilewe")
    with pytest.raises(notation.NotationError):
        FORMAT.write(record)


# -- the command line -------------------------------------------------------------------

def test_convert_to_json_and_every_command_reads_it_back(tmp_path):
    native = tmp_path / "games.tilewe"
    native.write_text("".join(notation.format_record(random_tree("tilewe", s, 6, 1)) + "\n"
                              for s in range(3)), encoding="utf-8")
    result = invoke("convert", "--to", "json", str(native))
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if line]
    assert len(lines) == 3
    for line in lines:
        VALIDATOR.validate(json.loads(line))
    converted = tmp_path / "games.notation.jsonl"
    converted.write_text(result.output, encoding="utf-8")
    checked = invoke("validate", str(converted))
    assert checked.exit_code == 0 and "3 valid" in checked.output, checked.output
    back = invoke("convert", "--to", "tilewe", str(converted))
    assert back.exit_code == 0
    assert back.output == invoke("fmt", str(native)).output
    replayed = invoke("replay", "--json", str(converted))
    assert replayed.exit_code == 0 and json.loads(replayed.output.splitlines()[0])


def test_the_cli_says_a_problem_in_one_line_with_the_files_place(tmp_path):
    path = tmp_path / "bad.notation.json"
    path.write_text(HEAD + '"moves": [{"event": "I2e-b1t1"},\n {"event": "Q9z"}]}\n',
                    encoding="utf-8")
    result = invoke("validate", str(path))
    assert result.exit_code != 0
    assert f"{path}:2:12" in result.output and "Traceback" not in result.output


# -- comments: any text JSON may hold comes back the same, or is refused at its place -------

#: Pieces that make comment texts hard to hold: line ends of every kind, braces, what
#: starts a tag line or a line comment, commands, control characters.
COMMENT_PIECES = st.sampled_from(["\r", "\n", "\r\n", "\n\r", "{", "}", '[Event "x"]',
                                  ' [Event "', "\t[Round ", "[%clk 0:01:30]", ";", "#", " ",
                                  "\x00", "\x1b[31m", "\x0c", "\x85", "\u2028", "2. I3n-a1t1",
                                  "(", ")", '"', "\\"])


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@example(text='a\r[Event "x"]', line=None)  # a lone CR before a tag line
@example(text="a\r\nb", line=None)
@given(text=st.lists(st.one_of(COMMENT_PIECES, st.text(max_size=3)), max_size=8).map("".join),
       line=st.sampled_from([None, ";"]))
def test_any_comment_text_survives_json_to_native_to_json_or_is_refused_at_its_place(text, line):
    comment = {"comment": text} if line is None else {"comment": text, "line": line}
    doc = {"format": "notation-record", "version": 1, "game": "tilewe",
           "tags": [["Players", "2"]],
           "moves": [{"event": "W5n-a1a1"}, comment, {"event": "I2n-a1t1"}]}
    written = json.dumps(doc) + "\n"
    (record,) = read(written)
    problems = notation.run(record).problems
    if problems:  # refused: one line, at the comment's string, and nothing converted
        (problem,) = problems
        assert "\n" not in problem.message and "\r" not in problem.message
        at = written.index('"comment": ') + len('"comment": ') + 1
        assert (problem.line, problem.column) == (1, at)
        return
    VALIDATOR.validate(doc)
    native = converted_text(record, to="tilewe")
    (back,) = notation.parse(native, "tilewe")  # one record: no comment ended in a tag line
    assert notation.run(back).valid, notation.run(back).problems
    again = json.loads(converted_text(back, to="json"))
    assert [{k: v for k, v in item.items() if k != "commands"}
            for item in again["moves"]] == doc["moves"]


def test_a_comment_with_a_lone_cr_before_a_tag_line_is_refused_not_converted(tmp_path):
    path = tmp_path / "cr.notation.json"
    doc = {"format": "notation-record", "version": 1, "game": "tilewe",
           "moves": [{"event": "W5n-a1a1"}, {"comment": 'a\r[Event "x"]'}]}
    text = json.dumps(doc)
    path.write_text(text + "\n", encoding="utf-8")
    column = text.index('"a\\r') + 1
    result = invoke("convert", "--to", "tilewe", str(path))
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == (
        f"{path}:1:{column}: error: game 1, ply 2: a comment cannot hold a carriage return (\\r): "
        f"a record reads one as a line end")
    assert "[Event" not in result.output  # nothing written


# -- cutting a file into pieces ------------------------------------------------------------

_NESTING = re.compile(r'"(?:[^"\\\n]|\\.)*+(?:"|$)|[\[\]{}]')
_OPENING = re.compile(r'\{[ \t]*"format"[ \t]*:')


def pieces_line_by_line(chunks: Iterable[str]) -> Iterator[Piece]:
    """The cutter's definition, a line at a time: a piece ends with the first line at
    whose end its brackets are closed; a line opening a record document while a piece is
    open starts a new one; blank lines between pieces are skipped."""
    lines: list[str] = []
    first = depth = number = 0
    text = "".join(chunks)
    for line in (part + "\n" for part in text.split("\n")[:-1]):  # only "\n" ends a line
        number += 1
        if lines and depth > 0 and _OPENING.match(line):
            yield Piece("".join(lines), first)
            lines, depth = [], 0
        if not lines:
            if not line.strip():
                continue
            first = number
        lines.append(line)
        for m in _NESTING.finditer(line.rstrip("\r\n")):
            depth += {"[": 1, "{": 1, "]": -1, "}": -1}.get(m.group(), 0)
        if depth <= 0:
            yield Piece("".join(lines), first)
            lines, depth = [], 0
    if lines:
        yield Piece("".join(lines), first)


_JSON_LINES = st.lists(st.sampled_from([
    '{"format": "notation-record",', '{"format": "notation-record", "moves": []}', "{", "}",
    "[", "]", '"a [ string ] { with } brackets"', '"unclosed [', '"esc \\" ["', "", "  ",
    "\t", "1,", '{"a": [1, {"b": 2}]}', "] ] [", "} {", '{ "format" : 1', "x", "[\r", "\x0c{",
    '"\u2028 ["',
]), max_size=30)


@pytest.mark.slow
@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(_JSON_LINES, st.integers(1, 40))
def test_pieces_are_the_line_by_line_definitions(lines, size):
    """The cutter skips lines without a mark in C; it cuts exactly as the definition does
    a line at a time, whatever the chunks (whole lines each)."""
    text = "".join(line + "\n" for line in lines)
    rows = [row + "\n" for row in text.split("\n")[:-1]]
    chunks = ["".join(rows[i:i + size]) for i in range(0, len(rows), size)]
    assert list(pieces(chunks)) == list(pieces_line_by_line(chunks))


@pytest.mark.slow
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(_JSON_LINES, st.integers(1, 40))
def test_pieces_with_their_blank_lines_join_into_the_file(lines, size):
    """For batches: pieces that keep the blank lines before them join into the file (its
    blank end aside), each starting at its own line, and cut again as the file is cut."""
    text = "".join(line + "\n" for line in lines)
    rows = [row + "\n" for row in text.split("\n")[:-1]]
    chunks = ["".join(rows[i:i + size]) for i in range(0, len(rows), size)]
    whole = list(pieces(chunks, blanks=True))
    assert "".join(p.text for p in whole) == text[:len("".join(p.text for p in whole))]
    assert not text[len("".join(p.text for p in whole)):].strip()
    line = 1
    for piece in whole:
        assert piece.first_line == line
        line += piece.text.count("\n")
    again = [Piece(q.text, q.first_line + p.first_line - 1)
             for p in whole for q in pieces([p.text])]
    assert again == list(pieces(chunks))


def test_a_document_longer_than_a_game_may_be_is_refused_before_it_is_held(monkeypatch):
    """A document that never closes (a bomb of blank lines inside its brackets): refused
    once it passes the game limit, a linear scan, never a list of its lines."""
    monkeypatch.setattr(limits, "MAX_GAME_CHARS", 1 << 20)
    head = '{"format": "notation-record", "version": 1, "game": "tilewe", "moves": [\n'
    blanks = iter(lambda: "\n" * (64 << 10), None)  # endless
    with pytest.raises(InputError, match=r"^big: error: the game from line 1 runs past "
                                         r"1,048,576 characters \(MAX_GAME_CHARS\)"):
        for _ in pieces(itertools.chain([head], blanks), "big"):
            pass


@pytest.mark.slow
def test_the_runner_checks_a_json_file_in_batches_as_in_one_pass(tmp_path):
    """A JSON file is cut between its documents for batches (worker processes, Dask), each
    batch with the blank lines before its documents: every problem keeps its file line,
    column and game number."""
    from notation.parallel import runs as runner
    records = [random_game("tilewe", seed) for seed in range(60)]
    documents = [formats.get("json").write(record).rstrip("\n") for record in records]
    documents[41] = documents[41].replace('"event": "', '"event": "Q', 1)
    documents[7] = documents[7].replace('"moves": [', '"moves": [\n\n  ', 1)
    path = tmp_path / "many.notation.jsonl"
    path.write_text("\n\n".join(documents) + "\n\n\n", encoding="utf-8")
    here = [o.to_json() for o in runner.outcomes([str(path)], runner.VALIDATE)]
    assert len(here) == 60 and [o["index"] for o in here if o["errors"]] == [42]
    assert here[41]["errors"][0]["line"] == 2 * 41 + 1 + 2  # (two lines more in game 8)
    from notation.parallel.batch import batches
    cut = [len(b.pieces) for b in batches(str(path), target=4096)]  # (never one file whole)
    assert len(cut) > 5 and sum(cut) == 60
    batched = [o.to_json() for o in runner.outcomes([str(path)], runner.VALIDATE, jobs=2,
                                                    target=4096)]
    assert batched == here


def random_game(game: str, seed: int):
    """A random complete game's record."""
    import random as random_module
    return random_record(registry.require(game), random_module.Random(seed), {})


@pytest.mark.slow
def test_a_cluster_reads_a_json_file_as_one_stream(tmp_path):
    """The notation's rule finds no game starts in a JSON file: a cluster's worker reads it
    whole as a stream (as a compressed file), never a byte range parsed as native records
    nor a file held in memory."""
    from notation.parallel import runs as runner
    from notation.parallel.work import span_part
    from notation.parallel.spans import spans
    path = tmp_path / "many.notation.jsonl"
    path.write_text("".join(formats.get("json").write(random_game("tilewe", seed))
                            for seed in range(40)), encoding="utf-8")
    (span,) = spans(path, target=4096)
    assert span.streamed and span.end == path.stat().st_size
    here = [o.to_json() for o in runner.outcomes([str(path)], runner.VALIDATE)]
    assert [o.to_json() for o in span_part(span, runner.VALIDATE).outcomes] == here


# -- text JSON readers take loosely --------------------------------------------------------

def test_json_a_record_reader_would_take_loosely_is_refused_or_read_exactly(tmp_path: Path):
    lone = tmp_path / "lone.notation.json"
    lone.write_text('{"format": "notation-record", "version": 1, "game": "tilewe", '
                    '"tags": [["Event", "\\ud800"]], "moves": [{"event": "I3n-a3a20"}]}\n')
    result = invoke("validate", str(lone))
    assert result.exit_code == 1 and "half a surrogate pair" in result.output
    flat = tmp_path / "flat.notation.json"
    flat.write_text('{\n"format": "notation-record",\n"version": 1,\n"game": "tilewe",\n'
                    '"moves": [\n{\n"event": "O1n-a1a20"\n}\n]\n}\n')
    assert invoke("validate", str(flat)).output == f"{flat}: game 1: ok, 1 ply\n"
    odd = tmp_path / "odd.tilewe"
    odd.write_text('[Game "tilewe"]\n[Event "x\u2028y\x0cz\x85"]\n\n1. I3n-a3a20 {a\u2028b}\n')
    back = tmp_path / "odd.notation.json"
    back.write_text(invoke("convert", "--to", "json", str(odd)).output)
    assert invoke("validate", str(back)).output == f"{back}: game 1: ok, 1 ply\n"
    assert invoke("convert", "--to", "tilewe", str(back)).output == invoke("fmt", str(odd)).output
