"""Tilewe's compiled rules over a whole game (``compiled/rules.c``) against their Python
definition (``rules.replay_words_python``): the same verdict on random and mutated games
from any start, the same board after; a word is read only where the grammar reads it."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.core import registry
from notation.core.new_games import random_record
from notation.games.tilewe import rules
from notation.games.tilewe.events import SPELLINGS, Move, read_move, square_name
from notation.games.tilewe.state import Board
from notation.read.grammars import terminal_pattern

TILEWE = registry.require("tilewe")
OPTIONS = st.fixed_dictionaries({}, optional={
    "players": st.integers(1, 4), "corners": st.sampled_from(["any", "fixed"]),
    "scoring": st.sampled_from(["tiles", "blokus"])})
WORDS = st.sampled_from(sorted(SPELLINGS)).flatmap(
    lambda spelling: st.integers(0, 399).map(lambda target: spelling + square_name(target)))


def board_of(board: Board) -> dict[str, object]:
    return {name: getattr(board, name) for name in Board.__slots__}


def both(start: Board, words: list[str]) -> tuple[bool | None, bool, Board, Board]:
    compiled, python = start.copy(), start.copy()
    return (rules.replay_words(compiled, list(words)), rules.replay_words_python(python, words),
            compiled, python)


def mutated(rng: random.Random, words: list[str], data: st.DataObject) -> list[str]:
    words = list(words)
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(6)
        at = rng.randrange(len(words)) if words else 0
        if kind == 0 and len(words) > 1:
            other = rng.randrange(len(words))
            words[at], words[other] = words[other], words[at]
        elif kind == 1 and words:
            del words[at]
        elif kind == 2 and words:
            words.insert(at, words[at])
        elif kind == 3:
            words.insert(at, data.draw(WORDS))
        elif kind == 4:
            words.insert(at, data.draw(st.text("O1F5enwsf-abct0129 ", max_size=10)))
        else:
            words = words[:at]
    return words


def test_the_compiled_rules_are_built() -> None:
    assert rules.COMPILED, "compiled/rules.c was not built"


@settings(max_examples=150, deadline=None)
@given(options=OPTIONS, seed=st.integers(0, 2**32), cut=st.floats(0, 1), data=st.data())
def test_compiled_and_python_replays_agree(options: dict[str, object], seed: int, cut: float,
                                          data: st.DataObject) -> None:
    """From the record's start or from a board part-way through (a player to move known
    or not, players out), whole, cut short or mutated: one verdict, one board."""
    rng = random.Random(seed)
    record = random_record(TILEWE, rng, options)
    words = [TILEWE.format_event(move) for move in record.events]
    start = rules.start(record)
    played = int(cut * len(words))
    for word in words[:played]:
        rules.play(start, read_move(word))
    if rng.random() < 0.5:
        start.to_move()
    rest = words[played:] if rng.random() < 0.4 else mutated(rng, words[played:], data)
    compiled, python, after_compiled, after_python = both(start, rest)
    assert compiled is python
    if python:
        assert board_of(after_compiled) == board_of(after_python)
    if rest == words[played:]:
        assert python


def read_back(word: str) -> Move | None:
    """The move ``read_move`` reads from a text the MOVE terminal matches (else None)."""
    if terminal_pattern("tilewe.lark", "MOVE").fullmatch(word) is None:
        return None
    try:
        return read_move(word)
    except Exception:  # (a contact that is no contact tile, say)
        return None


@settings(max_examples=300, deadline=None)
@given(word=WORDS | st.text("O1I2F5Z4nesfwf-abcdt0123456789 é", max_size=10))
def test_a_word_is_read_exactly_where_the_grammar_and_read_move_read_it(word: str) -> None:
    slots = rules.compiled_slots()
    found = rules.compiled_rules.move_of(word)
    expected = read_back(word)
    assert (None if found is None else Move(*slots[found[0]], found[1])) == expected


def test_every_spelling_is_read_at_every_target_edge() -> None:
    slots = rules.compiled_slots()
    for spelling in SPELLINGS:
        for target in (0, 19, 137, 380, 399):
            word = spelling + square_name(target)
            found = rules.compiled_rules.move_of(word)
            assert found is not None, word
            assert read_move(word) == Move(*slots[found[0]], found[1])


@pytest.mark.parametrize("fields", [
    (), (4,), ("4",) * 15, (5, 0, [0] * 5, [0] * 5, [0] * 5, [0] * 5, 0, False, 0, False, 0,
                            None, 0, [0] * 5, [-1] * 5)])
def test_board_fields_that_are_no_board_are_refused(fields: tuple[object, ...]) -> None:
    rules.compiled_slots()
    with pytest.raises((TypeError, ValueError)):
        rules.compiled_rules.replay(fields, [])


def test_a_bad_mask_or_word_list_is_refused_not_read() -> None:
    rules.compiled_slots()
    board = Board(2)
    fields = [getattr(board, name) for name in rules.FIELDS]
    for at, wrong in ((1, -1), (1, 1 << 400), (2, [0]), (6, 2), (7, 1), (11, 7), (14, [0, 21])):
        changed = list(fields)
        changed[at] = wrong
        with pytest.raises((TypeError, ValueError)):
            rules.compiled_rules.replay(tuple(changed), [])
    with pytest.raises(TypeError):
        rules.compiled_rules.replay(tuple(fields), ("O1n-a1a1",))
    assert rules.compiled_rules.replay(tuple(fields), [b"O1n-a1a1", 3]) is None


def test_masks_come_back_as_ints_whatever_came_in() -> None:
    """The conversions' memo keeps plain ints only: a mask of an int's subclass is read
    as its value, and every mask comes back a plain int, equal to one read afresh."""
    class Mask(int):
        pass

    rules.compiled_slots()
    board = Board(2)
    fields = [getattr(board, name) for name in rules.FIELDS]
    at = rules.FIELDS.index("starts")
    fields[at] = [Mask(fields[at][0]), fields[at][1]]
    found = rules.compiled_rules.replay(tuple(fields), ["O1n-a1a1", "O1n-a1t20"])
    assert found is not None
    masks = [found[0][1], *found[0][2], *found[0][3], *found[0][4], found[0][12],
             *found[0][13]]
    assert all(type(mask) is int for mask in masks)
    plain = rules.compiled_rules.replay(tuple(getattr(Board(2), n) for n in rules.FIELDS),
                                        ["O1n-a1a1", "O1n-a1t20"])
    assert plain is not None and found[0] == plain[0]


def test_without_the_compiled_rules_each_move_is_played(monkeypatch: pytest.MonkeyPatch) -> None:
    record = random_record(TILEWE, random.Random(5), {})
    words = [TILEWE.format_event(move) for move in record.events]
    monkeypatch.setattr(rules, "compiled_rules", None)
    assert rules.replay_words(rules.start(record), words) is None


def recorded_python(board: Board, moves: list[Move]) -> tuple[list[int], list[int]] | None:
    """``replay_recorded``'s definition: ``state.replayed_columns``' loop."""
    placed, masks = [], []
    try:
        for move in moves:
            rules.play(board, move)
            placed.append(board.last_mover)
            masks.append(board.last)
    except Exception:
        return None
    board.to_move()
    return placed, masks


@settings(max_examples=100, deadline=None)
@given(options=OPTIONS, seed=st.integers(0, 2**32), cut=st.floats(0, 1), data=st.data())
def test_a_recorded_replay_agrees_with_playing_each_move(
        options: dict[str, object], seed: int, cut: float, data: st.DataObject) -> None:
    """Export's replay: the same players, tiles and board as the moves played one by one;
    a move it does not play (illegal, or made by hand) leaves the board as it was."""
    rng = random.Random(seed)
    record = random_record(TILEWE, rng, options)
    words = [TILEWE.format_event(move) for move in record.events]
    start = rules.start(record)
    for word in words[:int(cut * len(words))]:
        rules.play(start, read_move(word))
    rest = words[int(cut * len(words)):]
    moves = [read_move(w) for w in (rest if rng.random() < 0.4 else mutated(rng, rest, data))
             if read_back(w) is not None]
    if moves and rng.random() < 0.2:  # a move made by hand: an alias, or no contact tile
        moves[rng.randrange(len(moves))] = data.draw(st.builds(
            Move, st.integers(-1, 21), st.integers(-1, 8),
            st.tuples(st.integers(-1, 5), st.integers(-1, 5)), st.integers(-1, 400)))
    compiled, python = start.copy(), start.copy()
    before = board_of(compiled)
    found = rules.replay_recorded(compiled, moves)
    expected = recorded_python(python, moves)
    if found is None:
        assert board_of(compiled) == before
        assert expected is None
        return
    assert found == expected
    assert board_of(compiled) == board_of(python)


def test_a_boards_fields_are_read_and_set_in_their_order() -> None:
    """The fields the compiled rules take and give (``FIELDS``), read in one call and set
    written out: each name to its own place."""
    board = Board(2)
    marks = tuple(object() for _ in rules.FIELDS)
    rules._set_fields(board, marks)
    assert [getattr(board, name) for name in rules.FIELDS] == list(marks)
    assert rules._fields_of(board) == marks
    assert set(rules.FIELDS) == set(Board.__slots__) - {"owners", "scoring"}


BLANKS = st.sampled_from([" ", "  ", "\t", "\n", " \n", "\r\n", "\x0b", "\x0c", "\x1c", "\x1f",
                          "\u00a0", "\u2003", "\x85"])
NUMBERS = st.sampled_from(["{n}.", "{n}.", "{n}.", "{m}.", "0{n}.", "+{n}.", "{n}", "{n}..",
                           "", "{n}.{n}."])


@st.composite
def bodies(draw: st.DrawFn) -> tuple[list[str], str]:
    """A game's words (its own, or some changed) laid out in the usual way or nearly:
    numbers wrong, missing, glued, alone on their lines; any of ``str.split``'s blanks,
    ASCII or not; a stray "." now and then."""
    record = random_record(TILEWE, random.Random(draw(st.integers(0, 10**6))), {})
    words = [TILEWE.format_event(move) for move in record.events]
    words = words[:draw(st.integers(0, len(words)))]
    if words and draw(st.booleans()):
        words[draw(st.integers(0, len(words) - 1))] = draw(WORDS | st.sampled_from(
            ["F5e-a2d4!", "x", "1.", "F5e-a2d4.", "F5E-a2d4"]))
    usual = draw(st.booleans())
    parts = []
    for n, word in enumerate(words, 1):
        number = "{n}." if usual else draw(NUMBERS)
        after = " " if usual else draw(st.sampled_from(["", " ", "\t", " \t", "\n", " \n"]))
        parts.append(number.format(n=n, m=n + 1) + after + word)
    return words, (" " if usual else draw(BLANKS)).join(parts) + draw(
        st.sampled_from(["", "\n", " \n\n", "\x1f", "\u00a0"]))


@settings(max_examples=300, deadline=None)
@given(bodies())
def test_a_body_played_in_one_call_is_its_usual_words_played(found: tuple[list[str], str]
                                                             ) -> None:
    """``replay_body`` (compiled: the body cut into its words in C) takes exactly the
    bodies ``fastpath._usual_words`` takes (its definition; one not ASCII it leaves to
    it), and plays them as ``replay_words`` does: the same plies, verdict and board."""
    from notation.core.fastpath import _usual_words
    _, body = found
    words = _usual_words(body)
    compiled, python = Board(4), Board(4)
    played = rules.replay_body(compiled, body)
    if not body.isascii():
        assert played is None
        return
    assert (played is None) == (words is None)
    if words is not None:
        verdict = rules.replay_words_python(python, words)
        assert (played is not False) == verdict
        if verdict:
            assert played == len(words) and board_of(compiled) == board_of(python)


def test_a_body_in_the_usual_layout_is_taken_whole_or_not_at_all() -> None:
    record = random_record(TILEWE, random.Random(7), {})
    words = [TILEWE.format_event(move) for move in record.events]
    body = "\n".join(f"{n}. {word}" for n, word in enumerate(words, 1)) + "\n"
    board = Board(4)
    assert rules.replay_body(board, body) == len(words) and board.ply == len(words)
    for other in (body.replace("2. ", "02. ", 1), body.replace("3. ", "3.\n", 1),
                  body + "99.", body.replace(" ", "\u00a0", 1), body.replace("4. ", "", 1)):
        assert rules.replay_body(Board(4), other) is None, other
    assert rules.replay_body(Board(4), body.replace(words[1], words[0], 1)) is False
    assert rules.replay_body(Board(4), "") == 0


@settings(max_examples=300, deadline=None)
@given(anchor=st.integers(0, 399), piece=st.integers(1, 20), density=st.sampled_from(
    [0.0, 0.15, 0.35, 0.6]), seed=st.integers(0, 2**32 - 1))
def test_whether_a_player_can_move_at_one_anchor_anywhere_agrees(
        anchor: int, piece: int, density: float, seed: int) -> None:
    """The compiled search for a fit at one anchor, by each board edge and corner, with one
    piece in hand (the monomino placed) among random blocked tiles: the Python search's
    answer."""
    rng = random.Random(seed)
    board = Board(1)
    board.occupied = sum(1 << tile for tile in range(400)
                         if tile != anchor and rng.random() < density)
    board.diag[0] = 1 << anchor
    board.used[0] = ((1 << 21) - 1) & ~(1 << piece)
    expected = board.copy().can_move(0)
    compiled = board.copy()
    assert rules.replay_words(compiled, []) is True
    assert compiled.over is not expected and bool(compiled.out & 1) is not expected
