"""Flows pictures: the hex board from one side's view, each tile's three paths, the flows
coloured by their player and every seat's edge in its player's colour."""
from __future__ import annotations

import functools
import math
import re

from notation.render.svg import COLOURS, SEAT_COLOURS, Drawing, points
from notation.render.svg_text import Shape, shape

from .geometry import HEXES, SIDE_EDGES, STEP, label_of, turned
from .state import FlowsState
from .text import status
from .tiles import PAIRS

R = 34.0                       # hex radius (centre to corner)
W = math.sqrt(3) * R           # centre to centre of neighbours
MARGIN, RIGHT = 30.0, 15.0     # left and right margins of the text
CAPTION, LABEL = 14.0, 11.0    # font sizes (px) of the caption and the line below it
EM = 0.55                      # a character's width in em, a little over DejaVu Sans' average
STYLE = "".join(f".p{p + 1} {{ stroke: {COLOURS[c]}; }}\n" for p, c in enumerate(SEAT_COLOURS)) + """
.hex { fill: #f4f1e8; stroke: #b8b2a0; stroke-width: 1.5; }
.hex.tiled { fill: #fffdf6; }
.path { fill: none; stroke-width: 3.5; stroke-linecap: round; }
.path.idle { stroke: #cfcabb; }
.path.flow { stroke-width: 6; }
.seat { stroke-width: 7; stroke-linecap: round; }
.name { font-size: 10px; fill: #6d6858; paint-order: stroke; stroke: #fffdf6; stroke-width: 3px; }
"""


def text_width(text: str, size: float) -> float:
    """A line's width estimated from its length, erring wide (no font is measured here)."""
    return len(text) * size * EM


def wrap(text: str, size: float, width: float) -> list[str]:
    """``text`` in lines no wider than ``width``: broken after a comma, semicolon or colon
    where it can be, else at a space (a single word wider than that stays whole)."""
    lines: list[str] = []
    for piece in re.split(r"(?<=[,;:]) ", text):
        words = piece.split(" ") if text_width(piece, size) > width else [piece]
        for word in words:
            if lines and text_width(f"{lines[-1]} {word}", size) <= width:
                lines[-1] = f"{lines[-1]} {word}"
            else:
                lines.append(word)
    return lines


def heading(caption: str, subtitle: str,
            width: float) -> tuple[list[tuple[float, str, str]], float]:
    """The caption and the subtitle below it, each wrapped to the picture's width, as
    (baseline, text, class) lines; and the board's top, below the last of them."""
    room = width - MARGIN - RIGHT
    rows: list[tuple[float, str, str]] = [
        (20 + 18 * i, line, "caption") for i, line in enumerate(wrap(caption, CAPTION, room))]
    below = rows[-1][0] + 20
    rows += [(below + 14 * i, line, "label") for i, line in enumerate(wrap(subtitle, LABEL, room))]
    return rows, rows[-1][0] + 18


class Board:
    """What a picture's board looks like in one view (``side`` at the bottom) below a
    heading of a given height: hexes, tile paths, seat edges and labels, each written
    once (:func:`board` keeps it) and not for every ply."""

    def __init__(self, side: int, top: float) -> None:
        self.k, self.top = side % 6, top
        self.centres = [self.at(r, c) for r, c in HEXES]
        self.labels = [label_of(h, side) for h in range(len(HEXES))]
        outlines = [points([(x + R * math.cos(math.radians(30 + 60 * i)),
                             y + R * math.sin(math.radians(30 + 60 * i))) for i in range(6)])
                    for x, y in self.centres]
        #: hexes[tiled][h]: hex ``h``'s outline, without and with a tile on it.
        self.hexes = [[shape("polygon", points=outline, class_=name, data_hex=label)
                       for outline, label in zip(outlines, self.labels)]
                      for name in ("hex", "hex tiled")]
        self.names = [shape("text", label, x=x, y=y - R / 2 + 2, class_="name",
                            text_anchor="middle") for (x, y), label in zip(self.centres, self.labels)]
        self.paths: dict[tuple[int, int, int, int | None], Shape] = {}
        self.seats: dict[tuple[int, int], list[Shape]] = {}

    def at(self, r: float, c: float) -> tuple[float, float]:
        tr, tc = turned(r, c, self.k)
        return MARGIN + W / 2 + (tc - tr / 2 + 1.5) * W, self.top + R + (6 - tr) * 1.5 * R

    def edge_mid(self, h: int, d: int) -> tuple[float, float]:
        r, c = HEXES[h]
        (x0, y0), (x1, y1) = self.at(r, c), self.at(r + STEP[d][0], c + STEP[d][1])
        return (x0 + x1) / 2, (y0 + y1) / 2

    def path(self, h: int, a: int, b: int, owner: int | None) -> Shape:
        """A tile's path on hex ``h`` from edge ``a`` to edge ``b``, idle or ``owner``'s flow."""
        made = self.paths.get((h, a, b, owner))
        if made is None:
            (ax, ay), (bx, by), (x, y) = self.edge_mid(h, a), self.edge_mid(h, b), self.centres[h]
            made = self.paths[h, a, b, owner] = shape(
                "path", d=f"M{ax:.1f} {ay:.1f}Q{x:.1f} {y:.1f} {bx:.1f} {by:.1f}",
                class_="path idle" if owner is None else f"path flow p{owner + 1}",
                data_hex=self.labels[h])
        return made

    def seat(self, side: int, player: int) -> list[Shape]:
        """The edges of ``side`` in ``player``'s colour."""
        made = self.seats.get((side, player))
        if made is None:
            made = self.seats[side, player] = []
            for h, d in SIDE_EDGES[side]:
                (x0, y0), (mx, my) = self.centres[h], self.edge_mid(h, d)
                ux, uy = (mx - x0) / (W / 2), (my - y0) / (W / 2)
                made.append(shape("line", x1=round(mx - uy * R / 2, 1),
                                  y1=round(my + ux * R / 2, 1), x2=round(mx + uy * R / 2, 1),
                                  y2=round(my - ux * R / 2, 1), class_=f"seat p{player + 1}"))
        return made


@functools.lru_cache(maxsize=64)
def board(side: int, top: float) -> Board:
    return Board(side, top)


def draw(state: FlowsState, side: int) -> Drawing:
    """The board turned so that ``side`` is at the bottom, its A row next to it (the text
    view flips rows for sides 3-5 instead; a picture can simply turn)."""
    players = state.seating.players
    who = f"P{next(p for p in range(players) if state.seating.seats[p] == side) + 1}" \
        if side in state.seating.seats else f"side {side}"
    caption = status(state)
    width = 2 * MARGIN + 7 * W
    seats = ", ".join(f"P{p + 1} {SEAT_COLOURS[p]} (side {s})"
                      for p, s in enumerate(state.seating.seats))
    rows, top = heading(caption, f"view of {who}; {seats}", width)
    view = board(side, top)
    flowing: dict[tuple[int, int, int], int] = {}
    for p in range(players):
        for h, a, b in state.flow_segments(p):
            flowing.setdefault((h, min(a, b), max(a, b)), p)
    height = top + 2 * R + 6 * 1.5 * R + 16
    d = Drawing(width, height, f"Flows, view of {who}: {caption}", STYLE)
    for y, line, name in rows:
        d.text(MARGIN, y, line, class_=name)
    tiles = state.tiles
    d.place([view.hexes[tile is not None][h] for h, tile in enumerate(tiles)],
            d.add("g", class_="hexes"))
    d.place([view.path(h, a, b, flowing.get((h, a, b)))
             for h, tile in enumerate(tiles) if tile is not None
             for a, b in PAIRS[tile[0]][tile[1]]], d.add("g", class_="paths"))
    d.place([line for p, s in enumerate(state.seating.seats) for line in view.seat(s, p)],
            d.add("g", class_="seats"))
    d.place(view.names, d.add("g", class_="names"))
    return d
