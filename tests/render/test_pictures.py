"""SVG pictures of every game, ``render``, ``replay --json --every`` and the viewer's data.

Known answers come from the records themselves (the Tilewe reference's [Scores] tag,
moves' own squares and hexes, Sanguine's starting pawns), not from the drawing code.
"""
from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from notation.core.new_games import random_record
import notation
from notation.render.viewer import FULL_EVERY, game_data, html

from conftest import SAMPLES, invoke

NS = "{http://www.w3.org/2000/svg}"
PICTURED = ("tilewe", "flows", "philosophy", "sanguine", "nomic")


def first(path: Path | str, ply: int | None = None):
    record = list(notation.load(str(path)))[0]
    outcome = notation.run(record, ply)
    return record, outcome.game, outcome.state


def tree(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def with_class(root: ET.Element, *names: str) -> list[ET.Element]:
    return [e for e in root.iter() if set(names) <= set((e.get("class") or "").split())]


def sample_files():
    return sorted(p for p in SAMPLES.rglob("*") if p.is_file() and p.suffix[1:] in PICTURED
                  and p.suffix != ".deck")


@pytest.mark.parametrize("path", sample_files(), ids=lambda p: p.name)
def test_every_sample_position_draws_as_well_formed_svg(path):
    for record in notation.load(str(path)):
        outcome = notation.run(record)
        if outcome.state is None:
            continue
        root = tree(outcome.game.svg(outcome.state))
        assert root.tag == f"{NS}svg" and root.get("viewBox")
        assert root.find(f"{NS}title").text  # a picture says what it shows


def test_tilewe_cells_match_the_reference_scores_and_the_last_piece_is_outlined():
    record, game, state = first(SAMPLES / "tilewe" / "tw-sample-1.tilewe")
    root = tree(game.svg(state))
    scores = [int(s) for s in record.headers["Scores"].split()]  # the reference's own count
    counts = [len(with_class(root, "cell", c)) for c in ("blue", "yellow", "red", "green")]
    assert counts == scores
    assert len(with_class(root, "cell", "empty")) == 400 - sum(scores)
    assert len(with_class(root, "last")) == 1
    # after "1. I4n-a1a1": four blue cells, on the a-file from a1
    _record, game, state = first(SAMPLES / "tilewe" / "tw-sample-1.tilewe", 1)
    root = tree(game.svg(state))
    blue = sorted(e.get("data-cell") for e in with_class(root, "cell", "blue"))
    assert blue == ["a1", "a2", "a3", "a4"]
    files = [t.text for t in with_class(root, "label")[0]][:20]
    assert "".join(files) == "abcdefghijklmnopqrst"


def test_flows_tiles_paths_flows_and_seats():
    path = SAMPLES / "flows" / "flows-090.flows"
    record, game, state = first(path)
    root = tree(game.svg(state))
    assert len(with_class(root, "hex")) == 37
    placed = len(record.events)
    assert len(with_class(root, "hex", "tiled")) == placed
    assert len(with_class(root, "path")) == 3 * placed  # three paths per tile
    assert with_class(root, "flow", "p2"), "P2 won by a flow: it is drawn in P2's colour"
    for p in (1, 2, 3):
        assert len(with_class(root, "seat", f"p{p}")) == 7
    # each move's hex is tiled in its mover's own view (the record's labels)
    for ply, mover, label in ((1, "P1", "G4"), (2, "P2", "G7"), (3, "P3", "C5")):
        _r, game, state = first(path, ply)
        root = tree(game.svg(state, perspective=mover))
        tiled = [e.get("data-hex") for e in with_class(root, "hex", "tiled")]
        assert label in tiled


@pytest.mark.parametrize("view", ["P1", "P2", "P3", "side:3"])
def test_flows_perspective_turns_the_picture_and_its_labels(view):
    _r, game, state = first(SAMPLES / "flows" / "flows-090.flows")
    root = tree(game.svg(state, perspective=view))
    hexes = with_class(root, "hex")
    centre_y = {e.get("data-hex"): sum(float(p.split(",")[1]) for p in e.get("points").split())
                for e in hexes}
    bottom = max(centre_y.values())
    top = min(centre_y.values())
    rows_at_bottom = {label[0] for label, y in centre_y.items() if y == bottom}
    rows_at_top = {label[0] for label, y in centre_y.items() if y == top}
    assert rows_at_bottom == {"A"} and rows_at_top == {"G"}  # the viewer's own rows nearest
    seat = {"P1": 1, "P2": 2, "P3": 3}.get(view)
    if seat:  # the viewer's own seat edge is drawn along the bottom
        lowest = max(with_class(root, "seat"), key=lambda e: float(e.get("y1")) + float(e.get("y2")))
        assert f"p{seat}" in lowest.get("class").split()


#: A character's width in em, erring wide: Chromium draws these lines in DejaVu Sans at
#: 0.48 (11 px) to 0.53 (14 px) em a character.
EM = 0.55
FONT_SIZE = {"caption": 14.0, "label": 11.0}


def heading_boxes(root: ET.Element) -> list[tuple[float, float, float, float]]:
    """The estimated boxes (left, top, right, bottom) of a picture's caption and subtitle."""
    boxes = []
    for e in with_class(root, "caption") + with_class(root, "label"):
        size = FONT_SIZE[e.get("class")]
        x, y = float(e.get("x")), float(e.get("y"))
        boxes.append((x, y - size, x + len(e.text) * size * EM, y + size * 0.25))
    return boxes


@pytest.mark.parametrize("players", range(2, 7))
def test_flows_caption_and_subtitle_fit_the_picture_for_every_seating_and_view(players):
    game = notation.get_game("flows")
    record = random_record(game, random.Random(players), {"players": players})
    views = [f"P{p}" for p in range(1, players + 1)] + [f"side:{s}" for s in range(6)]
    for state in (game.start(record), notation.run(record).state):
        for view in views:
            root = tree(game.svg(state, perspective=view))
            _x, _y, width, height = map(float, root.get("viewBox").split())
            board_top = min(float(point.split(",")[1]) for e in with_class(root, "hex")
                            for point in e.get("points").split())
            boxes = heading_boxes(root)
            assert len(boxes) >= 2
            for left, top, right, bottom in boxes:
                assert 0 <= left and right <= width and 0 <= top and bottom < board_top, (
                    players, view, [e.text for e in with_class(root, "label")])
            assert max(b[3] for b in boxes) < height


def test_flows_heading_wraps_a_long_caption_and_keeps_words_whole():
    from notation.games.flows.svg import heading
    caption = "game over after 37 moves: constraint, won by P1 and P2 and P3 and P4 and P5"
    subtitle = "view of side 3; " + ", ".join(f"P{p} purple (side {p - 1})" for p in range(1, 7))
    rows, top = heading(caption, subtitle, 472.0)
    assert " ".join(t for _y, t, c in rows if c == "caption") == caption
    assert " ".join(t for _y, t, c in rows if c == "label") == subtitle
    for y, text, name in rows:
        assert 30 + len(text) * FONT_SIZE[name] * EM <= 472
    assert [y for y, _t, _c in rows] == sorted(y for y, _t, _c in rows) and top > rows[-1][0]


def test_sanguine_pawns_cards_scores_and_the_mirror():
    path = SAMPLES / "sanguine" / "example-1.sanguine"
    _r, game, state = first(path, 0)
    root = tree(game.svg(state))
    pawns = with_class(root, "pawns")
    assert len(pawns) == 6 and {p.get("data-pawns") for p in pawns} == {"1"}  # 3 rows, both ends
    assert len(with_class(root, "pawn", "red")) == 3 and len(with_class(root, "pawn", "blue")) == 3
    record, game, state = first(path)
    root = tree(game.svg(state))
    board = game.state_json(state)["board"]
    cards = {(r, c): cell["card"] for r, row in enumerate(board) for c, cell in enumerate(row)
             if cell and "card" in cell}
    drawn = {tuple(map(int, e.get("data-cell").split(","))): e.get("data-card")
             for e in with_class(root, "card-at")}
    assert drawn == cards
    counts = {(r, c): cell["pawns"] for r, row in enumerate(board) for c, cell in enumerate(row)
              if cell and "pawns" in cell}
    assert {tuple(map(int, e.get("data-cell").split(","))): int(e.get("data-pawns"))
            for e in with_class(root, "pawns")} == counts
    scores = [int(e.text) for e in with_class(root, "score")]
    assert len(scores) == 6
    # Red's view: Red's home column 0 on the left; Blue's view mirrors it
    def x_of(svg: str, cell: str) -> float:
        squares = [e for e in with_class(tree(svg), "square") if e.get("data-cell") == cell]
        return float(squares[0].get("x"))
    red, blue = game.svg(state), game.svg(state, perspective="blue")
    assert x_of(red, "0,0") < x_of(red, "0,4") and x_of(blue, "0,0") > x_of(blue, "0,4")


def test_philosophy_tiles_and_the_last_placement():
    path = SAMPLES / "philosophy" / "phil-0009.philosophy"
    record = list(notation.load(str(path)))[0]
    texts = [i.text for i in record.items if hasattr(i, "event")]
    for ply, text in enumerate(texts, 1):
        m = re.fullmatch(r"(\w\w):C\d(\w\w)\w\w\.?", text)
        if not m:
            continue
        _r, game, state = first(path, ply)
        root = tree(game.svg(state))
        tiles = {e.get("data-space"): e.get("data-tile") for e in with_class(root, "tile-at")}
        assert tiles == {s: "".join(t) for s, t in state.board.items()}
        (placed,) = [e for e in root.iter() if e.get("class") == "placed"]
        owner_kind = [g for g in with_class(root, "tile-at") if placed in list(g)][0]
        assert owner_kind.get("data-tile").startswith(m.group(1) + m.group(2))


def test_nomic_map_players_and_rules():
    record, game, state = first(SAMPLES / "nomic" / "example-1.nomic")
    root = tree(game.svg(state))
    markers = {e.get("data-player") for e in with_class(root, "marker")}
    assert markers == {p for p, c in state.players.items() if c}
    rules = [int(e.get("data-rule")) for e in with_class(root, "rule") if e.get("data-rule")]
    assert rules == sorted(n for n, r in state.rules.items() if r.in_effect)
    known = {e.get("data-space") for e in root.iter() if e.get("class", "").startswith("space ")
             and e.get("class").split()[1] in ("wood", "metal", "water", "food")}
    assert known == {f"{x},{y}" for x, y in state.revealed}


def test_replay_steps_show_their_positions_in_notebooks():
    for game_name in PICTURED:
        path = sorted((SAMPLES / game_name).glob(f"*.{game_name}"))[0]
        record, game, _state = first(path)
        for step in notation.replay(record, until=2):
            assert step._repr_svg_() == game.svg(step.state)


# -- the command line ---------------------------------------------------------------------

def test_render_writes_svg_to_stdout_or_a_file(tmp_path):
    result = invoke("render", str(SAMPLES / "tilewe" / "tw-sample-1.tilewe"), "--ply", "2")
    assert result.exit_code == 0
    root = tree(result.output)
    assert len(with_class(root, "cell", "yellow")) == 4
    out = tmp_path / "p.svg"
    result = invoke("render", str(SAMPLES / "flows" / "flows-090.flows"), "--perspective", "P2",
                    "-o", str(out))
    assert result.exit_code == 0 and result.output == ""
    assert "view of P2" in out.read_text()


def test_render_of_an_invalid_record_draws_the_position_before_the_error(tmp_path):
    text = (SAMPLES / "tilewe" / "tw-sample-1.tilewe").read_text().replace("3. N5w-d1t1",
                                                                            "3. N5w-d1a1")
    bad = tmp_path / "bad.tilewe"
    bad.write_text(text)
    result = invoke("render", str(bad))
    assert result.exit_code == 1
    root = tree(result.stdout)
    assert len(with_class(root, "cell", "empty")) == 400 - 8  # two pieces of four
    assert re.search(r"bad\.tilewe:\d+:\d+: error: game 1, ply 3 \(N5w-d1a1\)", result.stderr)


@pytest.mark.parametrize("args, message", [
    (["--perspective", "P9"], "perspective"),
    (["--index", "5"], "has 1 game"),
    (["--html", "--ply", "3"], "for SVG"),
])
def test_render_usage_errors_are_one_line(args, message):
    result = invoke("render", str(SAMPLES / "flows" / "flows-090.flows"), *args)
    assert result.exit_code == 2 and message in result.output
    assert "Traceback" not in result.output


def test_render_refuses_a_view_a_game_does_not_have():
    result = invoke("render", str(SAMPLES / "tilewe" / "tw-sample-1.tilewe"),
                    "--perspective", "P2")
    assert result.exit_code == 2 and "no view options" in result.output


def test_replay_json_every_gives_every_position():
    result = invoke("replay", "--json", "--every", str(SAMPLES / "tilewe" / "tw-sample-1.tilewe"))
    data = json.loads(result.output.splitlines()[0])
    every = data["every"]
    assert [s["ply"] for s in every] == list(range(data["plies"] + 1))
    assert every[0]["event"] is None and every[1]["event"] == "I4n-a1a1"
    assert every[-1]["position"] == data["position"] and every[-1]["state"] == data["state"]
    ply2 = json.loads(invoke("replay", "--json", "--ply", "2",
                             str(SAMPLES / "tilewe" / "tw-sample-1.tilewe")).output)
    assert every[2]["position"] == ply2["position"]


# -- the viewer's data -----------------------------------------------------------------------

def decode(game: dict) -> list[list[str]]:
    """What the page's script does: rebuild every position from the table and the changes
    from its parent's (a node's parent comes before it)."""
    out: list[list[int]] = []
    for at, frame in enumerate(game["frames"]):
        if isinstance(frame, list):
            ids = list(frame)
        else:
            ids = list(out[game["nodes"][at]["parent"]])
            if "d" in frame:
                for i, value in frame["d"]:
                    ids[i] = value
            else:
                ids = ids[:frame["h"]] + frame["m"] + ids[len(ids) - frame["t"]:]
        out.append(ids)
    return [[game["table"][i] for i in ids] for ids in out]


@pytest.mark.parametrize("game_name", PICTURED)
def test_viewer_data_rebuilds_every_position_exactly(game_name):
    path = sorted((SAMPLES / game_name).glob(f"*.{game_name}"))[-1]
    for record in notation.load(str(path)):
        data = game_data(record)
        game = notation.get_game(record.game)
        expected = [game.drawing(game.start(record)).parts()]
        for step in notation.replay(record):
            expected.append(game.drawing(step.state).parts())
        assert decode(data) == expected
        assert data["main"] == list(range(1, len(expected)))  # no variations: ids are plies
        assert [data["nodes"][i]["text"] for i in data["main"]] == [
            i.text for i in record.items if hasattr(i, "event")]
        assert all(isinstance(f, list) for f in data["frames"][::FULL_EVERY])


@pytest.mark.slow
@pytest.mark.parametrize("game_name", PICTURED)
def test_viewer_data_draws_every_node_of_a_tree_at_its_path(game_name):
    from test_variations import random_tree, variations_in
    tree = next(t for t in (random_tree(game_name, seed, plies=FULL_EVERY + 6, depth=2)
                            for seed in range(100))
                if variations_in(t.items) >= 3 and len(t.events) >= 10)
    data = game_data(tree)
    nodes, pictures = data["nodes"], decode(data)
    assert len(pictures) == len(nodes) > len(tree.events) + 1  # every node reached
    game = notation.get_game(tree.game)

    def path(at: int) -> list[str]:
        return [] if at == 0 else path(nodes[at]["parent"]) + [nodes[at]["text"]]

    for at, picture in enumerate(pictures):
        position = notation.Position.from_record(tree, 0)
        for event in path(at):
            position.push(event)
        assert nodes[at]["ply"] == position.ply
        assert picture == game.drawing(position.state).parts(), path(at)
    full = [at for at, frame in enumerate(data["frames"]) if isinstance(frame, list)]
    assert full == [at for at, node in enumerate(nodes) if node["ply"] % FULL_EVERY == 0]


def test_viewer_page_is_self_contained_and_data_cannot_close_its_script():
    record = list(notation.load(str(SAMPLES / "tilewe" / "worked-examples.tilewe")))[0]
    record.tags[0].value = "</script><script>alert(1)</script>"
    page = html([record])
    assert page.count("</script>") == 1
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page)
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in page
    data = json.loads(re.search(r"const DATA = (.*);\n", page).group(1))
    assert data["games"][0]["tags"][0][1] == "</script><script>alert(1)</script>"


def test_viewer_of_an_invalid_record_stops_before_the_error(tmp_path):
    text = (SAMPLES / "tilewe" / "tw-sample-1.tilewe").read_text().replace("3. N5w-d1t1",
                                                                            "3. N5w-d1a1")
    record = notation.parse(text, "tilewe")[0]
    data = game_data(record)
    assert len(data["frames"]) == 3  # the start and two plies
    assert data["error"]["ply"] == 3 and "N5w-d1a1" in data["error"]["message"]


class _LongGames(random.Random):
    """A generator's random source that plays 140 rounds where it would play three to five."""

    def randint(self, a: int, b: int) -> int:
        return 140 if (a, b) == (3, 5) else super().randint(a, b)


@pytest.mark.slow
def test_viewer_stays_small_for_a_10000_event_record():
    game = notation.get_game("nomic")
    record = random_record(game, _LongGames(3), {})
    assert len(record.events) >= 10_000
    data = game_data(record)
    assert data["error"] is None and len(data["frames"]) == len(record.events) + 1
    size = len(json.dumps(data))
    assert size < 5_000_000, size  # compact data, not a picture per ply
    assert decode(data)[-1] == game.drawing(notation.run(record).state).parts()


# -- the README's pictures ------------------------------------------------------------------

#: samples/pictures/NAME: made by ``notation render SAMPLE ARGS...`` (``make pictures``).
PICTURES = {
    "tilewe.svg": ("tilewe/tw-sample-1.tilewe", []),
    "flows-P2.svg": ("flows/flows-090.flows", ["--perspective", "P2"]),
    "philosophy.svg": ("philosophy/phil-0009.philosophy", []),
    "sanguine.svg": ("sanguine/example-1.sanguine", []),
    "nomic.svg": ("nomic/example-1.nomic", []),
}


def render_picture(name: str) -> str:
    sample, args = PICTURES[name]
    result = invoke("render", f"samples/{sample}", *args)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_the_committed_pictures_are_what_render_draws_today(name, monkeypatch):
    monkeypatch.chdir(SAMPLES.parent)
    committed = (SAMPLES / "pictures" / name).read_text(encoding="utf-8")
    assert committed == render_picture(name), f"run `make pictures` to redraw {name}"


if __name__ == "__main__":  # make pictures
    import os
    os.chdir(SAMPLES.parent)
    for picture in sorted(PICTURES):
        (SAMPLES / "pictures" / picture).write_text(render_picture(picture), encoding="utf-8")
        print(f"samples/pictures/{picture}")


@pytest.mark.parametrize("path", sample_files(), ids=lambda p: p.name)
def test_every_sample_renders_as_an_html_viewer(path, tmp_path):
    out = tmp_path / "v.html"
    result = invoke("render", "--html", str(path), "-o", str(out))
    assert result.exit_code in (0, 1), result.output
    data = json.loads(re.search(r"const DATA = (.*);\n", out.read_text()).group(1))
    records = list(notation.load(str(path)))
    assert len(data["games"]) == len(records)
    for game, record in zip(data["games"], records):
        assert len(game["frames"]) == notation.run(record).plies + 1


# -- hostile text ----------------------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from test_fuzz import mutated  # noqa: E402


@settings(max_examples=200, deadline=None)
@given(text=st.text(), attribute=st.text())
def test_any_text_a_record_brings_still_makes_well_formed_svg(text, attribute):
    from notation.render.svg import Drawing
    d = Drawing(10, 10, text)
    d.text(1, 1, text, data_name=attribute)
    root = tree(str(d))
    assert root.find(f"{NS}text") is not None
    for part in d.parts()[1:]:
        ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{part}</svg>')


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(data=st.data(), game_name=st.sampled_from(PICTURED))
def test_render_of_mutated_records_is_well_formed_or_nothing(data, game_name, tmp_path_factory):
    source = sorted((SAMPLES / game_name).glob(f"*.{game_name}"))[0]
    folder = tmp_path_factory.mktemp("render")
    if game_name == "sanguine":  # its decks lie beside it
        (folder / "decks").mkdir()
        for deck in (SAMPLES / "sanguine" / "decks").iterdir():
            (folder / "decks" / deck.name).write_bytes(deck.read_bytes())
    path = folder / source.name
    path.write_text(data.draw(mutated(source.read_text())), encoding="utf-8",
                    errors="surrogatepass")
    result = invoke("render", str(path))
    assert result.exit_code in (0, 1, 2)
    if result.stdout:
        tree(result.stdout)
    page = invoke("render", "--html", str(path))
    assert page.exit_code in (0, 1, 2)
    if page.stdout:
        json.loads(re.search(r"const DATA = (.*);\n", page.stdout).group(1))


@pytest.mark.parametrize("name", PICTURED)
def test_every_built_in_game_has_pictures_and_a_report(name):
    """A game may go without both (a third-party game: a command that needs pictures says
    so in one line, replay --json gives the position); the built-in games have their own."""
    game = notation.registry.get(name)
    state = game.start(notation.GameNode(game, *game.setup({})))
    assert game.render(state).strip() and tree(str(game.drawing(state))).tag == f"{NS}svg"
    assert set(game.state_json(state)) != {"position"}  # not the core's default report
    assert set(game.cells(state)) != {"position"}
