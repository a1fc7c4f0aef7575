"""Archive scale: streaming output, progress on a terminal, closing summaries."""
from __future__ import annotations

import os
import pty
import select
import subprocess
import time
import threading

import pytest

from notation.parallel import runs as runner
from notation.parallel.batch import batches

from conftest import HANG_BREAKER, SAMPLES, notation_exe, run_cli, still_running

TILEWE_ARCHIVE = (SAMPLES / "tilewe" / "random-4p-three-games.tilewe").read_text()


def archive(tmp_path, copies: int):
    path = tmp_path / "big.tilewe"
    path.write_text((TILEWE_ARCHIVE.rstrip("\n") + "\n\n") * copies)
    return path


def read_terminal(master: int, wait: float) -> bytes:
    """Everything written to a pseudo-terminal until it closes or is quiet for ``wait`` s."""
    seen = b""
    while select.select([master], [], [], wait)[0]:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the other side closed
            break
        if not chunk:
            break
        seen += chunk
    return seen


@pytest.mark.slow
def test_summary_after_more_than_one_game(tmp_path):
    path = archive(tmp_path, 2)
    result = run_cli("validate", str(path))
    assert result.returncode == 0 and result.stdout.count(": ok, ") == 6
    assert result.stderr.startswith("6 games: 6 valid, 0 invalid; ") and " plies in " in result.stderr
    one = run_cli("validate", str(SAMPLES / "tilewe" / "tw-sample-1.tilewe"))
    assert one.stderr == ""  # one game: its own line says it all
    bad = tmp_path / "bad.tilewe"
    bad.write_text(TILEWE_ARCHIVE.replace("2. ", "2. X", 1))
    result = run_cli("validate", str(bad), str(path))
    assert "9 games: 8 valid, 1 invalid;" in result.stderr and result.returncode == 1


@pytest.mark.slow
def test_progress_bar_only_on_a_terminal(tmp_path):
    path = archive(tmp_path, 150)
    master, slave = pty.openpty()
    proc = subprocess.Popen(notation_exe() + ["validate", str(path)],
                            stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    seen = read_terminal(master, 60)
    proc.wait(timeout=HANG_BREAKER)
    os.close(master)
    text = seen.decode("utf-8", "replace")
    assert "reading" in text and "%" in text and " games  " in text and "MB/s" in text
    assert "450 games: 450 valid" in text
    piped = run_cli("validate", str(path))
    assert "%" not in piped.stderr and "reading" not in piped.stderr
    master, slave = pty.openpty()  # --quiet and --json: never a bar
    for flag in ("--quiet", "--json"):
        result = subprocess.run(notation_exe() + ["validate", flag, str(path)],
                                stdout=subprocess.DEVNULL, stderr=slave, timeout=HANG_BREAKER)
        assert result.returncode == 0
    os.close(slave)
    quiet = read_terminal(master, 0.5)
    os.close(master)
    assert b"%" not in quiet and b"reading" not in quiet


def test_random_writes_each_game_as_it_is_made():
    """A billion games asked for: a first line at all means each is written as it is made."""
    proc = subprocess.Popen(notation_exe() + ["random", "tilewe", "--count", "1000000000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()
    assert proc.wait(timeout=HANG_BREAKER) == 141
    assert first == b'[Game "tilewe"]\n'


def test_first_result_comes_before_the_archive_is_read(tmp_path):
    """Streaming, shown without a clock: the first game's line comes out while the rest of
    the archive has not even been written to the pipe yet."""
    text = archive(tmp_path, 3000).read_text()  # about 2.5 MB, 9,000 games
    head, rest = text[:300_000], text[300_000:]  # a few of the reader's 64 KiB blocks
    proc = subprocess.Popen(notation_exe() + ["replay", "--json", "--game", "tilewe", "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    first_read, rest_sent = threading.Event(), threading.Event()

    def feed() -> None:  # a thread: the pipes fill both ways
        try:
            proc.stdin.write(head.encode())
            proc.stdin.flush()
            first_read.wait(timeout=HANG_BREAKER)  # (only a guard against a hang, not a measure)
            rest_sent.set()
            proc.stdin.write(rest.encode())
            proc.stdin.close()
        except (OSError, ValueError):  # the run was ended after its first line
            pass

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    try:
        first = proc.stdout.readline()  # a reader that waited for the end would never answer
        assert not rest_sent.is_set()  # the line came while the rest was held back
        first_read.set()
        assert first.startswith(b'{"file": ') and b'"index": 1,' in first
    finally:
        proc.kill()
        first_read.set()  # the feeder ends on the closed pipe
        proc.wait()
        feeder.join(timeout=HANG_BREAKER)


# -- every core ------------------------------------------------------------------------------

def mixed_archive(tmp_path, copies: int):
    """About 20 kB a copy: valid games, an invalid one, comments that carry over a game
    boundary."""
    good = TILEWE_ARCHIVE.rstrip("\n") + "\n\n"
    bad = good.replace("3. ", "3. Q9n-a1a1 ", 1)
    carry = "; a comment before the next game's tags\n{ and a brace\ncomment }\n"
    path = tmp_path / "mixed.tilewe"
    path.write_text(carry + (good * 7 + bad + carry) * copies)
    return path


#: The workers a ``--jobs`` run below asks for.
JOBS = 2
#: Copies of :func:`mixed_archive` in the archive the ``--jobs`` runs share: 1.14 MB,
#: 1,344 games (56 invalid), five batches (:func:`worked_in_batches` holds it to that).
COPIES = 56


def worked_in_batches(path) -> None:
    """A ``--jobs`` run of ``path`` is a real one: the file is large enough for the runner to
    start its workers (below ``SMALL_INPUT`` one process reads it) and is cut into at least
    two batches for each of them, so that each worker takes several in turn and their parts
    are put back in order (tests/parallel/test_runner.py runs many more batches than the
    runner keeps in flight)."""
    assert path.stat().st_size >= runner.SMALL_INPUT
    assert sum(1 for _ in batches(path)) >= 2 * JOBS


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    """The archive the ``--jobs`` runs share (none of them writes to it)."""
    path = mixed_archive(tmp_path_factory.mktemp("scale"), COPIES)
    worked_in_batches(path)
    return path


def in_one_and_in_workers(args: list[str], path):
    """A command's run of ``path`` in one process, then with :data:`JOBS` worker processes."""
    return (run_cli(*args, "--jobs", "1", str(path)),
            run_cli(*args, "--jobs", str(JOBS), str(path)))


@pytest.mark.slow
def test_jobs_give_the_same_output_in_the_same_order(mixed):
    for args in (["validate"], ["validate", "--json"], ["replay", "--json"]):
        one, two = in_one_and_in_workers(args, mixed)
        assert one.returncode == two.returncode == 1
        assert one.stdout == two.stdout and one.stdout
        assert one.stderr.split(" in ")[0] == two.stderr.split(" in ")[0]
    assert "1,344 games: 1,288 valid, 56 invalid" in two.stderr


START = "20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20 b 1fffff,1fffff,1fffff,1fffff"


@pytest.mark.slow
def test_archive_tools_with_jobs_agree_with_one_process(mixed):
    in_workers = {}
    # (each tool once, and each kind of select filter: a verdict, a result, a position)
    for args in (["stats", "--json"], ["select", "--valid"],
                 ["select", "--invalid", "--json"], ["select", "--winner", "blue", "--invert"],
                 ["select", "--position", START, "--after-ply", "0", "--count"]):
        one, two = in_one_and_in_workers(args, mixed)
        assert (one.returncode, one.stdout, one.stderr) == (two.returncode, two.stdout,
                                                             two.stderr), args
        assert one.stdout or one.stderr
        in_workers[" ".join(args)] = two.stdout
    assert '"games": 1344' in in_workers["stats --json"]
    kept = in_workers["select --valid"]
    assert kept.count("[Game ") == 1288
    assert kept.count("{ and a brace") == COPIES + 1  # the comments kept


@pytest.mark.slow
def test_a_dying_worker_is_reported_not_waited_for(mixed):
    env = dict(os.environ, NOTATION_TEST_WORKER_FAULT="exit")
    result = subprocess.run(notation_exe() + ["validate", "--jobs", str(JOBS), str(mixed)],
                            capture_output=True, text=True, timeout=HANG_BREAKER, env=env)
    assert result.returncode == 2 and "a worker process stopped" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_batches_read_exactly_like_the_stream(tmp_path):
    from notation.parallel import batch
    from notation.read.reading import source_records
    path = mixed_archive(tmp_path, 3)
    expected = [(r.pos, r.tags, r.items) for r in source_records(path, checked=True)]
    for target in (1, 300, 5000, 1 << 20):
        got = []
        for item in batch.batches(path, target=target):
            got += [(r.pos, r.tags, r.items) for r in batch.batch_records(item)]
        assert got == expected, target


def test_help_starts_without_lark_or_any_game():
    import sys
    code = ("import sys\nfrom notation.cli.main import run\n"
            "try:\n    run(['--help'])\nexcept SystemExit: pass\n"
            "print('lark' in sys.modules, [m for m in sys.modules if m.startswith('notation.games.')])")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=HANG_BREAKER)
    assert result.stdout.strip().endswith("False []"), result.stdout


@pytest.mark.slow
def test_fmt_check_with_jobs_agrees_with_one_process(tmp_path, mixed):
    three = run_cli("fmt", str(SAMPLES / "tilewe" / "random-4p-three-games.tilewe")).stdout
    canonical = tmp_path / "canonical.tilewe"
    canonical.write_text("\n".join([three] * 450))  # as fmt writes games: a blank line apart
    worked_in_batches(canonical)
    for target, code in ((canonical, 0), (mixed, 1)):
        one, two = in_one_and_in_workers(["fmt", "--check"], target)
        assert one.returncode == two.returncode == code
        assert one.stdout == two.stdout
    messy = tmp_path / "messy.tilewe"
    messy.write_text(canonical.read_text().replace("\n1. ", "\n1.   ", 3))
    one, two = in_one_and_in_workers(["fmt", "--check"], messy)
    assert one.returncode == two.returncode == 1 and "would be reformatted" in two.stdout


@pytest.mark.slow
def test_workers_do_not_outlive_a_killed_run(tmp_path):
    path = mixed_archive(tmp_path, 400)
    proc = subprocess.Popen(notation_exe() + ["replay", "--json", "--jobs", "2", str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    children: list[str] = []
    while not children and proc.stdout.readline():  # (the first batch is worked on here)
        children = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True,
                                  text=True).stdout.split()
    assert children  # the pool is running
    proc.kill()
    proc.wait()
    # A worker forked a moment before the kill may not yet have asked to end with its
    # parent: it finds the parent gone as it starts, and ends then (a bound on the checks,
    # not a measure: a loaded machine only makes them more).
    alive = [pid for pid in children if still_running(pid)]
    for _ in range(600):
        if not alive:
            break
        time.sleep(0.05)
        alive = [pid for pid in alive if still_running(pid)]
    assert not alive, f"orphaned workers: {alive}"
