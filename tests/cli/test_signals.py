"""Ctrl-C and SIGTERM: one line and 130 or 143 at any moment, and no temporary left behind.

No test here depends on timing: a signal is sent once the run is known to be
under way (its first output has arrived), or at several moments of a rewrite
whose every possible ending is checked.
"""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import HANG_BREAKER, ROOT, SAMPLES, TESTS, interruptible, notation_exe, run_cli, still_running

pytestmark = pytest.mark.slow

ENDINGS = {signal.SIGINT: (130, "notation: interrupted\n"),
           signal.SIGTERM: (143, "notation: terminated\n")}


def test_the_console_script_imports_almost_nothing_before_its_handlers():
    """What runs before the handlers are set is the window a signal could hit unhandled."""
    code = ("import sys; before = set(sys.modules)\n"
            "from notation.cli.entry import main\n"
            "print(' '.join(sorted(set(sys.modules) - before)))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=HANG_BREAKER)
    assert set(result.stdout.split()) <= {"notation", "notation.cli", "notation.cli.entry", "notation.cli.signals",
                                          "signal"}, result.stdout


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("signals") / "big.tilewe"
    games = run_cli("random", "tilewe", "--seed", "1", "--count", "40").stdout
    path.write_text("\n".join([games] * 60))  # 2,400 games: seconds of work
    return path


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_signal_during_a_run_is_one_line_and_its_status(archive, signum, jobs):
    proc = subprocess.Popen(preexec_fn=interruptible, args=notation_exe() + ["validate", "--jobs", jobs, str(archive)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline()  # the run is under way (a block of results is out)
    proc.send_signal(signum)
    proc.stdout.read()
    err = proc.stderr.read()
    code = proc.wait(timeout=HANG_BREAKER)
    assert (code, err) == ENDINGS[signum]


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_at_start_up_is_one_line_and_its_status(archive, signum):
    """Sent as soon as the process exists: the handler may not be set yet only during the
    interpreter's own start, which then ends the way Python does, never with our traceback."""
    for _ in range(5):
        proc = subprocess.Popen(preexec_fn=interruptible, args=notation_exe() + ["validate", str(archive)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(0.001 * _)
        proc.send_signal(signum)
        err = proc.stderr.read()
        code = proc.wait(timeout=HANG_BREAKER)
        if (code, err) == ENDINGS[signum]:
            continue
        # The interpreter's own start, before our first line: Python's default ending.
        assert interpreter_start(code, err, signum), err


#: The modules the console script loads before its handlers are set (a test above holds
#: the list): a signal there ends the way Python does, with their module-level frames.
BEFORE_HANDLERS = ("notation/__init__.py", "cli/__init__.py", "cli/entry.py", "cli/signals.py")


#: ``entry.main``'s first line: a signal may strike as the call enters it (Python checks
#: for signals there), before its first statement; from then on it ends with one line.
MAIN_LINE = next(n for n, line in enumerate((ROOT / "cli" / "entry.py").read_text()
                                            .splitlines(), 1) if line.startswith("def main("))


def interpreter_start(code: int, err: str, signum: int) -> bool:
    """A signal that struck before the handlers were set: Python's own start (site, the
    editable install's import hook) or the loading of the few modules before them. Its
    traceback may hold those modules' top-level frames and ``main``'s entry, never a
    frame of a function of ours at work."""
    if code not in (-signum, 1):
        return False
    frames = re.findall(r'File "([^"]*)", line (\d+), in (\S+)', err)
    ours = [(path, int(line), name) for path, line, name in frames
            if re.search(r"/(notation|cli)/[^/]*", path)]
    return all((name == "<module>" and path.endswith(BEFORE_HANDLERS))
               or (name == "main" and path.endswith("cli/entry.py") and line == MAIN_LINE)
               for path, line, name in ours)


def test_a_signal_as_the_handlers_are_set_ends_with_one_line_and_its_status():
    """Ctrl-C while ``main`` is setting its handlers (the default handler's
    ``KeyboardInterrupt``, raised where Python checked for it): one line, 130."""
    script = ("import signal\nimport notation.cli.entry as entry\n"
              "def handled():\n    raise KeyboardInterrupt\n"
              "entry.handled_signals = handled\nentry.main()\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=HANG_BREAKER)
    assert (done.returncode, done.stderr) == (130, "notation: interrupted\n")


#: Runs the command line (its arguments after the signal's number and a moment) and sends
#: itself that signal from click's own code around the command: as click makes the
#: command line's context ("parsing"), or as it closes that context ("closing").
SIGNAL_IN_CLICK = """
import os, sys
import click
signum, moment = int(sys.argv[1]), sys.argv[2]
sys.argv = ["notation", *sys.argv[3:]]
hook = "__init__" if moment == "parsing" else "__exit__"
plain = getattr(click.Context, hook)

def signalled(self, *args, **kwargs):
    if kwargs.get("parent", getattr(self, "parent", None)) is None:  # the command line's own
        os.kill(os.getpid(), signum)
    return plain(self, *args, **kwargs)

setattr(click.Context, hook, signalled)
from notation.cli.entry import main
main()
"""


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("moment", ["parsing", "closing"])
def test_a_signal_in_clicks_own_code_is_one_line_and_its_status(signum, moment):
    """click answers an interrupt raised in its own code (outside the command) with a blank
    line before ours ("\\nnotation: terminated"); seen when a signal came as ``fmt -i``
    started or ended."""
    record = SAMPLES / "tilewe" / "tw-sample-1.tilewe"
    result = subprocess.run([sys.executable, "-c", SIGNAL_IN_CLICK, str(int(signum)), moment,
                             "validate", str(record)], preexec_fn=interruptible,
                            capture_output=True, text=True, timeout=HANG_BREAKER)
    assert (result.returncode, result.stderr) == ENDINGS[signum]


def _formatted_and_original(tmp_path: Path) -> tuple[Path, str, str]:
    games = run_cli("random", "tilewe", "--seed", "2", "--count", "40").stdout
    messy = games.replace(" 2. ", "   2. ").replace("\n\n1. ", "\n\n  1. ")
    path = tmp_path / "club.tilewe"
    path.write_text("\n".join([messy] * 40))
    formatted = run_cli("fmt", str(path)).stdout
    return path, path.read_text(), formatted


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_during_fmt_in_place_leaves_the_file_whole_and_no_temporary(tmp_path, signum):
    path, original, formatted = _formatted_and_original(tmp_path)
    assert formatted != original
    endings = set()
    for delay in (0.05, 0.3, 0.9, 2.0):
        path.write_text(original)
        proc = subprocess.Popen(preexec_fn=interruptible, args=notation_exe() + ["fmt", "-i", str(path)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(delay)
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=HANG_BREAKER)
        assert [p.name for p in tmp_path.iterdir()] == [path.name], "a temporary was left"
        text = path.read_text()
        if proc.returncode == 0:  # it had finished
            assert text == formatted and "reformatted" in out
            endings.add("finished")
        else:
            assert (proc.returncode, err) == ENDINGS[signum] or interpreter_start(
                proc.returncode, err, signum)
            assert text in (original, formatted)
            endings.add("stopped")
    assert "stopped" in endings


def test_a_writer_interrupted_between_write_and_rename_removes_its_temporary(tmp_path,
                                                                               monkeypatch):
    """The exception a signal raises, arriving at the worst moment of ``fmt -i``."""
    from notation.save import files as output
    from notation.cli.main import run
    path, original, _formatted = _formatted_and_original(tmp_path)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(output.os, "replace", interrupted)
    with pytest.raises(SystemExit) as ended:
        run(["fmt", "-i", str(path)])
    assert ended.value.code == 130
    assert [p.name for p in tmp_path.iterdir()] == [path.name]
    assert path.read_text() == original


#: Runs the command line (its arguments after the signal's number) and sends itself that
#: signal as it forks its first worker: the moment the pool is starting.
SIGNAL_AT_FIRST_FORK = """
import os, sys
signum = int(sys.argv[1])
sent = []

def signal_once():
    if not sent:
        sent.append(signum)
        os.kill(os.getpid(), signum)

os.register_at_fork(after_in_parent=signal_once)
sys.argv = ["notation", *sys.argv[2:]]
from notation.cli.entry import main
main()
"""


def left_in_session(session: int) -> list[str]:
    """The processes of a session still running (not zombies): its leader's workers."""
    left = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
        if int(fields[3]) == session and still_running(pid):
            left.append(pid)
    return left


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("command", [["validate", "--jobs", "2"],
                                     ["random", "tilewe", "--count", "30", "--jobs", "2"]],
                         ids=["validate", "random"])
def test_a_signal_while_the_workers_start_is_one_line_and_leaves_no_worker(archive, signum,
                                                                            command):
    """A signal during the pool's forks was raised in the interpreter's after-fork hook,
    printed there as ignored, and lost: the run went on to exit 0. The interrupted run
    must also wait for every worker it started before it exits."""
    args = [*command, str(archive)] if command[0] == "validate" else command
    script = SIGNAL_AT_FIRST_FORK
    proc = subprocess.Popen([sys.executable, "-c", script, str(int(signum)),
                             *args], preexec_fn=interruptible, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    err = proc.stderr.read()
    code = proc.wait(timeout=HANG_BREAKER)
    assert (code, err) == ENDINGS[signum]
    assert left_in_session(proc.pid) == []
