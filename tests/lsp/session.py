"""The language server started for a test as an editor starts it, over stdio, and the
editor's side of a session: open, change, ask, each wait bounded by the hang breaker
(:mod:`stalls`), never by a clock."""
from __future__ import annotations

import sys
from typing import Awaitable, TypeVar

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from stalls import answered

T = TypeVar("T")

CATALOGUE = "file:///handbook/catalogue.html"


#: One server for a test module, as an editor keeps one for a session (each test opens
#: its own documents; a server start costs a CPU second). A module that uses it marks
#: its tests ``pytestmark = ON_THE_MODULES_LOOP``.
ON_THE_MODULES_LOOP = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(
    server_command=[sys.executable, "-m", "notation", "lsp", "--catalogue", CATALOGUE]))
async def client(lsp_client: LanguageClient):
    await ask(lsp_client, lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities())))
    yield
    await ask(lsp_client, lsp_client.shutdown_session())


async def ask(client: LanguageClient, awaitable: Awaitable[T], what: str = "a reply") -> T:
    """What ``awaitable`` gives, failing (not hanging) if the server stalls first."""
    server = client._server  # (pytest-lsp's server process: no public name for it)
    assert server is not None
    return await answered(awaitable, server.pid, what)


def next_diagnostics(client: LanguageClient) -> Awaitable[object]:
    """The next diagnostics the server publishes, waited for from now (registered before
    what causes them is sent: a wait registered after could miss them)."""
    return client.protocol.wait_for_notification_async(
        types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)


async def opened(client: LanguageClient, uri: str, text: str) -> list[types.Diagnostic]:
    waiting = next_diagnostics(client)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="notation", version=1,
                                             text=text)))
    await ask(client, waiting, "diagnostics")
    return list(client.diagnostics[uri])


async def changed(client: LanguageClient, uri: str, text: str, version: int
                  ) -> list[types.Diagnostic]:
    """The whole text replaced (as a client without incremental sync sends it)."""
    return await edited(client, uri, version,
                        [types.TextDocumentContentChangeWholeDocument(text=text)])


async def edited(client: LanguageClient, uri: str, version: int,
                 changes: list[types.TextDocumentContentChangeEvent]
                 ) -> list[types.Diagnostic]:
    waiting = next_diagnostics(client)
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=changes))
    await ask(client, waiting, "diagnostics")
    return list(client.diagnostics[uri])


def document(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


def applied(text: str, edits: list[types.TextEdit]) -> str:
    """``text`` with ``edits`` applied (their columns as characters: the tests' texts
    are ASCII)."""
    lines = text.split("\n")
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character),
                       reverse=True):
        start, end = edit.range.start, edit.range.end
        head = lines[start.line][:start.character]
        tail = lines[end.line][end.character:] if end.line < len(lines) else ""
        lines[start.line:end.line + 1] = (head + edit.new_text + tail).split("\n")
    return "\n".join(lines)
