"""Tilewe pictures: the 20x20 grid with files and ranks, the four colours, the last piece
outlined, and who moves with the scores."""
from __future__ import annotations

import functools

from notation.render.svg import COLOURS, Drawing, outline
from notation.render.svg_text import Shape, shape

from .events import SIZE
from .pieces import FILES
from .state import COLORS, Board
from .text import scores, status

CELL = 22
LEFT, TOP = 28, 52   # room for rank numbers and the caption
STYLE = "".join(f".cell.{c} {{ fill: {COLOURS[c]}; }}\n" for c in COLORS) + """
.cell { stroke: #ffffff; stroke-width: 1; }
.cell.empty { fill: #eeeee8; }
.last { fill: none; stroke: #111; stroke-width: 3; stroke-linecap: square; }
"""


@functools.cache
def cell(square: int, owner: int | None) -> Shape:
    """One square of the grid, empty or of colour ``owner``: drawn alike in every picture,
    so written once."""
    x, y = square % SIZE, square // SIZE
    return shape("rect", x=LEFT + x * CELL, y=TOP + (SIZE - 1 - y) * CELL, width=CELL,
                 height=CELL, class_=f"cell {'empty' if owner is None else COLORS[owner]}",
                 data_cell=f"{FILES[x]}{y + 1}")


@functools.cache
def labels() -> tuple[Shape, ...]:
    """The files below the grid and the ranks to its left."""
    files = [shape("text", FILES[x], x=LEFT + x * CELL + CELL / 2, y=TOP + SIZE * CELL + 16,
                   text_anchor="middle") for x in range(SIZE)]
    ranks = [shape("text", str(y + 1), x=LEFT - 6, y=TOP + (SIZE - 1 - y) * CELL + CELL / 2 + 4,
                   text_anchor="end") for y in range(SIZE)]
    return tuple(files + ranks)


def owners(board: Board) -> list[int | None]:
    """The colour on each square (None: empty), from the colours' masks at once rather
    than square by square."""
    out: list[int | None] = [None] * (SIZE * SIZE)
    for colour in reversed(range(len(board.own))):  # the first colour wins, as color_at
        mask = board.own[colour] & board.occupied
        while mask:
            low = mask & -mask
            out[low.bit_length() - 1] = colour
            mask ^= low
    return out


def draw(board: Board) -> Drawing:
    """The board drawn, captioned with who moves (or who won) and the scores."""
    width = LEFT + SIZE * CELL + 28
    height = TOP + SIZE * CELL + 26
    caption = status(board)
    d = Drawing(width, height, f"Tilewe: {caption}", STYLE)
    d.text(LEFT, 20, caption, class_="caption")
    d.text(LEFT, 40, f"scores: {scores(board)}", class_="caption")
    d.place(map(cell, range(SIZE * SIZE), owners(board)), d.add("g", class_="cells"))
    d.place(labels(), d.add("g", class_="label"))
    if board.last:
        last = {(s % SIZE, SIZE - 1 - s // SIZE) for s in range(SIZE * SIZE) if board.last >> s & 1}
        d.add("path", class_="last", d=outline(last, CELL, LEFT, TOP))
    return d
