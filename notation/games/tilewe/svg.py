"""Tilewe pictures: the 20x20 grid with files and ranks, the four colours, the last piece
outlined, and who moves with the scores."""
from __future__ import annotations

from notation.core.svg import COLOURS, Drawing, outline

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


def draw(board: Board) -> Drawing:
    """The board drawn, captioned with who moves (or who won) and the scores."""
    width = LEFT + SIZE * CELL + 28
    height = TOP + SIZE * CELL + 26
    caption = status(board)
    d = Drawing(width, height, f"Tilewe: {caption}", STYLE)
    d.text(LEFT, 20, caption, class_="caption")
    d.text(LEFT, 40, f"scores: {scores(board)}", class_="caption")
    cells = d.add("g", class_="cells")
    for y in range(SIZE):
        top = TOP + (SIZE - 1 - y) * CELL
        for x in range(SIZE):
            owner = board.color_at(x + SIZE * y)
            d.add("rect", cells, x=LEFT + x * CELL, y=top, width=CELL, height=CELL,
                  class_=f"cell {'empty' if owner is None else COLORS[owner]}",
                  data_cell=f"{FILES[x]}{y + 1}")
    labels = d.add("g", class_="label")
    for x in range(SIZE):
        d.text(LEFT + x * CELL + CELL / 2, TOP + SIZE * CELL + 16, FILES[x], labels,
               text_anchor="middle")
    for y in range(SIZE):
        d.text(LEFT - 6, TOP + (SIZE - 1 - y) * CELL + CELL / 2 + 4, str(y + 1), labels,
               text_anchor="end")
    if board.last:
        last = {(s % SIZE, SIZE - 1 - s // SIZE) for s in range(SIZE * SIZE) if board.last >> s & 1}
        d.add("path", class_="last", d=outline(last, CELL, LEFT, TOP))
    return d
