"""A record's tree as JSON (``notation.core.output.tree_json``, ``replay --json --tree``):
every node of every variation with its annotations, comment, commands and the state after
it, each state what ``replay --json`` gives for that position.
"""
from __future__ import annotations

import json

import pytest

import notation
from notation.core.ast import Comment, EventNode, Variation
from notation.core.output import every_json, replay_json, tree_json

from conftest import invoke
from test_positions import GAMES
from test_variations import random_tree

TILEWE = """[Game "tilewe"]
[Players "2"]

{a quiet start} 1. W5n-a1a1!? $14 {[%clk 0:01:30] [%eval 0.3] sharp} 2. I2n-a1t1
(2. O1n-a1t1 {also fine} (2. I2e-b1t1?)) 3. F5e-a2d4 (3. I3n-a1s3 4. O1n-a1s3)
(3. I3n-a1a4) 4. O1n-a1s3
"""

NOMIC = """[Game "nomic"]
[Players "Ann Bea"]

round 1
turn Ann
roll 2 ?! {[%clk 0:00:05]}
(
{a luckier roll}
roll 4 !
move EEEE
)
move EE
"""


def skeleton(node: dict) -> tuple:
    """A node without its position: what the known answers spell out by hand."""
    return (node["ply"], node["event"], node["mover"], node["nags"], node["glyphs"],
            node["starting_comment"], node["comment"], node["commands"],
            None if node["error"] is None else node["error"]["event"],
            [[skeleton(n) for n in line] for line in node["variations"]])


def test_known_tilewe_tree():
    (record,) = notation.parse(TILEWE)
    tree = tree_json(record)
    assert skeleton(tree["start"]) == (0, None, None, [], "", "", "a quiet start", {}, None, [])
    assert [skeleton(n) for n in tree["mainline"]] == [
        (1, "W5n-a1a1", "blue", [5, 14], "!? $14", "", "sharp",
         {"clk": "0:01:30", "eval": "0.3"}, None, []),
        (2, "I2n-a1t1", "yellow", [], "", "", "", {}, None, [
            [(2, "O1n-a1t1", "yellow", [], "", "", "also fine", {}, None, [
                [(2, "I2e-b1t1", "yellow", [2], "?", "", "", {}, None, [])]])]]),
        (3, "F5e-a2d4", "blue", [], "", "", "", {}, None, [
            # a blue I3 from a1 touches no blue corner: the line ends there, its 4. not given
            [(3, "I3n-a1s3", "blue", [], "", "", "", {}, "I3n-a1s3", [])],
            # nor does one from a1 to a4
            [(3, "I3n-a1a4", "blue", [], "", "", "", {}, "I3n-a1a4", [])]]),
        (4, "O1n-a1s3", "yellow", [], "", "", "", {}, None, []),
    ]
    first, second = tree["mainline"][2]["variations"]
    assert first[0]["state"] is None and first[0]["position"] is None
    assert first[0]["error"]["variation"] == "variation 1 after ply 2"
    assert second[0]["error"]["variation"] == "variation 2 after ply 2"
    # the problems are the ones replay --json lists, word for word
    errors = replay_json(notation.run(record))["errors"]
    assert [first[0]["error"], second[0]["error"]] == errors


def test_known_nomic_tree():
    (record,) = notation.parse(NOMIC)
    tree = tree_json(record)
    assert skeleton(tree["start"])[:8] == (0, None, None, [], "", "", "", {})
    assert [skeleton(n) for n in tree["mainline"]] == [
        (1, "round 1", "Ann", [], "", "", "", {}, None, []),
        (2, "turn Ann", "Ann", [], "", "", "", {}, None, []),
        (3, "roll 2", "Ann", [6], "?!", "", "", {"clk": "0:00:05"}, None, [
            [(3, "roll 4", "Ann", [1], "!", "a luckier roll", "", {}, None, []),
             (4, "move EEEE", "Ann", [], "", "", "", {}, None, [])]]),
        (4, "move EE", "Ann", [], "", "", "", {}, None, []),
    ]
    alternative = tree["mainline"][2]["variations"][0][1]
    assert {"name": "Ann", "at": [4, 0]} in alternative["state"]["players"]
    assert {"name": "Ann", "at": [2, 0]} in tree["mainline"][3]["state"]["players"]


def check_line(nodes: list, items: list, start: notation.Position, ply: int) -> int:
    """Every node of a JSON line against the record's items and a position pushed along
    its path (``start``: before the line's first event); the nodes checked."""
    events = [(at, i) for at, i in enumerate(items) if isinstance(i, EventNode)]
    assert len(nodes) == len(events)
    checked = 0
    position, last = start, None
    for node, (at, item) in zip(nodes, events):
        before = position
        position = before.copy()
        assert node["mover"] == position.turn
        position.push(node["event"])  # the event as written in the JSON reads back
        ply += 1
        assert node["event"] == str(item.event) and node["ply"] == ply == position.ply
        assert node["nags"] == list(item.nags) and node["error"] is None
        game = position.game
        assert node["state"] == game.state_json(position.state)
        assert node["position"] == game.position(position.state)
        assert node["result"] == game.result_json(position.state)
        after = []
        for other in items[at + 1:]:
            if isinstance(other, EventNode):
                break
            after.append(other)
        comments = [c for c in after if isinstance(c, Comment)]
        assert node["comment"] == " ".join(c.remark for c in comments if c.remark)
        commands = {k: v for c in comments for k, v in c.commands.items()}
        assert node["commands"] == commands
        inner = [v for v in after if isinstance(v, Variation)]
        assert len(node["variations"]) == len(inner)
        for line, variation in zip(node["variations"], inner):
            checked += check_line(line, variation.items, before, ply - 1)
        checked += 1
        last = node
    assert last is None or last is nodes[-1]
    return checked


def nodes_in(items: list) -> int:
    return sum(1 if isinstance(i, EventNode) else nodes_in(i.items)
               for i in items if isinstance(i, (EventNode, Variation)))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", range(4))
def test_every_node_of_a_random_tree_is_its_path_pushed(game, seed):
    tree = random_tree(game, seed)
    data = tree_json(tree)
    start = notation.Position.from_record(tree, 0)
    assert data["start"]["state"] == start.game.state_json(start.state)
    assert check_line(data["mainline"], tree.items, start, 0) == nodes_in(tree.items)


@pytest.mark.parametrize("game", GAMES)
def test_the_mainline_is_what_every_gives(game):
    tree = random_tree(game, 11)
    data = tree_json(tree)
    drop = ("ply", "event", "position", "state", "result")
    every = every_json(notation.run(tree))
    nodes = [data["start"], *data["mainline"]]
    assert [{k: n[k] for k in drop} for n in nodes] == every


def test_an_illegal_mainline_event_ends_the_mainline_where_replay_stops():
    text = TILEWE.replace("3. F5e-a2d4 (", "3. F5e-a2a1 (")
    (record,) = notation.parse(text)
    outcome = notation.run(record)
    data = tree_json(record, outcome)
    mainline = data["mainline"]
    assert len(mainline) == outcome.plies + 1 == 3  # the bad event ends it, marked
    assert mainline[-1]["error"] == outcome.problems[0].as_json()
    assert mainline[-1]["state"] is None
    # its alternatives start before it: still walked, each to its own problem
    assert [len(line) for line in mainline[-1]["variations"]] == [1, 1]


def test_a_syntax_problem_ends_its_line_and_a_tag_problem_the_mainline():
    text = TILEWE.replace("4. O1n-a1s3\n", "5. O1n-a1s3\n")  # a wrong number
    (record,) = notation.parse(text)
    mainline = tree_json(record)["mainline"]
    assert mainline[-1]["error"]["message"] == "event number 5. should be 4."
    assert mainline[-1]["state"] is None and len(mainline) == 4
    (unreadable,) = notation.parse(TILEWE.replace("(2. O1n-a1t1", "(2. Q9z-zz"))
    outcome = notation.run(unreadable)
    line = tree_json(unreadable, outcome)["mainline"][1]["variations"][0]
    assert [(n["event"], n["error"]) for n in line] == [
        ("Q9z-zz", outcome.problems[0].as_json())]  # as written; the line ends there
    (twice,) = notation.parse(TILEWE.replace('[Players "2"]', '[Players "2"]\n[Players "2"]'))
    data = tree_json(twice)
    assert data["mainline"] == [] and "given twice" in data["start"]["error"]["message"]
    assert data["start"]["state"] is not None
    (unknown,) = notation.parse(TILEWE.replace('[Players "2"]', '[Players "9"]'))
    assert tree_json(unknown) is None  # no start: replay --json's state is null too
    assert replay_json(notation.run(unknown))["state"] is None


def test_replay_json_tree_is_the_library_and_without_it_nothing_changes(tmp_path):
    path = tmp_path / "two.tilewe"
    (second,) = notation.parse(TILEWE.replace("{a quiet start} ", ""))
    path.write_text(TILEWE + "\n" + notation.format_record(second))
    records = notation.load(str(path))
    result = invoke("replay", "--json", "--tree", str(path))
    assert result.exit_code == 1, result.output  # the variations' problems
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["tree"] for row in rows] == [tree_json(r) for r in records]
    plain = invoke("replay", "--json", str(path))
    assert [json.loads(line) for line in plain.stdout.splitlines()] == [
        {k: v for k, v in row.items() if k != "tree"} for row in rows]
    assert plain.stdout == "".join(json.dumps(replay_json(notation.run(r))) + "\n"
                                   for r in records)
    at_ply = invoke("replay", "--json", "--tree", "--ply", "2", str(path))
    assert [json.loads(line)["tree"] for line in at_ply.stdout.splitlines()] == [
        row["tree"] for row in rows]  # the whole tree, whatever ply is shown
    refused = invoke("replay", "--tree", str(path))
    assert refused.exit_code == 2 and "--tree is for --json" in refused.output
