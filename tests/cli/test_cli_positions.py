"""The command line a bot author asked for: ``legal --json``, ``legal --count`` as a number,
``--index K`` on ``legal``, ``replay`` and ``diff``, and ``random --jobs N``.

Every answer is checked against the library's own view of the same position.
"""
from __future__ import annotations

import json
import os
import pty
import subprocess

import pytest

import notation

from conftest import HANG_BREAKER, SAMPLES, invoke, notation_exe, run_cli

#: A file of several games for each game, and a ply inside every game of it.
ARCHIVES = {
    "tilewe": (SAMPLES / "tilewe" / "random-4p-three-games.tilewe", 9),
    "flows": (SAMPLES / "flows" / "random-3p-two-games.flows", 7),
    "philosophy": (SAMPLES / "philosophy" / "random-4p-two-games.philosophy", 6),
    "nomic": (SAMPLES / "nomic" / "random-3p-two-games.nomic", 5),
    "sanguine": (SAMPLES / "sanguine" / "example-1.sanguine", 3),
}
TILEWE = '[Game "tilewe"]\n[Players "2"]\n\n'


def library_view(path, ply: int | None, **options):
    """``(to_move, over, position, moves as text)`` of every game of ``path`` after ``ply``."""
    views = []
    for record in notation.load(path):
        outcome = notation.run(record, ply)
        game, state = outcome.game, outcome.state
        moves = [game.format_event(m) for m in game.legal_moves(state, **options)]
        views.append((game.to_move(state), game.is_over(state), game.position(state), moves))
    return views


def json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


# -- legal --json --------------------------------------------------------------------------

@pytest.mark.parametrize("game", sorted(ARCHIVES))
def test_legal_json_is_the_library_position_and_its_moves_in_order(game):
    path, ply = ARCHIVES[game]
    result = invoke("legal", "--json", "--ply", str(ply), str(path))
    assert result.exit_code == 0, result.output
    objects = json_lines(result.stdout)
    views = library_view(path, ply)
    assert len(objects) == len(views) >= 1
    for number, (data, (to_move, over, position, moves)) in enumerate(zip(objects, views), 1):
        assert (data["file"], data["index"], data["game"], data["ply"]) == (str(path), number,
                                                                          game, ply)
        assert data["valid"] and data["errors"] == []
        assert data["to_move"] == to_move and isinstance(to_move, str)
        assert data["over"] is over is False and data["position"] == position
        assert data["moves"] == moves and data["count"] == len(moves) > 0


def test_legal_json_at_the_end_of_a_game_has_no_mover_and_no_moves():
    path = SAMPLES / "tilewe" / "tw-sample-4.tilewe"
    [data] = json_lines(invoke("legal", "--json", str(path)).stdout)
    assert data["over"] is True and data["to_move"] is None
    assert data["moves"] == [] and data["count"] == 0
    assert data["ply"] == notation.run(notation.load(path)[0]).plies


def test_legal_json_keeps_the_game_options():
    path, ply = SAMPLES / "flows" / "flows-000.flows", 30
    [data] = json_lines(invoke("legal", "--json", "--ply", str(ply), "--tile", "2",
                               str(path)).stdout)
    [(_who, _over, _position, moves)] = library_view(path, ply, tile=2)
    [(_who, _over, _position, every)] = library_view(path, ply)
    assert data["moves"] == moves and data["count"] == 36 and len(every) > 36


def test_legal_json_with_count_leaves_the_list_out():
    path, ply = ARCHIVES["nomic"]
    objects = json_lines(invoke("legal", "--json", "--count", "--ply", str(ply),
                                str(path)).stdout)
    views = library_view(path, ply)
    assert [o["count"] for o in objects] == [len(v[3]) for v in views]
    assert all("moves" not in o for o in objects)


def test_legal_json_says_a_games_problem_and_gives_no_position(tmp_path):
    bad = tmp_path / "bad.tilewe"
    bad.write_text(TILEWE + "1. W5n-a1a1 2. W5n-a1t1\n")
    result = invoke("legal", "--json", str(bad))
    assert result.exit_code == 1
    [data] = json_lines(result.stdout)
    assert data["valid"] is False and data["ply"] == 1
    [verdict] = json_lines(invoke("validate", "--json", str(bad)).stdout)
    assert data["errors"] == verdict["errors"] and len(data["errors"]) == 1
    assert data["moves"] is data["count"] is data["to_move"] is data["position"] is None
    missing = invoke("legal", "--json", str(tmp_path / "none.tilewe"))
    assert missing.exit_code == 2 and json_lines(missing.stdout)[0]["error"]["kind"] == "input"


# -- legal --count -------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["tilewe", "flows"])
def test_legal_count_is_one_bare_number_per_game(game):
    path, ply = ARCHIVES[game]
    result = invoke("legal", "--count", "--ply", str(ply), str(path))
    assert result.exit_code == 0
    assert result.stdout == "".join(f"{len(v[3])}\n" for v in library_view(path, ply))


def test_legal_count_says_a_problem_on_stderr_only(tmp_path):
    path = tmp_path / "two.tilewe"
    path.write_text(TILEWE + "1. W5n-a1a1 2. W5n-a1t1\n\n" + TILEWE + "1. W5n-a1a1\n")
    result = run_cli("legal", "--count", str(path))
    assert result.returncode == 1
    assert result.stdout.splitlines() == [str(len(library_view(path, 1)[1][3]))]
    assert "game 1, ply 2 (W5n-a1t1)" in result.stderr


# -- --index K -----------------------------------------------------------------------------

@pytest.mark.parametrize("game", sorted(g for g in ARCHIVES if g != "sanguine"))
def test_legal_index_is_that_game_alone(game):
    path, ply = ARCHIVES[game]
    every = json_lines(invoke("legal", "--json", "--ply", str(ply), str(path)).stdout)
    assert len(every) >= 2
    for k, data in enumerate(every, 1):
        result = invoke("legal", "--json", "--index", str(k), "--ply", str(ply), str(path))
        assert json_lines(result.stdout) == [data]
    text = invoke("legal", "--index", "2", "--ply", str(ply), str(path)).stdout
    assert text.startswith(f"{path}: game 2, after ply {ply}: ")
    assert invoke("legal", "--count", "--index", "2", "--ply", str(ply),
                  str(path)).stdout == f"{every[1]['count']}\n"


@pytest.mark.slow
@pytest.mark.parametrize("command", [["legal"], ["replay"], ["diff", "{path}"]])
def test_an_index_beyond_the_file_is_a_usage_error_naming_its_games(command):
    path = SAMPLES / "tilewe" / "random-4p-three-games.tilewe"
    args = [str(path) if a == "{path}" else a for a in command]
    result = run_cli(*args, "--index", "4", str(path))
    assert result.returncode == 2 and result.stdout == ""
    assert f"--index 4: {path} has 3 games" in result.stderr
    assert run_cli(*args, "--index", "3", str(path)).returncode == 0


def test_an_index_on_an_empty_file_says_it_has_no_games(tmp_path):
    empty = tmp_path / "empty.tilewe"
    empty.write_text("")
    result = run_cli("legal", "--index", "1", str(empty))
    assert result.returncode == 2 and "has 0 games" in result.stderr


def test_replay_index_is_that_game_of_each_file():
    tilewe = SAMPLES / "tilewe" / "random-4p-three-games.tilewe"
    flows = SAMPLES / "flows" / "random-3p-two-games.flows"
    every = json_lines(invoke("replay", "--json", str(tilewe), str(flows)).stdout)
    chosen = json_lines(invoke("replay", "--json", "--index", "2", str(tilewe),
                               str(flows)).stdout)
    assert chosen == [every[1], every[4]] and [c["index"] for c in chosen] == [2, 2]
    drawn = invoke("replay", "--index", "3", "--ply", "4", str(tilewe)).stdout
    assert drawn.startswith(f"{tilewe}: game 3 (tilewe)\nafter ply 4:")
    assert ": game 1 " not in drawn and ": game 2 " not in drawn
    every_ply = json_lines(invoke("replay", "--json", "--every", "--index", "2",
                                  str(flows)).stdout)
    assert len(every_ply) == 1 and every_ply[0]["index"] == 2
    assert len(every_ply[0]["every"]) == every[4]["plies"] + 1


@pytest.mark.slow
def test_diff_index_compares_game_k_of_each_file(tmp_path):
    source = SAMPLES / "tilewe" / "random-4p-three-games.tilewe"
    games = source.read_text().rstrip("\n").split("\n\n[Game")
    assert len(games) == 3
    changed = tmp_path / "changed.tilewe"  # game 3 loses its last move
    last = games[2].rstrip().rsplit(" ", 2)[0]
    changed.write_text("\n\n[Game".join(games[:2] + [last]) + "\n")
    for k in ("1", "2"):
        result = run_cli("diff", "--index", k, str(source), str(changed))
        assert result.returncode == 0
        assert result.stdout.startswith(f"game {k}: same events; same state after ply")
        assert result.stdout.count("\n") == 1
    result = run_cli("diff", "--index", "3", str(source), str(changed))
    assert result.returncode == 1 and result.stdout.startswith("game 3: first difference at ply")
    whole = run_cli("diff", str(source), str(changed))
    assert whole.returncode == 1 and whole.stdout.count("same events; same state") == 2
    shorter = tmp_path / "one.tilewe"
    shorter.write_text("[Game" + games[1] + "\n")
    result = run_cli("diff", "--index", "2", str(source), str(shorter))
    assert result.returncode == 2 and f"--index 2: {shorter} has 1 game" in result.stderr


# -- random --jobs N -----------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("game", ["tilewe", "flows", "philosophy", "nomic", "sanguine"])
def test_random_games_are_the_same_whatever_the_jobs(game):
    args = ["random", game, "--seed", "7", "--count", "9"]
    one = run_cli(*args, "--jobs", "1")
    two = run_cli(*args, "--jobs", "2")
    default = run_cli(*args)
    assert one.returncode == two.returncode == default.returncode == 0, two.stderr
    assert one.stdout == two.stdout == default.stdout
    records = notation.parse(one.stdout, game)
    assert [r.headers["Round"] for r in records] == [str(n) for n in range(1, 10)]
    assert all(notation.run(r).valid for r in records)
    assert len({notation.format_record(r) for r in records}) == 9  # no two rounds alike


@pytest.mark.slow
def test_a_game_of_a_run_is_made_again_from_its_seed_and_round():
    """Rounds do not depend on one another: the first games of a longer run are the
    games of a shorter one, and the first game is the one --seed alone gives."""
    nine = run_cli("random", "flows", "--seed", "3", "--count", "9", "--jobs", "2").stdout
    four = run_cli("random", "flows", "--seed", "3", "--count", "4").stdout
    alone = run_cli("random", "flows", "--seed", "3").stdout
    assert nine.startswith(four) and four.startswith(alone) and len(nine) > len(four)


@pytest.mark.slow
def test_random_in_workers_refuses_options_as_it_does_alone():
    """A value the option refuses is refused before any game is made; a set-up the game
    cannot start from (four owners for four colours) in the worker, with the same line."""
    for jobs in ("1", "2"):
        result = run_cli("random", "tilewe", "--players", "5", "--count", "9", "--jobs", jobs)
        assert result.returncode == 2 and result.stdout == ""
        assert "Error: --players 5: tilewe takes 1 to 4" in result.stderr
        result = run_cli("random", "tilewe", "--owners", "1 2", "--count", "9", "--jobs", jobs)
        assert result.returncode == 2 and result.stdout == ""
        assert result.stderr.splitlines()[-1].startswith(
            'Error: tilewe: option owners: [Owners "1 2"]: one player number')


@pytest.mark.slow
def test_random_with_jobs_shows_progress_on_a_terminal_only():
    args = ["random", "nomic", "--seed", "1", "--count", "12", "--jobs", "2"]
    master, slave = pty.openpty()
    try:
        result = subprocess.run(notation_exe() + args, stdout=subprocess.PIPE, stderr=slave,
                                timeout=HANG_BREAKER)
        os.close(slave)
        seen = b""
        os.set_blocking(master, False)
        try:
            while chunk := os.read(master, 4096):
                seen += chunk
        except (BlockingIOError, OSError):
            pass
    finally:
        os.close(master)
    assert result.returncode == 0 and result.stdout.count(b'[Round ') == 12
    text = seen.decode("utf-8", "replace")
    assert "playing" in text and "/12 games" in text and text.endswith("\r\x1b[K")
    piped = run_cli(*args)
    assert piped.returncode == 0 and piped.stderr == ""
