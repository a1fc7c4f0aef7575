"""Philosophy pictures: the 37 named spaces, tiles coloured by player with an arrow for
their facing, the last placement outlined and the tiles its chain reaction moved dashed."""
from __future__ import annotations

import functools

from notation.render.svg import COLOURS, SEAT_COLOURS, Drawing, points
from notation.render.svg_text import Shape, shape

from .geometry import CELL, DIR_INDEX
from .state import PhilosophyState
from .text import status

SIZE = 62
LEFT, TOP = 20, 58
#: The four player codes the reference uses get fixed colours; others take seat colours.
OWNER_COLOURS = {"In": "blue", "Te": "purple", "Am": "orange", "Sa": "green"}
STYLE = """
.space { fill: #f4f1e8; stroke: #cfc9b8; stroke-width: 1; }
.space.centre { fill: #ebe5d2; }
.name { font-size: 10px; fill: #8a8576; }
.tile { stroke: #333; stroke-width: 0; }
.code { font-size: 15px; font-weight: bold; fill: #fff; }
.arrow { fill: #fff; }
.placed { fill: none; stroke: #111; stroke-width: 4; }
.moved { fill: none; stroke: #111; stroke-width: 2.5; stroke-dasharray: 6 4; }
"""


def _colour_name(owner: str, order: list[str]) -> str:
    name = OWNER_COLOURS.get(owner)
    if name is None:
        name = SEAT_COLOURS[(order.index(owner) if owner in order else 0) % len(SEAT_COLOURS)]
    return name


def _changes(state: PhilosophyState) -> tuple[str | None, set[str]]:
    """The space of the last placed tile and the spaces of the tiles it moved."""
    before = state.before_last_placement
    if before is None:
        return None, set()
    was = {(t[0], t[1]): space for space, t in before[0].items()}
    placed: str | None = None
    moved: set[str] = set()
    for space, tile in state.board.items():
        old = was.get((tile[0], tile[1]))
        if old is None:
            placed = space
        elif old != space:
            moved.add(space)
    return placed, moved


@functools.cache
def spaces() -> tuple[Shape, ...]:
    """The 37 named spaces, the same in every picture (so written once)."""
    out = []
    for name, (r, c) in CELL.items():
        x, y = LEFT + c * SIZE, TOP + r * SIZE
        out.append(shape("rect", x=x + 2, y=y + 2, width=SIZE - 4, height=SIZE - 4, rx=6,
                         class_="space centre" if name.startswith("C") else "space",
                         data_space=name))
        out.append(shape("text", name, x=x + 6, y=y + 14, class_="name"))
    return tuple(out)


def draw(state: PhilosophyState) -> Drawing:
    """The board drawn with a caption line and a line of turn order, respect and colours."""
    order = list(state.order)
    caption = status(state) or "nobody has joined yet"
    d = Drawing(LEFT * 2 + 7 * SIZE, TOP + 7 * SIZE + 12, f"Philosophy: {caption}", STYLE)
    d.text(LEFT, 20, caption, class_="caption")
    owners = list(dict.fromkeys([*order, *(t[0] for t in state.board.values())]))
    d.text(LEFT, 40, "turn order: " + (" ".join(order) or "(nobody yet)") +
           f"; respect: {state.respect or 'nobody'}; colours: " +
           (", ".join(f"{o} {_colour_name(o, order)}" for o in owners) or "none yet"),
           class_="label")
    d.place(spaces(), d.add("g", class_="spaces"))
    placed, moved = _changes(state)
    tiles = d.add("g", class_="tiles")
    for name, (owner, kind, facing) in sorted(state.board.items()):
        r, c = CELL[name]
        x, y = LEFT + c * SIZE, TOP + r * SIZE
        cx, cy = x + SIZE / 2, y + SIZE / 2
        group = d.add("g", tiles, class_=f"tile-at owner-{owner}", data_space=name,
                      data_tile=f"{owner}{kind}{facing}")
        d.add("rect", group, x=x + 8, y=y + 17, width=SIZE - 16, height=SIZE - 23, rx=7,
              class_="tile", fill=COLOURS[_colour_name(owner, order)])
        cy += 6
        d.text(cx, cy + 5, kind, group, class_="code", text_anchor="middle")
        angle = DIR_INDEX[facing] * 45
        tip = [(0, -SIZE / 2 + 13), (-5, -SIZE / 2 + 20), (5, -SIZE / 2 + 20)]
        d.add("polygon", group, points=points(tip), class_="arrow",
              transform=f"translate({cx:g} {cy:g}) rotate({angle})")
        if name == placed or name in moved:
            d.add("rect", group, x=x + 3, y=y + 3, width=SIZE - 6, height=SIZE - 6, rx=9,
                  class_="placed" if name == placed else "moved")
    return d
