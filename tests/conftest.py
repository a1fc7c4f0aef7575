"""Shared helpers: the Tilewe game, reference data, and running the CLI."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Callable, NoReturn

import pytest
from click.testing import CliRunner
from hypothesis import settings

# Properties here are about correctness, not speed: a cold parser cache on a fresh
# machine can make one example slow, which must not read as a failure.
settings.register_profile("notation", deadline=None)
settings.load_profile("notation")

import notation
from notation.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
DATA = TESTS / "data"
SAMPLES = ROOT / "samples"
SHARED = ROOT.parent / "shared"

# The suite is in folders by subject (tests/read/, tests/games/tilewe/, ...), each module's
# name unique across them: every folder that holds tests is on the import path, so that a
# module takes another's helpers by name (``from test_fuzz import mutated``) whichever
# folder pytest happened to import first, and a script run alone (``make pictures``, with
# tests/ on PYTHONPATH) finds them too.
for _folder in sorted({path.parent for path in TESTS.rglob("test_*.py")} - {TESTS}):
    if str(_folder) not in sys.path:
        sys.path.append(str(_folder))

#: The marks of tests that take seconds each (pyproject.toml's markers).
HEAVY_MARKS = frozenset({"slow", "install", "dask", "fuzz"})


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The modules holding tests that take seconds run first, each module's tests together
    and in their order (a module's fixtures are still made once): near the end of a run,
    the workers that take queued tests from busy ones (``--dist worksteal``) then share
    short tests, rather than one waiting out another's last long one."""
    items[:] = heavy_modules_first(items)


def heavy_modules_first(items: list[pytest.Item]) -> list[pytest.Item]:
    """``items`` with the modules holding a test marked one of :data:`HEAVY_MARKS` first,
    every module's items kept together and in order (a stable sort by module)."""
    heavy = {item.nodeid.split("::")[0] for item in items
             if any(item.get_closest_marker(mark) for mark in HEAVY_MARKS)}
    return sorted(items, key=lambda item: item.nodeid.split("::")[0] not in heavy)


#: Wall-clock seconds a child process may take before a test gives up on it: a last resort
#: against a hang, which no load on a busy machine can reach, never a measure. A bound that
#: matters counts CPU time (``cpu_limited``, ``time.process_time``).
HANG_BREAKER = 3600
#: CPU seconds a child may spend (``cpu_limited``): a runaway child is stopped by its own
#: CPU time, whatever the machine's load.
CPU_BREAKER = 600


def cpu_limited(seconds: int = CPU_BREAKER):
    """A ``preexec_fn`` that stops the child once it has spent ``seconds`` of CPU time."""
    def limit() -> None:
        import resource
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 5))
    return limit


def drawn_square_by_square(board) -> str:
    """A Tilewe board's TPN ranks drawn one tile at a time, as the notation defines them
    (what the position writers, in Python and compiled, are held to)."""
    import re

    ranks = []
    for y in range(19, -1, -1):
        row = "".join("." if board.color_at(x + 20 * y) is None
                      else "byrg"[board.color_at(x + 20 * y)] for x in range(20))
        ranks.append(re.sub(r"\.+", lambda run: str(len(run.group())), row))
    return "/".join(ranks)


def rows_as_lists(rows: dict) -> dict:
    """A game's export rows with every column's values as a list, whatever forms they
    came in (lists, ranges, ``Repeated``, ``Texts``): the rows two paths give compare
    equal so."""
    return {table: value if table == "games" else
            {name: list(column) for name, column in value.items()}
            for table, value in rows.items()}


def reference_games(game: str) -> list[dict]:
    with open(DATA / game / "games.jsonl", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


@pytest.fixture(scope="session")
def tilewe() -> notation.Game:
    return notation.get_game("tilewe")


#: The tags of a two-player Tilewe record, for a record written out in a test.
TILEWE = '[Game "tilewe"]\n[Players "2"]\n\n'


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    """``text`` written as the file ``name`` in ``tmp_path`` (UTF-8 when it is a string)."""
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


def no_traceback(result) -> None:
    """A run (a ``CompletedProcess`` or click's ``Result``) said no traceback, no internal error."""
    text = (getattr(result, "stderr", "") or "") + (getattr(result, "stdout", "") or "")
    assert "Traceback" not in text and "internal error" not in text, text


def invoke(*args: str, input: str | bytes | None = None):
    """Run the CLI in-process; returns click's Result (exit_code, output)."""
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def notation_exe() -> list[str]:
    """The installed console script next to this interpreter, else ``python -m notation``."""
    exe = Path(sys.executable).with_name("notation")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "notation"]


def run_cli(*args: str, input: str | None = None, cwd: str | os.PathLike | None = None):
    """The command run in a process of its own, as a user runs it (a
    ``CompletedProcess``: returncode, stdout, stderr as text).

    The process is this one forked (its modules already loaded) unless
    ``NOTATION_TEST_EXEC`` is set, when it is the console script started afresh: the
    command's code and its process are the same either way (its own streams, folder,
    signals, exit), and the suite spends no start-up a call (the start itself is tested
    by the tests that start it, tests/project/test_install.py and the signal tests)."""
    if os.environ.get("NOTATION_TEST_EXEC") or not hasattr(os, "fork") or dask_running():
        return subprocess.run(notation_exe() + list(args), input=input, capture_output=True,
                              text=True, cwd=cwd, timeout=HANG_BREAKER,
                              preexec_fn=cpu_limited())
    warm_once()
    return _forked_cli(list(args), input, cwd)


_WARM: list[bool] = []


def dask_running() -> bool:
    """Whether this process runs a Dask event loop (a cluster or a client of one): a child
    forked from it would inherit the loop without its thread, and talk to a cluster
    through it. (Merely loaded, as every test module is at collection, Dask is no bar.)"""
    import threading
    return any(thread.name == "IO loop" or "Dask" in thread.name
               for thread in threading.enumerate())


def warm_once() -> None:
    """Every game loaded and one record of each read and replayed here, once, so that
    forked commands find their grammars and modules in place (a fresh process finds them
    in the terminal cache and byte code instead)."""
    if _WARM:
        return
    _WARM.append(True)
    for folder in sorted(SAMPLES.iterdir()):
        records = sorted(folder.glob(f"*.{folder.name}"))
        if records:
            for record in notation.load(records[0]):
                notation.run(record)


def _forked_cli(args: list[str], input: str | None,
                cwd: str | os.PathLike | None) -> subprocess.CompletedProcess:
    out_read, out_write = os.pipe()
    err_read, err_write = os.pipe()
    in_read, in_write = os.pipe() if input is not None else (None, None)

    def streams() -> None:
        for fd in (out_read, err_read, in_write):
            if fd is not None:
                os.close(fd)
        for fd, at in ((in_read, 0), (out_write, 1), (err_write, 2)):
            if fd is not None:
                os.dup2(fd, at)
                os.close(fd)
        if cwd is not None:
            os.chdir(cwd)

    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        command_in_child(args, streams)
    for fd in (out_write, err_write, in_read):
        if fd is not None:
            os.close(fd)
    stdout, stderr = _communicate(out_read, err_read, in_write,
                                  None if input is None else input.encode("utf-8"))
    _, wait_status = os.waitpid(pid, 0)
    return subprocess.CompletedProcess(["notation", *args], os.waitstatus_to_exitcode(wait_status),
                                       stdout.decode("utf-8", "replace"),
                                       stderr.decode("utf-8", "replace"))


def command_in_child(args: list[str], set_up: Callable[[], None]) -> NoReturn:
    """In a child forked from the suite: ``set_up`` (its streams at 0, 1 and 2, its
    folder, its environment), what a fresh ``notation`` process has besides, then the
    console script's entry point, and the child's end with the command's status."""
    status = 70
    try:
        set_up()
        _like_a_fresh_process(args)
        from notation.cli.entry import main
        main()
        status = 0
    except SystemExit as exc:
        code = exc.code
        status = code if isinstance(code, int) else (0 if code is None else 1)
        if not isinstance(code, (int, type(None))):
            print(code, file=sys.stderr)
    except BaseException:
        import traceback
        traceback.print_exc()
    finally:
        try:
            _ended_as_a_process_ends()
        finally:
            os._exit(status)


def _like_a_fresh_process(args: list[str]) -> None:
    """The standard streams (on 0, 1 and 2), limits, signals and exit functions a fresh
    ``notation`` process has."""
    import atexit
    import io
    import signal

    cpu_limited()()
    encoding = "utf-8"
    sys.stdin = sys.__stdin__ = io.TextIOWrapper(
        io.BufferedReader(io.FileIO(0, "r", closefd=False)), encoding=encoding)
    sys.stdout = sys.__stdout__ = io.TextIOWrapper(
        io.BufferedWriter(io.FileIO(1, "w", closefd=False)), encoding=encoding)
    sys.stderr = sys.__stderr__ = io.TextIOWrapper(
        io.BufferedWriter(io.FileIO(2, "w", closefd=False)), encoding=encoding,
        errors="backslashreplace", line_buffering=True)
    # a fresh interpreter's signals: Ctrl-C raises, SIGTERM kills, SIGPIPE ignored
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    atexit._clear()  # pytest's and hypothesis's ends are not the command's
    if "multiprocessing.util" in sys.modules:  # registered at its import, as in a fresh run
        atexit.register(sys.modules["multiprocessing.util"]._exit_function)
    sys.argv = ["notation", *args]


def _ended_as_a_process_ends() -> None:
    """What the interpreter does at its end: threads joined, exit functions run, the
    standard streams flushed."""
    import atexit
    import threading
    try:
        threading._shutdown()  # type: ignore[attr-defined]
        atexit._run_exitfuncs()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass


def _communicate(out: int, err: int, stdin: int | None, data: bytes | None
                 ) -> tuple[bytes, bytes]:
    """Everything the child writes on its two pipes, while ``data`` goes to its stdin."""
    import selectors

    chunks: dict[int, list[bytes]] = {out: [], err: []}
    selector = selectors.DefaultSelector()
    selector.register(out, selectors.EVENT_READ)
    selector.register(err, selectors.EVENT_READ)
    view = memoryview(data or b"")
    if stdin is not None:
        if view:
            os.set_blocking(stdin, False)
            selector.register(stdin, selectors.EVENT_WRITE)
        else:
            os.close(stdin)
    open_reads = 2
    while open_reads:
        for key, _events in selector.select():
            fd = key.fd
            if fd == stdin:
                try:
                    view = view[os.write(fd, view[:65536]):]
                except BrokenPipeError:
                    view = view[:0]
                if not view:
                    selector.unregister(fd)
                    os.close(fd)
                continue
            piece = os.read(fd, 1 << 16)
            if piece:
                chunks[fd].append(piece)
            else:
                selector.unregister(fd)
                os.close(fd)
                open_reads -= 1
    if stdin is not None and view:
        selector.unregister(stdin)
        os.close(stdin)
    selector.close()
    return b"".join(chunks[out]), b"".join(chunks[err])


def still_running(pid: int | str) -> bool:
    """Whether a process lives on: not gone, not a zombie, and not already sent a SIGKILL it
    has yet to act on (a worker whose run ended is killed by the kernel, PR_SET_PDEATHSIG,
    and may be seen a moment before it is scheduled to die: no wait on the clock needed)."""
    try:
        with open(f"/proc/{pid}/status") as handle:
            fields = dict(line.split(":", 1) for line in handle if ":" in line)
    except OSError:  # gone meanwhile
        return False
    if fields.get("State", "").strip().startswith(("Z", "X")):
        return False
    kill = 1 << (9 - 1)  # SIGKILL's bit in the pending masks
    pending = int(fields.get("SigPnd", "0"), 16) | int(fields.get("ShdPnd", "0"), 16)
    return not pending & kill


def interruptible() -> None:
    """``preexec_fn`` for a child that must take Ctrl-C: a shell's background job (a CI
    runner, ``make test &``) starts with SIGINT ignored, and Python keeps it ignored."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_DFL)
