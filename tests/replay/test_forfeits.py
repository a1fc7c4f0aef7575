"""A game ended by forfeit (``[Forfeit]``, as the referee writes it) is a valid record; the
seat must be the game's and the board not finished; ``stats``, ``explore`` and the tables
count the other seats as sharing the game."""
from __future__ import annotations

import json

import notation
from notation.core.forfeit import ending
from notation.core.replay import run

from conftest import run_cli

FORFEITED = '''[Game "tilewe"]
[Players "2"]
[Forfeit "{seat}"]
[Termination "time forfeit"]
[Result "*"]

1. W5n-a1a1 {{ {seat}: no reply to genmove within 10 s }}
'''


def test_a_forfeit_is_a_way_a_game_ends():
    (record,) = notation.parse(FORFEITED.format(seat="yellow"))
    outcome = run(record)
    assert outcome.valid and outcome.state is not None
    assert ending(record, outcome.game, outcome.state) == (True, ["blue"])
    (plain,) = notation.parse(FORFEITED.format(seat="yellow").replace('[Forfeit "yellow"]\n', ""))
    assert ending(plain, outcome.game, run(plain).state) == (False, [])


def test_the_forfeit_names_a_seat_of_a_game_the_board_had_not_ended():
    (record,) = notation.parse(FORFEITED.format(seat="green"))
    outcome = run(record)
    assert not outcome.valid and outcome.error.rule == "Forfeit tag"
    assert "the seats are blue, yellow" in outcome.error.message
    over = notation.new("tilewe", players=1)
    while not over.is_over():
        over.push(over.legal_moves[0])
    text = notation.format_record(notation.GameNode.from_position(over, Forfeit="blue"))
    (ended,) = notation.parse(text)
    assert run(ended).error.message.endswith("but the game ended on the board")


def test_stats_explore_and_the_tables_count_the_forfeit(tmp_path):
    path = tmp_path / "forfeit.tilewe"
    path.write_text(FORFEITED.format(seat="yellow") + "\n" + FORFEITED.format(seat="blue"))
    assert run_cli("validate", str(path)).returncode == 0
    stats = json.loads(run_cli("stats", "--json", str(path)).stdout)["tilewe"]
    assert stats["finished"] == 2
    assert {seat: r["wins"] for seat, r in stats["results"].items()} == {"blue": 1, "yellow": 1}
    explored = run_cli("explore", str(path)).stdout
    assert "blue 1 win, 1 loss" in explored and "unfinished" not in explored
    assert run_cli("export", "--to", "jsonl", "-o", str(tmp_path / "t"), str(path)).returncode == 0
    rows = [json.loads(line) for line in (tmp_path / "t" / "games.jsonl").read_text().split("\n")
            if line]
    assert [(row["over"], json.loads(row["winners"])) for row in rows] == [
        (True, ["blue"]), (True, ["yellow"])]  # (winners: JSON text in JSON lines)
