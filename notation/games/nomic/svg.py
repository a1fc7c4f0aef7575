"""Nomic pictures: the explored map around the players (known resources, the origin, the
players' markers) and the rules in effect beside it."""
from __future__ import annotations

import functools

from notation.render.svg import COLOURS, SEAT_COLOURS, Drawing
from notation.render.svg_text import Shape, shape

from .state import ORIGIN, NomicState

CELL = 30
SPAN = 21          # the widest map drawn, in spaces (a far-flung map is cut around the players)
RULES_SHOWN = 28
TOP, LEFT = 58, 40
SYMBOLS = {"Wood": "w", "Metal": "m", "Water": "~", "Food": "f"}   # as the text map
RESOURCE_COLOURS = {"Wood": "#9a6a3a", "Metal": "#7d8791", "Water": "#3d8fd6", "Food": "#4aa04a"}
STYLE = "".join(f".space.{k.lower()} {{ fill: {v}; }}\n" for k, v in RESOURCE_COLOURS.items()) + """
.space { fill: #ece8dc; stroke: #fff; stroke-width: 1; }
.space.origin { fill: #d9cfae; }
.resource { font-size: 10px; fill: #fff; }
.player { stroke: #fff; stroke-width: 2; }
.initial { font-size: 12px; font-weight: bold; fill: #fff; }
.rule { font-size: 11px; }
.rule.amended { font-style: italic; }
"""


def _window(low: int, high: int) -> tuple[int, int]:
    if high - low + 1 <= SPAN:
        return low, high
    middle = (low + high) // 2
    return middle - SPAN // 2, middle + SPAN // 2


# Shapes that repeat from ply to ply, written once each (a record's map and rules change
# little between turns); the caches are bounded, as a long record's spaces are many.

def px(x: int) -> int:
    return x * CELL


def py(y: int) -> int:
    return -(y + 1) * CELL


@functools.lru_cache(maxsize=4096)
def space(x: int, y: int, kind: str | None) -> tuple[Shape, ...]:
    """A known space (``kind``: its resource, None for the origin) and its symbol."""
    name = "origin" if (x, y) == ORIGIN or kind is None else kind.lower()
    square = shape("rect", x=px(x), y=py(y), width=CELL, height=CELL, class_=f"space {name}",
                   data_space=f"{x},{y}")
    if not kind:
        return (square,)
    return square, shape("text", SYMBOLS[kind], x=px(x) + 3, y=py(y) + 11, class_="resource")


@functools.lru_cache(maxsize=1024)
def column_label(x: int, y0: int) -> Shape:
    return shape("text", str(x), x=px(x) + CELL / 2, y=py(y0) + CELL + 14, text_anchor="middle")


@functools.lru_cache(maxsize=1024)
def row_label(y: int, x0: int) -> Shape:
    return shape("text", str(y), x=px(x0) - 6, y=py(y) + CELL / 2 + 4, text_anchor="end")


@functools.lru_cache(maxsize=4096)
def rule_line(x: int, y: int, number: int, text: str, amended: bool) -> Shape:
    """A rule in effect, cut to 60 characters, ``*`` marking an amended one."""
    line = f"{number}{'*' if amended else ''} {text}"
    return shape("text", line if len(line) <= 60 else line[:59] + "…", x=x, y=y,
                 class_="rule amended" if amended else "rule", data_rule=number)


def draw(state: NomicState) -> Drawing:
    here = [c for c in state.players.values() if c]
    spots = here + list(state.revealed) + [ORIGIN]
    anchor = here or [ORIGIN]   # a cut map keeps the players in view
    x0, x1 = min(c[0] for c in spots) - 1, max(c[0] for c in spots) + 1
    y0, y1 = min(c[1] for c in spots) - 1, max(c[1] for c in spots) + 1
    cut = x1 - x0 + 1 > SPAN or y1 - y0 + 1 > SPAN
    if cut:
        x0, x1 = _window(min(c[0] for c in anchor) - 1, max(c[0] for c in anchor) + 1)
        y0, y1 = _window(min(c[1] for c in anchor) - 1, max(c[1] for c in anchor) + 1)
        x0, x1 = _window(x0, max(x1, x0 + SPAN - 1))
        y0, y1 = _window(y0, max(y1, y0 + SPAN - 1))
    columns, rows = x1 - x0 + 1, y1 - y0 + 1
    rules = [(n, r) for n, r in sorted(state.rules.items()) if r.in_effect]
    map_w = LEFT + columns * CELL + 20
    width = map_w + 420
    height = max(TOP + rows * CELL + 40, TOP + 10 + 16 * (min(len(rules), RULES_SHOWN) + 3))
    status = (f"{state.label}, phase {state.phase}" if state.current else
              "before the game" if state.round == 0 else
              f"round {state.round}, between turns")
    d = Drawing(width, height, f"Nomic: {status}", STYLE)
    # World coordinates: a space keeps its place on the page whatever the window, so
    # the viewer's positions differ only where the map did; the view box follows.
    ox, oy = x0 * CELL - LEFT, -(y1 + 1) * CELL - TOP
    d.move_view(ox, oy)

    d.text(ox + 10, oy + 20, status + (" (record ended)" if state.ended else ""),
           class_="caption")
    d.text(ox + 10, oy + 40, "map: origin tan; w Wood (brown), m Metal (grey), ~ Water (blue), "
           "f Food (green); pale: unknown" + (f"; cut to {SPAN}x{SPAN} around the players"
                                              if cut else ""), class_="label")
    defs = d.add("defs")
    pattern = d.add("pattern", defs, id="nomic-unknown", width=CELL, height=CELL,
                    patternUnits="userSpaceOnUse")
    d.add("rect", pattern, width=CELL, height=CELL, class_="space")
    d.add("rect", x=px(x0), y=py(y1), width=columns * CELL, height=rows * CELL,
          fill="url(#nomic-unknown)", class_="unknown")
    ground = d.add("g", class_="map")
    for (x, y) in [ORIGIN, *state.revealed]:
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            continue
        d.place(space(x, y, state.revealed.get((x, y))), ground)
    labels = d.add("g", class_="label")
    d.place([column_label(x, y0) for x in range(x0, x1 + 1) if x % 5 == 0 or columns <= 12],
            labels)
    d.place([row_label(y, x0) for y in range(y0, y1 + 1) if y % 5 == 0 or rows <= 12], labels)
    marks = d.add("g", class_="players")
    order = state.order()
    stacked: dict[tuple[int, int], int] = {}
    for i, name in enumerate(order):
        c = state.players.get(name)
        if not c or not (x0 <= c[0] <= x1 and y0 <= c[1] <= y1):
            continue
        k = stacked.get(c, 0)
        stacked[c] = k + 1
        cx = px(c[0]) + CELL / 2 + 5 * k
        cy = py(c[1]) + CELL / 2 + 2 + 3 * k
        group = d.add("g", marks, class_="marker", data_player=name)
        d.add("circle", group, cx=cx, cy=cy, r=10, class_="player",
              fill=COLOURS[SEAT_COLOURS[i % len(SEAT_COLOURS)]])
        d.text(cx, cy + 4, name[0], group, class_="initial", text_anchor="middle")
    listing = d.add("g", class_="rules")
    d.text(ox + map_w, oy + TOP + 8, f"rules in effect ({len(rules)}); next number {state.counter}",
           listing, class_="caption")
    d.place([rule_line(ox + map_w, oy + TOP + 10 + 16 * (i + 1), n, r.text, r.amended)
             for i, (n, r) in enumerate(rules[:RULES_SHOWN])], listing)
    if len(rules) > RULES_SHOWN:
        d.text(ox + map_w, oy + TOP + 10 + 16 * (RULES_SHOWN + 1), f"… and {len(rules) - RULES_SHOWN} more",
               listing, class_="rule")
    who = "; ".join(f"{p} {state.players[p]}" for p in order)
    d.text(ox + 10, oy + height - 12, f"players (turn order): {who or 'none'}", class_="label")
    return d
