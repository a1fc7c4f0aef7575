"""Trust, round 3: regressions a hostile and a new user found (each failed before its fix)."""
from __future__ import annotations

import io
import shutil
import sys
import subprocess
from pathlib import Path

import pytest

import notation
from notation.core.reading import source_records

from conftest import HANG_BREAKER, ROOT, SAMPLES, run_cli

SAMPLE_OF = {"tilewe": "tilewe/tw-sample-1.tilewe", "flows": "flows/flows-090.flows",
             "philosophy": "philosophy/phil-0009.philosophy",
             "sanguine": "sanguine/random-5x7.sanguine", "nomic": "nomic/example-1.nomic"}


@pytest.mark.parametrize("game", sorted(SAMPLE_OF))
@pytest.mark.parametrize("how", ["checked", "headers"])
def test_a_fast_read_record_never_pretends_to_have_no_events(game, how):
    """``read_games(checked=True)`` once gave records whose replay failed falsely and whose
    ``notation.format`` dropped every move."""
    path = SAMPLES / SAMPLE_OF[game]
    full = notation.load(path)[0]
    fast = next(source_records(str(path), **{how: True}))
    assert fast.unread  # it did take the fast reading
    assert fast.events == full.events and len(fast.events) > 0
    assert [(s.ply, s.event) for s in notation.replay(fast)] == [(s.ply, s.event) for s in notation.replay(full)]
    assert notation.format(fast) == notation.format(full)
    assert notation.run(fast).valid and notation.run(fast, until=2).plies == 2
    assert fast.items == full.items and fast.tags == full.tags


def test_a_fast_read_record_keeps_file_positions():
    text = ('[Game "tilewe"]\n[Players "2"]\n\n1. W5n-a1a1 2. I2n-a1t1\n\n'
            '[Game "tilewe"]\n[Players "2"]\n\n1. W5n-a1a1 2. I2n-a1t1 3. F5e-a2d4\n')
    second = list(source_records(io.StringIO(text), checked=True))[1]
    assert [item.pos.line for item in second.items] == [9, 9, 9]
    assert second.tags[0].pos.line == 6


# -- small things a user hit ------------------------------------------------------------------

def test_quiet_prints_only_problems(tmp_path):
    result = run_cli("validate", "-q", str(SAMPLES / "tilewe"))
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    bad = tmp_path / "bad.tilewe"
    bad.write_text('[Game "tilewe"]\n[Players "2"]\n\n1. Q5n-a1a1\n')
    result = run_cli("validate", "-q", str(SAMPLES / "tilewe"), str(bad))
    assert result.returncode == 1 and result.stderr == ""
    assert result.stdout.count("\n") == 1 and "error:" in result.stdout


def test_flows_counts_plies_as_every_other_game():
    """The board said "move 11" beside the viewer's "ply 10 of 34"."""
    result = run_cli("replay", "--ply", "6", str(SAMPLES / "flows" / "flows-090.flows"))
    assert result.stdout.rstrip().endswith("ply 6, P1 to move; bag T0x7 T1x9 T2x9 T3x9")
    result = run_cli("replay", str(SAMPLES / "flows" / "flows-090.flows"))
    assert "game over after 34 plies: flow, won by P2" in result.stdout


# -- make test on a fresh machine ---------------------------------------------------------------

def _bare_path(tmp_path: Path, uid: str) -> Path:
    """A PATH with bash and the few tools the script uses, no chromium, pentobi or sudo."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for tool in ("bash", "cat"):
        (folder / tool).symlink_to(shutil.which(tool))
    (folder / "id").write_text(f"#!{shutil.which('bash')}\necho {uid}\n")
    (folder / "id").chmod(0o755)
    return folder


def test_make_test_says_which_packages_it_needs_when_it_cannot_install_them(tmp_path):
    folder = _bare_path(tmp_path, "1000")
    result = subprocess.run([str(folder / "bash"), str(ROOT / ".ci" / "system-packages")],
                            env={"PATH": str(folder)}, capture_output=True, text=True,
                            timeout=HANG_BREAKER)
    missing = "chromium chromium-driver" + (
        "" if Path("/usr/games/pentobi-thumbnailer").exists() else " pentobi")
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr == (f"make test: the suite needs Debian's {missing}: run 'sudo "
                             f"apt-get install {missing}', then make test again\n")


def test_make_test_checks_the_system_packages_before_running_anything():
    result = subprocess.run(["make", "-n", "test"], cwd=ROOT, capture_output=True, text=True,
                            timeout=HANG_BREAKER)
    lines = [line for line in result.stdout.splitlines() if "pytest" in line or
             "system-packages" in line]
    assert "system-packages" in lines[0] and "pytest" in lines[-1], result.stdout
    run = (ROOT / ".ci" / "run").read_text()
    assert "make test" in run and "apt-get" not in run  # one way in, the README's


def test_a_wrong_score_tag_of_an_unfinished_game_does_not_say_it_ended():
    record = notation.parse('[Game "tilewe"]\n[Players "2"]\n[Scores "7 1"]\n\n1. W5n-a1a1\n',
                            "tilewe")[0]
    message = notation.run(record).error.message
    assert message == '[Scores "7 1"] but the record stops before the game is over (expected "5 0")'


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


def test_random_sanguine_plays_the_bundled_decks(tmp_path):
    """samples/ (with its decks) ships in the wheel; random sanguine needs no deck files."""
    made = run_cli("random", "sanguine", "--seed", "3", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    path = tmp_path / "g.sanguine"
    path.write_text(made.stdout)
    assert run_cli("validate", str(path)).returncode == 0
    named = run_cli("random", "sanguine", "--seed", "3", "--red", "legion", "--blue", "legion",
                    cwd=tmp_path)
    assert named.stdout == made.stdout
    missing = run_cli("random", "sanguine", "--red", "nosuch", cwd=tmp_path)
    assert missing.returncode == 2 and "nosuch" in missing.stderr


def test_a_small_piped_record_is_checked_without_starting_workers():
    """A pipe's size is unknown: it took a pool (0.2 s) for every small record before. A
    pool is sized by the batches it will be given, so even ``--jobs 2`` starts none for
    one batch; a pipe of several batches does start workers."""
    import os
    from notation.core.batch import TARGET
    text = (SAMPLES / "tilewe" / "tw-sample-1.tilewe").read_text()
    env = dict(os.environ, NOTATION_TEST_WORKER_FAULT="exit")  # a worker would die at once
    command = [str(Path(sys.executable).with_name("notation")), "validate", "-"]
    quiet = subprocess.run(command, input=text, capture_output=True, text=True, env=env,
                           timeout=HANG_BREAKER)
    assert quiet.returncode == 0 and ": ok, 58 plies" in quiet.stdout
    asked = subprocess.run(command[:2] + ["--jobs", "2", "-"], input=text, capture_output=True,
                           text=True, env=env, timeout=HANG_BREAKER)
    assert asked.returncode == 0 and ": ok, 58 plies" in asked.stdout
    several = (text + "\n") * (3 * TARGET // len(text) + 1)
    pooled = subprocess.run(command[:2] + ["--jobs", "2", "-"], input=several,
                            capture_output=True, text=True, env=env, timeout=HANG_BREAKER)
    if len(os.sched_getaffinity(0)) > 1:  # (one core: never a pool)
        assert pooled.returncode == 2 and "worker process stopped" in pooled.stderr
