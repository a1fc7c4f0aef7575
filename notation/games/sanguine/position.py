"""The Sanguine position notation: everything a game needs to go on, on one line.

The state writes it (:meth:`SanguineState.full_position`: ``Position.position()``,
what ``notation.from_position`` reads); this module reads it back. Its first three
fields alone are the position of ``replay --json`` (:meth:`SanguineState.position`,
which the state's ``repr`` shows): a board, for diffing and ``select --position``.

Fourteen fields, separated by single spaces::

    BOARD MOVER PASSES TURN STEP HAND-SIZE ORDER PERSPECTIVE
    RED-HAND RED-DECK RED-CARDS BLUE-HAND BLUE-DECK BLUE-CARDS

* ``BOARD``: the cells row by row, ``/`` between rows and ``,`` between cells:
  ``.`` empty, ``r1``-``r3`` / ``b1``-``b3`` pawns, ``R:NAME`` / ``B:NAME`` a card.
* ``MOVER``: ``red`` or ``blue``, whose turn it is (Red's before the deals), ``-`` once over.
* ``PASSES``: passes in a row (0, 1; 2 once over).  ``TURN``: the turn number, from 1.
* ``STEP``: ``deal`` (a side is still to be dealt: a side is dealt once its hand
  holds cards), ``draw`` (the mover has not drawn this turn; a draw is due if the
  deck holds cards), ``act`` (the mover has drawn), ``over`` (game over) or
  ``result`` (over, its result line written).
* ``HAND-SIZE``: H, the deal's size.  ``ORDER``: ``recorded`` or ``file``, as the
  ``[Order]`` tag.  ``PERSPECTIVE``: ``red`` or ``blue``, as ``[Perspective]``.
* Each side's ``HAND`` and ``DECK``: card names in brackets, ``,`` between them,
  ``[]`` for none. A hand is sorted by name; a deck too with ``Order "recorded"``
  (any card left may come), in the order the cards will come with ``file``.
* Each side's ``CARDS``: every card of its deck, once, as
  ``NAME(COST,VALUE,GRID)``, the grid's five rows joined by ``/``:
  ``[Spark(1,1,XXXXX/XXIXX/XICIX/XXIXX/XXXXX),Lantern(1,2,...)]``.

A name is written with ``%`` as ``%25`` and ``/`` as ``%2F``; no other character
a card name may hold needs care (names hold no blank, ``,``, ``(`` or ``)``, and a
bracketed field is split only at its commas, so a name may hold ``[`` and ``]``, as
any name a deck holds may). The first three fields alone (``r1,.,b1/r1,.,b1 red 0``) are read as a
board to diff or draw, not to play: it has no cards' values, hands or decks, and is
written back the same way.
"""
from __future__ import annotations

import re
from collections import Counter

from notation.core.errors import NotationError, shorten
from notation.core.limits import is_whole

from .deck import Card, Deck, DeckError, parse_deck
from .events import SIDE_NAMES
from .state import ORDERS, STEPS, Cell, SanguineState

SHORT_FORM = "CELLS TO-MOVE PASSES, e.g. 'r1,.,b1/r1,.,b1 red 0'"
FIELDS = 14
#: The TURN field's place (a counter: it tells no two positions apart in play).
_TURN = 3
PAWNS = {f"{letter}{count}": (side, count) for side, letter in enumerate("rb")
         for count in (1, 2, 3)}


def unescape(text: str, where: str) -> str:
    """A card name from its notation; NotationError for a ``%`` that escapes nothing."""
    if "%" not in text:
        return text
    if re.sub("%2[5F]", "", text).count("%"):
        raise NotationError(f"{where}: a '%' in a card name is written %25 ('/' is %2F)")
    return text.replace("%2F", "/").replace("%25", "%")


# -- writing -----------------------------------------------------------------------------------

def write_position(state: SanguineState) -> str:
    """The board part of ``state``'s position (written by the state, whose repr shows it)."""
    return state.position()


def write_full_position(state: SanguineState) -> str:
    """The whole position of ``state``."""
    return state.full_position()


# -- reading -----------------------------------------------------------------------------------

def timeless(text: str) -> str:
    """A full position without its TURN field."""
    fields = text.split(" ")
    return " ".join(fields[:_TURN] + fields[_TURN + 1:]) if len(fields) == FIELDS else text


def read_position(text: str) -> SanguineState:
    """The state a position describes; NotationError saying what is wrong with it."""
    fields = text.split()
    if len(fields) == 3:
        return read_board(fields)
    if len(fields) != FIELDS:
        raise NotationError(f"a Sanguine position has {FIELDS} fields (BOARD MOVER PASSES TURN "
                            f"STEP HAND-SIZE ORDER PERSPECTIVE, then each side's HAND DECK "
                            f"CARDS) or, a board alone, 3: {SHORT_FORM}; got {len(fields)}")
    board = read_board(fields[:3])
    turn, step, hand_size, order, view = fields[3:8]
    if not is_whole(turn) or int(turn) < 1:
        raise NotationError(f"TURN must be a whole number from 1, got {turn[:20]!r}")
    if step not in STEPS:
        raise NotationError(f"STEP must be one of {', '.join(STEPS)}; got {step[:20]!r}")
    if not is_whole(hand_size) or int(hand_size) < 1:
        raise NotationError(f"HAND-SIZE must be a whole number from 1, got {hand_size[:20]!r}")
    if order not in ORDERS or view not in SIDE_NAMES:
        raise NotationError(f"ORDER is recorded or file and PERSPECTIVE red or blue; got "
                            f"{order[:20]!r} and {view[:20]!r}")
    if board.over != (step in ("over", "result")) or board.over != (board.passes == 2) \
            or board.passes > 2:
        raise NotationError("MOVER '-', PASSES 2 and STEP over or result go together: a game "
                            "ends at its second pass in a row")
    sides = [read_side(side, fields[8 + 3 * side:11 + 3 * side]) for side in (0, 1)]
    state = SanguineState(board.rows, board.cols, int(hand_size),
                          (Deck("<position>", sides[0][1]), Deck("<position>", sides[1][1])),
                          file_order=order == "file", mirrored=view == "blue",
                          board=board.board, hands=[sides[0][0], sides[1][0]],
                          cards=[sides[0][2], sides[1][2]], to_move=board.to_move,
                          turn=int(turn), passes=board.passes, over=board.over,
                          result_written=step == "result", drawn=step == "act")
    state.dealt = [step != "deal" or bool(hand) for hand in state.hands]
    if step == "deal" and all(state.dealt):
        raise NotationError("STEP deal: a side is still to be dealt, so one hand is empty")
    for side in (0, 1):
        if not state.dealt[side] and state.deck_size(side) < state.hand_size:
            raise NotationError(f"{SIDE_NAMES[side]} is still to be dealt {state.hand_size} "
                                f"cards but its DECK holds {state.deck_size(side)}")
    for r, row in enumerate(state.board):
        for c, cell in enumerate(row):
            state.board[r][c] = placed(cell, state.cards, (r, c))
    return state


def read_board(fields: list[str]) -> SanguineState:
    """The first three fields: a board with cards known by name only (values 0)."""
    cells, mover, passes = fields
    if mover not in ("red", "blue", "-") or not is_whole(passes):
        raise NotationError(f"a Sanguine position starts {SHORT_FORM}")
    rows = [r.split(",") for r in cells.split("/")]
    cols = len(rows[0])
    if any(len(r) != cols for r in rows) or cols < 3 or cols % 2 == 0:
        raise NotationError("every row needs the same odd number (3 or more) of cells")
    state = SanguineState(len(rows), cols, 1, (Deck("-", []), Deck("-", [])), partial=True)
    for r, row in enumerate(rows):
        for c, token in enumerate(row):
            state.board[r][c] = read_cell(token, (r, c))
    state.over = mover == "-"
    state.to_move = 0 if mover != "blue" else 1
    state.passes = int(passes)
    state.dealt = [True, True]
    return state


def read_cell(token: str, at: tuple[int, int]) -> Cell:
    if token == ".":
        return None
    if token in PAWNS:
        return PAWNS[token]
    if token[:2] in ("R:", "B:") and len(token) > 2:
        name = unescape(token[2:], f"cell {at}")
        return "RB".index(token[0]), Card(name, 1, 0, ())
    raise NotationError(f"cell ({at[0]},{at[1]}) {shorten(token)!r} is not ., r1-r3, b1-b3, R:NAME "
                        f"or B:NAME")


def placed(cell: Cell, cards: list[dict[str, Card]], at: tuple[int, int]) -> Cell:
    """A board cell with its card as the owner's CARDS define it."""
    if cell is None:
        return cell
    owner, content = cell
    if not isinstance(content, Card):
        return cell
    found = cards[owner].get(content.name)
    if found is None:
        raise NotationError(f"cell ({at[0]},{at[1]}): {SIDE_NAMES[owner]}'s CARDS have no "
                            f"{shorten(content.name)}")
    return owner, found


def read_side(side: int, fields: list[str]) -> tuple[Counter[str], list[Card], dict[str, Card]]:
    """One side's HAND, DECK and CARDS: the hand, the deck's cards in order, the cards by name."""
    who = SIDE_NAMES[side]
    hand, deck, table = (listed(f, f"{who} {what}")
                         for f, what in zip(fields, ("HAND", "DECK", "CARDS")))
    cards: dict[str, Card] = {}
    for item in table:
        card = read_card(item, who)
        if card.name in cards:
            raise NotationError(f"{who} CARDS define {shorten(card.name)} twice")
        cards[card.name] = card
    out = []
    for what, items in (("HAND", hand), ("DECK", deck)):
        named = [unescape(item, f"{who} {what}") for item in items]
        unknown = [name for name in named if name not in cards]
        if unknown:
            raise NotationError(f"{who} {what} holds {shorten(unknown[0])}, which {who}'s "
                                f"CARDS do not define")
        out.append(named)
    return Counter(out[0]), [cards[name] for name in out[1]], cards


def listed(field: str, what: str) -> list[str]:
    """The items of a bracketed field (``[A,B]``; ``[]`` is none)."""
    if len(field) < 2 or field[0] != "[" or field[-1] != "]":
        raise NotationError(f"{what} is written in brackets, e.g. [Spark,Lantern] or []")
    inner = field[1:-1]
    if not inner:
        return []
    items = inner.split("),") if what.endswith("CARDS") else inner.split(",")
    if what.endswith("CARDS"):
        items = [item + ")" for item in items[:-1]] + items[-1:]
    if "" in items:
        raise NotationError(f"{what}: an empty name between commas")
    return items


def read_card(text: str, who: str) -> Card:
    """``NAME(COST,VALUE,GRID)``, checked as a card of a deck file is (deck.py)."""
    head, _, rest = text.partition("(")
    parts = rest[:-1].split(",") if rest.endswith(")") else []
    if not head or len(parts) != 3:
        raise NotationError(f"{who} CARDS: {text[:40]!r} is not NAME(COST,VALUE,GRID)")
    name = unescape(head, f"{who} CARDS")
    cost, value, grid = parts
    try:
        found = parse_deck(f"{name} {cost} {value}\n" + grid.replace("/", "\n")).cards
    except DeckError as exc:
        raise NotationError(f"{who} card {shorten(name)}: {exc.problems[0].message}") from None
    if len(found) != 1:
        raise NotationError(f"{who} card {shorten(name)}: the grid is five rows of five X, I "
                            f"or C")
    return found[0]
