"""Hostile documents typed into the language server as edits: after each edit the server
publishes diagnostics that lie inside the document and answers a hover and a completion;
at the end it is up, answering, its peak memory bounded. Every wait is bounded by the
hang breaker (:mod:`stalls`, through ``ask``), never by a clock; each test's server
spends a few CPU seconds at most (about 1 of them starting up)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient


from conftest import SAMPLES
from session import ON_THE_MODULES_LOOP, ask, changed, client, document, edited, next_diagnostics, opened  # noqa: F401

pytestmark = ON_THE_MODULES_LOOP

HEAD = '[Game "tilewe"]\n[Players "2"]\n\n'
#: A valid record: each hostile edit is made to it, and an edit back to it mends.
VALID = HEAD + "1. W5n-a1a1\n"
#: On its one event (0-based line, UTF-16 character): a hover there must answer.
EVENT = types.Position(line=3, character=4)

#: What ends a line for the protocol: LF, CRLF or a lone CR, and nothing else.
LINE_END = re.compile(r"\r\n|\r|\n")

#: The server's peak resident memory (VmHWM) may not pass this, in MB. Measured: about
#: 50 MB started, at most about 100 MB after any document below, 110 MB after the 9 MB one.
PEAK_MB = 300

#: Documents an editor may be handed, each reached by one edit of :data:`VALID`.
HOSTILE = {
    "control characters": "\x00\x01\x02" * 100_000,
    "every byte value": "".join(map(chr, range(256))) * 200,
    "100,000 open parentheses": "(" * 100_000,
    "a variation nested 100,000 deep": HEAD + "1. W5n-a1a1 " + "(" * 100_000 + ")" * 100_000
    + "\n",
    "variations of events nested 10,000 deep": HEAD + "1. W5n-a1a1 " + "(1. W5n-a1a1 " * 10_000
    + ")" * 10_000 + "\n",
    "a 2 MB tag value": HEAD.replace("\n\n", '\n[Event "' + "x" * 2_000_000 + '"]\n\n')
    + "1. W5n-a1a1\n",
    "a tag value never closed": '[Game "tilewe"]\n[Event "' + "x" * 2_000_000
    + "\n\n1. W5n-a1a1\n",
    "half a million [": "[" * 500_000,
    "a comment never closed": HEAD + "1. W5n-a1a1 {" + "never closed\n" * 100_000,
    "half a million {": "{" * 500_000,
    "a line of 5,000 events": HEAD + "I2n-a1t1 " * 5_000,
    "a 1 MB word": HEAD + "1. W5n-a1a1 " + "x" * 1_000_000 + "\n",
    "100,000 blank lines": "\n" * 100_000,
    "CRLF line ends": VALID.replace("\n", "\r\n") + "2. Q9n-a1a1 ; note\r\n",
    "lone CR line ends": VALID.replace("\n", "\r") + "2. Q9n-a1a1 ; note\r",
    "mixed line ends": '[Game "tilewe"]\r\n[Players "2"]\r\r\n1. W5n-a1a1\n\r2. Q9n-a1a1\r\n',
    "a byte order mark": "\ufeff" + VALID,
    "characters outside the BMP": HEAD + "1. W5n-a1a1 {\U0001d11e\U0001f600} 2. Q9n-a1a1 "
    "\U0001d11e\n",
    "an unknown game": '[Game "nosuchgame"]\n\n1. x\n',
    "no text": "",
}

#: Asked at their start only: at the end of a variation nested 100,000 deep a hover and a
#: completion each walk the whole nest (several CPU seconds); at the end of 100,000 "("
#: they read the game once (about a CPU second) and are asked there.
ASKED_AT_THE_START = {"a variation nested 100,000 deep"}

# (A line of 110,000 events, 1 MB, is not here: a hover or completion at its end walks the
# whole game, leaving cycles the collector frees; the server runs with the collector's
# usual settings for that, not the batch commands' (measured: five completions there
# once took it to 1.3 GB under the batch settings). Showing it costs tens of CPU seconds.)

#: A position past any document (the protocol's largest line and character).
BEYOND = types.Position(line=2**31 - 1, character=2**31 - 1)


def lines_of(text: str) -> list[str]:
    return LINE_END.split(text)


def utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def end_of(text: str) -> types.Position:
    """Where the cursor is after the last character of ``text``."""
    lines = lines_of(text)
    return types.Position(line=len(lines) - 1, character=utf16_length(lines[-1]))


def at(line: int, character: int) -> types.Position:
    return types.Position(line=line, character=character)


def peak_mb(client: LanguageClient) -> float:
    """The server process's peak resident memory (VmHWM), in MB."""
    assert client._server is not None  # (pytest-lsp's process: no public name for it)
    status = Path(f"/proc/{client._server.pid}/status").read_text()
    kilobytes = re.search(r"^VmHWM:\s+(\d+) kB", status, re.MULTILINE)
    assert kilobytes is not None
    return int(kilobytes[1]) / 1024


def assert_inside(shown: list[types.Diagnostic], text: str) -> None:
    """Each diagnostic lies in ``text`` (its lines, their lengths in UTF-16), starts
    before it ends, and none says the server failed."""
    lines = lines_of(text)
    for d in shown:
        start, end = d.range.start, d.range.end
        assert (start.line, start.character) <= (end.line, end.character), d
        assert end.line < len(lines), d
        assert start.character <= utf16_length(lines[start.line]), d
        assert end.character <= utf16_length(lines[end.line]), d
        assert not d.message.startswith("internal error"), d.message[:300]


async def answers(client: LanguageClient, uri: str, position: types.Position
                  ) -> tuple[types.Hover | None, list[str] | None]:
    """A hover and a completion at ``position``, each a reply (an error reply fails):
    the hover, and the words offered (None: no completion)."""
    hover = await ask(client, client.text_document_hover_async(types.HoverParams(
        text_document=document(uri), position=position)), "a hover")
    assert hover is None or isinstance(hover, types.Hover)
    found = await ask(client, client.text_document_completion_async(types.CompletionParams(
        text_document=document(uri), position=position)), "a completion")
    if found is None:
        return hover, None
    items = found.items if isinstance(found, types.CompletionList) else found
    return hover, [item.label for item in items]


async def assert_mended_and_up(client: LanguageClient, uri: str, version: int) -> None:
    """The document edited back to :data:`VALID`: its marks go, a hover on its event
    answers, the process is up, and its peak memory stayed under :data:`PEAK_MB`."""
    assert await changed(client, uri, VALID, version) == []
    hover, _words = await answers(client, uri, EVENT)
    assert hover is not None and "W5n-a1a1" in hover.contents.value  # type: ignore[union-attr]
    assert client._server is not None and client._server.returncode is None
    assert peak_mb(client) < PEAK_MB


#: The documents that take the server seconds (``make check`` leaves them to ``make test``).
LARGE = {"100,000 open parentheses", "a variation nested 100,000 deep", "a line of 5,000 events"}


@pytest.mark.parametrize("name", [pytest.param(name, marks=pytest.mark.slow) if name in LARGE
                                  else name for name in HOSTILE])
async def test_a_hostile_edit_is_checked_answered_and_mended(client: LanguageClient,
                                                             name: str):
    # (one server for the module: the documents come in a row, to one open document,
    # whose kept games neither break nor grow what it keeps)
    uri = "file:///tmp/hostile.tilewe"
    text = HOSTILE[name]
    assert await opened(client, uri, VALID) == []
    shown = await changed(client, uri, text, 2)
    assert_inside(shown, text)
    places = [at(0, 0)] if name in ASKED_AT_THE_START else [end_of(text), BEYOND]
    for place in places:
        await answers(client, uri, place)
    if name == "an unknown game":
        assert any("nosuchgame" in d.message for d in shown)
    if name == "no text":
        assert [d.message for d in shown] == ["no games"]
    if "line ends" in name:  # the second event, on its line however lines end
        (refused,) = shown
        row = next(k for k, line in enumerate(lines_of(text)) if line.startswith("2. Q9n"))
        assert (refused.range.start.line, refused.range.start.character) == (row, 3)
    await assert_mended_and_up(client, uri, 3)


async def test_a_document_over_the_live_bound_is_said_once_then_checked_on_save(
        client: LanguageClient):
    """A document a little over ``LIVE_CHARS`` (8 MB): one diagnostic says it is checked
    on save, a further edit says nothing more, requests answer None, saving checks it."""
    uri = "file:///tmp/large.tilewe"
    big = HEAD + "1. W5n-a1a1 {" + "a comment " * 900_000 + "}\n2. W5n-a1a1\n"
    assert len(big) > 8 * 1024 * 1024
    assert await opened(client, uri, VALID) == []
    (said,) = await changed(client, uri, big, 2)
    assert "larger than 8 MB" in said.message and "checked when it is saved" in said.message
    assert await answers(client, uri, end_of(big)) == (None, None)
    # a second edit publishes nothing: the replies that follow it come after anything
    # it would have published
    unchanged = client.diagnostics[uri]
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=3),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=big + " ")]))
    assert await answers(client, uri, end_of(big)) == (None, None)
    assert client.diagnostics[uri] is unchanged
    waiting = next_diagnostics(client)
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=document(uri)))
    await ask(client, waiting, "diagnostics on save")
    (refused,) = client.diagnostics[uri]
    assert refused.range.start.line == len(lines_of(big)) - 2  # the second W5n-a1a1
    assert "W5n-a1a1" in refused.message and "larger than" not in refused.message
    await assert_mended_and_up(client, uri, 4)


# A lone surrogate (JSON's "\ud800" escape) is one UTF-16 unit: findings and hovers
# after it on its line keep their places.
async def test_a_lone_surrogate_before_a_finding_leaves_the_finding(client: LanguageClient):
    uri = "file:///tmp/surrogates.tilewe"
    text = HEAD + "1. W5n-a1a1 {\ud800} 2. Q9n-a1a1 \udfff\n"
    assert await opened(client, uri, VALID) == []
    shown = await changed(client, uri, text, 2)
    assert_inside(shown, text)
    assert any("Q9n-a1a1" in d.message for d in shown), [d.message for d in shown]
    await assert_mended_and_up(client, uri, 3)


async def test_a_lone_surrogate_before_an_event_leaves_its_hover(client: LanguageClient):
    uri = "file:///tmp/surrogates.tilewe"
    text = '[Game "tilewe"]\n[Players "4"]\n\n1. I4n-a1a1 {\ud800} 2. T4n-a2a20\n'
    assert await opened(client, uri, VALID) == []
    assert await changed(client, uri, text, 2) == []
    hover, _words = await answers(client, uri, at(3, 20))  # on T4n-a2a20
    assert hover is not None and "T4n-a2a20" in hover.contents.value  # type: ignore[union-attr]
    await assert_mended_and_up(client, uri, 3)


# ---------------------------------------------------------------- typing, as edits

def typed(text: str) -> list[str]:
    """The document as ``text`` is typed line by line: each line half typed, then whole
    with its line end."""
    found, done = [], ""
    for line in text.removesuffix("\n").split("\n"):
        found.append(done + line[:len(line) // 2])
        done += line + "\n"
        found.append(done)
    return found


def offset(text: str, position: types.Position) -> int:
    """The index in ``text`` of a protocol position (a line past the last, or a
    character past its line's end, is taken as the end, as the protocol says)."""
    ends = list(LINE_END.finditer(text))
    if position.line > len(ends):
        return len(text)
    index = ends[position.line - 1].end() if position.line else 0
    stop = ends[position.line].start() if position.line < len(ends) else len(text)
    units = 0
    while index < stop and units < position.character:
        units += 2 if ord(text[index]) > 0xFFFF else 1
        index += 1
    return index


def ranged(text: str, start: types.Position, end: types.Position, new: str
           ) -> tuple[list[types.TextDocumentContentChangeEvent], str]:
    """The ranged change that replaces ``start``..``end`` of ``text`` with ``new``, and
    the text after it."""
    after = text[:offset(text, start)] + new + text[offset(text, end):]
    return [types.TextDocumentContentChangePartial(range=types.Range(start=start, end=end),
                                                   text=new)], after


@pytest.mark.parametrize("how", ["whole", "ranged"])
@pytest.mark.parametrize("game", ["tilewe", "flows", "philosophy", "nomic", "sanguine"])
async def test_typing_a_record_in_half_lines(client: LanguageClient, game: str, how: str):
    """Each half-typed line is checked and answered at the cursor; the record, typed to
    its end, is valid."""
    path = sorted((SAMPLES / game).glob(f"*.{game}"))[0]
    whole = path.read_text(encoding="utf-8")
    uri = path.as_uri()  # (Sanguine's decks are found beside the record)
    text = ""
    await opened(client, uri, text)
    shown: list[types.Diagnostic] = []
    for version, after in enumerate(typed(whole), 2):
        if how == "whole":
            shown = await changed(client, uri, after, version)
        else:
            changes, spliced = ranged(text, end_of(text), end_of(text), after[len(text):])
            assert spliced == after
            shown = await edited(client, uri, version, changes)
        text = after
        assert_inside(shown, text)
        await answers(client, uri, end_of(text))
    assert text == whole.removesuffix("\n") + "\n"
    assert shown == []


# ---------------------------------------------------------------- ranged edits

async def assert_same_as_opened(client: LanguageClient, shown: list[types.Diagnostic],
                                text: str, version: int) -> None:
    """``shown`` are the diagnostics of ``text`` opened afresh: the server's text after
    the edits is the client's."""
    fresh = await opened(client, f"file:///tmp/fresh-{version}.tilewe", text)
    assert [(d.range, d.message) for d in shown] == [(d.range, d.message) for d in fresh]


async def test_hostile_ranged_edits_leave_the_server_the_clients_text(client: LanguageClient):
    uri = "file:///tmp/ranged.tilewe"
    text = VALID + "2. I2n-a1t1\n"
    assert await opened(client, uri, text) == []
    edits = [
        (at(3, 11), at(3, 11), " {a comment\r\nover\rline ends}"),  # CR and CRLF typed in
        (at(5, 10), at(5, 10), "(" * 10_000),  # a line of brackets, then taken out
        (at(5, 10), at(5, 10_010), ""),
        (at(3, 3), at(3, 3), "{\U0001d11e\U0001f600}"),  # UTF-16 columns after them
        (at(3, 11), at(3, 19), "Q9n-a1a1"),
        (at(3, 5), at(3, 5), "\x00\x1b[31m"),
        (at(6, 0), at(6, 0), "3. " + "z " * 5_000 + "\n"),
        (at(10**6, 0), at(10**6, 0), "4. I2n-a1t1"),  # a line past the last: the end
        (at(7, 5), at(7, 10**6), "x"),  # a character far past a line's end: its end
        (at(0, 0), at(10**6, 0), VALID),  # everything replaced
    ]
    shown: list[types.Diagnostic] = []
    for version, (start, end, new) in enumerate(edits, 2):
        changes, text = ranged(text, start, end, new)
        shown = await edited(client, uri, version, changes)
        assert_inside(shown, text)
        await answers(client, uri, end)
        await assert_same_as_opened(client, shown, text, version)
    assert shown == []
    assert client._server is not None and client._server.returncode is None


# The protocol ends lines at LF, CRLF and CR only (not at U+2028, U+2029, U+0085, FF, VT,
# FS, GS, RS, where str.splitlines would): an edit below such a character lands where
# the client sent it.
@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85", "\x0c", "\x0b", "\x1c",
                                       "\x1e"])
async def test_a_ranged_edit_below_a_unicode_separator_lands_where_it_was_sent(
        client: LanguageClient, separator: str):
    uri = "file:///tmp/separator.tilewe"
    text = HEAD + "1. W5n-a1a1 {a" + separator + "b}\n2. I2n-a1t1\n"
    assert await opened(client, uri, text) == []
    changes, text = ranged(text, at(4, 3), at(4, 11), "Q9n-a1a1")
    shown = await edited(client, uri, 2, changes)
    await assert_same_as_opened(client, shown, text, 2)


# A character past a line's end is the line's end (LSP 3.17, Position), whatever ends
# the line, and on a last line without a line end.
@pytest.mark.parametrize("ending, character", [("", 12), ("", 99), ("\n", 12),
                                               ("\r\n", 12), ("\r", 12)])
async def test_a_ranged_edit_past_a_lines_end_lands_at_its_end(client: LanguageClient,
                                                              ending: str, character: int):
    uri = "file:///tmp/past-the-end.tilewe"
    text = HEAD + "1. W5n-a1a1" + ending  # the line is 11 characters long
    assert await opened(client, uri, text) == []
    changes, text = ranged(text, at(3, character), at(3, character), " 2. Q9n-a1a1")
    shown = await edited(client, uri, 2, changes)
    await assert_same_as_opened(client, shown, text, 2)
