"""The language server driven over stdio by a test client (pytest-lsp), as an editor
drives it: diagnostics at their places with their rules and links, fresh after each edit,
and the server up whatever it is sent."""
from __future__ import annotations

import shutil
import sys

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

import notation
import notation.core.fields
from notation.lsp.actions import MOST_REPLACEMENTS

from conftest import SAMPLES
from session import ON_THE_MODULES_LOOP, CATALOGUE, applied, ask, changed, client, edited, opened  # noqa: F401

pytestmark = ON_THE_MODULES_LOOP

def problems_of(path, text: str) -> list[tuple[int, int, str, str]]:
    """What ``validate`` says of ``text`` read as ``path``: (line, column, rule, message)."""
    import io
    from notation.read.reading import source_records
    found = []
    for record in source_records(io.StringIO(text), name=str(path), checked=True):
        for problem in notation.run(record).problems:
            found.append((problem.line, problem.column, problem.rule, problem.message))
    return found


@pytest.mark.parametrize("game", ["tilewe", "flows", "philosophy", "nomic", "sanguine"])
async def test_an_illegal_event_is_marked_where_validate_finds_it(client: LanguageClient,
                                                                 game: str):
    path = sorted((SAMPLES / game).glob(f"*.{game}"))[0]
    text = path.read_text(encoding="utf-8")
    uri = path.as_uri()
    assert await opened(client, uri, text) == []
    lines = text.split("\n")
    # the first event of the body played twice: against the rules in every game
    record = notation.load(path)[0]
    first = record.items[[isinstance(i, notation.EventNode) for i in record.items].index(True)]
    line = lines[first.pos.line - 1]
    at = first.pos.column - 1
    lines[first.pos.line - 1] = line[:at + len(first.text)] + " " + line[at:]
    broken = "\n".join(lines)
    expected = problems_of(path, broken)
    assert expected, "the broken record should be refused"
    shown = await changed(client, uri, broken, 2)
    assert [(d.range.start.line + 1, d.range.start.character + 1) for d in shown] == \
        [(line, column) for line, column, _rule, _message in expected]
    assert all(d.severity == types.DiagnosticSeverity.Error for d in shown)
    for d, (_line, _column, rule, message) in zip(shown, expected):
        assert message in d.message
        assert (d.code or "") == rule
        if rule:
            assert d.code_description is not None
            assert d.code_description.href.startswith(CATALOGUE + "#rule-")
    assert await changed(client, uri, text, 3) == []  # mended: the marks go


async def test_the_server_answers_whatever_it_is_sent(client: LanguageClient):
    uri = "file:///tmp/odd.tilewe"
    for version, text in enumerate(["\x00\x01\x02" * 100, "[Game \"tilewe\"]\n\n1. W5", "(" * 100_000,
                                    "[Game \"nosuchgame\"]\n\n1. x\n", ""], 1):
        if version == 1:
            shown = await opened(client, uri, text)
        else:
            shown = await changed(client, uri, text, version)
        assert all(d.range.start.line >= 0 for d in shown)
    unknown = await changed(client, "file:///tmp/odd.tilewe", '[Game "nosuchgame"]\n\n1. x\n', 9)
    assert any("nosuchgame" in d.message for d in unknown)


@pytest.mark.parametrize("game", ["tilewe", "flows", "philosophy", "nomic", "sanguine"])
async def test_a_hover_on_an_event_shows_its_ply_mover_and_the_position_after(
        client: LanguageClient, game: str):
    path = sorted((SAMPLES / game).glob(f"*.{game}"))[0]
    text = path.read_text(encoding="utf-8")
    uri = path.as_uri()
    await opened(client, uri, text)
    record = notation.load(path)[0]
    events = [i for i in record.items if isinstance(i, notation.EventNode)]
    ply = min(3, len(events))
    event = events[ply - 1]
    shown = await ask(client, client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=event.pos.line - 1, character=event.pos.column))))
    assert shown is not None
    value = shown.contents.value  # type: ignore[union-attr]
    position = notation.Position.from_record(record, ply)
    assert f"**ply {ply}**" in value and f"`{event.text}`" in value
    assert f"position: `{position.game.full_position(position.state)}`" in value
    mover = notation.Position.from_record(record, ply - 1).turn
    assert mover is None or f"· {mover} ·" in value
    assert shown.range is not None and shown.range.start.line == event.pos.line - 1
    tag = await ask(client, client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=0, character=1))))  # the Game tag
    assert tag is not None
    assert tag.contents.value.startswith("**[Game]** · ")  # type: ignore[union-attr]
    game_object = notation.get_game(game)
    assert game_object.tags["Game"] in tag.contents.value  # type: ignore[union-attr]


def legal_words(record, ply: int) -> list[str]:
    """What ``notation legal`` lists after ``ply`` of ``record``."""
    position = notation.Position.from_record(record, ply)
    return [position.game.format_event(m) for m in position.game.legal_moves(position.state)]


@pytest.mark.parametrize("game", ["tilewe", "flows", "philosophy", "nomic", "sanguine"])
async def test_completion_offers_what_notation_legal_lists_at_that_ply(
        client: LanguageClient, game: str):
    path = sorted((SAMPLES / game).glob(f"*.{game}"))[0]
    whole = path.read_text(encoding="utf-8")
    record = notation.load(path)[0]
    events = [i for i in record.items if isinstance(i, notation.EventNode)]
    # the first ply from the second on whose event is a move of the player to move (a
    # Philosophy rule change or a nomic vote is written, never offered)
    ply = next(p for p in range(2, len(events)) if events[p - 1].text in legal_words(record, p - 1))
    last = events[ply - 1]
    lines = whole.split("\n")[:last.pos.line]
    lines[-1] = lines[-1][:last.pos.column - 1 + len(last.text)]
    uri = path.as_uri()
    # the record cut after that ply, as one types it: first the event, then what ends it
    await opened(client, uri, "\n".join(lines))

    async def offered(row: int, character: int) -> list[str]:
        found = await ask(client, client.text_document_completion_async(types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=row, character=character))))
        assert found is not None
        items = found.items if isinstance(found, types.CompletionList) else found
        return [item.label for item in items]

    typing = await offered(len(lines) - 1, len(lines[-1]))
    assert last.text in typing
    assert typing == [w for w in legal_words(record, ply - 1) if w.startswith(last.text)]
    if notation.get_game(game).event_per_line:  # (nomic: the next event on a line of its own)
        lines.append("")
    else:
        lines[-1] += " "
    await changed(client, uri, "\n".join(lines), 2)
    assert await offered(len(lines) - 1, len(lines[-1])) == legal_words(record, ply)


def untidy(text: str) -> str:
    """The same record written carelessly: blanks doubled after the event numbers."""
    return text.replace("2. ", "2.   ").replace("3. ", "3.\t")


@pytest.mark.parametrize("game", ["tilewe", "flows", "philosophy", "nomic", "sanguine"])
async def test_formatting_gives_what_notation_fmt_writes(client: LanguageClient, game: str,
                                                        tmp_path):
    import subprocess
    path = sorted((SAMPLES / game).glob(f"*.{game}"))[-1]
    text = untidy(path.read_text(encoding="utf-8"))
    copy = tmp_path / path.name
    copy.write_text(text, encoding="utf-8")
    for deck in path.parent.glob("decks"):  # (Sanguine's decks, beside the record)
        (tmp_path / "decks").symlink_to(deck)
    written = subprocess.run([sys.executable, "-m", "notation", "fmt", str(copy)],
                             capture_output=True, text=True, check=True).stdout
    uri = copy.as_uri()
    await opened(client, uri, text)
    edits = await ask(client, client.text_document_formatting_async(types.DocumentFormattingParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        options=types.FormattingOptions(tab_size=4, insert_spaces=True))))
    assert edits is not None
    assert applied(text, edits) == written


async def test_range_formatting_touches_only_the_games_in_the_range(client: LanguageClient):
    path = SAMPLES / "tilewe" / "random-4p-three-games.tilewe"
    text = untidy(path.read_text(encoding="utf-8"))
    uri = "file:///tmp/range.tilewe"
    await opened(client, uri, text)
    records = notation.parse(text, "tilewe")
    second = records[1].pos.line  # the second game's first line
    edits = await ask(client, client.text_document_range_formatting_async(
        types.DocumentRangeFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(start=types.Position(line=second + 2, character=0),
                              end=types.Position(line=second + 3, character=0)),
            options=types.FormattingOptions(tab_size=4, insert_spaces=True))))
    assert edits is not None and len(edits) == 1
    after = notation.parse(applied(text, edits), "tilewe")
    tidy = notation.parse(path.read_text(encoding="utf-8"), "tilewe")
    assert after[1].raw.rstrip("\n") == tidy[1].raw.rstrip("\n")  # formatted
    assert after[0].raw == records[0].raw and after[2].raw == records[2].raw  # untouched


async def test_a_record_with_a_problem_is_not_formatted(client: LanguageClient):
    uri = "file:///tmp/bad.tilewe"
    text = '[Game "tilewe"]\n\n1. W5n-a1a1   2. W5n-a1a1\n'
    await opened(client, uri, text)
    edits = await ask(client, client.text_document_formatting_async(types.DocumentFormattingParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        options=types.FormattingOptions(tab_size=4, insert_spaces=True))))
    assert edits is None
    # (the message was sent before the reply, so it is in: waiting for it would wait for
    # a second one, for ever)
    assert any("fmt writes no record with a problem" in m.message for m in client.messages)


async def fixes(client: LanguageClient, uri: str, line: int) -> list[types.CodeAction]:
    """The code actions offered on ``line`` (0-based)."""
    found = await ask(client, client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=line, character=0),
                          end=types.Position(line=line, character=0)),
        context=types.CodeActionContext(diagnostics=[]))))
    return [a for a in found or [] if isinstance(a, types.CodeAction)]


def fixed(text: str, uri: str, action: types.CodeAction) -> str:
    assert action.edit is not None and action.edit.changes is not None
    return applied(text, list(action.edit.changes[uri]))


def cut_after(path, ply: int) -> str:
    """The record of ``path`` up to ``ply`` with the result tags that fit, as fmt writes it."""
    from notation.archive.rewrite import canonical_text
    from notation.core.results import with_result_tags
    record = notation.load(path)[0]
    whole = path.read_text(encoding="utf-8")
    event = [i for i in record.items if isinstance(i, notation.EventNode)][ply - 1]
    lines = whole.split("\n")[:event.pos.line]
    lines[-1] = lines[-1][:event.pos.column - 1 + len(event.text)]
    cut = notation.parse("\n".join(lines) + "\n", game=record.game, source=str(path))[0]
    tagged, outcome = with_result_tags(cut)
    assert outcome.valid
    return canonical_text(tagged)


@pytest.mark.parametrize("game", ["tilewe", "flows", "philosophy", "nomic", "sanguine"])
async def test_an_illegal_event_is_offered_the_legal_spellings_of_the_same_piece(
        client: LanguageClient, game: str, tmp_path):
    path = sorted((SAMPLES / game).glob(f"*.{game}"))[0]
    record = notation.load(path)[0]
    events = [i for i in record.items if isinstance(i, notation.EventNode)]
    ply = next(p for p in range(4, len(events)) if events[p - 1].text in legal_words(record, p - 1))
    valid = cut_after(path, ply)
    copy = tmp_path / path.name
    for deck in path.parent.glob("decks"):  # (Sanguine's decks, beside the record)
        shutil.copytree(deck, tmp_path / "decks")
    last = [i for i in notation.parse(valid, game, source=str(copy))[0].items
            if isinstance(i, notation.EventNode)][-1]
    rows = valid.split("\n")
    row = rows[last.pos.line - 1]
    at = last.pos.column - 1
    # the last event replaced by the first one, played again: against every game's rules
    rows[last.pos.line - 1] = row[:at] + events[0].text + row[at + len(last.text):]
    broken = "\n".join(rows)
    uri = copy.as_uri()
    shown = await opened(client, uri, broken)
    assert any(d.range.start.line == last.pos.line - 1 for d in shown)
    offered = [a for a in await fixes(client, uri, last.pos.line - 1)
               if a.title.startswith(f"Replace {events[0].text} by ")]
    assert offered, "an illegal event should be offered legal ones"
    legal = legal_words(notation.parse(valid, game, source=str(copy))[0], ply - 1)
    played = notation.core.fields.event_fields(record_game := notation.get_game(game),
                                               events[0].text)
    same = [word for word in legal if all(
        notation.core.fields.event_fields(record_game, word).get(k) == played[k]
        for k in ("piece", "tile") if k in played)]
    words = [action.title.split(" by ", 1)[1] for action in offered]
    assert set(words) <= set(same or legal)
    assert len(words) == min(len(same or legal), MOST_REPLACEMENTS)
    mended = fixed(broken, uri, offered[0])
    assert await changed(client, uri, mended, 2) == []


async def test_the_fixes_a_refusal_advises_make_the_record_valid(client: LanguageClient):
    # the quortextt app's bare export: first its [Dialect], then one of its [Seats]
    text = ("Game: 2-player\n\n"
            "1. P1B2T3SE 2. P2E1T1NW 3. P1A2T1S 4. P2E5T3SE 5. P1E1T3SW 6. P2C5T0S\n")
    uri = "file:///tmp/export.flows"
    assert await opened(client, uri, text) != []
    (dialect,) = [a for a in await fixes(client, uri, 2) if "Dialect" in a.title]
    assert dialect.title == 'Add [Dialect "quortextt"]'
    text = fixed(text, uri, dialect)
    shown = await changed(client, uri, text, 2)
    assert shown and all("seatings" in d.message for d in shown)
    seats = [a for a in await fixes(client, uri, 3) if "Seats" in a.title]
    assert len(seats) == 5
    assert await changed(client, uri, fixed(text, uri, seats[0]), 3) == []


@pytest.mark.parametrize("name", ["tilewe/random-4p.tilewe", "flows/flows-090.flows",
                                  "sanguine/example-1.sanguine"])
async def test_wrong_result_tags_are_set_to_what_the_replay_reaches(client: LanguageClient,
                                                                    name: str, tmp_path):
    path = SAMPLES / name
    game = path.suffix[1:]
    copy = tmp_path / path.name
    for deck in path.parent.glob("decks"):
        shutil.copytree(deck, tmp_path / "decks")
    valid = cut_after(path, 6)
    record = notation.parse(valid, game, source=str(copy))[0]
    keys = list(notation.get_game(game).result_tags(notation.run(record).state))
    lines = valid.split("\n")
    # the game's result tag given a wrong value: a finished game's for a game under way
    broken = "\n".join(f'[{keys[0]} "1-0 red"]' if line.startswith(f"[{keys[0]} ") else line
                       for line in lines)
    assert broken != valid
    uri = copy.as_uri()
    assert await opened(client, uri, broken) != []
    (action,) = [a for a in await fixes(client, uri, 0) if "result tags" in a.title]
    assert fixed(broken, uri, action).rstrip("\n") == valid.rstrip("\n")


async def test_an_illegal_variation_is_stripped(client: LanguageClient):
    valid = cut_after(SAMPLES / "tilewe" / "random-4p.tilewe", 6)
    record = notation.parse(valid, "tilewe")[0]
    first, second = [i for i in record.items if isinstance(i, notation.EventNode)][:2]
    rows = valid.split("\n")
    row = rows[second.pos.line - 1]
    end = second.pos.column - 1 + len(second.text)
    # a variation to the second event that plays the first one's piece again
    rows[second.pos.line - 1] = row[:end] + f" (2. {first.text})" + row[end:]
    text = "\n".join(rows)
    uri = "file:///tmp/variation.tilewe"
    assert await opened(client, uri, text) != []
    (strip,) = [a for a in await fixes(client, uri, second.pos.line - 1)
                if a.title.startswith("Strip")]
    assert fixed(text, uri, strip).rstrip("\n") == valid.rstrip("\n")


async def test_the_outline_holds_the_games_then_their_variations(client: LanguageClient):
    text = ('[Game "tilewe"]\n[Event "first"]\n\n1. O1n-a1a1 (1. I2n-a1a1\n (1. O1n-t1t1)) '
            '2. O1n-t20t20\n\n[Game "tilewe"]\n\n1. O1n-a1a1 {two\nlines}\n')
    uri = "file:///tmp/outline.tilewe"
    await opened(client, uri, text)
    symbols = await ask(client, client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri))))
    assert symbols is not None
    first, second = symbols
    assert isinstance(first, types.DocumentSymbol) and isinstance(second, types.DocumentSymbol)
    assert (first.name, first.range.start.line, first.range.end.line) == ("game 1", 0, 4)
    assert first.detail == "first"
    assert (second.name, second.range.start.line, second.range.end.line) == ("game 2", 6, 9)
    (variation,) = first.children or []
    assert (variation.name, variation.range.start.line, variation.range.end.line) == \
        ("(1. I2n-a1a1", 3, 4)
    (inner,) = variation.children or []
    assert (inner.name, inner.range.start.line) == ("(1. O1n-t1t1", 4)
    folds = await ask(client, client.text_document_folding_range_async(
        types.FoldingRangeParams(text_document=types.TextDocumentIdentifier(uri=uri))))
    assert [(f.start_line, f.end_line, f.kind) for f in folds or []] == [
        (0, 4, types.FoldingRangeKind.Region), (3, 4, types.FoldingRangeKind.Region),
        (6, 9, types.FoldingRangeKind.Region), (8, 9, types.FoldingRangeKind.Comment)]


async def test_semantic_tokens_colour_events_movers_coordinates_glyphs_and_comments(
        client: LanguageClient):
    text = '[Game "flows"]\n\n1. P1F6T3S!? {a\nnote} 2. P2E7T1SW $4\n'
    uri = "file:///tmp/colours.flows"
    await opened(client, uri, text)
    found = await ask(client, client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=types.TextDocumentIdentifier(uri=uri))))
    assert found is not None
    legend = ["event", "mover", "coordinate", "glyph", "comment", "tag", "number"]
    lines, words, line, start = text.split("\n"), [], 0, 0
    data = found.data
    for k in range(0, len(data), 5):
        line += data[k]
        start = data[k + 1] + (start if data[k] == 0 else 0)
        words.append((lines[line][start:start + data[k + 2]], legend[data[k + 3]]))
    assert words == [('[Game "flows"]', "tag"), ("1. ", "number"), ("P", "event"),
                     ("1", "mover"), ("F6", "coordinate"), ("T3S", "event"), ("!?", "glyph"),
                     ("{a", "comment"), ("note}", "comment"), ("2. ", "number"),
                     ("P", "event"), ("2", "mover"), ("E7", "coordinate"), ("T1SW", "event"),
                     ("$4", "glyph")]


async def test_a_deck_path_leads_to_the_deck_file_inside_the_records_folder(
        client: LanguageClient):
    path = SAMPLES / "sanguine" / "example-1.sanguine"
    text = path.read_text(encoding="utf-8")
    uri = path.as_uri()
    await opened(client, uri, text)
    row = next(k for k, line in enumerate(text.split("\n")) if line.startswith("[RedDeck"))

    async def definition(at_text: str, at_uri: str) -> object:
        return await ask(client, client.text_document_definition_async(types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=at_uri),
            position=types.Position(line=row, character=12))))

    found = await definition(text, uri)
    assert isinstance(found, types.Location)
    assert found.uri == (path.parent / "decks" / "ember.deck").as_uri()
    outside = text.replace('"decks/ember.deck"', '"../../README.md"')
    await changed(client, uri, outside, 2)
    assert await definition(outside, uri) is None  # (never out of the record's folder)


async def test_a_ranged_edit_gives_the_diagnostics_of_the_whole_new_text(
        client: LanguageClient):
    path = SAMPLES / "tilewe" / "random-4p-three-games.tilewe"
    text = path.read_text(encoding="utf-8")
    uri = "file:///tmp/ranged.tilewe"
    assert await opened(client, uri, text) == []
    record = notation.parse(text, "tilewe")[1]
    first = [i for i in record.items if isinstance(i, notation.EventNode)][0]
    at = types.Position(line=first.pos.line - 1, character=first.pos.column - 1)
    # the second game's first event typed again in front of itself
    shown = await edited(client, uri, 2, [types.TextDocumentContentChangePartial(
        range=types.Range(start=at, end=at), text=first.text + " ")])
    lines = text.split("\n")
    row = lines[first.pos.line - 1]
    lines[first.pos.line - 1] = row[:at.character] + first.text + " " + row[at.character:]
    expected = problems_of(path, "\n".join(lines))
    assert expected and [(d.range.start.line + 1, d.range.start.character + 1) for d in shown] \
        == [(line, column) for line, column, _rule, _message in expected]
    end = types.Position(line=at.line, character=at.character + len(first.text) + 1)
    assert await edited(client, uri, 3, [types.TextDocumentContentChangePartial(
        range=types.Range(start=at, end=end), text="")]) == []


async def test_a_document_without_a_game_is_warned_of(client: LanguageClient):
    (shown,) = await opened(client, "file:///tmp/empty.tilewe", "\n\n")
    assert shown.severity == types.DiagnosticSeverity.Warning and shown.message == "no games"
