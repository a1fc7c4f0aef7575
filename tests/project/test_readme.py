"""The README shows the tool as it is: every example of it is run and compared here.

Console blocks (```console). A line starting with `$ ` is a command; the lines after it, up
to the next command or the block's end, are what it prints, standard output and standard
error together (bash runs the block with `2>&1`; PYTHONUNBUFFERED=1 keeps the order the
program wrote in, as a terminal shows it). Exit statuses are shown only by `$ echo $?`. All
commands of a block run in one bash script (so `cd`, `&&` and `echo $?` behave), in a
sandbox folder shared by every block in README order: `samples/` is a copy of the
repository's, tests/data/readme/ is copied in, and files one block writes are there for the
next. Environment: `notation` on PATH is this venv's console script and `python3` this
interpreter, NO_COLOR=1, COLUMNS=80, LC_ALL=C.UTF-8, HOME=a fresh folder.

Output is compared line by line, exactly, except that
  (a) a line that is exactly `...` matches any number of lines, none included;
  (b) a line ending in ` ...` matches any line that starts with the text before ` ...`;
  (c) a `# comment` at the end of a command line is a comment (bash ignores it);
  (d) trailing whitespace is ignored.
The first `$ cat FILE` of a block whose FILE is not in the sandbox yet defines it: the test
writes FILE with the shown lines before the block runs, so the README carries its own
examples.

Library blocks (```pycon) are doctest sessions (ELLIPSIS, NORMALIZE_WHITESPACE), run in
README order in one namespace from the repository's root, so `samples/...` paths work.
"""
from __future__ import annotations

import difflib
import doctest
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest

from conftest import HANG_BREAKER, ROOT, SAMPLES

README = ROOT / "README.md"
FIXTURES = ROOT / "tests" / "data" / "readme"
MARK = "@@@readme-{}@@@"
MARK_SPLIT = re.compile(r"\n@@@readme-(\d+)@@@\n")
FENCE = re.compile(r"^```(\w*)\s*$")


@dataclass(frozen=True)
class Command:
    line: str  # the command as written after `$ `
    expected: tuple[str, ...]


@dataclass(frozen=True)
class Block:
    lineno: int  # the README line of the opening fence
    body: tuple[str, ...]

    def commands(self) -> list[Command]:
        """Each `$ ` line with the lines that follow it, trailing whitespace dropped."""
        commands: list[tuple[str, list[str]]] = []
        for line in self.body:
            line = line.rstrip()
            if line.startswith("$ "):
                commands.append((line[2:], []))
            elif commands:
                commands[-1][1].append(line)
            else:
                raise ValueError(f"README.md:{self.lineno}: console block must start with '$ '")
        return [Command(line, tuple(out)) for line, out in commands]


def short(line: str) -> str:
    """A README line short enough for a test id: failures name their block."""
    line = line.split(" #")[0].strip()
    return line if len(line) <= 50 else line[:47] + "..."


def fenced_blocks(text: str, language: str) -> list[Block]:
    """The README's fenced blocks of one language, with their positions."""
    blocks: list[Block] = []
    inside: tuple[str, int, list[str]] | None = None  # the open block: language, line, body
    for number, line in enumerate(text.splitlines(), start=1):
        if inside is None:
            fence = FENCE.match(line)
            if fence:
                inside = (fence.group(1), number, [])
        elif line.rstrip() == "```":
            if inside[0] == language:
                blocks.append(Block(inside[1], tuple(inside[2])))
            inside = None
        else:
            inside[2].append(line)
    return blocks


@cache
def console_blocks() -> list[Block]:
    return fenced_blocks(README.read_text(encoding="utf-8"), "console")


@cache
def pycon_blocks() -> list[Block]:
    return fenced_blocks(README.read_text(encoding="utf-8"), "pycon")


def line_matches(want: str, line: str) -> bool:
    """Rule (b): `text ...` is any line starting with `text`; otherwise equal lines."""
    return line.startswith(want[:-4]) if want.endswith(" ...") else line == want


def lines_match(expected: list[str], actual: list[str]) -> bool:
    """The comparison rules (a), (b) and (d) of this module's docstring.

    Dynamic programming from the end, no recursion, so long outputs are no problem:
    `rest[j]` tells whether the expected lines seen so far match `actual[j:]`.
    """
    expected = [line.rstrip() for line in expected]
    actual = [line.rstrip() for line in actual]
    rest = [j == len(actual) for j in range(len(actual) + 1)]
    for want in reversed(expected):
        before = [False] * (len(actual) + 1)
        for j in range(len(actual), -1, -1):
            if want == "...":  # rule (a): skip no line here, or one and go on
                before[j] = rest[j] or (j < len(actual) and before[j + 1])
            else:
                before[j] = j < len(actual) and line_matches(want, actual[j]) and rest[j + 1]
        rest = before
    return rest[0]


def block_script(commands: list[Command]) -> str:
    """One bash script for a block: a marker after each command, `$?` kept across it."""
    lines = ["exec 2>&1"]
    for number, command in enumerate(commands):
        lines.append(command.line)
        lines.append(f"__readme_status=$?; printf '\\n{MARK.format(number)}\\n'; "
                     f"( exit $__readme_status )")
    return "\n".join(lines) + "\n"


def tools_folder(folder: Path) -> Path:
    """A folder for PATH: `notation` (this venv's console script) and `python3` (this one)."""
    folder.mkdir()
    # a wrapper, not a symlink: a venv's interpreter finds its packages (duckdb) only when
    # run under its own path
    python = folder / "python3"
    python.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} "$@"\n')
    python.chmod(0o755)
    script = Path(sys.executable).with_name("notation")
    if script.exists():
        (folder / "notation").symlink_to(script)
    else:
        wrapper = folder / "notation"
        wrapper.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m notation "$@"\n')
        wrapper.chmod(0o755)
    return folder


def cat_target(command: Command) -> str | None:
    """FILE of a plain `cat FILE` command, else None."""
    try:
        words = shlex.split(command.line, comments=True)
    except ValueError:
        return None
    return words[1] if len(words) == 2 and words[0] == "cat" else None


@dataclass
class Sandbox:
    """The shared folder the console blocks run in, and their outputs, in README order."""
    folder: Path
    env: dict[str, str]
    outputs: list[list[str]] = field(default_factory=list)

    def output_of(self, index: int) -> list[str]:
        """The outputs of block `index`, running the blocks before it first (any test order)."""
        while len(self.outputs) <= index:
            self.outputs.append(self.run(console_blocks()[len(self.outputs)]))
        return self.outputs[index]

    def run(self, block: Block) -> list[str]:
        """Each command's output: the block's `cat` fixtures first, then one bash script."""
        commands = block.commands()
        for command in commands:
            target = cat_target(command)
            if target and not (self.folder / target).exists():
                (self.folder / target).write_text("\n".join(command.expected) + "\n",
                                                  encoding="utf-8")
        proc = subprocess.run(["bash", "-c", block_script(commands)], cwd=self.folder,
                              env=self.env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=HANG_BREAKER)
        pieces = MARK_SPLIT.split(proc.stdout.decode("utf-8", errors="replace"))
        outputs = pieces[0::2][: len(commands)]
        return outputs + ["<bash stopped before this command>"] * (len(commands) - len(outputs))


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory) -> Sandbox:
    root = tmp_path_factory.mktemp("readme")
    folder = root / "work"
    folder.mkdir()
    shutil.copytree(SAMPLES, folder / "samples", ignore=shutil.ignore_patterns("__pycache__"))
    for fixture in sorted(FIXTURES.iterdir()) if FIXTURES.is_dir() else []:
        shutil.copy(fixture, folder / fixture.name)
    home = root / "home"
    home.mkdir()
    env = {
        "PATH": os.pathsep.join([str(tools_folder(root / "bin")), os.environ.get("PATH", "")]),
        "HOME": str(home), "NO_COLOR": "1", "COLUMNS": "80", "LC_ALL": "C.UTF-8",
        "PYTHONUNBUFFERED": "1", "TMPDIR": os.environ.get("TMPDIR", "/tmp"),
    }
    return Sandbox(folder, env)


def report(block: Block, command: Command, actual: str) -> str:
    """A unified diff of what the README shows against what the command printed."""
    diff = difflib.unified_diff(list(command.expected), [line.rstrip() for line in
                                                         actual.splitlines()],
                                "README.md (expected)", "actual", lineterm="")
    return f"README.md:{block.lineno}: $ {command.line}\n" + "\n".join(diff)


@pytest.mark.slow  # every README command, run for real: make test; make check runs the library ones
@pytest.mark.parametrize("index", range(len(console_blocks())),
                         ids=[short(block.commands()[0].line) for block in console_blocks()])
def test_console_block(sandbox: Sandbox, index: int):
    block = console_blocks()[index]
    outputs = sandbox.output_of(index)
    failures = [report(block, command, actual)
                for command, actual in zip(block.commands(), outputs)
                if not lines_match(list(command.expected), actual.splitlines())]
    assert not failures, "\n\n".join(failures)


@dataclass
class Session:
    """One doctest namespace for the library blocks, run in README order."""
    globs: dict = field(default_factory=dict)
    reports: list[str] = field(default_factory=list)

    def report_of(self, index: int) -> str:
        while len(self.reports) <= index:
            self.reports.append(self.run(pycon_blocks()[len(self.reports)]))
        return self.reports[index]

    def run(self, block: Block) -> str:
        """The doctest failures of one block, as text ('' when none)."""
        test = doctest.DocTestParser().get_doctest(
            "\n".join(block.body) + "\n", self.globs, f"README.md:{block.lineno}",
            str(README), block.lineno)
        runner = doctest.DocTestRunner(
            optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        out = io.StringIO()
        runner.run(test, out=out.write, clear_globs=False)
        self.globs = test.globs  # a DocTest works on a copy: the next block goes on from it
        return out.getvalue()


@pytest.fixture(scope="module")
def session() -> Session:
    return Session()


@pytest.mark.parametrize("index", range(len(pycon_blocks())),
                         ids=[short(block.body[0].removeprefix(">>> "))
                              for block in pycon_blocks()])
def test_library_block(session: Session, index: int, monkeypatch):
    monkeypatch.chdir(ROOT)
    failures = session.report_of(index)
    assert not failures, failures


def test_the_readme_has_examples_of_both_kinds():
    assert len(console_blocks()) >= 20 and len(pycon_blocks()) >= 1
    python = fenced_blocks(README.read_text(encoding="utf-8"), "python")
    assert not any(">>>" in line for block in python for line in block.body), (
        "a ```python block with >>> prompts is not run: make it ```pycon")


@pytest.mark.parametrize("expected, actual, same", [
    (["a", "b"], ["a", "b  "], True),
    (["a", "...", "z"], ["a", "z"], True),
    (["a", "...", "z"], ["a", "b", "c", "z"], True),
    (["a", "...", "z"], ["a", "b"], False),
    (["key: ..."], ["key: anything"], True),
    (["key: ..."], ["other: anything"], False),
    (["a"], ["a", "b"], False),
    (["..."], [], True),
])
def test_the_comparison_rules(expected, actual, same):
    assert lines_match(expected, actual) is same


def test_a_block_is_one_bash_session_and_keeps_exit_statuses(tmp_path):
    block = Block(1, ("$ mkdir sub && cd sub", "$ false", "$ echo $?", "1",
                      "$ pwd | grep -c /sub$", "1", "$ printf 'no newline'", "no newline",
                      "$ echo out; echo err >&2", "out", "err"))
    sandbox = Sandbox(tmp_path, {"PATH": os.environ.get("PATH", "")})
    outputs = sandbox.run(block)
    for command, actual in zip(block.commands(), outputs):
        assert lines_match(list(command.expected), actual.splitlines()), (command, actual)
