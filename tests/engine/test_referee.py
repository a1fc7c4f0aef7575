"""``notation referee``: bots play each other through the engine protocol, the referee
keeps the one position, plays chance, checks every answer; each game lands in the
archive whole and valid, and the results JSON agrees with ``stats``. Hostile bots forfeit
exactly their game, with the reason recorded; a bot and a controller written from the
protocol page alone take part; a bot speaking Pentobi's dialect plays Tilewe."""
from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import notation
from notation.core.replay import run
from notation.engine.match import Match, seating

from conftest import HANG_BREAKER, notation_exe, run_cli, still_running
from stalls import Watch, finished

BOTS = Path(__file__).parent / "bots"


def engine(game: str, *more: str) -> str:
    return shlex.join([*notation_exe(), "engine", game, *more])


def script(name: str, *args: str) -> str:
    return shlex.join([sys.executable, str(BOTS / name), *args])


def games_of(path: Path) -> list:
    records = notation.load(str(path))
    for record in records:
        outcome = run(record)
        assert outcome.valid, (record.index, outcome.problems)
    return records


def children() -> list[int]:
    """This process's children still there (a zombie is one: not yet reaped)."""
    mine = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid():
                mine.append(int(entry.name))
    return mine


# -- every game, every seating -------------------------------------------------------------

@pytest.mark.parametrize("game, seats", [("tilewe", 3), ("tilewe", 4), ("flows", 2),
                                         ("flows", 6), ("philosophy", 4), ("sanguine", 2),
                                         ("nomic", 3)])
def test_bots_play_each_game_to_a_valid_record(tmp_path, game, seats):
    archive = tmp_path / f"played.{game}"
    commands = [engine(game, "--seed", str(n), *(["--bot", "greedy"] if n % 2 else []))
                for n in range(seats)]
    match = Match(game, commands, str(archive), games=1, seed=11, max_plies=150)
    (played,) = match.run()
    (record,) = games_of(archive)
    assert list(played.seats) == notation.new(game, players=seats).game.seats(
        run(record).state)[:seats] or game == "philosophy"
    assert played.forfeit is None and played.termination in ("normal", "adjourned")
    assert record.headers["Round"] == "1" and record.headers["Event"] == "notation referee"
    for seat, command in played.seats.items():
        assert command in record.headers.values()
    position = notation.Position.from_record(record)
    assert position.is_over() == (played.termination == "normal")
    assert played.plies == position.ply
    assert children() == []  # every bot reaped


def test_seats_rotate_one_place_a_game():
    assert [seating(["a", "b", "c"], n) for n in (1, 2, 3, 4)] == [
        ["a", "b", "c"], ["c", "a", "b"], ["b", "c", "a"], ["a", "b", "c"]]


@pytest.mark.slow
def test_a_match_on_the_command_line_agrees_with_validate_and_stats(tmp_path):
    archive, results = tmp_path / "match.sanguine", tmp_path / "results.json"
    first, second = engine("sanguine", "--seed", "1"), engine("sanguine", "--bot", "greedy")
    done = run_cli("referee", "sanguine", "--seat", first, "--seat", second, "--games", "3",
                   "--jobs", "2", "--seed", "5", "--rows", "3", "--cols", "5", "-o", str(archive),
                   "--results", str(results))
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert run_cli("validate", str(archive)).returncode == 0
    report = json.loads(results.read_text())
    assert [g["index"] for g in report["games"]] == [1, 2, 3]
    assert [g["seats"] for g in report["games"]][:2] == [{"red": first, "blue": second},
                                                        {"red": second, "blue": first}]
    stats = json.loads(run_cli("stats", "--json", str(archive)).stdout)["sanguine"]
    wins: dict[str, int] = {}
    ties: dict[str, int] = {}
    for each in report["games"]:
        for seat in each["winners"]:
            table = wins if len(each["winners"]) == 1 else ties
            table[seat] = table.get(seat, 0) + 1
    assert {seat: (figures["wins"], figures["ties"]) for seat, figures in
            stats["results"].items()} == {seat: (wins.get(seat, 0), ties.get(seat, 0))
                                         for seat in set(wins) | set(ties)}
    assert stats["finished"] == 3 and stats["plies"]["max"] == max(
        g["plies"] for g in report["games"])
    bots = report["bots"]
    assert sum(b["games"] for b in bots.values()) == 6
    assert sum(b["wins"] for b in bots.values()) == sum(wins.values())
    # The archive goes straight into the other archive tools.
    assert run_cli("explore", str(archive)).stdout.startswith("sanguine: 3 games")
    counted = run_cli("sql", "select count(*) as n, count(distinct tags) as tagged from games",
                      str(archive))
    assert counted.returncode == 0 and "3" in counted.stdout.split("\n", 1)[1]
    # The same seed and bots play the same games, whatever --jobs.
    again = tmp_path / "again.sanguine"
    assert run_cli("referee", "sanguine", "--seat", first, "--seat", second, "--games", "3",
                   "--seed", "5", "--rows", "3", "--cols", "5", "-o", str(again)).returncode == 0
    def deals(path: Path) -> dict[str, list[str]]:  # (with --jobs, games land as they end)
        return {r.headers["Round"]: [str(e) for e in r.events if "deal" in str(e)]
                for r in notation.load(str(path))}
    assert deals(archive) == deals(again) and len(deals(again)) == 3


@pytest.mark.parametrize("args, says", [
    (["tilewe", "--seat", "x", "--seat", "y", "--seat", "z", "--seat", "w", "--seat", "v"],
     "tilewe with 5 seats"),
    (["sanguine", "--seat", "x"], "sanguine with 1 seats"),
    (["nosuchgame", "--seat", "x"], "unknown game"),
    (["tilewe", "--seat", "x", "--rows", "3"], "--rows: not an option of tilewe"),
    (["tilewe", "--seat", "x", "-o", "a", "--results", "a"], "name the same file"),
])
def test_a_match_that_cannot_be_played_is_one_usage_line(tmp_path, args, says):
    out = [] if "-o" in args else ["-o", str(tmp_path / "never.rec")]
    done = run_cli("referee", *args, *out, cwd=str(tmp_path))
    assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "never.rec").exists()


def test_an_archive_that_cannot_be_written_is_one_line_and_status_2(tmp_path):
    bot = engine("flows")
    done = run_cli("referee", "flows", "--seat", bot, "--seat", bot, "--games", "3",
                   "-o", str(tmp_path))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip() == f"{tmp_path}: error: not written: a folder, not a file " \
                                  f"(name a file in it)"
    assert children() == []


# -- hostile bots ------------------------------------------------------------------------------

@pytest.mark.parametrize("how, termination, counted, says", [
    ("illegal", "rules infraction", "illegal_events", "illegal event"),
    ("garbage", "protocol error", "protocol_errors", "not a reply"),
    ("huge", "protocol error", "protocol_errors", "longer than 1,048,576 bytes"),
    ("close", "abandoned", "crashes", "closed its output"),
    ("exit", "abandoned", "crashes", "closed its output"),
])
def test_a_hostile_bot_forfeits_exactly_its_games(tmp_path, how, termination, counted, says):
    archive = tmp_path / "hostile.tilewe"
    hostile, fair = script("hostile_bot.py", how, "tilewe"), engine("tilewe", "--seed", "3")
    match = Match("tilewe", [hostile, fair], str(archive), games=2, seed=1, quit_grace=0.1)
    played = match.run()
    records = games_of(archive)
    assert len(records) == 2 == len(played)
    for game, record in zip(played, records):
        seat = next(s for s, c in game.seats.items() if c == hostile)
        assert game.forfeit is not None and game.forfeit.seat == seat
        assert game.termination == termination and says in game.forfeit.why
        assert record.headers["Forfeit"] == seat and record.headers["Termination"] == termination
        assert game.winners == [s for s in game.seats if s != seat]
        assert says in record.headers["TerminationDetails"]  # (and in a comment, if it moved)
    figures = match.results()["bots"]
    assert figures[hostile]["forfeits"] == 2 and figures[hostile][counted] == 2
    assert figures[fair]["wins"] == 2 and figures[fair]["forfeits"] == 0
    assert children() == []  # no bot left running, none a zombie


def test_a_silent_bot_forfeits_on_time_and_the_clock_is_recorded(tmp_path):
    archive = tmp_path / "silent.tilewe"
    silent = script("hostile_bot.py", "silent", "tilewe")
    fair = engine("tilewe", "--seed", "3")
    # The fair bot moves first and has the time a loaded machine may need; the silent
    # one is waited for 1 s of the wall clock (what a move's time is), then forfeits.
    match = Match("tilewe", [fair, silent], str(archive), games=1, seed=1, move_time=1.0,
                  startup_time=HANG_BREAKER, quit_grace=0.1)
    (played,) = match.run()
    assert played.termination == "time forfeit" and played.forfeit.seat == "yellow"
    text = archive.read_text()
    assert "[%clk " in text and '[Termination "time forfeit"]' in text
    assert "no reply to genmove within 1 s" in text and "{ yellow: no reply" in text
    assert children() == []


def test_a_bot_that_ignores_quit_is_ended_and_its_game_stands(tmp_path):
    archive = tmp_path / "deaf.sanguine"
    deaf = script("hostile_bot.py", "ignore", "sanguine")
    match = Match("sanguine", [deaf, engine("sanguine")], str(archive), games=1, seed=2,
                  options={"rows": "3", "cols": "5"}, quit_grace=0.1)
    (played,) = match.run()
    assert played.forfeit is None and played.termination == "normal"
    games_of(archive)
    assert children() == []


def test_a_bot_that_cannot_be_started_forfeits(tmp_path):
    archive = tmp_path / "missing.flows"
    match = Match("flows", [engine("flows"), "/no/such/bot --ever"], str(archive), games=1)
    (played,) = match.run()
    assert played.forfeit.seat == "P2" and played.termination == "abandoned"
    assert "cannot start /no/such/bot" in played.forfeit.why
    (record,) = games_of(archive)
    assert record.headers["Forfeit"] == "P2"


def test_a_signal_to_the_referee_leaves_only_whole_games(tmp_path):
    archive, results = tmp_path / "stopped.flows", tmp_path / "stopped.json"
    marker = "--seed=424242"  # (names this test's bots among the machine's processes)
    bot = engine("flows", marker)
    referee = subprocess.Popen([*notation_exe(), "referee", "flows", "--seat", bot, "--seat",
                                bot, "--games", "50", "--seed", "3", "-o", str(archive),
                                "--results", str(results)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    watch = Watch(referee.pid)
    while not (archive.exists() and "[Round" in archive.read_text()):
        assert referee.poll() is None, referee.stderr.read()
        assert not watch.still(), "the referee stalled before its first game"
    referee.send_signal(signal.SIGTERM)
    assert finished(referee, "the referee's end") == 143
    assert b"notation: terminated" in referee.stderr.read()
    records = games_of(archive)
    report = json.loads(results.read_text())
    assert 1 <= len(records) == len(report["games"]) < 50
    assert all(r.headers["Round"] == str(g["index"]) for r, g in zip(records, report["games"]))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["stopped.flows", "stopped.json"]
    left = [pid for pid in Path("/proc").iterdir() if pid.name.isdigit()
            and marker.encode() in _cmdline(pid) and still_running(pid.name)]
    assert left == [], "bots outlived the referee"


def _cmdline(entry: Path) -> bytes:
    try:
        return (entry / "cmdline").read_bytes()
    except OSError:
        return b""


# -- bots and controllers from elsewhere ---------------------------------------------------

def test_a_bot_written_from_the_protocol_page_plays_a_whole_game(tmp_path):
    archive = tmp_path / "passer.sanguine"
    passer = script("passing_bot.py")
    match = Match("sanguine", [passer, engine("sanguine", "--seed", "4")], str(archive),
                  games=2, seed=3, options={"rows": "3", "cols": "5"})
    played = match.run()
    assert [game.termination for game in played] == ["normal", "normal"]
    for record in games_of(archive):
        assert notation.Position.from_record(record).is_over()
        assert "pass" in " ".join(str(e) for e in record.events)


def test_a_bot_speaking_pentobis_dialect_answers_with_cells(tmp_path):
    archive = tmp_path / "blokus.tilewe"
    pentobi = script("pentobi_like_bot.py", "7")
    commands = [pentobi, engine("tilewe", "--seed", "1"), engine("tilewe", "--seed", "2"),
                engine("tilewe", "--seed", "3")]
    match = Match("tilewe", commands, str(archive), games=1, seed=1)
    (played,) = match.run()
    assert played.termination == "normal" and played.seats["blue"] == pentobi
    (record,) = games_of(archive)
    assert notation.Position.from_record(record).is_over()
    blue = [str(e) for i, e in enumerate(record.events) if i % 4 == 0]
    assert blue and all("-" in move for move in blue)  # cells read back as placements


def test_a_controller_written_from_the_protocol_page_drives_the_engine(tmp_path):
    done = subprocess.run([sys.executable, str(BOTS / "plain_controller.py"), *notation_exe(),
                           "engine", "tilewe"], capture_output=True, text=True,
                          timeout=HANG_BREAKER)
    assert done.returncode == 0, done.stderr
    moves = done.stdout.split()
    assert len(moves) > 20
    position = notation.new("tilewe", players=2)
    for move in moves:
        position.push(move)
    assert position.is_over()
