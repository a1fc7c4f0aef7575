"""Property-based tests: format then parse gives the same AST; random legal games
from the engine's own generator replay identically through the library and the CLI."""
from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
import pytest

from notation.core.tree import GameNode
import notation
from notation.core.ast import Comment, EventNode, Tag
from notation.core.writer import format_events, format_record
from notation.games.tilewe.events import Move, square_name
from notation.games.tilewe.pieces import ORIENTATION_NAMES, PIECE_NAMES, cell_name, orientation

from conftest import invoke, run_cli

TILEWE = notation.get_game("tilewe")


@st.composite
def move_texts(draw) -> str:
    """Any well-formed move spelling, alias rotations included."""
    piece = draw(st.integers(0, 20))
    rot = draw(st.integers(0, 7))
    o = orientation(piece, rot)
    contact = draw(st.sampled_from(o.contacts))
    target = draw(st.integers(0, 399))
    return f"{PIECE_NAMES[piece]}{ORIENTATION_NAMES[rot]}-{cell_name(contact)}{square_name(target)}"


@given(move_texts())
def test_move_format_then_parse_is_the_same_move(text):
    move = Move.parse(text)
    assert Move.parse(str(move)) == move
    assert TILEWE.read_event("MOVE", TILEWE.format_event(move)) == move


comment_text = st.text(st.characters(blacklist_characters="}\r\n", blacklist_categories=("Cs",)),
                       max_size=12)
tag_value = st.text(st.characters(blacklist_characters="\r\n", blacklist_categories=("Cs",)),
                    max_size=12)


@st.composite
def records(draw) -> GameNode:
    keys = draw(st.lists(st.from_regex(r"[A-Z][a-z]{0,6}", fullmatch=True), unique=True,
                         max_size=4).filter(lambda ks: "Game" not in ks))
    tags = [Tag("Game", "tilewe")] + [Tag(k, draw(tag_value)) for k in keys]
    items = []
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.integers(0, 4))
        if kind == 0:
            items.append(Comment(draw(comment_text), True))
        elif kind == 1:
            items.append(Comment(draw(comment_text), False))
        else:
            items.append(EventNode(Move.parse(draw(move_texts()))))
    return GameNode("tilewe", tags, items)


def normalised(record: GameNode):
    """The AST with numbers dropped (fmt always writes them) and positions ignored."""
    return (record.tags, [EventNode(i.event) if isinstance(i, EventNode) else i
                          for i in record.items])


@pytest.mark.slow
@given(records())
@settings(max_examples=150)
def test_record_format_then_parse_gives_the_same_ast(record):
    text = format_record(record, TILEWE)
    parsed = notation.parse(text)
    assert len(parsed) == 1
    again = parsed[0]
    assert normalised(again) == normalised(record)
    numbers = [i.number for i in again.items if isinstance(i, EventNode)]
    assert numbers == list(range(1, len(numbers) + 1))
    assert format_record(again, TILEWE) == text


@pytest.mark.slow
@given(st.text(max_size=200))
@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
def test_any_text_parses_and_replays_without_raising(text):
    for record in notation.parse(text, game="tilewe"):
        outcome = notation.run(record)
        for problem in outcome.problems:
            assert problem.kind in ("syntax", "rule") and problem.line >= 1
            assert problem.message


def random_game(seed: int, players: int):
    """A random game from the engine's own generator, with the position after every ply."""
    rng = random.Random(seed)
    board = TILEWE.start(GameNode("tilewe", [Tag("Players", str(players))]))
    moves, positions = [], []
    while not TILEWE.is_over(board):
        move = rng.choice(TILEWE.legal_moves(board))
        TILEWE.apply(board, move)
        moves.append(move)
        positions.append(TILEWE.position(board))
    return moves, positions, board


@given(st.integers(0, 2**32 - 1), st.integers(1, 4))
@settings(max_examples=12, deadline=None)
def test_random_games_replay_identically_in_library_and_cli(seed, players):
    moves, positions, board = random_game(seed, players)
    text = format_events(TILEWE, {"Game": "tilewe", "Players": str(players)}, moves)
    record = notation.parse(text)[0]
    assert [TILEWE.position(step.state) for step in notation.replay(record)] == positions
    out = json.loads(invoke("replay", "--json", "-", input=text).output)
    assert out["valid"] and out["plies"] == len(moves)
    assert out["position"] == positions[-1]
    assert out["state"] == TILEWE.state_json(board)
    assert out["result"] == TILEWE.result_json(board) and out["result"]["over"]


@pytest.mark.slow
def test_random_games_through_the_installed_command(tmp_path):
    """The same property through a real process (the console script), 20 games at once."""
    games, texts = [], []
    for seed in range(20):
        moves, positions, board = random_game(1000 + seed, 1 + seed % 4)
        games.append((positions[-1], TILEWE.result_json(board), len(moves)))
        texts.append(format_events(TILEWE, {"Game": "tilewe", "Players": str(1 + seed % 4)}, moves))
    path = tmp_path / "many.tilewe"
    path.write_text("\n".join(texts))
    result = run_cli("replay", "--json", str(path))
    assert result.returncode == 0, result.stderr
    outs = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(o["position"], o["result"], o["plies"]) for o in outs] == games
