"""The examples in examples/ run as a user would run them, and do what they say."""
from __future__ import annotations

import subprocess
import sys

import pytest

import notation

from conftest import HANG_BREAKER, ROOT, run_cli

EXAMPLES = ROOT / "examples"


def run_example(name: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(EXAMPLES / name), *arguments],
                          capture_output=True, text=True, timeout=HANG_BREAKER)


def test_the_bot_loop_plays_a_whole_valid_game():
    done = run_example("bot_loop.py", "5")
    assert done.returncode == 0, done.stderr
    summary, record = done.stdout.split("\n", 1)
    (game,) = notation.parse(record, "tilewe")
    outcome = notation.run(game)
    assert outcome.valid and game.headers["Seed"] == "5"
    assert outcome.game.is_over(outcome.state)
    assert summary.startswith(f"{outcome.plies} moves; winners: ")


@pytest.mark.slow
def test_the_tournament_writes_a_validated_archive_with_results(tmp_path):
    archive = tmp_path / "round-robin.tilewe"
    done = run_example("tournament.py", str(archive), "4", "9")
    assert done.returncode == 0, done.stderr
    assert "4 games written" in done.stdout
    checked = run_cli("validate", str(archive))
    assert checked.returncode == 0 and "4 games: 4 valid, 0 invalid" in checked.stderr
    for record in notation.read_headers(archive):
        assert record.headers["Result"] != "*" and record.headers["Scores"]
        assert {record.headers["Blue"], record.headers["Yellow"]} == {"random", "big-first"}
    assert not [p for p in tmp_path.iterdir() if p != archive]  # no temporary left behind
