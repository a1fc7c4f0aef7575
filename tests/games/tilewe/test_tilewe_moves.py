"""The Tilewe move notation (rules section 6 and 10), and a move's identity: the cells it
covers, whatever contact tile spells it (``diff``, ``dedupe``, ``select``, ``explore``,
``merge`` and ``fmt --canonical`` on two spellings, and after a Pentobi round trip)."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import notation
from notation.archive.spelling import canonical_spellings
from notation.core import registry
from notation.core.ast import EventNode, Tag
from notation.core.errors import NotationError
from notation.read.grammars import terminal_pattern
from notation.core.tree import GameNode
from notation.core.writer import format_record
from notation.games.tilewe.bitboard import move_mask
from notation.games.tilewe.events import (Move, canonical_moves, parse_square, read_move,
                                          square_name)
from notation.games.tilewe.identity import placement_key, placement_keys
from notation.games.tilewe.pieces import (ORIENTATION_NAMES, ORIENTATIONS, PIECE_NAMES,
                                          cell_name, orientation)

from conftest import invoke
from test_variations import random_tree


def test_square_names():
    assert parse_square("a1") == 0 and parse_square("t1") == 19
    assert parse_square("a20") == 380 and parse_square("t20") == 399
    assert square_name(189) == "j10"
    for bad in ("a01", "a21", "u5", "A1", "a0", "a"):
        with pytest.raises(NotationError):
            parse_square(bad)


@pytest.mark.parametrize("text", ["W5n-a1a1", "F5e-a2d4", "I2e-b1h5", "L5wf-d1n19", "T4e-b3t20"])
def test_examples_round_trip(text):
    assert str(Move.parse(text)) == text


@pytest.mark.parametrize("alias, canonical", [
    ("W5ef-a1a1", "W5n-a1a1"), ("X5ef-b1t20", "X5n-b1t20"), ("I2s-a2a1", "I2n-a2a1"),
    ("O1wf-a1k10", "O1n-a1k10"), ("L3nf-b2c3", "L3w-b2c3"),
])
def test_alias_rotations_fold_to_the_canonical_move(alias, canonical):
    assert Move.parse(alias) == Move.parse(canonical)
    assert str(Move.parse(alias)) == canonical


def test_tile_boundary_is_unambiguous():
    assert square_name(Move.parse("I5n-a1a10").target) == "a10"
    assert Move.parse("I5n-a5a10").contact == (0, 4)


@pytest.mark.parametrize("text, words", [
    ("Z5n-a1a1", "not a cell"),
    ("O1n-b1a1", "outside the piece"),
    ("I3n-b1a1", "outside the piece"),
    ("L3e-e4p19", "outside the piece"),
    ("I3n-a2a1", "not a contact tile"),
    ("W5nf-a1a1", "the same cells as W5e"),
    ("Q5n-a1a1", "unknown piece 'Q5'"),
    ("F5x-a2d4", "unknown rotation 'x'"),
    ("F5e-a2u4", "off the board"),
    ("F5e-a2a01", "off the board"),
    ("F5e-a2a21", "off the board"),
    ("f5e-a2d4", "unknown piece"),
    ("F5ea2d4", "expected [Piece][Rotation]-[Contact][Target]"),
    ("F5e-a2d4x", "not a Tilewe move"),
])
def test_ill_formed_moves_are_rejected_with_the_reason(text, words):
    with pytest.raises(NotationError) as info:
        Move.parse(text)
    assert words in str(info.value)
    rec = notation.parse(f'[Game "tilewe"]\n{text}')[0]
    problem = notation.run(rec).error
    assert problem.kind == "syntax" and words in problem.message and problem.event == text


def test_whitespace_inside_a_move_is_not_accepted():
    out = notation.run(notation.parse('[Game "tilewe"]\nF5e - a2d4')[0])
    assert not out.valid


# -- the grammar's terminal, the tables of the hot path and the writer agree -------------

def test_the_grammar_knows_every_piece_and_rotation_of_the_tables():
    """The reader takes a move apart with the MOVE terminal's named groups."""
    pattern = terminal_pattern("tilewe.lark", "MOVE")
    for piece in PIECE_NAMES:
        for rotation in ORIENTATION_NAMES:
            m = pattern.fullmatch(f"{piece}{rotation}-a1t20")
            assert m is not None
            assert (m["piece"], m["rotation"], m["contact"], m["target"]) == (
                piece, rotation, "a1", "t20")


def test_the_hot_path_reads_every_spelling_as_the_grammar_path_does():
    for piece, name in enumerate(PIECE_NAMES):
        for index, rotation in enumerate(ORIENTATION_NAMES):
            for x, y in orientation(piece, index).contacts:
                for target in ("a1", "k10", "t20"):
                    text = f"{name}{rotation}-{cell_name((x, y))}{target}"
                    assert read_move(text) == Move.parse(text)
                    assert (text in placement_keys()) == (str(Move.parse(text)) == text)


@pytest.mark.parametrize("text", ["I3n-a2a1", "O1n-b1a1", "F5e-a12d4"])
def test_the_hot_path_explains_what_it_cannot_read(text):
    with pytest.raises(NotationError):
        read_move(text)
    assert text not in placement_keys()


def test_dedupe_takes_the_keys_of_canonical_words_alone(tilewe):
    """Words in canonical spelling are looked up; any other word: read the game in full."""
    words = ["W5n-a1a1", "F5e-a2d4", "W5n-a1a1"]
    assert tilewe.quick_keys([]) == []
    assert tilewe.quick_keys(words) == [placement_key(Move.parse(w)) for w in words]
    for word in ("W5ef-a1a1", "F5e-a2d4x", "1.", "F5E-a2d4", "hello", "F5e-a2u4"):
        assert tilewe.quick_keys(["W5n-a1a1", word]) is None


# -- one placement, several spellings: one move ----------------------------------------------

#: One player: an O1 in the corner t1 and an I3 up to s4 leave r5 and t5 open corners, so
#: the U5 turned ``s`` over r5 t5 r6 s6 t6 is spelled by either end of its bottom row.
ONE_PLACEMENT = ('[Game "tilewe"]\n[Players "1"]\n\n'
                 '1. O1n-a1t1 2. I3n-a1s2 3. U5s-{} 4. I2e-b1r1\n')
BY_C1, BY_A1 = ONE_PLACEMENT.format("c1t5"), ONE_PLACEMENT.format("a1r5")


def test_two_spellings_of_one_placement_are_one_move(tilewe):
    by_c1, by_a1 = Move.parse("U5s-c1t5"), Move.parse("U5s-a1r5")
    assert by_c1 != by_a1 and move_mask(by_c1) == move_mask(by_a1)
    assert tilewe.event_identity(by_c1) == tilewe.event_identity(by_a1) == "U5s@17,4"
    assert tilewe.event_identity(Move.parse("U5s-c1s5")) != "U5s@17,4"  # one tile over
    assert tilewe.event_identity(Move.parse("W5ef-a1a1")) == tilewe.event_identity(
        Move.parse("W5n-a1a1"))  # an alias too


@pytest.mark.slow
def test_a_placement_key_is_the_cells_covered():
    """Over every spelling of every orientation on a band of targets: two moves have one
    key exactly when they cover the same tiles (on the board)."""
    by_cells: dict[int, set[str]] = {}
    by_key: dict[str, set[int]] = {}
    for piece in ORIENTATIONS:
        for oriented in piece:
            for alias in (oriented.index, *oriented.aliases):
                for contact in oriented.contacts:
                    for target in range(100, 260):
                        move = Move(oriented.piece, alias, contact, target)
                        mask = move_mask(move)
                        if mask:
                            by_cells.setdefault(mask, set()).add(placement_key(move))
                            by_key.setdefault(placement_key(move), set()).add(mask)
    assert all(len(keys) == 1 for keys in by_cells.values())
    assert all(len(masks) == 1 for masks in by_key.values())


def test_dedupe_looks_keys_up_for_every_canonical_spelling():
    table = placement_keys()
    assert table.keys() == canonical_moves()
    for text in random.Random(5).sample(sorted(table), 3000):
        assert table[text] == placement_key(read_move(text))


def test_the_commands_take_two_spellings_of_one_placement_for_one_move(tmp_path: Path):
    a, b = tmp_path / "by-c1.tilewe", tmp_path / "by-a1.tilewe"
    a.write_text(BY_C1)
    b.write_text(BY_A1)
    assert invoke("validate", str(a), str(b)).exit_code == 0
    compared = invoke("diff", str(a), str(b))
    assert compared.exit_code == 0, compared.output
    assert "game 1: same events; same state after ply 4" in compared.output
    both = tmp_path / "both.tilewe"
    both.write_text(BY_C1 + "\n" + BY_A1)
    for extra in ([], ["--symmetric"]):
        kept = invoke("dedupe", "--report", *extra, str(both))
        assert "1 duplicate dropped, 1 distinct game kept" in kept.output, kept.output
    reached = "20/20/20/20/20/20/20/20/20/20/20/20/20/20/17bbb/17b1b/18b1/18b1/18b1/19b b 1f7ffa"
    selected = invoke("select", "--count", "--position", reached, str(both))
    assert selected.output.strip() == "2"
    explored = invoke("explore", "--depth", "4", str(both)).output
    assert "3. U5s-a1r5  2 games" in explored and "U5s-c1t5" not in explored
    canonical = invoke("fmt", "--canonical", str(a)).output
    for copies in ((a, b), (b, a)):  # spelled two ways: the one canonical spelling
        merged = invoke("merge", *map(str, copies))
        assert merged.exit_code == 0 and merged.output == canonical
    alone = invoke("merge", str(a), str(a))  # spelled one way: as the copies spell it
    assert alone.exit_code == 0 and alone.output == BY_C1


def test_fmt_canonical_writes_the_spelling_the_pentobi_reader_writes(tmp_path: Path):
    a = tmp_path / "by-c1.tilewe"
    a.write_text(BY_C1)
    assert invoke("fmt", str(a)).output == BY_C1  # fmt alone keeps the contact written
    assert invoke("fmt", "--canonical", str(a)).output == BY_A1
    assert invoke("fmt", "--canonical", "--check", str(a)).exit_code == 1
    # the Pentobi reader's rule: the first contact tile (a1, then c1, ...) on an open corner
    assert [str(c) for c in orientation(15, ORIENTATION_NAMES.index("s")).contacts][:2] == [
        "(0, 0)", "(2, 0)"]


def pentobi_games(seed: int, count: int = 10) -> str:
    """``count`` random games under Pentobi's rules (each colour's first piece on its own
    corner, which Pentobi's files require), as ``notation random`` writes games."""
    game = registry.get("tilewe")
    rng = random.Random(seed)
    tags = [Tag("Game", "tilewe"), Tag("Players", "4"), Tag("Corners", "fixed"),
            Tag("Scoring", "blokus")]
    records = []
    for _ in range(count):
        record = GameNode("tilewe", list(tags))
        record.items = [EventNode(e) for e in game.random_events(rng, record)]
        records.append(format_record(record))
    return "\n".join(records)


@pytest.mark.slow
def test_a_pentobi_round_trip_is_the_same_games(tmp_path: Path):
    """Ten random games written as Blokus SGF and read back: their moves come back in the
    Pentobi reader's spelling, and they are still the same ten games to every command."""
    games = tmp_path / "games.tilewe"
    games.write_text(pentobi_games(2024))
    sgf = tmp_path / "games.blksgf"
    converted = invoke("convert", "--to", "blksgf", str(games))
    assert converted.exit_code == 0, converted.output
    sgf.write_text(converted.stdout)
    back = tmp_path / "back.tilewe"
    back.write_text(invoke("convert", "--to", "tilewe", str(sgf)).stdout)
    spelled = [(str(x), str(y)) for r, s in zip(notation.load(games), notation.load(back))
               for x, y in zip(r.events, s.events)]
    assert any(x != y for x, y in spelled)  # other contacts than the random games'
    compared = invoke("diff", str(games), str(back))
    assert compared.exit_code == 0, compared.output
    both = tmp_path / "both.tilewe"
    both.write_text(games.read_text() + "\n" + back.read_text())
    for extra in ([], ["--symmetric"]):
        kept = invoke("dedupe", "--report", *extra, str(both))
        assert "10 duplicates dropped, 10 distinct games kept" in kept.output, kept.output
    assert invoke("fmt", "--canonical", str(games)).output == invoke("fmt", str(back)).output
    for extra in ([], ["--symmetric"]):
        alone, doubled = (json.loads(invoke("explore", "--json", "--depth", "8", *extra,
                                            str(path)).stdout)["trees"]["tilewe"]["positions"]
                          for path in (games, both))
        assert alone.keys() == doubled.keys()
        for key, position in alone.items():  # each move once, by both copies of its games
            assert [2 * move["games"] for move in position["moves"]] == [
                move["games"] for move in doubled[key]["moves"]]


@pytest.mark.slow
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6))
def test_canonical_spellings_respell_every_line_from_its_own_position(seed):
    """In variations too: the same moves (each line's placements), every one legal where it
    is played, and spelled canonically once and for all."""
    record = random_tree("tilewe", seed, plies=16)
    respelled = canonical_spellings(record)
    assert notation.run(respelled).valid
    assert lines_by_identity(respelled) == lines_by_identity(record)
    text = notation.format_record(respelled)
    assert notation.format_record(canonical_spellings(notation.parse(text)[0])) == text


def lines_by_identity(record: GameNode) -> set[tuple[str, ...]]:
    tree = record.copy()
    identity = tree.rules.event_identity
    found, stack = set(), [tree]
    while stack:
        node = stack.pop()
        found.add(tuple(map(identity, node.path())))
        stack += node.variations
    return found


@settings(max_examples=12, deadline=None)  # (each a whole game: some 500 moves compared)
@given(seed=st.integers(0, 10**6), data=st.data())
def test_the_canonical_spelling_is_the_one_read_from_the_cells(seed, data):
    """``canonical_spelling`` works from the move's orientation; its definition reads the
    move's cells back as Pentobi's reader does. At every ply of a random game, for the
    move played, every other spelling of its placement, and moves drawn at random (off
    the board, with an alias orientation, or with no contact tile among them)."""
    from notation.core.new_games import random_record
    from notation.games.tilewe.identity import canonical_spelling, spelling_read_from_cells
    from notation.games.tilewe.pieces import orientation
    game = registry.get("tilewe")
    record = random_record(game, random.Random(seed), {})
    board = game.start(record)
    for move in record.events:
        oriented = orientation(move.piece, move.orientation)
        left = move.target % 20 - move.contact[0]
        bottom = move.target // 20 - move.contact[1]
        moves = [Move(move.piece, move.orientation, contact,
                      left + contact[0] + 20 * (bottom + contact[1]))
                 for contact in oriented.contacts]
        for _ in range(3):
            piece = data.draw(st.integers(0, len(PIECE_NAMES) - 1))
            index = data.draw(st.integers(0, len(ORIENTATION_NAMES) - 1))
            contact = data.draw(st.tuples(st.integers(0, 4), st.integers(0, 4)))
            moves.append(Move(piece, index, contact, data.draw(st.integers(0, 399))))
        for each in moves:
            assert canonical_spelling(board, each) == spelling_read_from_cells(board, each)
        game.apply(board, move)
