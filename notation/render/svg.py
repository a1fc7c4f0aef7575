"""Pictures of positions as SVG.

A game draws a position into a :class:`Drawing`: a root with a view box, a
title, one style sheet and top-level shapes. ``str`` gives the SVG text; the
HTML viewer stores each position as the list of its top-level parts
(:meth:`Drawing.parts`), which repeat from ply to ply and so compress well.

The text is written by :mod:`notation.render.svg_text`, not by an XML library
(for speed; with the same escapes).
"""
from __future__ import annotations

from typing import Any, Iterable

from .svg_text import Element, Shape, escape_text, number, start_tag

SVG_NS = "http://www.w3.org/2000/svg"

#: One palette for every game, readable on white and for the common colour blindnesses
#: (blue/orange pairs first; no red/green pair is the only difference between two seats).
COLOURS = {
    "blue": "#2f6fd0", "yellow": "#e6b000", "red": "#d23c2e", "green": "#2e9a4a",
    "purple": "#8a4fc6", "cyan": "#1aa3b8", "orange": "#ee7d1a", "grey": "#8c8c8c",
}
SEAT_COLOURS = ("blue", "orange", "green", "purple", "red", "cyan")

BASE_STYLE = """
text { font-family: 'DejaVu Sans', Verdana, Arial, sans-serif; fill: #222; }
.label { font-size: 11px; fill: #555; }
.caption { font-size: 14px; }
"""


class Drawing:
    """One SVG picture under construction."""

    def __init__(self, width: float, height: float, title: str, style: str = "") -> None:
        self.width, self.height = width, height
        self.view_box = f"0 0 {number(width)} {number(height)}"
        self.shapes: list[Element | Shape] = [
            Element("title", "<title", escape_text(title)),
            Element("style", "<style", escape_text(BASE_STYLE + style))]

    def add(self, tag: str, parent: Element | None = None, text: str | None = None,
            **attrs: Any) -> Element:
        """A shape (``rect``, ``path``, ``text``, ``g`` ...) added to ``parent`` or the root."""
        element = Element(tag, start_tag(tag, attrs), "" if text is None else escape_text(text))
        (self.shapes if parent is None else parent.children).append(element)
        return element

    def place(self, shapes: Iterable[Shape], parent: Element | None = None) -> None:
        """Shapes made beforehand (:func:`~notation.render.svg_text.shape`) added to ``parent``
        or the root, in order."""
        (self.shapes if parent is None else parent.children).extend(shapes)

    def text(self, x: float, y: float, content: str, parent: Element | None = None,
             **attrs: Any) -> Element:
        return self.add("text", parent, content, x=x, y=y, **attrs)

    def move_view(self, x: float, y: float) -> None:
        """Put the view box's top-left corner at ``(x, y)`` (a picture in world coordinates)."""
        self.view_box = f"{number(x)} {number(y)} {number(self.width)} {number(self.height)}"

    def parts(self) -> list[str]:
        """The view box, then the picture as pieces of SVG text that join into it (for the
        HTML viewer): every top-level element, a top-level group as its opening tag, its
        children one by one and its closing tag, so a change to one cell is one piece."""
        out = [self.view_box]
        for shape in self.shapes:
            if isinstance(shape, Element) and shape.tag == "g" and shape.children:
                out.append(shape.start + ">")
                out.extend([str(child) for child in shape.children])
                out.append("</g>")
            else:
                out.append(str(shape))
        return out

    def __str__(self) -> str:
        head = start_tag("svg", {"xmlns": SVG_NS, "viewBox": self.view_box, "width": self.width,
                                 "height": self.height, "class": "notation-board"})
        return head + ">" + "".join([str(shape) for shape in self.shapes]) + "</svg>"

    def _repr_svg_(self) -> str:
        return str(self)


def points(pairs: Iterable[tuple[float, float]]) -> str:
    """``"x1,y1 x2,y2 ..."`` for polygons and polylines."""
    return " ".join(f"{number(x)},{number(y)}" for x, y in pairs)


def outline(cells: set[tuple[int, int]], size: float, x0: float, y0: float) -> str:
    """Path data for the border of a set of grid cells ``(column, row-from-top)``."""
    steps = []
    for c, r in cells:
        x, y = x0 + c * size, y0 + r * size
        if (c, r - 1) not in cells:
            steps.append(f"M{number(x)} {number(y)}h{number(size)}")
        if (c, r + 1) not in cells:
            steps.append(f"M{number(x)} {number(y + size)}h{number(size)}")
        if (c - 1, r) not in cells:
            steps.append(f"M{number(x)} {number(y)}v{number(size)}")
        if (c + 1, r) not in cells:
            steps.append(f"M{number(x + size)} {number(y)}v{number(size)}")
    return "".join(sorted(steps))
