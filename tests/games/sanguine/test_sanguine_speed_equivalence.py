"""The Sanguine fast paths against the plain definitions they stand in for.

The validate path takes shortcuts: each deck's card count kept as cards are taken
(not summed every turn), a deck's copies and cards by name made once per card list,
counters made in C, each card's reach per side worked out once, remembered inline
decks and event readers, a digits-only tag read, and rules that test a draw or a
placement in one go before the checks that word the refusal. Each is held here to a
plain version written from the rules' definitions.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.core import new_games
from notation.core.tree import GameNode
from notation.core.ast import Directive, Tag
from notation.core.errors import NotationError, RuleError, TagError
from notation.core.limits import whole
from notation.core.limits import remembered
from notation.games.sanguine import events, generate, rules
from notation.games.sanguine.deck import Card, Deck
from notation.games.sanguine.events import (SIDE_NAMES, Deal, Draw, Event, Pass, Place,
                                            Result)
from notation.games.sanguine.position import read_position, write_full_position
from notation.games.sanguine.state import (SanguineState, counter, deck_counts,
                                           deck_names)

# -- the plain rules: sums, not kept counts; every check in the order of the rules file --------


def plain_deck_size(state: SanguineState, side: int) -> int:
    return sum(state.left[side].values())


def plain_take(state: SanguineState, side: int, name: str, already: int = 0,
               take: bool = True) -> None:
    who = SIDE_NAMES[side]
    if name not in state.cards[side]:
        raise RuleError(f"{who}'s deck has no card named {name}", "cards from the deck")
    if state.left[side][name] <= already:
        raise RuleError(f"{who} deck has no {name} left (all copies already out)",
                        "cards from the deck")
    if not take:
        return
    if state.file_order:
        expected = state.decks[side].cards[state.taken[side]].name
        if name != expected:
            raise RuleError(f'Order "file": {SIDE_NAMES[side]}\'s next card is {expected}, '
                            f"record says {name}", "file order")
    state.left[side][name] -= 1
    state.remaining[side] -= 1
    state.taken[side] += 1
    state.hands[side][name] += 1


def plain_place(state: SanguineState, event: Place) -> None:
    side, who = event.side, SIDE_NAMES[event.side]
    if state.hands[side][event.card] <= 0:
        held = " ".join(state.hand(side))
        raise RuleError(f"card not in hand: {who} holds {held or 'nothing'}, not "
                        f"{event.card}", "card in hand")
    r = event.row
    c = state.cols - 1 - event.col if state.mirrored else event.col
    if not (0 <= r < state.rows and 0 <= c < state.cols):
        raise RuleError(f"position ({event.row},{event.col}) is outside the {state.rows}x"
                        f"{state.cols} board (rows 0-{state.rows - 1}, columns "
                        f"0-{state.cols - 1})", "on the board")
    card = state.cards[side][event.card]
    cell = state.board[r][c]
    where = f"({event.row},{event.col})"
    if cell is None:
        raise RuleError(f"illegal placement: {where} is empty", "own pawns")
    owner, content = cell
    if not isinstance(content, int):
        raise RuleError(f"illegal placement: {where} already holds a {SIDE_NAMES[owner]} card "
                        f"({content.name})", "own pawns")
    if owner != side:
        raise RuleError(f"illegal placement: {where} holds {SIDE_NAMES[owner]} pawns; {who} "
                        f"may only place on its own pawns", "own pawns")
    if content < card.cost:
        raise RuleError(f"illegal placement: {event.card} costs {card.cost} but {where} holds "
                        f"{content} {who} pawn{'s' * (content != 1)}", "cost")
    state.hands[side][event.card] -= 1
    state.board[r][c] = (side, card)
    for i, grid_row in enumerate(card.grid):  # the influences read off the grid itself
        for j, mark in enumerate(grid_row):
            if mark != "I":
                continue
            tr, tc = r + i - 2, c + (2 - j if side == 1 else j - 2)
            if not (0 <= tr < state.rows and 0 <= tc < state.cols):
                continue
            target = state.board[tr][tc]
            if target is None:
                state.board[tr][tc] = (side, 1)
                continue
            holder, count = target
            if isinstance(count, int):
                state.board[tr][tc] = (side, min(3, count + 1) if holder == side else count)
    state.passes = 0


def plain_apply(state: SanguineState, event: Event) -> None:
    """Rules 7, as ``rules.apply`` words them, for deals, draws, placements and passes."""
    assert not isinstance(event, Result)  # (results take no shortcut; none is played here)
    if state.over:
        raise RuleError("the game has ended (two consecutive passes); only a result line "
                        "may follow", "game end")
    if isinstance(event, Deal):
        rules.apply(state, event)  # (deals take no shortcut)
        return
    if not all(state.dealt):
        missing = " and ".join(SIDE_NAMES[s] for s in (0, 1) if not state.dealt[s])
        raise RuleError(f"both players are dealt before the first turn ({missing} not yet)",
                        "deal first")
    side = event.side
    if side != state.to_move:
        raise RuleError(f"out of turn: it is {SIDE_NAMES[state.to_move]}'s turn, line is for "
                        f"{SIDE_NAMES[side]}", "turn order")
    if isinstance(event, Draw):
        if state.drawn:
            raise RuleError(f"{SIDE_NAMES[side]} has already drawn this turn", "one draw a turn")
        if not plain_deck_size(state, side):
            raise RuleError(f"{SIDE_NAMES[side]}'s deck is empty; no draw line allowed this "
                            f"turn", "draw every turn")
        plain_take(state, side, event.card)
        state.drawn = True
        return
    if not state.drawn and plain_deck_size(state, side) > 0:
        raise RuleError(f"{SIDE_NAMES[side]} must draw first (deck has "
                        f"{plain_deck_size(state, side)} cards)", "draw every turn")
    if isinstance(event, Place):
        plain_place(state, event)
    else:
        state.passes += 1
        if state.passes == 2:
            state.over = True
            return
    state.to_move ^= 1
    state.turn += 1
    state.drawn = False


# -- games to play them on ----------------------------------------------------------------------

def game_start(seed: int, order: str, view: str) -> SanguineState:
    """The start of a random game's record, its [Order] and [Perspective] set."""
    rng = random.Random(seed)
    record = new_games.random_record("sanguine", rng, {"rows": rng.choice([1, 3, 5]),
                                                       "cols": rng.choice([3, 5, 7])})
    tags = [t for t in record.tags if isinstance(t, Tag) and t.key not in ("Order",)]
    record.tags = [*tags, Tag("Order", order), Tag("Perspective", view)]
    return rules.start(record)


def wild_event(rng: random.Random, state: SanguineState) -> Event:
    """Any event, legal or not: names from either deck or none, cells on and off the board."""
    side = rng.randrange(2)
    names = [*state.cards[0], *state.cards[1], "Nobody"]
    kind = rng.randrange(4)
    if kind == 0:
        return Draw(side, rng.choice(names))
    if kind == 1:
        return Place(side, rng.choice(names), rng.randrange(-1, state.rows + 1),
                     rng.randrange(-1, state.cols + 1))
    if kind == 2:
        return Pass(side)
    return Deal(side, tuple(rng.choice(names) for _ in range(state.hand_size)))


def outcome(state: SanguineState, event: Event, apply: Any) -> tuple[str, dict[str, Any]]:
    """What ``apply`` made of ``event``: its refusal (or ``""``) and the state's parts after."""
    try:
        apply(state, event)
        said = ""
    except RuleError as exc:
        said = f"{exc.rule}: {exc}"
    return said, {**vars(state), "remaining": [plain_deck_size(state, s) for s in (0, 1)]}


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["recorded", "file"]),
       st.sampled_from(["red", "blue"]))
def test_the_rules_play_every_event_as_the_plain_rules_do(seed: int, order: str,
                                                          view: str) -> None:
    """Legal moves and wild events alike: the same refusal, the same state after, and the
    kept deck counts always the sums of the decks left."""
    rng = random.Random(seed)
    state = game_start(seed, order, view)
    for _ in range(400):
        moves = rules.legal_moves(state)
        if not moves:
            break
        event = rng.choice(moves) if rng.random() < 0.6 else wild_event(rng, state)
        fast, plain = state.copy(), state.copy()
        got = outcome(fast, event, rules.apply)
        assert got == outcome(plain, event, plain_apply), event
        assert got[1]["remaining"] == fast.remaining
        if not got[0]:
            state = fast


def test_a_result_line_is_checked_after_the_plain_rules_end_a_game() -> None:
    state = game_start(3, "recorded", "red")
    while not state.over:
        moves = rules.legal_moves(state)
        plain_apply(state, moves[-1])  # the pass, once placements run out
    text = state.result_text()
    red, blue = text.split()[0].split("-")
    rules.apply(state, Result(int(red), int(blue), text.split()[1]))
    assert state.result_written


# -- the kept and shared parts ---------------------------------------------------------------

names = st.sampled_from(["Spark", "Forge", "Reef", "Tide", "A"])
grids = st.lists(st.text("XI", min_size=5, max_size=5), min_size=5, max_size=5).map(
    lambda rows: tuple(r if i != 2 else r[:2] + "C" + r[3:] for i, r in enumerate(rows)))
cards = st.builds(Card, names, st.integers(1, 3), st.integers(1, 9), grids)


@given(st.dictionaries(names, st.integers(-3, 5)))
def test_a_counter_made_in_c_is_the_counter(counts: dict[str, int]) -> None:
    made, plain = counter(counts), Counter(counts)
    assert type(made) is Counter and made == plain and list(made) == list(plain)
    made["Spark"] += 1
    plain["Spark"] += 1
    assert made == plain and sorted(made.elements()) == sorted(plain.elements())
    assert counter() == Counter() and counter() is not counter()


@pytest.mark.slow
@given(st.lists(st.lists(cards, max_size=12), min_size=1, max_size=4))
def test_a_decks_copies_and_names_are_those_of_its_cards(lists: list[list[Card]]) -> None:
    for listed in lists + lists:  # each list twice: the second from memory
        assert deck_counts(listed) == Counter(c.name for c in listed)
        assert list(deck_counts(listed)) == list(Counter(c.name for c in listed))
        assert deck_names(listed) == {c.name: c for c in listed}


def test_a_new_list_of_cards_is_never_answered_from_another() -> None:
    one = Card("Spark", 1, 1, ("XXXXX", "XXXXX", "XXCIX", "XXXXX", "XXXXX"))
    other = Card("Reef", 2, 2, one.grid)
    for _ in range(300):  # lists come and go (their ids are reused) past the memory's size
        listed = [one] * random.randrange(1, 3) + [other] * random.randrange(3)
        assert deck_counts(listed) == Counter(c.name for c in listed)
        assert deck_names(listed) == {c.name: c for c in listed}


@given(cards)
def test_a_cards_reach_is_its_grid_as_each_side_plays_it(card: Card) -> None:
    plain = [[(i - 2, (j - 2) * (1 - 2 * side)) for i, row in enumerate(card.grid)
              for j, mark in enumerate(row) if mark == "I"] for side in (0, 1)]
    assert [list(reach) for reach in card.reaches] == plain


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32))
def test_a_position_read_back_keeps_the_deck_counts(seed: int) -> None:
    rng = random.Random(seed)
    state = game_start(seed, "recorded", "red")
    for _ in range(rng.randrange(60)):
        moves = rules.legal_moves(state)
        if not moves:
            break
        rules.apply(state, rng.choice(moves))
    read = read_position(write_full_position(state))
    assert read.remaining == state.remaining == [plain_deck_size(read, s) for s in (0, 1)]
    assert read.copy().remaining == read.remaining


@pytest.mark.slow
@given(st.one_of(st.text(st.sampled_from("0123456789-+ \t²٣x"), max_size=12),
                st.from_regex(r"\A[ ]?-?[0-9]{8,11}\Z")))
def test_a_digits_only_tag_reads_as_whole_reads_it(value: str) -> None:
    try:
        plain: Any = whole(value.strip(), "[Rows]", signed=True)
    except NotationError as exc:
        plain = f"[Rows]: {exc}"
    try:
        got: Any = rules.int_tag({"Rows": value}, "Rows")
    except TagError as exc:
        got = f"[{exc.key}]: {exc.message}"
    assert got == plain


def deck_record(blocks: list[str]) -> GameNode:
    items: list[Any] = [Directive("DECK_BLOCK", text, Tag("x", "y").pos) for text in blocks]
    return GameNode("sanguine", [Tag("RedDeck", "inline"), Tag("BlueDeck", "inline")], items,
                  source="game.sanguine")


def deck_block(letter: str, listed: list[Card], closed: bool = True) -> str:
    return "\n".join([f"deck {letter}", *(c.text() for c in listed),
                      *(["enddeck"] if closed else [])])


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.lists(cards, min_size=1, max_size=6), st.booleans()),
                min_size=1, max_size=5))
def test_an_inline_deck_read_again_is_the_deck_read_afresh(decks: list[Any]) -> None:
    """Each block read twice, and blocks that differ one after the other: the same cards
    (or the same refusal) each time as a block never seen."""
    def read(block: str) -> Any:
        try:
            deck = rules.record_deck(deck_record([block]), 0)
        except TagError as exc:
            return exc.message
        return deck.source, deck.cards

    for listed, closed in decks + decks:
        block = deck_block("R", listed, closed)
        got = read(block)
        assert got == read(block)
        plain = read(block.replace("deck R", "deck R ", 1))  # the same deck, a new text
        assert got == plain


@given(st.lists(st.sampled_from(["R draw Spark", "B draw Reef", "R pass", "B pass",
                                 "R place Spark (1,2)", "B place Reef (0,6)", "R draw $5",
                                 "B draw ;a", "R place {b} (0,0)", "B place !x (1,2)",
                                 "R draw [c]", "B draw $5 $5", "R draw a b"]), max_size=40))
def test_a_remembered_reader_reads_as_the_reader(texts: list[str]) -> None:
    for kind, read in (("DRAW", events.read_draw), ("PASS", events.read_pass),
                       ("PLACE", events.read_place)):
        for text in texts:
            try:
                plain: Any = read(text)
            except NotationError as exc:
                plain = str(exc)
            try:
                got: Any = events.READERS[kind](text)
            except NotationError as exc:
                got = str(exc)
            assert got == plain and type(got) is type(plain)


def test_a_reader_past_its_memory_still_reads() -> None:
    read = remembered(events.read_draw, events.REMEMBERED)
    for i in range(events.REMEMBERED * 2 + 5):
        assert read(f"R draw C{i}") == Draw(0, f"C{i}")
    assert read("B draw C1") == Draw(1, "C1")


@pytest.mark.parametrize("deck", [Deck("x", [])])
def test_an_empty_deck_has_no_cards_to_count(deck: Deck) -> None:
    state = SanguineState(1, 3, 1, (deck, deck))
    assert state.remaining == [0, 0] and state.left == [Counter(), Counter()]
