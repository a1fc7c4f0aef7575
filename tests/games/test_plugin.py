"""A third-party game, installed as its own package, is found through the entry point.

``tests/games/plugin_game`` is Tally: a package of its own (its pyproject, its
grammar, its spec and the two parts every game has, rules and notation) that
announces itself in the ``notation.games`` entry-point group, the way the five
built-in games do. It is installed with pip into a folder put on the path of the
commands below; nothing in notation names it. It has none of the optional
capabilities, so a command that needs one says so.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import HANG_BREAKER, ROOT

pytestmark = pytest.mark.install

GAMES = ('[Game "tally"]\n[Goal "5"]\n\n1. +2 2. +2 3. +1\n\n'
         '[Game "tally"]\n[Goal "4"]\n\n1. +2 2. +2\n\n'
         '[Game "tally"]\n\n1. +2 2. +2 3. +2 4. +2 5. +2\n')


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("site")
    source = tmp_path_factory.mktemp("source") / "plugin_game"  # pip builds in its source:
    shutil.copytree(ROOT / "tests" / "games" / "plugin_game", source)     # not in the repository
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                           "--disable-pip-version-check", "--target", str(target), str(source)],
                          capture_output=True, text=True, timeout=HANG_BREAKER)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return target


def notation(installed: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(installed)}
    return subprocess.run([sys.executable, "-m", "notation", *args], capture_output=True,
                          text=True, timeout=HANG_BREAKER, env=env, cwd=cwd)


@pytest.fixture
def archive(tmp_path) -> Path:
    path = tmp_path / "games.tally"
    path.write_text(GAMES)
    return path


def test_without_the_package_notation_does_not_know_the_game(archive):
    result = subprocess.run([sys.executable, "-m", "notation", "validate", str(archive)],
                            capture_output=True, text=True, timeout=HANG_BREAKER)
    assert result.returncode == 1 and "unknown game 'tally'" in result.stderr + result.stdout


def test_the_game_is_listed_with_its_extension(installed):
    result = notation(installed, "games")
    assert result.returncode == 0 and "tally  (.tally)" in result.stdout


def test_validate_reads_checks_and_reports_by_the_plugins_rules(installed, archive):
    result = notation(installed, "validate", str(archive))
    assert result.returncode == 0, result.stderr
    assert "3 games: 3 valid, 0 invalid; 10 plies" in result.stderr + result.stdout
    bad = archive.with_name("bad.tally")  # no [Game] tag: the extension says tally
    bad.write_text("1. +2 2. +2 3. +2 4. +2 5. +2 6. +2\n")
    result = notation(installed, "validate", str(bad))
    assert result.returncode == 1
    assert f"{bad}:1:34: error: game 1, ply 6 (+2): the game is over [rule: game over]" \
        in result.stdout
    bad.write_text('[Goal "5"]\n1. +2 2. +2 3. +2\n')
    result = notation(installed, "validate", str(bad))
    assert f"{bad}:2:16: error: game 1, ply 3 (+2): 4 + 2 passes 5 [rule: no overshoot]" \
        in result.stdout


def test_replay_json_follows_the_contract(installed, archive):
    result = notation(installed, "replay", "--json", str(archive))
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["index"], r["valid"], r["plies"]) for r in rows] == [(1, True, 3), (2, True, 2),
                                                                    (3, True, 5)]
    assert rows[0]["state"] == {"position": "5/5/3"}  # no report of its own: the default
    assert rows[0]["result"] == {"over": True, "winners": ["A"]}


def test_fmt_writes_the_canonical_form(installed, tmp_path):
    path = tmp_path / "loose.tally"
    path.write_text('[Goal "5"]\n[Game "tally"]\n+2    +2\n\n  +1\n')
    result = notation(installed, "fmt", str(path))
    assert result.returncode == 0, result.stderr
    assert result.stdout == '[Game "tally"]\n[Goal "5"]\n\n1. +2 2. +2 3. +1\n'


def test_select_filters_by_the_games_own_words(installed, archive):
    result = notation(installed, "select", "--winner", "A", str(archive))
    assert result.returncode == 0, result.stderr
    assert result.stdout.count('[Game "tally"]') == 2  # games 1 and 3 (B won game 2)
    assert '[Goal "4"]' not in result.stdout
    counted = notation(installed, "select", "--count", "--plies", "5:9", str(archive))
    assert counted.stdout.strip() == "1"


def test_the_games_own_option_is_offered_by_the_command_it_names(installed):
    helped = notation(installed, "random", "--help")
    assert "--goal INTEGER RANGE" in helped.stdout and "Tally: the total that wins" in helped.stdout
    result = notation(installed, "random", "tally", "--goal", "4", "--seed", "3")
    assert result.returncode == 0 and '[Goal "4"]' in result.stdout
    assert notation(installed, "random", "tally", "--goal", "1").returncode == 2


@pytest.mark.parametrize("command, feature, capability", [
    (("replay",), "replay", "Pictures"),
    (("replay", "--every"), "replay --every", "Pictures"),
    (("render",), "render", "Pictures"),
    (("render", "--html"), "render --html", "Pictures"),
    (("explore", "--html"), "explore --html", "Pictures"),
    (("convert",), "convert", "Conversion"),
    (("coords", "--game", "tally", "--to", "P1"), "coords", "Coordinates"),
    (("dedupe", "--symmetric"), "dedupe --symmetric", "Symmetries"),
    (("select", "--players", "2"), "select --players", "Scores"),
])
def test_a_command_needing_a_missing_capability_says_which_in_one_line(
        installed, archive, command, feature, capability):
    given = "1" if command[0] == "coords" else str(archive)
    result = notation(installed, *command, given)
    assert result.returncode == 2, result.stderr
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"notation {command[0]}: error: tally has no "), line
    assert f"; {feature} needs the {capability} capability (" in line, line
    assert result.stdout == ""
