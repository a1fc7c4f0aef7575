"""The language server driven over stdio by a test client (pytest-lsp), as an editor
drives it: diagnostics at their places with their rules and links, fresh after each edit,
and the server up whatever it is sent."""
from __future__ import annotations

import sys

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

import notation

from conftest import SAMPLES

CATALOGUE = "file:///handbook/catalogue.html"


@pytest_lsp.fixture(config=ClientServerConfig(
    server_command=[sys.executable, "-m", "notation", "lsp", "--catalogue", CATALOGUE]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


async def opened(client: LanguageClient, uri: str, text: str) -> list[types.Diagnostic]:
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="notation", version=1,
                                             text=text)))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return list(client.diagnostics[uri])


async def changed(client: LanguageClient, uri: str, text: str, version: int
                  ) -> list[types.Diagnostic]:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return list(client.diagnostics[uri])


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
    shown = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=event.pos.line - 1, character=event.pos.column)))
    assert shown is not None
    value = shown.contents.value  # type: ignore[union-attr]
    position = notation.Position.from_record(record, ply)
    assert f"**ply {ply}**" in value and f"`{event.text}`" in value
    assert f"position: `{position.game.full_position(position.state)}`" in value
    mover = notation.Position.from_record(record, ply - 1).turn
    assert mover is None or f"· {mover} ·" in value
    assert shown.range is not None and shown.range.start.line == event.pos.line - 1
    nothing = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=0, character=1)))  # a tag line
    assert nothing is None
