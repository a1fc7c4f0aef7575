"""``render --html`` on an archive: a page of at most ``--max-games`` games, ``--index``,
labels from the games' tags, progress on a terminal, time and size that follow the page.

The archives are made here: small Nomic games (the first turn of a sample), each with its
own Round and players, so that every label can be predicted from the tags alone.
"""
from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import time
import tracemalloc
from pathlib import Path

import pytest

from notation.cli.pictures import MAX_GAMES

from conftest import HANG_BREAKER, SAMPLES, invoke, notation_exe

FIRST_TURN = (SAMPLES / "nomic" / "example-2.nomic").read_text().split("turn Dana")[0]
BODY = FIRST_TURN.split("\n\n", 1)[1]  # the events, without the sample's tags
WHITE = ("Ann", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus")
BLACK = ("Hal", "Ida", "Jo", "Kim", "Lou")


def game_text(n: int, body: str = BODY) -> str:
    """Game ``n`` of an archive: its Round and White/Black differ from its neighbours'."""
    return (f'[Game "Nomic"]\n[Players "Dana Bob"]\n[Event "Club night"]\n[Round "{n}"]\n'
            f'[White "{WHITE[n % len(WHITE)]}"]\n[Black "{BLACK[n % len(BLACK)]}"]\n\n{body}\n')


def label(n: int) -> str:
    return f"{n}. Round {n} — {WHITE[n % len(WHITE)]} vs {BLACK[n % len(BLACK)]}"


def archive(folder: Path, count: int) -> Path:
    path = folder / f"{count}.nomic"
    if not path.exists():
        path.write_text("".join(game_text(n) for n in range(1, count + 1)), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("archives")


def page_data(text: str) -> dict:
    return json.loads(re.search(r"const DATA = (.*);\n", text).group(1))


def render_page(*args: str) -> tuple[dict, str, str]:
    """``render --html ARGS``: the page's data, the page and stderr (exit 0 expected)."""
    result = invoke("render", "--html", *args)
    assert result.exit_code == 0, result.output
    return page_data(result.stdout), result.stdout, result.stderr


def cpu_of(*args: str) -> float:
    before = time.process_time()
    render_page(*args)
    return time.process_time() - before


@pytest.mark.slow
def test_a_big_archive_makes_one_page_of_the_first_games_in_time_that_follows_the_page(folder):
    small, big = str(archive(folder, MAX_GAMES)), str(archive(folder, 1000))
    cpu_of(small)  # warm: imports and the parser are loaded once
    small_cpu = min(cpu_of(small) for _ in range(2))
    big_cpu = min(cpu_of(big) for _ in range(2))
    # 20 times the games; the same page (the rest are counted from their headers only)
    print(f"CPU: {MAX_GAMES} games {small_cpu:.2f} s, 1,000 games {big_cpu:.2f} s")
    assert big_cpu < 4 * small_cpu, (small_cpu, big_cpu)
    data, page, stderr = render_page(big)
    assert len(data["games"]) == MAX_GAMES == 50
    assert [g["number"] for g in data["games"]] == list(range(1, 51))
    note = "showing games 1-50 of 1,000; choose others with --index K and --max-games N"
    assert data["note"] == note
    assert stderr == f"{big}: warning: {note}\n"
    whole, _page, whole_stderr = render_page(small)  # the small file fits: no note
    assert whole["note"] is None and whole_stderr == ""
    assert len(page) < len(_page) + 200  # the page of 1,000 is the page of 50, and its note


@pytest.mark.slow
def test_memory_follows_the_page_not_the_archive(folder):
    def peak(path: str) -> int:
        tracemalloc.start()
        try:
            render_page(path, "--max-games", "5")
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    peak(str(archive(folder, 10)))  # warm
    assert peak(str(archive(folder, 1000))) < 2 * peak(str(archive(folder, 10)))


@pytest.mark.parametrize("args, numbers, note", [
    (["--max-games", "7"], range(1, 8), "showing games 1-7 of 60"),
    (["--index", "5"], [5], "showing game 5 of 60"),
    (["--index", "55", "--max-games", "10"], range(55, 61), "showing games 55-60 of 60"),
    (["--index", "11", "--max-games", "20"], range(11, 31), "showing games 11-30 of 60"),
    (["--max-games", "0"], range(1, 61), None),
    ([], range(1, 51), "showing games 1-50 of 60"),
])
def test_max_games_and_index_choose_the_games_of_the_page(folder, args, numbers, note):
    data, _page, _stderr = render_page(str(archive(folder, 60)), *args)
    assert [g["number"] for g in data["games"]] == list(numbers)
    labels = [label(n) for n in numbers]
    if len(labels) == 1:  # nothing to tell it from: every tag it has, the first three
        labels = [labels[0].replace(". ", ". Club night — ", 1)]
    assert [g["label"] for g in data["games"]] == labels
    assert data["note"] == (note and f"{note}; choose others with --index K and --max-games N")


def test_a_page_from_stdin_counts_what_follows_it(folder):
    text = archive(folder, 60).read_text(encoding="utf-8")
    result = invoke("render", "--html", "-", "--max-games", "4", "--index", "3", input=text)
    assert result.exit_code == 0, result.output
    data = page_data(result.stdout)
    assert [g["number"] for g in data["games"]] == [3, 4, 5, 6]
    assert data["note"].startswith("showing games 3-6 of 60;")


@pytest.mark.parametrize("args, message", [
    (["--html", "--index", "61"], "--index 61: FILE has 60 games"),
    (["--max-games", "3"], "--max-games is for --html"),
    (["--html", "--max-games", "-1"], "-1"),
    (["--html", "--ply", "2"], "--ply is for SVG"),
])
def test_choices_the_archive_cannot_meet_are_one_line_usage_errors(folder, args, message):
    path = str(archive(folder, 60))
    result = invoke("render", path, *args)
    assert result.exit_code == 2 and message.replace("FILE", path) in result.output
    assert "Traceback" not in result.output and result.stdout == ""


def test_only_the_games_on_the_page_are_replayed_and_set_the_exit_status(tmp_path):
    path = tmp_path / "late-error.nomic"
    bad = BODY.replace("roll 2", "roll 13")  # no two dice make 13
    path.write_text("".join(game_text(n) for n in range(1, 8)) + game_text(8, bad))
    data, _page, _stderr = render_page(str(path), "--max-games", "7")
    assert len(data["games"]) == 7
    result = invoke("render", "--html", str(path), "--index", "8")
    assert result.exit_code == 1 and "game 8" in result.stderr
    assert page_data(result.stdout)["games"][0]["error"]["ply"] == 3  # round, turn, roll


def test_labels_say_what_differs_between_the_games_and_everything_for_one_game(tmp_path):
    from notation.render.viewer import chooser_labels
    games = [{"title": "t", "tags": tags} for tags in (
        [["Game", "flows"], ["Players", "3"], ["Seed", "1"], ["Result", "flow P2"]],
        [["Game", "flows"], ["Players", "3"], ["Seed", "2"], ["Result", "tie P1 P2"]],
    )]
    assert chooser_labels(games) == ["1. seed 1 — result flow P2",
                                     "2. seed 2 — result tie P1 P2"]
    assert chooser_labels(games[:1]) == ["1. 3 players — seed 1 — result flow P2"]
    nomic = [{"title": "t", "tags": [["Players", "Carol Alice Bob"], ["Event", "x" * 60]]}]
    assert chooser_labels(nomic) == [f"1. {'x' * 39}… — Carol, Alice, Bob"]
    assert chooser_labels([{"title": "f.tilewe game 1 (tilewe)", "tags": [],
                            "number": 4}]) == ["4. f.tilewe game 1 (tilewe)"]
    path = tmp_path / "one.nomic"
    path.write_text(game_text(3))
    data, _page, _stderr = render_page(str(path))
    assert data["games"][0]["label"] == f"1. Club night — Round 3 — {WHITE[3]} vs {BLACK[3]}"


def _stderr_on_a_terminal(*args: str) -> str:
    """Run ``notation ARGS`` with stderr on a pseudo-terminal; what it wrote there."""
    leader, follower = pty.openpty()
    with subprocess.Popen(notation_exe() + list(args), stdin=subprocess.DEVNULL,
                          stdout=subprocess.DEVNULL, stderr=follower) as process:
        os.close(follower)
        seen = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal closes with the process
                break
            if not chunk:
                break
            seen += chunk
        assert process.wait(timeout=HANG_BREAKER) == 0
    os.close(leader)
    return seen.decode("utf-8", "replace")


@pytest.mark.slow
def test_progress_shows_on_a_terminal_and_nowhere_else(folder, tmp_path):
    path = str(archive(folder, 60))
    shown = _stderr_on_a_terminal("render", "--html", path, "--max-games", "6",
                                  "-o", str(tmp_path / "p.html"))
    assert "drawing games" in shown and "0/6" in shown  # games drawn of the page's
    assert "showing games 1-6 of 60" in shown
    result = invoke("render", "--html", path, "--max-games", "6")
    assert "drawing games" not in result.stderr


def test_past_the_count_the_page_says_more_than_it_counted(folder, monkeypatch):
    import notation.cli.pictures as pictures
    monkeypatch.setattr(pictures, "COUNT_AT_MOST", 20)
    path = str(archive(folder, 60))
    data, _page, _stderr = render_page(path, "--max-games", "5")
    assert data["note"].startswith("showing games 1-5 of more than 20;")
    data, _page, _stderr = render_page(path, "--index", "30")  # past the count, still there
    assert [g["number"] for g in data["games"]] == [30]
    assert data["note"].startswith("showing game 30 of more than 20;")
    data, _page, _stderr = render_page(path, "--index", "58", "--max-games", "0")
    assert data["note"].startswith("showing games 58-60 of 60;")  # read to the end: known
    result = invoke("render", "--html", path, "--index", "61")
    assert result.exit_code == 2 and f"--index 61: {path} has 60 games" in result.output
