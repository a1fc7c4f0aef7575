"""Pictures of positions as SVG, built with ``xml.etree`` (escaping is the library's).

A game draws a position into a :class:`Drawing`: a root with a view box, a
title, one style sheet and top-level shapes. ``str`` gives the SVG text; the
HTML viewer stores each position as the list of its top-level parts
(:meth:`Drawing.parts`), which repeat from ply to ply and so compress well.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any, Iterable

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


#: What XML 1.0 cannot hold (C0 controls but tab and line breaks, surrogates, U+FFFE/F):
#: text from a record is drawn with each of them as U+FFFD, so every picture parses.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def _number(value: float) -> str:
    if isinstance(value, int):
        return str(value)
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _attributes(attrs: dict[str, Any]) -> dict[str, str]:
    """``class_`` -> ``class``, ``stroke_width`` -> ``stroke-width``; numbers written short."""
    out = {}
    for key, value in attrs.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        out[name] = _number(value) if isinstance(value, (int, float)) and not isinstance(
            value, bool) else xml_text(str(value))
    return out


class Drawing:
    """One SVG picture under construction."""

    def __init__(self, width: float, height: float, title: str, style: str = "") -> None:
        self.width, self.height = width, height
        self.root = ET.Element("svg", _attributes({
            "xmlns": SVG_NS, "viewBox": f"0 0 {_number(width)} {_number(height)}",
            "width": width, "height": height, "class": "notation-board"}))
        ET.SubElement(self.root, "title").text = xml_text(title)
        ET.SubElement(self.root, "style").text = BASE_STYLE + style

    def add(self, tag: str, parent: ET.Element | None = None, text: str | None = None,
            **attrs: Any) -> ET.Element:
        """A shape (``rect``, ``path``, ``text``, ``g`` ...) added to ``parent`` or the root."""
        element = ET.SubElement(self.root if parent is None else parent, tag, _attributes(attrs))
        if text is not None:
            element.text = xml_text(text)
        return element

    def text(self, x: float, y: float, content: str, parent: ET.Element | None = None,
             **attrs: Any) -> ET.Element:
        return self.add("text", parent, content, x=x, y=y, **attrs)

    def move_view(self, x: float, y: float) -> None:
        """Put the view box's top-left corner at ``(x, y)`` (a picture in world coordinates)."""
        self.root.set("viewBox", f"{_number(x)} {_number(y)} {_number(self.width)} "
                                 f"{_number(self.height)}")

    def parts(self) -> list[str]:
        """The view box, then the picture as pieces of SVG text that join into it (for the
        HTML viewer): every top-level element, a top-level group as its opening tag, its
        children one by one and its closing tag, so a change to one cell is one piece."""
        out = [self.root.get("viewBox", "")]
        for child in self.root:
            if child.tag == "g" and len(child):
                shell = ET.Element("g", child.attrib)
                shell.text = " "
                text = ET.tostring(shell, encoding="unicode")
                out.append(text[:text.rindex("> </g>") + 1])
                out.extend(ET.tostring(part, encoding="unicode") for part in child)
                out.append("</g>")
            else:
                out.append(ET.tostring(child, encoding="unicode"))
        return out

    def __str__(self) -> str:
        return ET.tostring(self.root, encoding="unicode")

    def _repr_svg_(self) -> str:
        return str(self)


def points(pairs: Iterable[tuple[float, float]]) -> str:
    """``"x1,y1 x2,y2 ..."`` for polygons and polylines."""
    return " ".join(f"{_number(x)},{_number(y)}" for x, y in pairs)


def outline(cells: set[tuple[int, int]], size: float, x0: float, y0: float) -> str:
    """Path data for the border of a set of grid cells ``(column, row-from-top)``."""
    steps = []
    for c, r in cells:
        x, y = x0 + c * size, y0 + r * size
        if (c, r - 1) not in cells:
            steps.append(f"M{_number(x)} {_number(y)}h{_number(size)}")
        if (c, r + 1) not in cells:
            steps.append(f"M{_number(x)} {_number(y + size)}h{_number(size)}")
        if (c - 1, r) not in cells:
            steps.append(f"M{_number(x)} {_number(y)}v{_number(size)}")
        if (c + 1, r) not in cells:
            steps.append(f"M{_number(x + size)} {_number(y)}v{_number(size)}")
    return "".join(sorted(steps))
