"""The Sanguine rules (rules file, sections 1 and 7): the start from the tags,
each event checked and played, the legal moves and the result; the seats and scores."""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from functools import partial
from typing import Any, NoReturn

from notation.core.protocols import RecordView
from notation.core import protocols
from notation.core.ast import Directive
from notation.core.errors import InputError, NotationError, RuleError, TagError, shorten
from notation.read.grammars import terminal_pattern
from notation.core.limits import MAX_DIGITS, whole

from .deck import Card, Deck, DeckError, load_deck_beside, parse_deck
from .events import GRAMMAR, SIDE_NAMES, Deal, Draw, Event, Pass, Place, Result
from .state import Cell, SanguineState

MAX_PAWNS = 3
DECK_TAGS = ("RedDeck", "BlueDeck")
#: The ``[Result]`` tag once the game is over: ``RED-BLUE winner``, as ``result_text`` writes it.
RESULT_TAG = re.compile(r"[0-9]+-[0-9]+ (red|blue|tie)")

# -- the start -------------------------------------------------------------------------------


def int_tag(tags: Mapping[str, str], key: str) -> int:
    """The whole number a required tag holds; TagError if it is missing or not one."""
    value = tags.get(key)
    if value is None:
        raise TagError(key, f"the [{key}] tag is required")
    if value.isdigit() and value.isascii() and len(value) <= MAX_DIGITS:
        return int(value)  # what whole() reads it as, without its checks' calls
    try:
        return whole(value.strip(), f"[{key}]", signed=True)
    except NotationError as exc:
        raise TagError(key, str(exc)) from None


def _deck_side(directive: Directive) -> str | None:
    """``R`` or ``B``: whose deck an inline block holds (read from its first line)."""
    text = directive.text
    end = text.find("\n")
    head = _DECK_HEAD(text if end < 0 else text[:end])
    return None if head is None else head["deck_side"]


#: The grammar's deck block, matching a block's first line (the rest of it is optional).
_DECK_HEAD = terminal_pattern(GRAMMAR, "DECK_BLOCK").fullmatch


#: The cards of inline deck blocks that were valid, by the block's text: an archive
#: repeats the same blocks game after game (a block's lines only matter to its errors).
#: ``parse_deck`` keeps valid deck texts too; this one also spares cutting the block
#: into lines and joining them again, which measured 2.25x python-chess against 1.8-2.0x.
_INLINE: dict[str, list[Card]] = {}


def record_deck(record: RecordView, side: int, tags: Mapping[str, str] | None = None) -> Deck:
    """``side``'s deck as the record names it: a file beside it, or its inline block
    (``tags``: the record's, when the caller has them already)."""
    key, letter = DECK_TAGS[side], "RB"[side]
    value = (tags if tags is not None else record.headers).get(key)
    if value is None:
        raise TagError(key, f"the [{key}] tag is required")
    blocks = [d for d in record.items if isinstance(d, Directive) and _deck_side(d) == letter]
    if value == "inline":
        if len(blocks) != 1:
            raise TagError(key, f"[{key} \"inline\"] needs exactly one deck {letter} "
                                f"block, found {len(blocks)}")
        block = blocks[0]
        known = _INLINE.get(block.text)
        if known is not None:
            return Deck(f"{record.source} (deck {letter} block)", known)
        lines = block.text.split("\n")
        if len(lines) < 2 or lines[-1].strip() != "enddeck":
            raise TagError(key, f"the deck {letter} block at line {block.pos.line} is "
                                f"never closed: a line that is enddeck alone must end it")
        source = f"{record.source} (deck {letter} block)"
        try:
            deck = parse_deck("\n".join(lines[1:-1]), source, block.pos.line + 1)
        except DeckError as exc:
            problem = exc.problems[0]
            raise TagError(key, f"{record.source}:{problem.line}: {problem.message}") from None
        if len(_INLINE) >= 64:
            _INLINE.clear()
        _INLINE[block.text] = deck.cards
        return deck
    if blocks:
        raise TagError(key, f"a deck {letter} block is given but [{key}] names a file")
    try:
        return load_deck_beside(record.source, value)
    except InputError as exc:
        raise TagError(key, f"{SIDE_NAMES[side]} deck {shorten(value)!r}: {exc.message}") from None
    except DeckError as exc:
        # The file is named by the record, not by the user: say where, quote nothing of it.
        count = len(exc.problems)
        where = ", ".join(str(p.line) for p in exc.problems[:5])
        raise TagError(key, f"{SIDE_NAMES[side]} deck {value!r} is not a valid deck "
                            f"({count} problem{'s' * (count != 1)}, line{'s' * (count != 1)} "
                            f"{where}{', ...' if count > 5 else ''}); see: notation deck "
                            f"check {exc.source}") from None


def start(record: RecordView, /) -> SanguineState:
    """The state before the first event, from the record's tags and decks."""
    tags = record.headers
    rows, cols, hand = int_tag(tags, "Rows"), int_tag(tags, "Cols"), int_tag(tags, "HandSize")
    if rows < 1:
        raise TagError("Rows", f"Rows must be at least 1, got {rows}")
    if cols < 3 or cols % 2 == 0:
        raise TagError("Cols", f"Cols must be odd and at least 3, got {cols}")
    order = tags.get("Order", "recorded")
    if order not in ("recorded", "file"):
        raise TagError("Order", f'[Order "{order}"]: expected "recorded" or "file"')
    view = tags.get("Perspective", "red")
    if view not in ("red", "blue"):
        raise TagError("Perspective", f'[Perspective "{view}"]: expected "red" or "blue"')
    result = tags.get("Result", "*")
    if result != "*" and not RESULT_TAG.fullmatch(result):
        raise TagError("Result", f'[Result "{result}"]: expected "*" or "RED-BLUE red|blue|tie"')
    decks = (record_deck(record, 0, tags), record_deck(record, 1, tags))
    for side, deck in enumerate(decks):
        if len(deck) < rows * cols:
            raise TagError(DECK_TAGS[side], f"{SIDE_NAMES[side]} deck has {len(deck)} cards; a "
                                            f"{rows}x{cols} board needs at least {rows * cols}")
        if hand < 1 or 3 * hand > len(deck):
            raise TagError("HandSize", f"HandSize {hand} must be at least 1 and at most a third "
                                       f"of the {SIDE_NAMES[side]} deck ({len(deck)} cards, "
                                       f"max {len(deck) // 3})")
    return SanguineState(rows, cols, hand, decks, order == "file", view == "blue")


# -- playing an event ------------------------------------------------------------------------

def apply(state: SanguineState, event: Event) -> None:
    """Play one event or raise RuleError; every check comes before any change."""
    if isinstance(event, Result):
        _result(state, event)
        return
    if state.over:
        raise RuleError("the game has ended (two consecutive passes); only a result line "
                        "may follow", "game end")
    if isinstance(event, Deal):
        _deal(state, event)
        return
    dealt = state.dealt
    if not (dealt[0] and dealt[1]):
        missing = " and ".join(SIDE_NAMES[s] for s in (0, 1) if not state.dealt[s])
        raise RuleError(f"both players are dealt before the first turn ({missing} not yet)",
                        "deal first")
    side = event.side
    if side != state.to_move:
        raise RuleError(f"out of turn: it is {SIDE_NAMES[state.to_move]}'s turn, line is for "
                        f"{SIDE_NAMES[side]}", "turn order")
    if isinstance(event, Draw):
        _draw(state, side, event.card)
        return
    if not state.drawn and state.remaining[side]:  # draw_due(): not over, side to move
        raise RuleError(f"{SIDE_NAMES[side]} must draw first (deck has "
                        f"{state.deck_size(side)} cards)", "draw every turn")
    if isinstance(event, Place):
        _place(state, event)
    else:
        state.passes += 1
        if state.passes == 2:
            state.over = True
            return
    state.to_move ^= 1
    state.turn += 1
    state.drawn = False


def applier(state: SanguineState, /) -> Callable[[Event], None]:
    """:func:`apply` bound to ``state`` (the reader's hot path)."""
    return partial(apply, state)  # (bound in C: no Python frame of its own)


def _check_left(state: SanguineState, side: int, name: str, already: int = 0) -> None:
    """``name`` is in ``side``'s deck with a copy left beyond ``already`` taken ones."""
    who = SIDE_NAMES[side]
    if name not in state.cards[side]:
        raise RuleError(f"{who}'s deck has no card named {name}", "cards from the deck")
    if state.left[side][name] <= already:
        raise RuleError(f"{who} deck has no {name} left (all copies already out)",
                        "cards from the deck")


def _take(state: SanguineState, side: int, name: str) -> None:
    """Take one card off ``side``'s deck, checking availability and file order."""
    _check_left(state, side, name)
    if state.file_order:
        expected = state.decks[side].cards[state.taken[side]].name
        if name != expected:
            raise RuleError(f'Order "file": {SIDE_NAMES[side]}\'s next card is {expected}, '
                            f"record says {name}", "file order")
    state.left[side][name] -= 1
    state.remaining[side] -= 1
    state.taken[side] += 1
    state.hands[side][name] += 1


def _deal(state: SanguineState, event: Deal) -> None:
    side, who = event.side, SIDE_NAMES[event.side]
    if state.turn > 1 or state.drawn:
        raise RuleError("deals come before the first turn", "deal first")
    if state.dealt[side]:
        raise RuleError(f"{who} has already been dealt", "one deal each")
    if len(event.cards) != state.hand_size:
        raise RuleError(f"{who} must be dealt exactly {state.hand_size} cards, got "
                        f"{len(event.cards)}", "hand size")
    if state.file_order:
        first = state.decks[side].cards[:state.hand_size]
        names = Counter(c.name for c in first)
        if Counter(event.cards) != names:
            raise RuleError(f'Order "file": {who}\'s deal is the first {state.hand_size} cards '
                            f"of the file ({' '.join(sorted(names.elements()))})", "file order")
        for card in first:  # in file order
            _take(state, side, card.name)
    else:  # every card is checked before any is taken: a bad deal changes nothing
        wanted: dict[str, int] = {}
        for name in event.cards:
            already = wanted.get(name, 0)
            _check_left(state, side, name, already)
            wanted[name] = already + 1
        for name in event.cards:
            _take(state, side, name)
    state.dealt[side] = True


def _draw(state: SanguineState, side: int, name: str) -> None:
    left = state.left[side]
    if (not state.drawn and not state.file_order and name in state.cards[side]
            and left.get(name, 0) > 0):  # the checks below and in _take, all passed
        left[name] -= 1
        state.remaining[side] -= 1
        state.taken[side] += 1
        state.hands[side][name] += 1
        state.drawn = True
        return
    who = SIDE_NAMES[side]
    if state.drawn:
        raise RuleError(f"{who} has already drawn this turn", "one draw a turn")
    if not state.remaining[side]:
        raise RuleError(f"{who}'s deck is empty; no draw line allowed this turn",
                        "draw every turn")
    _take(state, side, name)
    state.drawn = True


def _place(state: SanguineState, event: Place) -> None:
    side, who = event.side, SIDE_NAMES[event.side]
    hand = state.hands[side]
    if hand[event.card] <= 0:
        held = " ".join(state.hand(side))
        raise RuleError(f"card not in hand: {who} holds {held or 'nothing'}, not "
                        f"{event.card}", "card in hand")
    rows, cols = state.rows, state.cols
    r = event.row
    c = cols - 1 - event.col if state.mirrored else event.col
    if not (0 <= r < rows and 0 <= c < cols):
        raise RuleError(f"position ({event.row},{event.col}) is outside the {rows}x"
                        f"{cols} board (rows 0-{rows - 1}, columns "
                        f"0-{cols - 1})", "on the board")
    card = state.cards[side][event.card]
    board = state.board
    cell = board[r][c]
    if cell is None or cell[0] != side or not isinstance(cell[1], int) or cell[1] < card.cost:
        _refuse_cell(event, cell, card)
    hand[event.card] -= 1
    board[r][c] = (side, card)
    for dr, dc in card.reaches[side]:
        tr, tc = r + dr, c + dc
        if 0 <= tr < rows and 0 <= tc < cols:
            line = board[tr]
            target = line[tc]
            if target is None:
                line[tc] = (side, 1)
            else:
                holder, count = target
                if isinstance(count, int):  # pawns; a card is immune
                    line[tc] = (side, min(MAX_PAWNS, count + 1) if holder == side else count)
    state.passes = 0


def _refuse_cell(event: Place, cell: Cell, card: Card) -> NoReturn:
    """Why ``card`` may not go on ``cell``: empty, a card, the other side's pawns, too few."""
    side, who = event.side, SIDE_NAMES[event.side]
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
    raise AssertionError(f"{where} takes {event.card}")  # (the caller checked it does not)


def _cut(result: str) -> str:
    """A result ``RED-BLUE winner`` for a message: a score of many digits is cut short
    (its length said), so the message keeps its end."""
    scores, winner = result.split(" ")
    red, blue = scores.split("-")
    return f"{shorten(red)}-{shorten(blue)} {winner}"


def _result(state: SanguineState, event: Result) -> None:
    if not state.over:
        raise RuleError("a result line comes only after the game is over", "result")
    if state.result_written:
        raise RuleError("the result is already written", "result")
    computed = state.result_text()
    if str(event) != f"result {computed}":
        said = f"{event.red}-{event.blue} {event.winner}"
        raise RuleError(f"result says {_cut(said)}, computed {_cut(computed)}", "result")
    state.result_written = True


# -- what may come next, and the end ---------------------------------------------------------

def legal_moves(state: SanguineState, /, **options: Any) -> list[Event]:
    """Every event that may come now, columns as the record writes them: the deals
    before the first turn (either side's, in either order), the draws when one is due
    (below: the chance points), else the mover's placements and pass; nothing once the game is over
    (the optional result line is not a move). Sanguine's take no ``options``."""
    if options:
        raise NotationError(f"sanguine legal moves take no options ({', '.join(options)})")
    if state.over:
        return []
    if not all(state.dealt):
        return [*deals(state)]
    if state.draw_due():
        return [*draws(state)]
    side = state.to_move
    places = state.placements(side)
    if state.mirrored:
        places = [p.mirrored(state.cols) for p in places]
    return [*places, Pass(side)]


def result_tags(state: SanguineState) -> dict[str, str]:
    """``[Result]``: ``"*"`` until the game is over, then ``"RED-BLUE winner"`` (4.2, 7.1.8)."""
    return {"Result": state.result_text() if state.over else "*"}


def winner_words(state: SanguineState) -> list[str]:
    return state.winners() if state.over else []


def result(state: SanguineState, /) -> protocols.Result:
    """Over or not, the winners, ``[Result]`` and the scores of ``replay --json``."""
    return protocols.Result(state.over, winner_words(state), result_tags(state),
                            state.result_json())


def is_over(state: SanguineState, /) -> bool:
    return state.over


copy = SanguineState.copy
#: The mover, but before the first turn the first side still to be dealt (either deal
#: may come first: :func:`legal_moves` offers both sides' until both are dealt).
to_move = SanguineState.actor


# -- seats and scores ------------------------------------------------------------------------

def seats(state: SanguineState, /) -> list[str]:
    return list(SIDE_NAMES)


def player_count(state: SanguineState, /) -> int:
    return 2


def facts(state: SanguineState, /) -> dict[str, Any]:
    red, blue = state.totals()
    return {"red score": red, "blue score": blue}


# -- chance points: the deals and draws a position allows -----------------------------
# With ``Order "file"`` (and so in a game set up with a seed) the deck's order fixes them:
# one deal, the first H cards, and one draw, the next card. With ``Order "recorded"`` any
# cards left may come, so every deal of H cards left is legal: each written once, its
# names sorted, and the deals sorted by their names.

#: More possible deals than this are not listed (a big hand from a deck of many designs
#: has millions); such a position asks for a deal to be pushed, or a seeded game.
MAX_DEALS = 100_000


def deals(state: SanguineState) -> list[Deal]:
    """Every deal the sides still to be dealt may get, Red's first."""
    found: list[Deal] = []
    for side in (0, 1):
        if state.dealt[side]:
            continue
        if state.file_order:
            first = state.decks[side].cards[state.taken[side]:state.taken[side] + state.hand_size]
            if len(first) == state.hand_size:
                found.append(Deal(side, tuple(card.name for card in first)))
            continue
        left = sorted((name, count) for name, count in state.left[side].items() if count > 0)
        total = deal_count([count for _, count in left], state.hand_size)
        if total > MAX_DEALS:
            raise NotationError(f"{SIDE_NAMES[side]} may be dealt {total:,} different hands of "
                                f"{state.hand_size} cards, too many to list (at most "
                                f"{MAX_DEALS:,}); push a deal, or set the game up with a seed")
        found += (Deal(side, hand) for hand in hands(left, state.hand_size))
    return found


def draws(state: SanguineState) -> list[Draw]:
    """The draws the side to move may make (its draw is due): the next card of the file,
    or any card left, by name."""
    side = state.to_move
    if state.file_order:
        return [Draw(side, state.decks[side].cards[state.taken[side]].name)]
    return [Draw(side, name) for name in sorted(state.left[side]) if state.left[side][name]]


def deal_count(counts: list[int], size: int) -> int:
    """How many multisets of ``size`` cards the copies ``counts`` of each design give."""
    ways = [1] + [0] * size  # ways[k]: hands of k cards from the designs seen so far
    for count in counts:
        ways = [sum(ways[k - take] for take in range(min(count, k) + 1))
                for k in range(size + 1)]
    return ways[size]


def hands(left: list[tuple[str, int]], size: int) -> Iterator[tuple[str, ...]]:
    """Each hand of ``size`` cards from ``left`` (names sorted, with their copies), as
    sorted names, in order."""
    def extend(start: int, need: int, hand: list[str]) -> Iterator[tuple[str, ...]]:
        if need == 0:
            yield tuple(hand)
            return
        for i in range(start, len(left)):
            name, count = left[i]
            for take in range(min(count, need), 0, -1):  # more copies first: sorted order
                yield from extend(i + 1, need - take, hand + [name] * take)

    return extend(0, size, [])
