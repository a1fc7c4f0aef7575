"""Writing files: a full disk, an interrupted write, devices and pipes, read-only files,
in-place rewrites (through links, keeping the mode), split's pieces.

Every writer writes a temporary beside its target and renames it at the end:
nothing is visible before, and whatever ends the run early (a failed write,
Ctrl-C, SIGTERM) leaves no temporary and no file that was not there before.
A full disk is simulated in-process (a file object whose writes fail with
ENOSPC) and made real in a subprocess with a file-size limit (EFBIG).
"""
from __future__ import annotations

import errno
import hashlib
import os
import re
import resource
import signal
import stat
import subprocess
import time
from pathlib import Path

import pytest

import notation
from notation.archive import AtomicFile, GameSink, WriteError, split
from notation.cli.main import run

from conftest import (HANG_BREAKER, SAMPLES, TILEWE, interruptible, invoke, no_traceback,
                      notation_exe, run_cli, write)

NO_SPACE = os.strerror(errno.ENOSPC)
GAME = SAMPLES / "tilewe" / "tw-sample-1.tilewe"


def game(tags: str = "", moves: str = "1. W5n-a1a1") -> str:
    return f'[Game "tilewe"]\n[Players "2"]\n{tags}\n{moves}\n'


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> Path:
    """An archive of 150 distinct games (about 130 KB)."""
    path = tmp_path_factory.mktemp("big") / "big.tilewe"
    path.write_text(invoke("random", "tilewe", "--seed", "3", "--count", "150").stdout)
    return path


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".notation-"))


def lines(text: str) -> list[str]:
    return text.splitlines()


def games_of(text: str) -> list[str]:
    """An archive's games, each ending in one line break (the blank lines between dropped)."""
    return [g.rstrip("\n") + "\n" for g in re.split(r"\n(?=\[Game )", text)]


class FullDisk:
    """An open file whose writes fail once ``room`` bytes were written: with ENOSPC, or
    with ``fault`` (the exception a signal raises, say)."""

    def __init__(self, handle, room: int, fault: type[BaseException] | None) -> None:
        self.handle, self.room, self.fault = handle, room, fault

    def write(self, data: bytes) -> int:
        if len(data) > self.room:
            raise self.fault() if self.fault else OSError(errno.ENOSPC, NO_SPACE)
        self.room -= len(data)
        return self.handle.write(data)

    def __getattr__(self, name: str):
        return getattr(self.handle, name)


def fill_disk(monkeypatch, room: int, fault: type[BaseException] | None = None) -> None:
    """Every file opened for writing from now on (the writers' temporaries and devices
    are opened with os.fdopen) holds ``room`` bytes, then fails (see :class:`FullDisk`)."""
    real = os.fdopen

    def fdopen(fd, mode="r", *args, **kwargs):
        handle = real(fd, mode, *args, **kwargs)
        return FullDisk(handle, room, fault) if "w" in mode else handle

    monkeypatch.setattr(os, "fdopen", fdopen)


def test_an_atomic_write_that_fails_leaves_nothing_new(tmp_path, monkeypatch):
    """The library's writers, without the command line: a new file is not made, an
    existing one keeps its text, and no temporary is left."""
    old = tmp_path / "old.tilewe"
    old.write_text("keep me\n")
    fill_disk(monkeypatch, room=10)
    with pytest.raises(WriteError, match=NO_SPACE):
        with GameSink(str(tmp_path / "new.tilewe")) as sink:
            sink.add(game())
            sink.commit()
    with pytest.raises(WriteError, match=NO_SPACE):
        with AtomicFile(str(old)) as out:
            out.write(game())
            out.commit()
    with pytest.raises(KeyError):  # any exception in the block: the file is left alone
        with AtomicFile(str(old)) as out:
            out.write("short")
            raise KeyError("on the way")
    assert [p.name for p in tmp_path.iterdir()] == ["old.tilewe"]
    assert old.read_text() == "keep me\n"


# -- a full disk -------------------------------------------------------------------------------

OUTPUT_COMMANDS = [["cat"], ["select", "--tag", "Game=tilewe"], ["dedupe"]]


@pytest.mark.parametrize("command", OUTPUT_COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize("room", [0, 40_000], ids=["at-once", "in-the-middle"])
@pytest.mark.parametrize("existing", [False, True], ids=["new", "existing"])
def test_output_on_a_full_disk_is_one_line_and_leaves_nothing(big, tmp_path, monkeypatch,
                                                               command, room, existing):
    out = tmp_path / "out.tilewe"
    if existing:
        out.write_text("keep me\n")
    fill_disk(monkeypatch, room)
    result = invoke(*command, "-o", str(out), str(big))
    assert result.exit_code == 2
    assert lines(result.stderr) == [f"{out}: error: not written: {NO_SPACE}"]
    assert result.stdout == ""
    assert leftovers(tmp_path) == []
    assert (out.read_text() == "keep me\n") if existing else not out.exists()


@pytest.mark.parametrize("command", [["fmt", "-i"], ["convert", "-i", "--transform", "rot90"]],
                         ids=lambda c: c[0])
def test_in_place_on_a_full_disk_is_one_line_per_file_and_the_next_file_is_done(
        big, tmp_path, monkeypatch, command):
    first, second = tmp_path / "first.tilewe", tmp_path / "second.tilewe"
    first.write_text(big.read_text().replace("1. ", "1.  "))  # needs reformatting
    second.write_text('[Players "2"]\n[Game "tilewe"]\n\n1.   W5n-a1a1\n')  # so does this
    before = first.read_text()
    fill_disk(monkeypatch, 40_000)
    result = invoke(*command, str(first), str(second))
    verb = "reformatted" if command[0] == "fmt" else "converted"
    assert result.exit_code == 2
    assert lines(result.stderr) == [f"{first}: error: not {verb}: {NO_SPACE}"]
    assert lines(result.stdout) == [f"{second}: {verb}"]
    assert first.read_text() == before and leftovers(tmp_path) == []


def _limited_file_size(limit: int):
    def preexec() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return preexec


@pytest.mark.slow
@pytest.mark.parametrize("command", [
    ["cat", "-o", "{out}", "{big}"],
    ["select", "--tag", "Game=tilewe", "-o", "{out}", "{big}"],
    ["dedupe", "-o", "{out}", "{big}"],
    ["split", "--per-file", "100", "--out-dir", "{dir}", "{big}"],
    ["render", "--html", "-o", "{out}", "{one}"],
], ids=lambda c: c[0])
def test_a_real_write_failing_in_the_middle_leaves_nothing(big, tmp_path, command):
    """A file-size limit makes the write fail for real (EFBIG), as a full disk would."""
    folder = tmp_path / "out"
    folder.mkdir()
    out = folder / "out.tilewe"
    args = [a.format(out=out, big=big, dir=folder, one=GAME) for a in command]
    result = subprocess.run(notation_exe() + args, capture_output=True, text=True, timeout=HANG_BREAKER,
                            preexec_fn=_limited_file_size(30_000))
    assert result.returncode == 2, result.stderr
    [line] = lines(result.stderr)
    assert line.startswith(str(folder)) and line.endswith(": error: not written: "
                                                          "File too large"), line
    assert list(folder.iterdir()) == []


@pytest.mark.slow
def test_fmt_in_place_failing_for_real_keeps_the_file(big, tmp_path):
    path = tmp_path / "x.tilewe"
    path.write_text(big.read_text().replace("1. ", "1.  "))
    before = path.read_text()
    result = subprocess.run(notation_exe() + ["fmt", "-i", str(path)], capture_output=True,
                            text=True, timeout=HANG_BREAKER, preexec_fn=_limited_file_size(30_000))
    assert result.returncode == 2
    assert lines(result.stderr) == [f"{path}: error: not reformatted: File too large"]
    assert path.read_text() == before and leftovers(tmp_path) == []


# -- devices and standard output ---------------------------------------------------------------

def test_output_to_dev_null_dev_full_and_stdout(big, tmp_path):
    text = big.read_text()
    for command in OUTPUT_COMMANDS:
        result = invoke(*command, "-o", os.devnull, str(big))
        assert result.exit_code == 0, result.output
        assert invoke(*command, "-o", "-", str(big)).stdout == text
    svg = invoke("render", "-o", os.devnull, str(big))
    assert svg.exit_code == 0 and svg.stdout == ""
    if os.path.exists("/dev/full"):  # a real full device
        result = invoke("cat", "-o", "/dev/full", str(big))
        assert result.exit_code == 2
        assert lines(result.stderr) == [f"/dev/full: error: not written: {NO_SPACE}"]


def test_output_that_cannot_be_opened_is_one_line_and_reads_nothing(big, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    for target, reason in ((blocker / "no" / "out.tilewe", "cannot make its folder: "
                                                           f"{blocker} is not a folder"),
                           (tmp_path, "a folder, not a file (name a file in it)")):
        result = invoke("cat", "-o", str(target), str(big))
        assert result.exit_code == 2
        assert lines(result.stderr) == [f"{target}: error: not written: {reason}"]
    assert leftovers(tmp_path) == [] and sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]


def test_a_new_output_file_gets_the_mode_a_shell_would_give(big, tmp_path):
    out = tmp_path / "out.tilewe"
    old = os.umask(0o027)
    try:
        assert invoke("cat", "-o", str(out), str(big)).exit_code == 0
    finally:
        os.umask(old)
    assert out.stat().st_mode & 0o777 == 0o640 and out.read_text() == big.read_text()


# -- interrupted writes ------------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    ["cat", "-o", "{out}", "{big}"],
    ["select", "--tag", "Game=tilewe", "-o", "{out}", "{big}"],
    ["dedupe", "-o", "{out}", "{big}"],
    ["split", "--per-file", "20", "--out-dir", "{dir}", "{big}"],
    ["split", "--by-tag", "Seed", "--out-dir", "{dir}", "{big}"],
    ["render", "--html", "-o", "{out}", "{one}"],
    ["fmt", "-i", "{copy}"],
    ["convert", "-i", "--transform", "rot90", "{copy}"],
], ids=lambda c: "-".join(c[:2]))
@pytest.mark.parametrize("fault", [KeyboardInterrupt, SystemExit])
def test_an_exception_while_writing_leaves_no_temporary(big, tmp_path, monkeypatch,
                                                          command, fault):
    """KeyboardInterrupt is what Ctrl-C and SIGTERM raise; SystemExit, any other ending."""
    copy = tmp_path / "copy.tilewe"
    copy.write_text(big.read_text().replace("1. ", "1.  "))
    before = sorted(tmp_path.iterdir())
    args = [a.format(out=tmp_path / "out.tilewe", big=big, dir=tmp_path, copy=copy, one=GAME)
            for a in command]
    fill_disk(monkeypatch, 10_000, fault)
    with pytest.raises(SystemExit):
        run(args)
    assert sorted(tmp_path.iterdir()) == before and leftovers(tmp_path) == []
    assert copy.read_text() == big.read_text().replace("1. ", "1.  ")


def test_a_failed_rename_at_the_end_of_split_takes_back_the_pieces(big, tmp_path, monkeypatch):
    renamed = []
    real = os.replace

    def replace(source, target):
        if renamed:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        renamed.append(target)
        real(source, target)

    monkeypatch.setattr(os, "replace", replace)
    result = invoke("split", "--per-file", "50", "--out-dir", str(tmp_path), str(big))
    assert result.exit_code == 2 and len(renamed) == 1
    assert lines(result.stderr)[-1].endswith(f"error: not written: {os.strerror(errno.EIO)}")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [["cat", "-o", "{out}", "-"],
                                     ["split", "--by-tag", "Seed", "--out-dir", "{dir}", "-"]],
                         ids=lambda c: c[0])
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_in_the_middle_of_writing_leaves_nothing(big, tmp_path, command, signum):
    """The signal is sent once the temporary holds data, while the run waits for input."""
    folder = tmp_path / "out"
    folder.mkdir()
    args = [a.format(out=folder / "out.tilewe", dir=folder) for a in command]
    proc = subprocess.Popen(preexec_fn=interruptible, args=notation_exe() + args + ["--game", "tilewe"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdin.write(big.read_bytes())
    proc.stdin.flush()
    while not any(p.stat().st_size for p in folder.glob(".notation-*.tmp")):
        assert proc.poll() is None
        time.sleep(0.02)
    proc.send_signal(signum)
    _out, err = proc.communicate(timeout=HANG_BREAKER)
    assert proc.returncode == {signal.SIGINT: 130, signal.SIGTERM: 143}[signum], err
    assert list(folder.iterdir()) == []


# -- fmt -i on read-only files -----------------------------------------------------------------

def test_fmt_in_place_of_a_read_only_file_already_formatted_is_not_an_error(tmp_path):
    path = tmp_path / "ro.tilewe"
    path.write_text(invoke("fmt", str(GAME)).stdout)
    path.chmod(0o444)
    stamp = path.stat().st_mtime_ns
    result = invoke("fmt", "-i", str(path))
    assert (result.exit_code, result.output) == (0, "")
    assert path.stat().st_mtime_ns == stamp and leftovers(tmp_path) == []
    unformatted = tmp_path / "ro2.tilewe"
    unformatted.write_text(path.read_text().replace("1. ", "1.  "))
    unformatted.chmod(0o444)
    result = invoke("fmt", "-i", str(unformatted))
    assert result.exit_code == 2
    assert lines(result.stderr) == [f"{unformatted}: error: not reformatted: the file is "
                                    f"read-only (make it writable first)"]
    assert leftovers(tmp_path) == []


# -- split: any number of values, safe names ---------------------------------------------------

def _limited_open_files(limit: int):
    def preexec() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))
    return preexec


@pytest.mark.slow
def test_split_by_tag_into_3000_files_under_256_open_files(tmp_path):
    games = [game(f'[Who "v{i}"]\n') for i in range(3000)]
    path = tmp_path / "many.tilewe"
    path.write_text("\n".join(games))
    out = tmp_path / "out"
    out.mkdir()
    result = subprocess.run(notation_exe() + ["split", "--by-tag", "Who", "--out-dir", str(out),
                                              str(path)],
                            capture_output=True, text=True, timeout=HANG_BREAKER,
                            preexec_fn=_limited_open_files(256))
    assert result.returncode == 0, result.stderr
    assert result.stderr == "3,000 games into 3,000 files\n"
    assert len(list(out.iterdir())) == 3000
    assert sorted(games_of(invoke("cat", str(out)).stdout)) == sorted(games)
    assert (out / "many-v2999.tilewe").read_text() == games[2999]


ODD_VALUES = ["a/b", "..", ".", "", "A", "a", "a b", "a_b", "x" * 1000, "none", "a+b",
              "\u00e9t\u00e9", "v" * 100, "v" * 101, "../../etc", "nul\\x00"]


def test_split_gives_odd_values_distinct_safe_names(tmp_path):
    games = [game(f'[Who "{value}"]\n') for value in ODD_VALUES] + [game()]  # one without
    path = tmp_path / "odd.tilewe"
    path.write_text("\n".join(games))
    out = tmp_path / "out"
    out.mkdir()
    result = invoke("split", "--by-tag", "Who", "--out-dir", str(out), str(path))
    assert result.exit_code == 0, result.output
    files = {p.name: p.read_text() for p in out.iterdir()}
    assert len(files) == len(ODD_VALUES)  # the empty value and the missing tag share one
    for name, text in files.items():
        assert name.startswith("odd-") and name.endswith(".tilewe") and len(name) < 150
        assert "/" not in name and name.isascii() and name.isprintable()
    for plain in ("..", ".", "A", "a_b", "none", "v" * 100):
        assert f'[Who "{plain}"]' in files[f"odd-{plain}.tilewe"]
    for value in ("a/b", "a", "a b", "x" * 1000, "a+b", "v" * 101, "../../etc"):
        digest = hashlib.sha256(value.encode()).hexdigest()[:16]
        name = f"odd-{split.UNSAFE_RUN.sub('_', value)[:100]}+{digest}.tilewe"
        assert f'[Who "{value}"]' in files[name], name
    empty = f"odd-none+{hashlib.sha256(b'').hexdigest()[:16]}.tilewe"
    assert files[empty].count("[Game") == 2


def test_piece_names_never_collide_even_past_the_short_hash():
    digest = hashlib.sha256(b"a").hexdigest()
    taken: dict[str, str] = {}
    assert [split.piece_name(v, taken) for v in ("A", "a", "B")] == ["A", f"a+{digest[:16]}",
                                                                        "B"]
    clash = {"a": "A", f"a+{digest[:16]}": "a value whose short hash is a's"}
    assert split.piece_name("a", clash) == f"a+{digest}"


def test_split_refuses_an_existing_piece_in_one_line_and_writes_nothing(tmp_path):
    path = tmp_path / "in.tilewe"
    path.write_text("\n".join(game(f'[Who "{v}"]\n') for v in ("p", "q", "r")))
    (tmp_path / "in-q.tilewe").write_text("mine\n")
    result = invoke("split", "--by-tag", "Who", "--out-dir", str(tmp_path), str(path))
    assert result.exit_code == 2
    assert lines(result.stderr) == [f"{tmp_path / 'in-q.tilewe'}: error: not written: the file "
                                    f"exists (split never overwrites; remove it first)"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in-q.tilewe", "in.tilewe"]
    assert (tmp_path / "in-q.tilewe").read_text() == "mine\n"


# -- output folders ----------------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    ["split", "--per-file", "60", "--out-dir", "{dir}", "{big}"],
    ["cat", "-o", "{dir}/all.tilewe", "{big}"],
    ["random", "tilewe", "--seed", "3", "--count", "2", "-o", "{dir}/random.tilewe"],
    ["convert", "--to", "blksgf", "--split", "--out-dir", "{dir}", "{blokus}"],
], ids=lambda c: c[0])
def test_every_writer_makes_the_folder_it_writes_in_and_takes_it_back_on_failure(
        big, tmp_path, monkeypatch, command):
    """A folder that is not there is made, as export -o makes its own; a run that writes
    nothing leaves no folder behind either."""
    blokus = tmp_path / "blokus.tilewe"
    blokus.write_text(invoke("random", "tilewe", "--corners", "fixed", "--scoring", "blokus",
                             "--seed", "1", "--count", "2").stdout)
    folder = tmp_path / "new" / "deeper"
    args = [a.format(dir=folder, big=big, blokus=blokus) for a in command]
    made = invoke(*args)
    assert made.exit_code == 0, made.output
    assert folder.is_dir() and list(folder.iterdir()) and leftovers(folder) == []
    other = tmp_path / "other" / "deeper"
    fill_disk(monkeypatch, room=10)
    failed = invoke(*[a.format(dir=other, big=big, blokus=blokus) for a in command])
    assert failed.exit_code == 2 and NO_SPACE in failed.stderr, failed.output
    assert not (tmp_path / "other").exists()


def test_random_writes_its_games_to_o_as_it_prints_them(tmp_path):
    out = tmp_path / "games" / "r.tilewe"
    args = ["random", "flows", "--seed", "5", "--count", "3"]
    result = invoke(*args, "-o", str(out))
    assert result.exit_code == 0 and result.output == ""
    assert out.read_text() == invoke(*args).stdout


def test_convert_split_writes_one_file_a_game_and_never_overwrites(tmp_path):
    archive = tmp_path / "club.tilewe"
    archive.write_text(invoke("random", "tilewe", "--corners", "fixed", "--scoring", "blokus",
                              "--seed", "6", "--count", "3").stdout)
    folder = tmp_path / "pentobi"
    result = invoke("convert", "--to", "blksgf", "--split", "--out-dir", str(folder),
                    str(archive))
    assert result.exit_code == 0 and result.stdout == f"{archive}: converted into 3 files\n"
    every = invoke("convert", "--to", "blksgf", str(archive)).stdout.splitlines(keepends=True)
    names = [f"club-{n:04d}.blksgf" for n in (1, 2, 3)]
    assert sorted(p.name for p in folder.iterdir()) == names
    assert [(folder / name).read_text() for name in names] == every
    for name in names:  # each reads back as the game it was
        assert notation.run(notation.load(folder / name)[0]).valid
    (folder / names[0]).unlink()
    again = invoke("convert", "--to", "blksgf", "--split", "--out-dir", str(folder),
                   "--index", "2", str(archive))
    assert again.exit_code == 2 and "the file exists" in again.stderr
    assert sorted(p.name for p in folder.iterdir()) == names[1:]
    assert invoke("convert", "--out-dir", str(folder), str(archive)).exit_code == 2


# -- file names in output ----------------------------------------------------------------------

def test_a_file_name_with_a_line_break_stays_on_its_line(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    text = GAME.read_text()
    (folder / "a\nb.tilewe").write_text(text)
    (folder / "c.tilewe").write_text(text)  # a duplicate of the first
    shown = f"{folder}/a\\x0ab.tilewe"
    tags = invoke("tags", str(folder))
    assert len(lines(tags.stdout)) == 2 and lines(tags.stdout)[0].startswith(f"{shown}:1: ")
    assert len(lines(invoke("select", "--json", str(folder)).stdout)) == 2
    assert lines(invoke("select", "--count", str(folder)).stdout) == ["2"]
    report = invoke("dedupe", "--report", "-o", os.devnull, str(folder))
    assert lines(report.stderr) == [f"{folder}/c.tilewe:1: duplicate of {shown}:1",
                                    "1 duplicate dropped, 1 distinct game kept"]
    assert len(lines(invoke("stats", str(folder)).stdout)) == len(lines(
        invoke("stats", str(folder / "c.tilewe"), str(folder / "c.tilewe")).stdout))
    (tmp_path / "x\ny").write_text("")  # a file where the output's folder would be
    bad = tmp_path / "x\ny" / "out.tilewe"
    failed = invoke("cat", "-o", str(bad), str(folder))
    assert len(lines(failed.stderr)) == 1 and "x\\x0ay" in failed.stderr
    pieces = tmp_path / "pieces"
    pieces.mkdir()
    assert invoke("split", "--per-file", "1", "--out-dir", str(pieces),
                  str(folder / "a\nb.tilewe")).exit_code == 0
    again = invoke("split", "--per-file", "1", "--out-dir", str(pieces),
                   str(folder / "a\nb.tilewe"))
    assert again.exit_code == 2 and len(lines(again.stderr)) == 1
    assert "a\\x0ab-0001.tilewe: error: not written: the file exists" in again.stderr
    formatted = tmp_path / "f\nf.tilewe"
    formatted.write_text(text.replace("1. ", "1.  "))
    result = invoke("fmt", "-i", str(formatted))
    assert lines(result.stdout) == [f"{tmp_path}/f\\x0af.tilewe: reformatted"]


def test_pieces_of_standard_input_are_named_stdin_with_their_games_extension(tmp_path):
    """Standard input has no name: its pieces were ``<stdin>-0001.blksgf`` (convert) and
    ``stdin-0001`` with no extension (split)."""
    games = invoke("random", "tilewe", "--corners", "fixed", "--scoring", "blokus",
                   "--count", "2", "--seed", "1").stdout
    converted = invoke("convert", "--to", "blksgf", "--split", "--out-dir",
                       str(tmp_path / "c"), "--game", "tilewe", "-", input=games)
    assert converted.exit_code == 0, converted.output
    assert sorted(p.name for p in (tmp_path / "c").iterdir()) == [
        "stdin-0001.blksgf", "stdin-0002.blksgf"]
    assert invoke("convert", "--transform", "rot90", "--split", "--out-dir",
                  str(tmp_path / "n"), "-", input=games).exit_code == 0
    assert sorted(p.name for p in (tmp_path / "n").iterdir()) == [
        "stdin-0001.tilewe", "stdin-0002.tilewe"]
    assert invoke("split", "--per-file", "1", "--out-dir", str(tmp_path / "s"), "-",
                  input=games).exit_code == 0
    assert sorted(p.name for p in (tmp_path / "s").iterdir()) == [
        "stdin-0001.tilewe", "stdin-0002.tilewe"]


def test_o_takes_what_the_command_prints_reports_and_counts_too(tmp_path):
    """``-o`` was ignored by ``dedupe --json`` and ``select --count``/``--json``: nothing
    written, exit 0. It takes whatever the command prints."""
    archive = str(SAMPLES / "tilewe")
    for args in (["dedupe", "--json"], ["select", "--count"], ["select", "--count", "--json"],
                 ["select", "--json", "--valid"], ["select", "--valid"], ["dedupe"]):
        out = tmp_path / ("-".join(a.strip("-") for a in args) + ".out")
        printed = invoke(*args, archive)
        written = invoke(*args, "-o", str(out), archive)
        assert written.exit_code == printed.exit_code == 0, written.output
        assert written.stdout == "" and out.read_text() == printed.stdout, args


def test_o_of_a_folder_or_of_nothing_is_one_line_saying_so(tmp_path):
    for args in (["random", "tilewe"], ["cat", str(SAMPLES / "tilewe" / "tw-sample-1.tilewe")]):
        folder = invoke(*args, "-o", str(tmp_path))
        assert folder.exit_code == 2 and folder.stderr.splitlines() == [
            f"{tmp_path}: error: not written: a folder, not a file (name a file in it)"]
        empty = invoke(*args, "-o", "")
        assert empty.exit_code == 2 and empty.stderr.splitlines()[-1].endswith(
            "error: not written: an empty path names no file")


# -- in-place writes -----------------------------------------------------------------------

def _unformatted(tmp_path: Path, name: str = "x.tilewe") -> Path:
    return write(tmp_path, name, '[Players "2"]\n[Game "tilewe"]\n\n1.   W5n-a1a1\n')


def test_in_place_writes_through_a_symlink_keeping_the_mode(tmp_path):
    target = _unformatted(tmp_path)
    target.chmod(0o640)
    link = tmp_path / "link.tilewe"
    link.symlink_to(target)
    result = run_cli("fmt", "-i", str(link))
    assert result.returncode == 0
    assert link.is_symlink() and target.read_text().startswith('[Game "tilewe"]')
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert not list(tmp_path.glob(".notation-*"))


def test_in_place_refuses_read_only_and_hard_linked_files(tmp_path):
    ro = _unformatted(tmp_path, "ro.tilewe")
    ro.chmod(0o444)
    linked = _unformatted(tmp_path, "hl.tilewe")
    os.link(linked, tmp_path / "other-name.tilewe")
    before = {p: p.read_text() for p in (ro, linked)}
    result = run_cli("fmt", "-i", str(ro), str(linked))
    assert result.returncode == 2
    assert "ro.tilewe: error: not reformatted: the file is read-only" in result.stderr
    assert "hl.tilewe: error: not reformatted: the file has 2 hard links" in result.stderr
    assert all(p.read_text() == text for p, text in before.items())
    assert not list(tmp_path.glob(".notation-*"))


def test_in_place_failure_leaves_the_file_and_no_temporary(tmp_path, monkeypatch):
    from notation.save import files as output
    path = _unformatted(tmp_path)
    before = path.read_text()

    def full_disk(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(output.os, "fsync", full_disk)
    with pytest.raises(output.WriteError, match="No space left"):
        output.write_atomically(str(path), "new text", "utf-8")
    assert path.read_text() == before and not list(tmp_path.glob(".notation-*"))


def test_in_place_into_a_folder_it_cannot_write(tmp_path, monkeypatch):
    # Root writes into read-only folders, so the refusal is simulated where it happens.
    from notation.save import files as output
    path = _unformatted(tmp_path)

    def refused(**kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(output.tempfile, "mkstemp", refused)
    with pytest.raises(output.WriteError, match="cannot create a temporary file beside it"):
        output.write_atomically(str(path), "new", "utf-8")


# -- pipes and full or closed output -------------------------------------------------------

def test_broken_pipe_is_quiet():
    proc = subprocess.Popen(notation_exe() + ["random", "tilewe", "--count", "100000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=HANG_BREAKER) == 141 and err == ""


@pytest.mark.slow
def test_full_output_and_closed_output(tmp_path):
    path = write(tmp_path, "x.tilewe", TILEWE + "1. W5n-a1a1\n")
    with open("/dev/full", "w") as full:
        result = subprocess.run(notation_exe() + ["validate", str(path)], stdout=full,
                                stderr=subprocess.PIPE, text=True, timeout=HANG_BREAKER)
    assert result.returncode == 2
    assert result.stderr == "notation: error: cannot write to standard output: No space left on device\n"
    result = subprocess.run(notation_exe() + ["validate", str(path)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, timeout=HANG_BREAKER,
                            preexec_fn=lambda: os.close(1))
    assert result.returncode == 0 and "standard output is closed" in result.stderr
    no_traceback(result)


# -- file names in what commands print -----------------------------------------------------

@pytest.mark.slow
def test_no_file_name_can_forge_a_line_of_output(tmp_path):
    """A crafted name (a line break in it) once printed raw by validate, replay and legal."""
    folder = tmp_path / "in"
    folder.mkdir()
    forged = folder / "a\nb.tilewe"
    forged.write_text((SAMPLES / "tilewe" / "tw-sample-2.tilewe").read_text())
    empty = folder / "c\nd.tilewe"
    empty.write_text("")
    for command, lines in ((["validate"], 1), (["replay"], None), (["legal"], None)):
        target = str(folder) if command == ["validate"] else str(forged)
        result = run_cli(*command, target)
        assert "a\\x0ab.tilewe" in result.stdout, (command, result.stdout[:200])
        assert "\na\n" not in result.stdout and not result.stdout.startswith("b.tilewe")
        if lines is not None:
            assert result.stdout.count("\n") == lines, result.stdout
            assert result.stderr == "in/c\\x0ad.tilewe: warning: no games\n".replace(
                "in/", str(folder) + "/")
