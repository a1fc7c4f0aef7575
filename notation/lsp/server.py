"""``notation lsp``: the Language Server Protocol over :mod:`.findings`, through ``pygls``.

The server holds no logic of its own: each open document is a
:class:`~notation.lsp.findings.Document`, checked on open, on every change and on save,
and its findings are published as diagnostics (the rule as ``code``, its entry in the
handbook's rule catalogue as ``codeDescription``). Whatever a client sends, the server
answers and stays up: a document it cannot read (binary, a game over the size bound) gets
one diagnostic saying why at its first line.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, TypeVar
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from notation import __version__
from notation.core.errors import Error

from .actions import Replace, actions_at
from .edits import LINE_END, changed, column_of, utf16_units
from .findings import Document, Finding
from .completions import completions_at
from .formatting import Formatted, formatted, formatted_range
from .highlights import KINDS, words
from .hovers import hover_at
from .links import link_at
from .outline import Branch, line_comment_folds

#: A document larger than this is checked on save only (said once, as a diagnostic).
LIVE_CHARS = 8 * 1024 * 1024


T = TypeVar("T")



def path_of(uri: str) -> str:
    """The file a ``file:`` URI names (its last part for any other: the ending still
    chooses the game)."""
    parsed = urlparse(uri)
    path = unquote(parsed.path)
    return path if parsed.scheme == "file" else os.path.basename(path) or uri


def _position(lines: list[str], line: int, column: int) -> types.Position:
    """A 1-based line and character column as the protocol's position."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return types.Position(line=max(line - 1, 0), character=utf16_units(text, column))


def diagnostic(finding: Finding, lines: list[str], catalogue: str | None = None
               ) -> types.Diagnostic:
    """A finding as the protocol's diagnostic, its columns in UTF-16 units; ``catalogue``:
    the address of the handbook's rule catalogue page, which the rule's link points into."""
    return types.Diagnostic(
        range=types.Range(start=_position(lines, finding.line, finding.column),
                          end=_position(lines, finding.end_line, finding.end_column)),
        message=finding.message,
        severity=(types.DiagnosticSeverity.Error if finding.severity == "error"
                  else types.DiagnosticSeverity.Warning),
        code=finding.rule or None,
        code_description=(types.CodeDescription(href=f"{catalogue}#{finding.anchor}")
                          if finding.anchor and catalogue else None),
        source="notation")


def _one_line(message: str, severity: types.DiagnosticSeverity = (
        types.DiagnosticSeverity.Error)) -> types.Diagnostic:
    start = types.Position(line=0, character=0)
    return types.Diagnostic(range=types.Range(start=start, end=start), message=message,
                            severity=severity, source="notation")


def text_edit(replace: Replace, lines: list[str]) -> types.TextEdit:
    return types.TextEdit(range=types.Range(start=_position(lines, replace.line, replace.column),
                                            end=_position(lines, replace.end_line,
                                                          replace.end_column)),
                          new_text=replace.text)


def _whole_lines(line: int, end_line: int, lines: list[str]) -> types.Range:
    return types.Range(start=types.Position(line=line - 1, character=0),
                       end=_position(lines, end_line, len(lines[end_line - 1]) + 1
                                     if 0 < end_line <= len(lines) else 1))


def _branch_symbol(branch: Branch, lines: list[str]) -> types.DocumentSymbol:
    return types.DocumentSymbol(
        name=f"({branch.ply}. {branch.first or '...'}", detail=f"variation at ply {branch.ply}",
        kind=types.SymbolKind.Namespace, range=_whole_lines(branch.line, branch.end_line, lines),
        selection_range=types.Range(start=_position(lines, branch.line, branch.column),
                                    end=_position(lines, branch.line, branch.column + 1)),
        children=[_branch_symbol(b, lines) for b in branch.branches])


def semantic_data(text: str, source: str, lines: list[str]) -> list[int]:
    """The coloured words of a document as the protocol encodes them: five numbers a word
    (line and start relative to the word before, length, kind, no modifiers), in UTF-16."""
    data: list[int] = []
    last_line, last_start = 0, 0
    for word in words(text, source):
        line_text = lines[word.line - 1] if word.line <= len(lines) else ""
        start = utf16_units(line_text, word.column)
        length = utf16_units(line_text, word.column + word.length) - start
        row = word.line - 1
        data += [row - last_line, start - last_start if row == last_line else start, length,
                 KINDS.index(word.kind), 0]
        last_line, last_start = row, start
    return data


@dataclass(frozen=True, slots=True)
class Cursor:
    """A request's document and cursor: its text, its file, the cursor's line and column
    (1-based, in characters, as the reader counts them) and the text of its line."""

    text: str
    source: str
    line: int
    column: int
    line_text: str


class NotationProtocol(LanguageServerProtocol):
    """pygls's protocol, but for an open document's text: the server keeps it
    (:meth:`NotationServer.opened`, :meth:`NotationServer.changed`) and applies each change
    by the protocol's rules, where pygls would keep a second copy, apply changes by
    ``str.splitlines`` and rewrite each change's range in place as it does."""

    def _handed_on(self, method: str, params: Any) -> Iterator[tuple[Any, tuple[Any, ...], None]]:
        handler = self.fm.features.get(method)
        if handler is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams
                                    ) -> Iterator[tuple[Any, tuple[Any, ...], None]]:
        yield from self._handed_on(types.TEXT_DOCUMENT_DID_OPEN, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams
                                      ) -> Iterator[tuple[Any, tuple[Any, ...], None]]:
        yield from self._handed_on(types.TEXT_DOCUMENT_DID_CHANGE, params)


class NotationServer(LanguageServer):
    """The server: one :class:`Document` an open file; ``catalogue``: the address of the
    handbook's rule catalogue page (``make docs`` builds it), where a rule's link points."""

    def __init__(self, catalogue: str | None = None) -> None:
        super().__init__("notation", __version__, text_document_sync_kind=(
            types.TextDocumentSyncKind.Incremental), protocol_cls=NotationProtocol)
        self.catalogue = catalogue
        self.documents: dict[str, Document] = {}
        self.too_large: set[str] = set()
        #: Each open document's text, as the client has it (:mod:`.edits`).
        self.texts: dict[str, str] = {}

    def text(self, uri: str) -> str:
        """The text of the document at ``uri`` ("" for one not open), a byte order mark
        at its start read as a blank (as the reader drops it, and no column moves)."""
        text = self.texts.get(uri, "")
        return " " + text[1:] if text.startswith("\ufeff") else text

    def opened(self, params: types.DidOpenTextDocumentParams) -> None:
        self.texts[params.text_document.uri] = params.text_document.text

    def changed(self, params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        text = self.texts.get(uri, "")
        for change in params.content_changes:
            if isinstance(change, types.TextDocumentContentChangePartial):
                span = change.range
                text = changed(text, (span.start.line, span.start.character),
                               (span.end.line, span.end.character), change.text)
            else:
                text = change.text
        self.texts[uri] = text

    def check(self, uri: str, saved: bool = False) -> None:
        """Publish the findings of the document at ``uri`` as it stands."""
        text = self.text(uri)
        lines = LINE_END.split(text)
        if len(text) > LIVE_CHARS and not saved:
            if uri not in self.too_large:  # said once, then checked on save
                self.too_large.add(uri)
                self.publish(uri, [_one_line(f"this document is larger than "
                                             f"{LIVE_CHARS // (1024 * 1024)} MB: it is "
                                             f"checked when it is saved")])
            return
        self.too_large.discard(uri)
        document = self.documents.setdefault(uri, Document(path_of(uri)))
        try:
            found = [diagnostic(f, lines, self.catalogue) for f in document.findings(text)]
            if not document.outlines:  # (validate's warning for a file without a game)
                found.append(_one_line("no games", types.DiagnosticSeverity.Warning))
        except Error as exc:  # a game over the size bound, text that is not a record
            document.outlines = []
            found = [_one_line(str(exc))]
        except Exception as exc:  # a bug of ours: said, and the server goes on
            document.outlines = []
            found = [_one_line(f"internal error: {exc.__class__.__name__}: {exc}")]
        self.publish(uri, found)

    def guarded(self, work: Callable[[], T]) -> T | None:
        """What ``work`` gives; what it refuses is said to the user (a record with a
        problem is not formatted, say), and a bug of ours too: the server goes on."""
        try:
            found = work()
        except Exception as exc:
            self.window_show_message(types.ShowMessageParams(
                type=types.MessageType.Error,
                message=f"notation: {exc.__class__.__name__}: {exc}"))
            return None
        if isinstance(found, Formatted) and found.refused:
            self.window_show_message(types.ShowMessageParams(
                type=types.MessageType.Warning, message=f"notation: {found.refused}"))
        return found

    def live_text(self, uri: str) -> str | None:
        """The document's text, if it is small enough to work on live."""
        text = self.text(uri)
        return None if len(text) > LIVE_CHARS else text

    def checked(self, uri: str) -> tuple[Document, list[str]] | None:
        """The document as last checked (checked now if it never was) and its lines; None
        when it is too large to work on live."""
        text = self.live_text(uri)
        if text is None:
            return None
        if uri not in self.documents:
            self.check(uri)
        document = self.documents.get(uri)
        return None if document is None else (document, LINE_END.split(text))

    def cursor(self, params: types.HoverParams | types.CompletionParams
               | types.DefinitionParams) -> Cursor | None:
        """Where a request's cursor is, in the reader's terms (None: a document too large
        to work on live)."""
        uri = params.text_document.uri
        text = self.live_text(uri)
        if text is None:
            return None
        lines = LINE_END.split(text)
        row = params.position.line
        line_text = lines[row] if row < len(lines) else ""
        return Cursor(text, path_of(uri), row + 1,
                      column_of(line_text, params.position.character), line_text)

    def publish(self, uri: str, found: list[types.Diagnostic]) -> None:
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=found))


def make_server(catalogue: str | None = None) -> NotationServer:
    """A server with every feature wired (not started)."""
    server = NotationServer(catalogue)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: NotationServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.opened(params)
        ls.check(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: NotationServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.changed(params)
        ls.check(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: NotationServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.check(params.text_document.uri, saved=True)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: NotationServer, params: types.HoverParams) -> types.Hover | None:
        cursor = ls.cursor(params)
        if cursor is None:
            return None
        try:
            found = hover_at(cursor.text, cursor.source, cursor.line, cursor.column)
        except Exception:  # (unreadable text, or a bug of ours: no hover, the server goes on)
            return None
        if found is None:
            return None
        row, line_text = cursor.line - 1, cursor.line_text
        return types.Hover(
            contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=found.text),
            range=types.Range(
                start=types.Position(line=row, character=utf16_units(line_text, found.column)),
                end=types.Position(line=row,
                                   character=utf16_units(line_text, found.end_column))))

    @server.feature(types.TEXT_DOCUMENT_COMPLETION)
    def complete(ls: NotationServer, params: types.CompletionParams
                 ) -> types.CompletionList | None:
        cursor = ls.cursor(params)
        if cursor is None:
            return None
        try:
            words = completions_at(cursor.text, cursor.source, cursor.line, cursor.column)
        except Exception:  # (unreadable text, or a bug of ours: nothing offered)
            return None
        if words is None:
            return None
        return types.CompletionList(is_incomplete=False, items=[
            types.CompletionItem(label=word, kind=types.CompletionItemKind.Value,
                                 sort_text=f"{index:06d}")
            for index, word in enumerate(words)])

    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    def format_document(ls: NotationServer, params: types.DocumentFormattingParams
                        ) -> list[types.TextEdit] | None:
        uri = params.text_document.uri
        text = ls.text(uri)
        done = ls.guarded(lambda: formatted(text, path_of(uri)))
        if done is None or done.text is None:
            return None
        if done.text == text:
            return []
        lines = LINE_END.split(text)
        return [types.TextEdit(range=_whole_lines(1, len(lines), lines), new_text=done.text)]

    @server.feature(types.TEXT_DOCUMENT_RANGE_FORMATTING)
    def format_range(ls: NotationServer, params: types.DocumentRangeFormattingParams
                     ) -> list[types.TextEdit] | None:
        uri = params.text_document.uri
        text = ls.text(uri)
        span = params.range
        done = ls.guarded(lambda: formatted_range(text, path_of(uri), span.start.line + 1,
                                                  span.end.line + 1))
        if done is None or isinstance(done, Formatted):
            return None
        lines = LINE_END.split(text)
        return [types.TextEdit(range=_whole_lines(edit.first_line, edit.last_line, lines),
                               new_text=edit.text) for edit in done]

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def symbols(ls: NotationServer, params: types.DocumentSymbolParams
                ) -> list[types.DocumentSymbol] | None:
        checked = ls.checked(params.text_document.uri)
        if checked is None:
            return None
        document, lines = checked
        return [types.DocumentSymbol(
            name=f"game {shape.number}", detail=" · ".join(filter(None, (shape.name,
                                                                        shape.result))),
            kind=types.SymbolKind.Module, range=_whole_lines(shape.line, shape.end_line, lines),
            selection_range=_whole_lines(shape.line, shape.line, lines),
            children=[_branch_symbol(b, lines) for b in shape.branches])
            for shape in document.outlines]

    @server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
    def folds(ls: NotationServer, params: types.FoldingRangeParams
              ) -> list[types.FoldingRange] | None:
        checked = ls.checked(params.text_document.uri)
        if checked is None:
            return None
        document, lines = checked
        found = [fold for shape in document.outlines for fold in shape.folds]
        found += line_comment_folds(lines)
        kinds = {"comment": types.FoldingRangeKind.Comment}
        ranges = [types.FoldingRange(start_line=shape.line - 1, end_line=shape.end_line - 1,
                                     kind=types.FoldingRangeKind.Region)
                  for shape in document.outlines if shape.end_line > shape.line]
        ranges += [types.FoldingRange(start_line=fold.line - 1, end_line=fold.end_line - 1,
                                      kind=kinds.get(fold.kind, types.FoldingRangeKind.Region))
                   for fold in found if fold.end_line > fold.line]
        return sorted(ranges, key=lambda r: (r.start_line, -r.end_line))

    @server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, types.SemanticTokensLegend(
        token_types=list(KINDS), token_modifiers=[]))
    def semantic_tokens(ls: NotationServer, params: types.SemanticTokensParams
                        ) -> types.SemanticTokens | None:
        uri = params.text_document.uri
        text = ls.live_text(uri)
        if text is None:
            return None
        found = ls.guarded(lambda: semantic_data(text, path_of(uri), LINE_END.split(text)))
        return None if found is None else types.SemanticTokens(data=found)

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, types.CodeActionKind.Source]))
    def code_actions(ls: NotationServer, params: types.CodeActionParams
                     ) -> list[types.CodeAction] | None:
        uri = params.text_document.uri
        text = ls.live_text(uri)
        if text is None:
            return None
        span = params.range
        found = ls.guarded(lambda: actions_at(text, path_of(uri), span.start.line + 1,
                                              span.end.line + 1))
        if not found:
            return None
        lines = LINE_END.split(text)
        kinds = {"quickfix": types.CodeActionKind.QuickFix,
                 "source": types.CodeActionKind.Source}
        return [types.CodeAction(
            title=action.title, kind=kinds[action.kind],
            edit=types.WorkspaceEdit(changes={uri: [text_edit(e, lines)
                                                    for e in action.edits]}))
            for action in found]

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: NotationServer, params: types.DefinitionParams
                   ) -> types.Location | None:
        cursor = ls.cursor(params)
        if cursor is None or not params.text_document.uri.startswith("file:"):
            return None
        try:
            found = link_at(cursor.text, cursor.source, cursor.line, cursor.column)
        except Exception:  # (unreadable text, or a bug of ours: nowhere to go)
            return None
        if found is None:
            return None
        start = types.Position(line=0, character=0)
        return types.Location(uri=Path(found.path).as_uri(),
                              range=types.Range(start=start, end=start))

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: NotationServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.documents.pop(uri, None)
        ls.texts.pop(uri, None)
        ls.too_large.discard(uri)
        ls.publish(uri, [])

    return server


def built_catalogue() -> str | None:
    """The rule catalogue of the handbook ``make docs`` built beside this package (in a
    checkout), as a ``file:`` address; None where there is none."""
    page = Path(__file__).resolve().parents[2] / "build" / "docs" / "catalogue.html"
    return page.as_uri() if page.is_file() else None


def serve(tcp_port: int | None = None, catalogue: str | None = None) -> None:
    """Serve on stdin and stdout, or on ``127.0.0.1:tcp_port``; ``catalogue``: where the
    rules link to (by default the built handbook's page, if there is one)."""
    import gc
    # A server lives long: the collector's usual settings, not the batch commands' (which
    # freeze what is loaded and collect rarely: each hover's walk leaves cycles behind).
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    server = make_server(catalogue or built_catalogue())
    if tcp_port is None:
        server.start_io()
    else:
        server.start_tcp("127.0.0.1", tcp_port)


__all__ = ["LIVE_CHARS", "NotationServer", "built_catalogue", "diagnostic", "make_server",
           "path_of", "semantic_data", "serve", "text_edit"]
