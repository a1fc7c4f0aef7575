"""Pentobi's Blokus SGF (.blksgf) read and written as Tilewe records; Blokus's rules as tags."""
from __future__ import annotations

import random
import time
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import notation
from notation.core import formats, limits
from notation.core.ast import Comment, EventNode, Item, Tag, Variation
from notation.core.diffing import diff_records
from notation.core.errors import InputError, NotationError, TagError
from notation.core.errors import IllegalMoveError
from notation.read.reading import source_records, text_records
from notation.core.tree import GameNode, Node
from notation.core.writer import writable_comments
from notation.games.tilewe import blokus, generate, rules
from notation.games.tilewe.bitboard import move_mask, squares
from notation.games.tilewe.events import Move
from notation.games.tilewe.events import parse_square
from notation.games.tilewe import BLKSGF
from notation.games.tilewe.pentobi import reader, sgf
from notation.games.tilewe.pentobi.cells import placement
from notation.games.tilewe.pentobi.format import FORMAT
from notation.games.tilewe.state import ALL_PIECES, Board

from conftest import DATA, invoke

formats.announce(BLKSGF)  # until pyproject.toml announces it (entry point notation.formats)
HERE = DATA / "pentobi"


def read(text: str) -> list[GameNode]:
    return text_records(text, "game.blksgf")


def problems(text: str) -> list[tuple[int, int, str]]:
    found = []
    for record in read(text):
        if record.game_problem:
            found.append((record.pos.line, record.pos.column, record.game_problem))
        found += [(p.line, p.column, p.message) for p in notation.run(record).problems]
    return found


# -- reading: known answers ----------------------------------------------------------------

def test_a_four_player_game_with_a_tree_reads_as_tilewe() -> None:
    record, = read((HERE / "blokus.blksgf").read_text(encoding="utf-8"))
    assert notation.format_record(record) == """\
[Game "tilewe"]
[Players "4"]
[Corners "fixed"]
[Scoring "blokus"]
[Player1 "Ann"]
[Player2 "Bob"]
[Player3 "Cy"]
[Player4 "Di"]
[Date "2024-05-01"]
[Event "Club night"]

{ Four players, one colour each. } 1. I3n-a3a20!
{ Blue takes its corner: a ] and a \\ in words } 2. O1n-a1t20 3. L3w-b1t1??
4. I2e-a1a1 5. I2e-a1b17!? (5. I2n-a2b17?! { Another way }) 6. I2n-a2s19
"""
    assert not notation.run(record).problems
    first = record.items[1]
    assert isinstance(first, EventNode) and first.pos.line == 3 and first.pos.column == 2


def test_legacy_properties_and_two_player_owners() -> None:
    record, = read((HERE / "two_player_legacy.blksgf").read_text(encoding="utf-8"))
    assert record.headers["Owners"] == "1 2 1 2"
    assert record.headers["Player1"] == "Ann" and record.headers["Player2"] == "Bob"
    assert [str(e) for e in record.events] == [
        "I2e-a1a20", "L3w-b2t20", "O1n-a1t1", "I4e-a1a1", "I3n-a3c19"]
    assert not notation.run(record).problems


def test_three_player_tree_and_the_shared_colour() -> None:
    record, = read((HERE / "three_player.blksgf").read_text(encoding="utf-8"))
    assert record.headers["Owners"] == "1 2 3 shared"
    tree = record.copy()
    assert [str(n.move) for n in tree.mainline()][:5] == [
        "I3n-a3a20", "O1n-a1t20", "I2e-b1t1", "O4n-a1a1", "O1n-a1b17"]
    fourth = tree.mainline()[3]
    assert [str(v.move) for v in fourth.variations] == ["O1n-a1b17", "I2e-a1b17"]
    assert fourth.variations[1].nags == [3]  # TE[2] is !!
    board = notation.run(record).state
    assert blokus.holder(board, 3) == 3  # green placed 2 pieces: its third is player 3's
    assert blokus.player_points(board) == [4, 3, 3]  # green's 5 tiles count for nobody


def test_the_cli_reads_validates_and_converts_a_pentobi_file(tmp_path: Path) -> None:
    path = HERE / "blokus.blksgf"
    assert invoke("validate", str(path)).output.strip().endswith("ok, 6 plies")
    written = invoke("convert", "--to", "blksgf", str(path)).output
    assert written.startswith("(;GM[Blokus]FF[4]CA[UTF-8]P1[Ann]")
    assert "(;1[b17,c17]DO[];2[s18,s19])(;1[b16,b17]IT[]C[Another way]))" in written
    native = invoke("convert", "--to", "tilewe", str(path)).output
    assert "5. I2e-a1b17!? (5. I2n-a2b17?! { Another way })" in native
    assert invoke("stats", str(path)).exit_code == 0


# -- reading: every refusal, one line at its place --------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("(;GM[Blokus Duo];B[e10])", (1, 1, "Pentobi variant 'Blokus Duo' is not read: only "
     "Blokus, Blokus Two-Player and Blokus Three-Player (the classic 20x20 board, Tilewe's)")),
    ("(;GM[Blokus]\n;1[a20,c20])", (2, 2, "the cells a20,c20 are no Blokus piece")),
    ("(;GM[Blokus]\n;1[a21])", (2, 2, "'a21' is off the board (cells are a1 to t20)")),
    ("(;GM[Blokus]\n;2[t20])", (2, 2, "a move of yellow, but blue is to move (colours move "
     "in turn, passing only when they cannot move)")),
    ("(;GM[Blokus]\n;1[a1])", (2, 2, "blue's first piece must cover blue's own corner a20 "
     "(its contact tile there), not a1")),
    ("(;GM[Blokus]AB[a20]\n;1[a20])", (1, 13, "set-up property AB is not read (a Tilewe "
     "record starts from an empty board here)")),
    ("(;GM[Blokus]\n;1[a20]", (2, 8, "the game tree is never closed by ')'")),
    ("(;GM[Blokus];1[a20]))", (1, 21, "')' closes no game tree")),
    ("(;GM[Blokus]@;1[a20])", (1, 13, "unexpected '@' (SGF is '(', ';', properties such as "
     "C[...], ')')")),
    ("(;GM[Blokus];1[a20]2[t20])", (1, 20, "a second move in one node")),
    ("(;GM[Blokus];1[a20]TE[3])", (1, 20, "TE takes 1 or 2")),
    ("(;GM[Blokus];1[a20]C)", (1, 20, "property C has no value")),
    ("(;GM[Blokus];1[a20]C[abc", (1, 21, "'[' never closed by ']'")),
])
def test_each_refusal_is_one_line_at_its_place(text: str, expected: tuple[int, int, str]) -> None:
    assert expected in problems(text)


def test_only_the_broken_line_stops() -> None:
    text = "(;GM[Blokus];1[a20](;2[t19])(;2[t20];3[t1]))"
    found = problems(text)
    assert len(found) == 1 and "is no Blokus piece" not in found[0][2]
    record, = read(text)
    assert len(record.copy().variations[0].variations) == 2


# -- Blokus's rules as Tilewe tags --------------------------------------------------------------

def test_fixed_corners_put_each_first_piece_on_its_own_corner() -> None:
    free = notation.new("tilewe")
    free.push("O1n-a1a1")  # Tilewe: any free corner
    fixed = notation.new("tilewe", corners="fixed")
    with pytest.raises(IllegalMoveError, match="own corner a20"):
        fixed.push("O1n-a1a1")
    fixed.push("O1n-a1a20")
    targets = {m.target for m in fixed.legal_moves()}
    assert targets == {parse_square("t20")}  # yellow's corner only
    for colour, corner in enumerate(("a20", "t20", "t1", "a1")):
        assert blokus.CORNERS[colour] == 1 << parse_square(corner)


def _board(tiles: list[int], **tags: str) -> Board:
    board = rules.start({"Players": "4", **tags})
    for colour, count in enumerate(tiles):
        board.own[colour] = (1 << count) - 1 << 100 * colour
    return board


def test_owners_decide_the_winners() -> None:
    assert rules.winners(_board([10, 20, 15, 4])) == [1]
    assert rules.winners(_board([10, 20, 15, 4], Owners="1 2 1 2")) == [0, 2]  # 25 to 24
    assert rules.winners(_board([10, 20, 15, 4], Owners="1 2 3 shared")) == [1]
    tie = _board([10, 20, 14, 4], Owners="1 2 1 2")
    assert rules.winners(tie) == [0, 1, 2, 3]  # 24 each: both players' colours


def test_the_shared_colour_is_played_in_turn() -> None:
    board = _board([0, 0, 0, 0], Owners="1 2 3 shared")
    seen = []
    for piece in range(5):
        seen.append(blokus.holder(board, 3))
        board.used[3] |= 1 << piece
    assert seen == [1, 2, 3, 1, 2]
    assert [blokus.holder(board, c) for c in range(3)] == [1, 2, 3]


def test_blokus_scoring_bonuses() -> None:
    board = _board([89, 10, 89, 5], Scoring="blokus")
    board.used[0] = board.used[2] = ALL_PIECES
    board.last_piece[0], board.last_piece[2] = 0, 7  # blue ended with the monomino
    assert blokus.colour_points(board) == [89 + 15 + 5, 10, 89 + 15, 5]
    assert rules.result(board).tags["Scores"] == "109 10 104 5"
    board.scoring = "tiles"
    assert blokus.colour_points(board) == [89, 10, 89, 5]


@pytest.mark.parametrize("tags, key", [({"Corners": "own"}, "Corners"),
                                       ({"Owners": "1 3 1 3"}, "Owners"),
                                       ({"Owners": "1 2 1"}, "Owners"),
                                       ({"Owners": "shared 1 1 1"}, "Owners"),
                                       ({"Scoring": "area"}, "Scoring")])
def test_bad_blokus_tags_are_refused(tags: dict[str, str], key: str) -> None:
    with pytest.raises(TagError) as caught:
        rules.start({"Players": "4", **tags})
    assert caught.value.key == key


# -- writing: refusals ----------------------------------------------------------------------

def _record(moves: list[str], **tags: str) -> GameNode:
    return GameNode("tilewe", [Tag("Game", "tilewe"), *(Tag(k, v) for k, v in tags.items())],
                  [EventNode(notation.parse_event("tilewe", m), None) for m in moves])


@pytest.mark.parametrize("record, reason", [
    (_record([], Players="2"), "Pentobi's classic board is for four colours; this game has 2"),
    (_record(["O1n-a1a1"]), "ply 1: blue's first piece O1n-a1a1 is not on blue's own corner "
                            "a20, where Pentobi's rules put it"),
    (_record([], Owners="1 1 2 2"), "[Owners \"1 1 2 2\"] is no Pentobi variant (Blokus: "
                                    "1 2 3 4, Two-Player: 1 2 1 2, Three-Player: 1 2 3 shared)"),
    (_record([], Position="20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20 b "
                          "1fffff,1fffff,1fffff,1fffff"),
     "a record set up with [Position] is not written as a Pentobi file"),
])
def test_what_pentobi_cannot_hold_is_refused(record: GameNode, reason: str) -> None:
    with pytest.raises(NotationError) as caught:
        FORMAT.write(record)
    assert str(caught.value) == reason


def test_an_annotation_without_a_property_is_refused() -> None:
    record = _record(["O1n-a1a20"], Corners="fixed")
    record.items[0].nags = (7,)  # type: ignore[union-attr]
    with pytest.raises(NotationError, match=r"the annotation \$7 has no Pentobi property"):
        FORMAT.write(record)


# -- round trips ------------------------------------------------------------------------------

OWNERS = ("1 2 3 4", "1 2 1 2", "1 2 3 shared")
REMARKS = ("", "", "fine", "a ] and a \\ here", "[%clk 0:01:30] timed")
NAG_SETS = ((), (), (1,), (3,), (2,), (4,), (5,), (6,), (1, 5))


def canonical(board: Board, move: Move) -> Move:
    """The spelling a Pentobi file's cells are read as (the cells' piece, first contact on an
    anchor)."""
    return placement(squares(move_mask(move) or 0), board.anchors(board.to_move() or 0))


def random_line(rng: random.Random, board: Board, plies: int, depth: int) -> list[Item]:
    """Random legal canonical moves from ``board`` (played on it), with comments, glyphs and
    alternatives (each from the board before the move it stands for)."""
    items: list[Item] = []
    for _ in range(plies):
        player = board.to_move()
        if player is None:
            break
        before = board.copy()
        move = canonical(board, generate.random_move(rng, board, player))
        rules.play(board, move)
        items.append(EventNode(move, None, nags=rng.choice(NAG_SETS)))
        if remark := rng.choice(REMARKS):
            items.append(Comment(f" {remark} ", True))
        if depth < 3 and rng.random() < 0.2:
            other = before.copy()
            inner = random_line(rng, other, rng.randint(1, 4), depth + 1)
            first = inner[0]
            if isinstance(first, EventNode) and first.event != move:
                if remark := rng.choice(REMARKS):
                    inner.insert(0, Comment(f" {remark} ", True))
                items.append(Variation(inner))
    return items


def shape(node: Node) -> tuple[object, ...]:
    return (str(node.move), node.comment, node.starting_comment, tuple(node.nags),
            tuple(sorted(node.commands.items())), tuple(shape(v) for v in node.variations))


@pytest.mark.slow
@settings(max_examples=25)
@given(seed=st.integers(0, 2 ** 32 - 1), owners=st.sampled_from(OWNERS),
       plies=st.integers(0, 90))
def test_tilewe_to_blksgf_to_tilewe_is_the_same_record(seed: int, owners: str, plies: int) -> None:
    tags = {"Game": "tilewe", "Players": "4", "Corners": "fixed", "Scoring": "blokus",
            "Owners": owners}
    rng = random.Random(seed)
    items = random_line(rng, rules.start(tags), plies, 0)
    record = GameNode("tilewe", [Tag(k, v) for k, v in tags.items()], items)
    assert not notation.run(record).problems
    back, = read(FORMAT.write(record))
    assert not notation.run(back).problems
    assert diff_records(record, back, notation.get_game("tilewe")).same
    assert shape(back.copy()) == shape(record.copy())
    expected = tags if owners != "1 2 3 4" else {k: v for k, v in tags.items() if k != "Owners"}
    assert back.headers == expected


def test_any_spelling_is_written_as_its_cells() -> None:
    """Moves spelled with another contact come back in the canonical spelling, same board."""
    tags = {"Game": "tilewe", "Players": "4", "Corners": "fixed"}
    board, rng = rules.start(tags), random.Random(7)
    moves: list[Item] = []
    while (player := board.to_move()) is not None:
        move = generate.random_move(rng, board, player)
        rules.play(board, move)
        moves.append(EventNode(move, None))
    record = GameNode("tilewe", [Tag(k, v) for k, v in tags.items()], moves)
    back, = read(FORMAT.write(record))
    result = diff_records(record, back, notation.get_game("tilewe"))
    assert not result.cells and result.ply_a == result.ply_b == len(moves)
    assert any(str(a) != str(b) for a, b in zip(record.events, back.events))  # spellings differ


# -- reading a file a tree at a time --------------------------------------------------------------

def placed(records: list[GameNode]) -> list[tuple[object, ...]]:
    """What a reading gives, positions included (records compare without them)."""
    def items(found: list[Item]) -> list[tuple[object, ...]]:
        return [(type(i).__name__, i.pos, items(i.items) if isinstance(i, Variation)
                 else str(i)) for i in found]
    return [(r.index, r.pos, r.game, r.game_problem, [(t.pos, str(t)) for t in r.tags],
             items(r.items)) for r in records]


def whole(text: str) -> list[GameNode]:
    """The oracle: every tree of the text read from one piece of all of it, as before trees
    were read one at a time."""
    trees = sgf.read_trees(sgf.Piece(1, 1, text))
    return [reader.record_of(tree, "game.blksgf", index, sgf.Piece(1, 1, text))
            for index, tree in enumerate(trees, 1)]


#: Text that makes trees, and every way of breaking them: stray and missing parentheses,
#: values with escapes and line breaks, text outside trees, unclosed values.
SGF_PARTS = ["(", ")", ";", "GM[Blokus]", "1[a18,a19,a20]", "2[t20]", "C[a \\] b\n c]",
             "C[x\\\\]", "[", "\\", "\n", " ", "@", "TE[1]", "(;GM[Blokus]", ")\n"]


@pytest.mark.slow
@settings(max_examples=300)
@given(parts=st.lists(st.sampled_from(SGF_PARTS), max_size=40),
       cuts=st.lists(st.integers(0, 400), max_size=6))
def test_trees_read_one_at_a_time_read_as_the_whole_text(parts: list[str],
                                                        cuts: list[int]) -> None:
    """The file cut into trees (its text given in chunks cut anywhere) reads exactly as its
    whole text read at once: the same records, problems at the same places."""
    text = "".join(parts)
    bounds = sorted({0, len(text), *(c for c in cuts if c < len(text))})
    chunks = [text[a:b] for a, b in zip(bounds, bounds[1:])]
    assert placed(list(reader.records(chunks, "game.blksgf"))) == placed(whole(text))


def many_games(count: int, per_line: int = 1) -> str:
    """``count`` copies of the sample game, ``per_line`` on a line, with a stray ``)`` after
    every third one (a problem of the game after it)."""
    game = (HERE / "blokus.blksgf").read_text(encoding="utf-8").replace("\n", " ").strip()
    games = [game + (" ) " if i % 3 == 2 else "") for i in range(count)]
    return "\n".join("".join(games[i:i + per_line]) for i in range(0, count, per_line)) + "\n"


@pytest.mark.parametrize("per_line", [1, 7])
def test_batches_of_a_pentobi_file_read_as_the_whole_file(tmp_path: Path, per_line: int) -> None:
    """Worker processes get a Pentobi file in batches of its own trees (a batch may start
    within a line), each read as the file reads."""
    from notation.parallel import batch
    path = tmp_path / "many.blksgf"
    path.write_text(many_games(60, per_line), encoding="utf-8")
    expected = placed(read(path.read_text(encoding="utf-8")))
    strays = [r for r in expected if any(kind == "Malformed" for kind, *_ in r[5])]  # type: ignore[misc]
    assert len(expected) == 60 and len(strays) == 20
    for target in (1, 3000, 1 << 20):
        got: list[GameNode] = []
        found = list(batch.batches(str(path), target=target))
        assert (len(found) > 5) == (target < 1 << 20)
        for each in found:
            got += batch.batch_records(each, checked=False)
        for index, record in enumerate(got, 1):
            record.index = index  # (the runner numbers a batch's games in the file)
        assert placed(got) == expected, target


def test_the_runner_checks_a_pentobi_file_in_processes_as_here(tmp_path: Path) -> None:
    from notation.parallel import runs as runner
    path = tmp_path / "many.blksgf"
    path.write_text(many_games(90, 4), encoding="utf-8")
    here = [o.to_json() for o in runner.outcomes([str(path)], runner.VALIDATE)]
    assert len(here) == 90 and sum(1 for o in here if o["errors"]) == 30
    assert [o.to_json() for o in runner.outcomes([str(path)], runner.VALIDATE, jobs=2,
                                                 target=4096)] == here


def _peak(path: Path, work) -> int:
    tracemalloc.start()
    try:
        work(path)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _read_all(path: Path) -> None:
    assert sum(1 for _ in source_records(path, checked=True)) >= 200


def _check_all(path: Path) -> None:
    from notation.parallel import runs as runner  # (batches of 16 KB: a batch's outcomes are held together)
    assert sum(1 for _ in runner.outcomes([str(path)], runner.VALIDATE, target=16 << 10)) >= 200


@pytest.mark.slow
@pytest.mark.parametrize("work", [_read_all, _check_all], ids=["reader", "runner"])
def test_a_pentobi_archive_is_read_in_flat_memory(tmp_path: Path, work) -> None:
    """Four times the games, about the same peak (the file was read whole: its text, then
    every token of it, then every tree)."""
    small, large = tmp_path / "small.blksgf", tmp_path / "large.blksgf"
    small.write_text(many_games(200), encoding="utf-8")
    large.write_text(many_games(800), encoding="utf-8")
    work(small)  # (imports, grammars)
    peak_small, peak_large = _peak(small, work), _peak(large, work)
    assert peak_large < peak_small * 1.25 + (256 << 10), (peak_small, peak_large)


def _stray_cpu(count: int) -> float:
    """The least CPU time of three readings and replays of a game followed by ``count``
    stray ``)``, each a problem placed among the game's items."""
    text = "(;GM[Blokus];1[a18,a19,a20];2[t20])" + ")" * count
    best = float("inf")
    for _ in range(3):
        began = time.process_time()
        record, = read(text)
        problems = notation.run(record).problems  # the first MAX_PROBLEMS, then the count
        assert len(problems) == limits.MAX_PROBLEMS + 1
        assert f"... and {count - limits.MAX_PROBLEMS:,} more problems" in problems[-1].message
        best = min(best, time.process_time() - began)
    return best


def test_stray_parentheses_are_placed_in_linear_time() -> None:
    """Each problem was inserted where it goes by a scan of all before it: quadratic (16,000
    stray parentheses took 16 s). Four times as many now take about four times the CPU
    (the bound 8 leaves a busy machine room; quadratic is 16)."""
    _stray_cpu(1000)
    small, large = _stray_cpu(5000), _stray_cpu(20000)
    assert large / small < 8, (small, large)


def test_a_game_of_a_pentobi_file_past_the_game_limit_is_refused(monkeypatch) -> None:
    """A tree (and the text before it) is gathered within the limit on one game's text."""
    monkeypatch.setattr(limits, "MAX_GAME_CHARS", 1 << 16)
    text = "(;GM[Blokus]C[" + "x" * (1 << 17) + "])"
    with pytest.raises(InputError, match=r"^big\.blksgf: error: the game from line 1 runs "
                                         r"past 65,536 characters"):
        list(reader.records([text[i:i + 4096] for i in range(0, len(text), 4096)],
                            "big.blksgf"))


def test_the_cut_skips_values_as_the_grammar_reads_them() -> None:
    """The cutter's scan of a value's text is the grammar's own VALUE terminal, between its
    brackets (written out once more: the cut resumes a value in the next chunk)."""
    from notation.read.grammars import terminal_pattern
    value = terminal_pattern("blksgf.lark", "VALUE").pattern
    assert value == "(?s:\\[" + sgf._VALUE_BODY.pattern + "\\])"


# -- bridges: comments, tree problems, refusals --------------------------------------------

def test_a_comment_a_brace_cannot_hold_is_written_as_line_comments(tmp_path: Path):
    for text in ("C[a } b]", 'C[x\n\n[Event "y"\\]\nz]'):
        path = tmp_path / "c.blksgf"
        path.write_text(f"(;GM[Blokus];1[a18,a19,a20]{text})")
        assert invoke("validate", str(path)).exit_code == 0
        native = invoke("convert", "--to", "tilewe", str(path)).output
        (record,) = notation.parse(native)
        assert notation.run(record).valid, native
        json_path = tmp_path / "c.notation.json"
        json_path.write_text(invoke("convert", "--to", "json", str(path)).output)
        assert invoke("validate", str(json_path)).exit_code == 0
    (comment,) = [i for i in notation.parse("[Game \"tilewe\"]\n1. W5n-a1a1 {x}")[0].items
                  if isinstance(i, notation.Comment)]
    assert writable_comments(comment) == [comment]


def test_a_pentobi_trees_own_problems_stand_where_the_file_has_them(tmp_path: Path):
    path = tmp_path / "t.blksgf"
    path.write_text("(;GM[Blokus];1[a18,a19,a20];2[t20];3[a1]))")
    lines = invoke("validate", str(path)).output.splitlines()
    assert [line.split(": error: ")[0] for line in lines] == [f"{path}:1:36", f"{path}:1:42"]
    assert "ply 3 (O1n-a1a1)" in lines[0] and "')' closes no game tree" in lines[1]


def test_a_record_a_format_cannot_hold_is_that_records_problem(tmp_path: Path):
    path = tmp_path / "two.tilewe"
    path.write_text('[Game "tilewe"]\n[Players "2"]\n\n1. W5n-a1a1\n')
    result = invoke("convert", "--to", "blksgf", str(path))
    assert result.exit_code == 1
    assert result.output.startswith(f"{path}:1:1: error: game 1: cannot be written as blksgf: ")
    assert "nothing was written" in result.output
