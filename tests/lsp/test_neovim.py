"""A real editor as the language server's client: Debian's Neovim, headless, opens a
record with an illegal event and starts ``notation lsp`` on it (neovim_session.lua), and
what Neovim itself made of the answers (its vim.diagnostic entries, hover lines and
completion menu) is what validate and ``notation legal`` say. The wait is bounded by the
hang breaker (:func:`stalls.finished`), never by a clock."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import notation

from conftest import SAMPLES
from session import CATALOGUE
from stalls import finished

NVIM = shutil.which("nvim")
SCRIPT = Path(__file__).with_name("neovim_session.lua")
NEEDS = ("the editor test drives Debian's neovim, which is not installed: apt-get install "
         "neovim (.ci/system-packages installs it, as make test and CI do)")
#: vim.diagnostic.severity.ERROR (the LSP's DiagnosticSeverity.Error, the same number).
ERROR = 1


def private_home(folder: Path) -> dict[str, str]:
    """HOME and the XDG folders inside ``folder``: no user's configuration, shada or
    logs are read or written (Neovim's lsp.log lands in its cache folder)."""
    places = {"HOME": "home", "XDG_CONFIG_HOME": "config", "XDG_DATA_HOME": "data",
              "XDG_STATE_HOME": "state", "XDG_CACHE_HOME": "cache",
              "XDG_RUNTIME_DIR": "runtime"}
    for name in places.values():
        (folder / name).mkdir(mode=0o700, parents=True)
    return {variable: str(folder / name) for variable, name in places.items()}


def tail(path: Path, lines: int = 40) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:]) \
        if path.exists() else "(none)"


def neovim_session(folder: Path, record: Path, hover_at: tuple[int, int],
                   complete_at: tuple[int, int]) -> dict[str, Any]:
    """What Neovim got from the server on ``record``: its diagnostics, the hover at
    ``hover_at`` and the completions at ``complete_at`` (line, column: 1-based)."""
    if NVIM is None:
        pytest.fail(NEEDS, pytrace=False)
    output = folder / "session.json"
    said = folder / "neovim.out"
    env = dict(os.environ, **private_home(folder),
               NOTATION_LSP_COMMAND=json.dumps([sys.executable, "-m", "notation", "lsp",
                                                "--catalogue", CATALOGUE]),
               NOTATION_RECORD=str(record), NOTATION_OUTPUT=str(output),
               NOTATION_HOVER_AT="%d:%d" % hover_at, NOTATION_COMPLETE_AT="%d:%d" % complete_at)
    with said.open("wb") as out:  # (a file, not a pipe: a full pipe would stall Neovim)
        process = subprocess.Popen(
            [NVIM, "--headless", "--clean", "-n", "-i", "NONE", "-S", str(SCRIPT)],
            cwd=folder, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
        code = finished(process, "neovim")
    got = json.loads(output.read_text(encoding="utf-8")) if output.exists() else {}
    assert code == 0 and "error" not in got, (
        f"neovim exited with {code}: {got.get('error', 'no output')}\n"
        f"--- neovim said:\n{tail(said)}\n"
        f"--- its lsp.log:\n{tail(folder / 'cache' / 'nvim' / 'lsp.log')}")
    return got


def test_neovim_shows_an_illegal_event_marked_hovered_and_the_legal_events_offered(
        tmp_path: Path):
    sample = sorted((SAMPLES / "tilewe").glob("*.tilewe"))[0]
    record = notation.load(sample)[0]
    first, second = [i for i in record.items if isinstance(i, notation.EventNode)][:2]
    # the first event played again as the second: the same piece placed twice
    lines = sample.read_text(encoding="utf-8").split("\n")
    row, at = second.pos.line - 1, second.pos.column - 1
    lines[row] = lines[row][:at] + first.text + lines[row][at + len(second.text):]
    broken = tmp_path / sample.name
    broken.write_text("\n".join(lines), encoding="utf-8")
    problems = [p for game in notation.load(broken) for p in notation.run(game).problems]
    assert [(p.line, p.column) for p in problems] == [(second.pos.line, second.pos.column)]
    assert all(p.rule for p in problems), "the repeat should break a rule"
    # a hover on the repeat; completion with the first event's first two characters typed
    typed = first.text[:2]
    got = neovim_session(tmp_path, broken, (second.pos.line, second.pos.column),
                         (first.pos.line, first.pos.column + len(typed)))

    shown = got["diagnostics"]
    assert [(d["line"], d["column"], d["code"], d["severity"]) for d in shown] == \
        [(p.line - 1, p.column - 1, p.rule, ERROR) for p in problems]
    for d, problem in zip(shown, problems):
        assert problem.message in d["message"]
        assert d["href"].startswith(CATALOGUE + "#rule-")

    hover = got["hover"]
    assert hover is not None
    assert "**ply 2**" in hover and f"`{first.text}`" in hover
    assert all(f"refused: {p.message}" in hover for p in problems)

    start = notation.Position.from_record(record, 0)
    legal = [start.game.format_event(m) for m in start.game.legal_moves(start.state)]
    expected = [word for word in legal if word.startswith(typed)]
    assert first.text in expected
    assert got["completions"] == expected
    assert got["popup"] == expected  # Neovim's menu: its order (sortText), its filter
    assert got["server_exit"] == {"code": 0, "signal": 0}  # stopped as Neovim stops it
