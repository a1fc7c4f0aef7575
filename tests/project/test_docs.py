"""The README and the handbook (docs/) show the tool as it is: every example in them is run
and compared here, the site builds without a warning, its rule catalogue has an entry for
every rule name in the code, and no page or message sends a user to another project's
distribution.

Each document (README.md, then every Markdown page under docs/) is run on its own.

Console blocks (```console). A line starting with `$ ` is a command; the lines after it, up
to the next command or the block's end, are what it prints, standard output and standard
error together (bash runs the block with `2>&1`; PYTHONUNBUFFERED=1 keeps the order the
program wrote in, as a terminal shows it). Exit statuses are shown only by `$ echo $?`. All
commands of a block run in one bash script (so `cd`, `&&` and `echo $?` behave), in a
sandbox folder shared by every block of the document, in its order: `samples/` is a copy of the
repository's, tests/data/readme/ is copied in, and files one block writes are there for the
next. Environment: `notation` on PATH is this venv's command line (run in a child forked
from the suite's process, warm_commands.py; the console script itself with
NOTATION_TEST_EXEC=1) and `python3` this interpreter, NO_COLOR=1, COLUMNS=80,
LC_ALL=C.UTF-8, HOME=a fresh folder.

Output is compared line by line, exactly, except that
  (a) a line that is exactly `...` matches any number of lines, none included;
  (b) a line ending in ` ...` matches any line that starts with the text before ` ...`;
  (c) a `# comment` at the end of a command line is a comment (bash ignores it);
  (d) trailing whitespace is ignored.
The first `$ cat FILE` of a block whose FILE is not in the sandbox yet defines it: the test
writes FILE with the shown lines before the block runs, so a page carries its own
examples.

Library blocks (```pycon) are doctest sessions (ELLIPSIS, NORMALIZE_WHITESPACE), run in
document order in one namespace per document from the repository's root, so `samples/...`
paths work. The README's sessions also pass stock `python -m doctest -o ELLIPSIS README.md`
(each block ends with a blank line, so no fence is read as expected output).
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

import warm_commands
from conftest import HANG_BREAKER, ROOT, SAMPLES
from rule_names import rule_names

from notation.core.errors import rule_anchor

README = ROOT / "README.md"
DOCS = ROOT / "docs"
CATALOGUE = DOCS / "catalogue.md"
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
    lineno: int  # the document's line of the opening fence
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
                raise ValueError(f"line {self.lineno}: a console block must start with '$ '")
        return [Command(line, tuple(out)) for line, out in commands]


def short(line: str) -> str:
    """A line short enough for a test id: failures name their block."""
    line = line.split(" #")[0].strip()
    return line if len(line) <= 50 else line[:47] + "..."


def fenced_blocks(text: str, language: str) -> list[Block]:
    """A document's fenced blocks of one language, with their positions."""
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


def documents() -> list[Path]:
    """README.md, then every page of the handbook."""
    return [README] + sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts)


def name(document: Path) -> str:
    return str(document.relative_to(ROOT))


@cache
def console_blocks(document: Path = README) -> list[Block]:
    return fenced_blocks(document.read_text(encoding="utf-8"), "console")


@cache
def pycon_blocks(document: Path = README) -> list[Block]:
    return fenced_blocks(document.read_text(encoding="utf-8"), "pycon")


def every(blocks) -> list[tuple[Path, int]]:
    """(document, index) of every block of one kind, in order."""
    return [(document, index) for document in documents()
            for index in range(len(blocks(document)))]


def block_id(document: Path, text: str) -> str:
    return f"{name(document)}:{short(text)}"


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


def tools_folder(folder: Path, warm: bool = False) -> Path:
    """A folder for PATH: `notation` (this venv's console script) and `python3` (this one)."""
    folder.mkdir()
    # a wrapper, not a symlink: a venv's interpreter finds its packages (duckdb) only when
    # run under its own path
    python = folder / "python3"
    python.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} "$@"\n')
    python.chmod(0o755)
    script = Path(sys.executable).with_name("notation")
    if warm:  # (the suite's process, forked: tests/warm_commands.py)
        warm_commands.write_client(folder / "notation")
    elif script.exists():
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
    """The folder a document's console blocks share, and their outputs, in its order."""
    folder: Path
    env: dict[str, str]
    document: Path = README
    outputs: list[list[str]] = field(default_factory=list)
    #: Whether its `notation` is the warm one (tests/warm_commands.py), served as it runs.
    warm: bool = False

    def output_of(self, index: int) -> list[str]:
        """The outputs of block `index`, running the blocks before it first (any test order)."""
        while len(self.outputs) <= index:
            self.outputs.append(self.run(console_blocks(self.document)[len(self.outputs)]))
        return self.outputs[index]

    def run(self, block: Block) -> list[str]:
        """Each command's output: the block's `cat` fixtures first, then one bash script."""
        commands = block.commands()
        for command in commands:
            target = cat_target(command)
            if target and not (self.folder / target).exists():
                (self.folder / target).write_text("\n".join(command.expected) + "\n",
                                                  encoding="utf-8")
        if self.warm:
            written = warm_commands.run(["bash", "-c", block_script(commands)], self.folder,
                                        self.env)
        else:
            written = subprocess.run(["bash", "-c", block_script(commands)], cwd=self.folder,
                                     env=self.env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     timeout=HANG_BREAKER).stdout
        pieces = MARK_SPLIT.split(written.decode("utf-8", errors="replace"))
        outputs = pieces[0::2][: len(commands)]
        return outputs + ["<bash stopped before this command>"] * (len(commands) - len(outputs))


def new_sandbox(root: Path, document: Path) -> Sandbox:
    warm = warm_commands.wanted()
    folder = root / "work"
    folder.mkdir()
    shutil.copytree(SAMPLES, folder / "samples", ignore=shutil.ignore_patterns("__pycache__"))
    for fixture in sorted(FIXTURES.iterdir()) if FIXTURES.is_dir() else []:
        shutil.copy(fixture, folder / fixture.name)
    home = root / "home"
    home.mkdir()
    env = {
        "PATH": os.pathsep.join([str(tools_folder(root / "bin", warm)),
                                 os.environ.get("PATH", "")]),
        "HOME": str(home), "NO_COLOR": "1", "COLUMNS": "80", "LC_ALL": "C.UTF-8",
        "PYTHONUNBUFFERED": "1", "TMPDIR": os.environ.get("TMPDIR", "/tmp"),
        # Byte code where the suite keeps it (make test's prefix), never beside the
        # sources: the bundled decks' package is the samples folder the suite walks.
        **({"PYTHONPYCACHEPREFIX": os.environ["PYTHONPYCACHEPREFIX"]}
           if "PYTHONPYCACHEPREFIX" in os.environ else {"PYTHONDONTWRITEBYTECODE": "1"}),
    }
    return Sandbox(folder, env, document, warm=warm)


@pytest.fixture(scope="module")
def sandboxes(tmp_path_factory) -> dict[Path, Sandbox]:
    """One sandbox per document, made when its first block runs."""
    class Sandboxes(dict):
        def __missing__(self, document: Path) -> Sandbox:
            self[document] = new_sandbox(tmp_path_factory.mktemp("docs"), document)
            return self[document]
    return Sandboxes()


def report(document: Path, block: Block, command: Command, actual: str) -> str:
    """A unified diff of what the document shows against what the command printed."""
    diff = difflib.unified_diff(list(command.expected), [line.rstrip() for line in
                                                         actual.splitlines()],
                                f"{name(document)} (expected)", "actual", lineterm="")
    return f"{name(document)}:{block.lineno}: $ {command.line}\n" + "\n".join(diff)


@pytest.mark.slow  # every command of every page, run for real: make test; make check runs the library ones
@pytest.mark.parametrize("document, index", every(console_blocks),
                         ids=[block_id(d, console_blocks(d)[i].commands()[0].line)
                              for d, i in every(console_blocks)])
def test_console_block(sandboxes: dict[Path, Sandbox], document: Path, index: int):
    block = console_blocks(document)[index]
    outputs = sandboxes[document].output_of(index)
    failures = [report(document, block, command, actual)
                for command, actual in zip(block.commands(), outputs)
                if not lines_match(list(command.expected), actual.splitlines())]
    assert not failures, "\n\n".join(failures)


@dataclass
class Session:
    """One doctest namespace for the library blocks of a document, run in its order."""
    document: Path = README
    globs: dict = field(default_factory=dict)
    reports: list[str] = field(default_factory=list)

    def report_of(self, index: int) -> str:
        while len(self.reports) <= index:
            self.reports.append(self.run(pycon_blocks(self.document)[len(self.reports)]))
        return self.reports[index]

    def run(self, block: Block) -> str:
        """The doctest failures of one block, as text ('' when none)."""
        test = doctest.DocTestParser().get_doctest(
            "\n".join(block.body) + "\n", self.globs, f"{name(self.document)}:{block.lineno}",
            str(self.document), block.lineno)
        runner = doctest.DocTestRunner(
            optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        out = io.StringIO()
        runner.run(test, out=out.write, clear_globs=False)
        self.globs = test.globs  # a DocTest works on a copy: the next block goes on from it
        return out.getvalue()


@pytest.fixture(scope="module")
def sessions() -> dict[Path, Session]:
    class Sessions(dict):
        def __missing__(self, document: Path) -> Session:
            self[document] = Session(document)
            return self[document]
    return Sessions()


@pytest.mark.parametrize("document, index", every(pycon_blocks),
                         ids=[block_id(d, pycon_blocks(d)[i].body[0].removeprefix(">>> "))
                              for d, i in every(pycon_blocks)])
def test_library_block(sessions: dict[Path, Session], document: Path, index: int, monkeypatch):
    monkeypatch.chdir(ROOT)
    failures = sessions[document].report_of(index)
    assert not failures, failures


@pytest.mark.parametrize("document", documents(), ids=name)
def test_no_example_escapes_the_suite(document: Path):
    """Prompts only in the blocks that run: a ```python block with >>> is not run."""
    text = document.read_text(encoding="utf-8")
    for language in ("python", "py", "sh", "bash", "text", ""):
        blocks = fenced_blocks(text, language)
        assert not any(line.startswith(">>> ") for block in blocks for line in block.body), (
            f"{name(document)}: a ```{language} block with >>> prompts is not run: make it ```pycon")


def test_the_readme_and_the_handbook_have_examples_of_both_kinds():
    assert len(console_blocks()) >= 4 and len(pycon_blocks()) >= 1
    assert len(every(console_blocks)) >= 55 and len(every(pycon_blocks)) >= 8


def test_the_readme_passes_stock_doctest():
    """`python -m doctest -o ELLIPSIS README.md` as python-chess's CI runs it on its README."""
    run = subprocess.run([sys.executable, "-m", "doctest", "-o", "ELLIPSIS", "README.md"],
                         cwd=ROOT, capture_output=True, text=True, timeout=HANG_BREAKER)
    assert run.returncode == 0 and run.stdout == "", run.stdout[-3000:] + run.stderr[-2000:]


def test_the_readme_is_a_front_door():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 300
    assert "\n## Install\n" in text


def test_the_readme_shows_a_visitor_of_ones_own():
    """A user's visitor is a first-class citizen: the README's sessions (run above) define
    one and read games with it."""
    sessions = ["\n".join(block.body) for block in pycon_blocks()]
    assert any("(notation.BaseVisitor[" in body and "Visitor=" in body for body in sessions)


# -- the distribution's name ---------------------------------------------------------------

#: `notation[...]` as a requirement: the index's `notation` is someone else's project.
OTHER_DISTRIBUTION = re.compile(r"(?<![\w.\-])notation\[")


def test_no_page_or_message_names_the_other_projects_distribution():
    texts = [README, ROOT / "pyproject.toml", ROOT / "Makefile", *documents()[1:],
             *sorted((ROOT / "notation").rglob("*.py")), *sorted((ROOT / "cli").rglob("*.py"))]
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
             for path in texts
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if OTHER_DISTRIBUTION.search(line)]
    assert not found, "\n".join(found)
    assert OTHER_DISTRIBUTION.search("pip install 'notation[data]'")
    assert not OTHER_DISTRIBUTION.search("pip install 'game-notation[data]'")


# -- the rule catalogue --------------------------------------------------------------------

TARGET = re.compile(r"^\((rule-[a-z0-9-]+)\)=$", re.M)


def catalogue_anchors() -> list[str]:
    return TARGET.findall(CATALOGUE.read_text(encoding="utf-8"))


def test_the_catalogue_has_an_entry_for_every_rule_name_in_the_code():
    anchors = catalogue_anchors()
    assert len(anchors) == len(set(anchors)), "an anchor is given twice"
    wanted = {rule_anchor(rule): rule for rule in rule_names()}
    missing = sorted(rule for anchor, rule in wanted.items() if anchor not in anchors)
    stale = sorted(set(anchors) - set(wanted))
    assert not missing, f"rule names without a catalogue entry: {missing}"
    assert not stale, f"catalogue entries no engine reports: {stale}"


def test_the_rule_names_are_found_on_every_road():
    """The extraction finds names of each kind: literals, why-pairs, nomic's numbers,
    result tags and start tags."""
    names = rule_names()
    assert {"each piece once", "contact on an open corner", "every player keeps a route",
            "112.4", "109", "Result tag", "Scores tag", "tag Players", "tag RedDeck",
            "tag JoinWhere", "card in hand", "conclusion dots"} <= names


# -- the site --------------------------------------------------------------------------------

@pytest.mark.slow  # a full Sphinx build: a few seconds of CPU
def test_the_site_builds_without_a_warning_and_lists_every_command(tmp_path):
    out = tmp_path / "html"
    build = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b",
                            "html", "-d", str(tmp_path / "doctrees"), str(DOCS), str(out)],
                           cwd=ROOT, capture_output=True, text=True, timeout=HANG_BREAKER)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    from notation.cli.main import cli
    reference = (out / "cli-reference.html").read_text(encoding="utf-8")
    missing = [command for command in cli.commands if f'id="notation-{command}"' not in reference]
    assert not missing, missing
    catalogue = (out / "catalogue.html").read_text(encoding="utf-8")
    assert all(f'id="{anchor}"' in catalogue for anchor in catalogue_anchors())


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
