"""The language server's fresh diagnostics after one edit of a large archive, against its
check of the whole archive on open: figures, not timed tests.

    python tests/benchmarks/bench_lsp.py [--games 1000] [--runs 5] [--edits 20]
                                         [--game tilewe] [ARCHIVE]

The archive is ``--games`` random games of ``--game`` (``notation random``, seed 23), or
the one named. ``notation lsp`` is driven over stdio as an editor drives it (pytest-lsp's
client, no pytest): each round opens the archive (the whole check), then edits the
first event of its middle game into one no game plays and back, ``--edits`` times in
all (each edit one game's check), and closes it. Each step is timed from its message to
its fresh diagnostics (checked: the broken game's mark is there, then gone). The server
is another process, so its CPU time (user and system, ``/proc/PID/stat``, in clock
ticks) is read before the message and after the diagnostics; wall time is kept too. A
round's edit figure is the mean of its edits (one is a few ticks); each figure is the
least of ``--runs`` rounds. An edit is sent as the server asks: a ranged change under
incremental sync, else the whole text.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient, make_test_lsp_client

sys.path.insert(0, str(Path(__file__).parents[1] / "lsp"))

from stalls import answered  # noqa: E402  (the suite's hang breaker: no clock)

NOTATION = str(Path(sys.executable).with_name("notation"))
#: One edit of one game in a thousand against the whole check: the edit still reads the
#: whole text (the change applied, the text cut into games, each game's findings looked
#: up), so it is no thousandth; a tenth would mean it re-read far more than its game.
TARGET = 0.1
#: What an edited event becomes: no game has a piece named Q9, nor such a move.
BROKEN = "Q9n-a1a1"

TICK = os.sysconf("SC_CLK_TCK")


def server_cpu(pid: int) -> float:
    """CPU seconds (user and system) the process ``pid`` has spent so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def archive(folder: Path, game: str, games: int) -> Path:
    path = folder / f"archive.{game}"
    with open(path, "w", encoding="utf-8") as out:
        subprocess.run([NOTATION, "random", game, "--count", str(games), "--seed", "23"],
                       stdout=out, check=True)
    return path


def middle_event(text: str) -> tuple[int, int, str]:
    """The line (0-based), column and text of the first event of the middle game (the
    first word of its body, past an event number)."""
    lines = text.split("\n")
    starts = [k for k, line in enumerate(lines) if line.startswith("[Game ")]
    row = starts[len(starts) // 2]
    while lines[row].startswith("[") or not lines[row].strip():
        row += 1
    words = lines[row].split()
    word = words[1] if words[0].endswith(".") and words[0][:-1].isdigit() else words[0]
    return row, lines[row].index(word), word


class Session:
    """One server and the archive open in it (``uri``), with timed steps."""

    def __init__(self, client: LanguageClient, uri: str, incremental: bool) -> None:
        self.client = client
        self.uri = uri
        self.incremental = incremental
        self.version = 0
        assert client._server is not None  # (pytest-lsp's process: no public name for it)
        self.pid = client._server.pid

    async def timed(self, send) -> tuple[float, float, list[types.Diagnostic]]:
        """CPU and wall seconds from ``send()`` to the diagnostics it causes, and them."""
        waiting = self.client.protocol.wait_for_notification_async(
            types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        cpu, wall = server_cpu(self.pid), time.perf_counter()
        send()
        await answered(waiting, self.pid, "diagnostics")
        wall = time.perf_counter() - wall
        return server_cpu(self.pid) - cpu, wall, list(self.client.diagnostics[self.uri])

    async def open(self, text: str) -> tuple[float, float, list[types.Diagnostic]]:
        self.version += 1
        return await self.timed(lambda: self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
                uri=self.uri, language_id="notation", version=self.version, text=text))))

    async def close(self) -> None:
        await self.timed(lambda: self.client.text_document_did_close(
            types.DidCloseTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=self.uri))))

    async def edit(self, text: str, row: int, column: int, old: str, new: str
                   ) -> tuple[float, float, list[types.Diagnostic], str]:
        """``old`` at ``row``, ``column`` of ``text`` replaced by ``new``: the figures,
        the diagnostics and the text after."""
        lines = text.split("\n")
        assert lines[row][column:column + len(old)] == old
        lines[row] = lines[row][:column] + new + lines[row][column + len(old):]
        after = "\n".join(lines)
        if self.incremental:
            change: types.TextDocumentContentChangeEvent = (
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=types.Position(line=row, character=column),
                                      end=types.Position(line=row, character=column + len(old))),
                    text=new))
        else:
            change = types.TextDocumentContentChangeWholeDocument(text=after)
        self.version += 1
        cpu, wall, shown = await self.timed(lambda: self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=self.uri,
                                                                    version=self.version),
                content_changes=[change])))
        return cpu, wall, shown, after


async def measure(path: Path, runs: int, edits: int) -> dict[str, tuple[float, float]]:
    """The least over ``runs`` rounds of the CPU and wall seconds of the open, and of an
    edit (each round's mean of ``edits`` edits: an edit is a few clock ticks)."""
    text = path.read_text(encoding="utf-8")
    row, column, word = middle_event(text)
    edits += edits % 2  # (as many mend as break: each round opens the archive as it is)
    client = make_test_lsp_client()
    await client.start_io(sys.executable, "-m", "notation", "lsp")
    try:
        started = await client.initialize_session(types.InitializeParams(
            capabilities=types.ClientCapabilities()))
        sync = started.capabilities.text_document_sync
        kind = sync.change if isinstance(sync, types.TextDocumentSyncOptions) else sync
        session = Session(client, path.as_uri(), kind == types.TextDocumentSyncKind.Incremental)
        best = {"open": (float("inf"), float("inf")), "edit": (float("inf"), float("inf"))}

        def keep(step: str, cpu: float, wall: float) -> None:
            best[step] = (min(best[step][0], cpu), min(best[step][1], wall))

        for _ in range(runs):
            cpu, wall, shown = await session.open(text)
            if shown:
                sys.exit(f"the archive is not valid: {shown[0].message}")
            keep("open", cpu, wall)
            spent = [0.0, 0.0]
            for count in range(edits):
                old, new = (word, BROKEN) if count % 2 == 0 else (BROKEN, word)
                cpu, wall, shown, text = await session.edit(text, row, column, old, new)
                if new == BROKEN and (not shown or shown[0].range.start.line != row):
                    sys.exit(f"expected a diagnostic at line {row + 1}, got {shown[:1]}")
                if new == word and shown:
                    sys.exit(f"the mended archive still shows {shown[0].message}")
                spent = [spent[0] + cpu, spent[1] + wall]
            keep("edit", spent[0] / edits, spent[1] / edits)
            await session.close()
        await client.shutdown_session()
    finally:
        await client.stop()
    return best


def row(games: int = 1000, runs: int = 5, game: str = "tilewe", path: Path | None = None,
        edits: int = 20) -> tuple[str, float, float]:
    """``(name, edit / open CPU ratio, target)`` for the one-table bench."""
    folder = Path(tempfile.mkdtemp(prefix="notation-lsp-"))
    try:
        if path is None:
            path = archive(folder, game, games)
        count = sum(1 for line in path.read_text(encoding="utf-8").split("\n")
                    if line.startswith("[Game "))
        size = path.stat().st_size
        best = asyncio.run(measure(path, runs, edits))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    (open_cpu, open_wall), (edit_cpu, edit_wall) = best["open"], best["edit"]
    print(f"`notation lsp`, {count:,} games ({size / 1e6:.1f} MB), least of {runs} rounds "
          f"(an edit: the mean of {edits} a round), server CPU (ticks of {1000 / TICK:.0f} "
          f"ms) and wall:\n")
    print("| step | server CPU | wall |")
    print("|---|---|---|")
    print(f"| open (the whole check) | {open_cpu:.3f} s | {open_wall:.3f} s |")
    print(f"| one game edited, to fresh diagnostics | {edit_cpu:.3f} s | {edit_wall:.3f} s |")
    print(f"| edit / open | {edit_cpu / open_cpu:.3f}x | {edit_wall / open_wall:.3f}x |\n")
    return (f"`lsp`: one game's edit against the whole check ({count:,} games, CPU)",
            edit_cpu / open_cpu, TARGET)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("archive", nargs="?", type=Path)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--edits", type=int, default=20, help="Edits a round (half of them "
                    "break the event, half mend it).")
    ap.add_argument("--game", default="tilewe")
    args = ap.parse_args()
    name, ratio, target = row(args.games, args.runs, args.game, args.archive, args.edits)
    print(f"| {name} | {ratio:.3f}x | <= {target}x | {'yes' if ratio <= target else 'no'} |")


if __name__ == "__main__":
    main()
