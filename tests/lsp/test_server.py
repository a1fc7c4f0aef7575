"""The language server driven over stdio by a test client (pytest-lsp), as an editor
drives it: diagnostics at their places with their rules and links, fresh after each edit,
and the server up whatever it is sent."""
from __future__ import annotations

import sys

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

import notation

from conftest import SAMPLES
from session import CATALOGUE, applied, ask, changed, client, opened  # noqa: F401

def problems_of(path, text: str) -> list[tuple[int, int, str, str]]:
    """What ``validate`` says of ``text`` read as ``path``: (line, column, rule, message)."""
    import io
    from notation.read.reading import source_records
    found = []
    for record in source_records(io.StringIO(text), name=str(path), checked=True):
        for problem in notation.run(record).problems:
            found.append((problem.line, problem.column, problem.rule, problem.message))
    return found


@pytest.mark.asyncio
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


@pytest.mark.asyncio
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


@pytest.mark.asyncio
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
    nothing = await ask(client, client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=0, character=1))))  # a tag line
    assert nothing is None


def legal_words(record, ply: int) -> list[str]:
    """What ``notation legal`` lists after ``ply`` of ``record``."""
    position = notation.Position.from_record(record, ply)
    return [position.game.format_event(m) for m in position.game.legal_moves(position.state)]


@pytest.mark.asyncio
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


@pytest.mark.asyncio
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


@pytest.mark.asyncio
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


@pytest.mark.asyncio
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
