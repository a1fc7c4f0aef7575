"""Sanguine pictures: the grid with pawns (count and owner) and cards (name, value and
owner), each row's scores on both sides, the hands below; Blue's view mirrors the board."""
from __future__ import annotations

import functools

from notation.render.svg import COLOURS, Drawing
from notation.render.svg_text import Shape, shape

from .deck import Card
from .events import SIDE_NAMES
from .state import SanguineState

CELL_W, CELL_H = 92, 74
SCORE_W = 54
TOP = 58
STYLE = f"""
.square {{ fill: #f4f1e8; stroke: #cfc9b8; stroke-width: 1; }}
.pawn.red {{ fill: {COLOURS['red']}; }}
.pawn.blue {{ fill: {COLOURS['blue']}; }}
.pawn {{ stroke: #fff; stroke-width: 1.5; }}
.count {{ font-size: 13px; font-weight: bold; }}
.card {{ fill: #fffdf6; stroke-width: 3; }}
.card.red {{ stroke: {COLOURS['red']}; }}
.card.blue {{ stroke: {COLOURS['blue']}; }}
.cardname {{ font-size: 11px; }}
.value {{ font-size: 18px; font-weight: bold; }}
.score {{ font-size: 18px; font-weight: bold; }}
.score.red {{ fill: {COLOURS['red']}; }}
.score.blue {{ fill: {COLOURS['blue']}; }}
.score.wins {{ text-decoration: underline; }}
"""


@functools.lru_cache(maxsize=1024)
def square(x: int, y: int, r: int, c: int) -> Shape:
    """The empty square of row ``r``, column ``c`` drawn at ``(x, y)`` (the same in every
    picture of a board, so written once)."""
    return shape("rect", x=x + 2, y=y + 2, width=CELL_W - 4, height=CELL_H - 4, rx=5,
                 class_="square", data_cell=f"{r},{c}")


def _short(name: str, size: int = 13) -> str:
    return name if len(name) <= size else name[:size - 1] + "…"


def draw(state: SanguineState, side: int = 0) -> Drawing:
    """``side`` 0: Red's view (Red's home column on the left); 1: Blue's, mirrored."""
    rows, cols = state.rows, state.cols
    left, right = side, 1 - side   # whose scores stand on each side
    width = 2 * SCORE_W + cols * CELL_W + 20
    height = TOP + rows * CELL_H + 56
    red, blue = state.totals()
    if state.over:
        status = f"game over: {state.result_text()}"
    else:
        status = f"turn {state.turn}: {SIDE_NAMES[state.to_move]} to move; score red {red} blue {blue}"
    d = Drawing(width, height, f"Sanguine ({SIDE_NAMES[side]}'s view): {status}", STYLE)
    d.text(10, 20, status, class_="caption")
    d.text(10, 40, f"{SIDE_NAMES[side]}'s view; row scores: {SIDE_NAMES[left]} left, "
           f"{SIDE_NAMES[right]} right", class_="label")
    x0 = 10 + SCORE_W
    grid = d.add("g", class_="grid")
    for r, (row, scores) in enumerate(zip(state.board, state.row_scores())):
        y = TOP + r * CELL_H
        for shown in range(cols):
            c = shown if side == 0 else cols - 1 - shown
            x = x0 + shown * CELL_W
            d.place([square(x, y, r, c)], grid)
            cell = row[c]
            if cell is None:
                continue
            owner = SIDE_NAMES[cell[0]]
            if isinstance(cell[1], Card):
                card = cell[1]
                group = d.add("g", grid, class_=f"card-at {owner}", data_cell=f"{r},{c}",
                              data_card=card.name)
                d.add("rect", group, x=x + 7, y=y + 7, width=CELL_W - 14, height=CELL_H - 14,
                      rx=6, class_=f"card {owner}")
                d.text(x + CELL_W / 2, y + 26, _short(card.name), group, class_="cardname",
                       text_anchor="middle")
                d.text(x + CELL_W / 2, y + 52, str(card.value), group, class_="value",
                       text_anchor="middle")
            else:
                count = cell[1]
                group = d.add("g", grid, class_=f"pawns {owner}", data_cell=f"{r},{c}",
                              data_pawns=count)
                for i in range(count):
                    d.add("circle", group, cx=x + CELL_W / 2 + (i - (count - 1) / 2) * 20,
                          cy=y + CELL_H / 2 - 6, r=9, class_=f"pawn {owner}")
                d.text(x + CELL_W / 2, y + CELL_H - 12, f"{count} {owner}", group,
                       class_="count", text_anchor="middle")
        mine = {0: scores[0], 1: scores[1]}
        for who, centre in ((left, 10 + SCORE_W / 2), (right, x0 + cols * CELL_W + SCORE_W / 2)):
            wins = mine[who] > mine[1 - who]
            d.text(centre, y + CELL_H / 2 + 6, str(mine[who]), grid,
                   class_=f"score {SIDE_NAMES[who]}" + (" wins" if wins else ""),
                   text_anchor="middle")
    hands = d.add("g", class_="label")
    for i, who in enumerate((0, 1)):
        hand = " ".join(state.hand(who)) or "(empty)"
        deck = state.deck_size(who)
        d.text(10, TOP + rows * CELL_H + 20 + 16 * i,
               f"{SIDE_NAMES[who]} hand: {hand}; deck {deck}", hands)
    return d
