"""SVG text written directly: escaping as ``xml.etree`` escapes, start tags, elements.

A viewer page draws every ply of every game, and building and serialising an
element tree per picture took most of ``render --html``'s time; here a shape's
opening tag is written once, when it is drawn, and a shape drawn alike in many
pictures (a board's empty cell, a label) can be written once for all of them
(:func:`shape`). ``tests/render/test_svg_strings.py`` holds the text to what
``xml.etree`` wrote.
"""
from __future__ import annotations

import re
from typing import Any, NewType

#: What XML 1.0 cannot hold (C0 controls but tab and line breaks, surrogates, U+FFFE/F):
#: text from a record is drawn with each of them as U+FFFD, so every picture parses.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
#: Anything an attribute value or a text cannot hold as it is: most values have none, and
#: one search is cheaper than the replacements.
_ATTRIBUTE_SPECIAL = re.compile('[&<>"\t\n\r\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]')
_TEXT_SPECIAL = re.compile("[&<>\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    """``text`` with what XML cannot hold replaced, so any record's text can be drawn."""
    return _NOT_XML.sub("\ufffd", text)


def number(value: float) -> str:
    """A coordinate written short: an integer as it is, else at most two decimals."""
    if isinstance(value, int):
        return str(value)
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def escape_attribute(value: str) -> str:
    """An attribute's value as it goes between double quotes (ElementTree's escapes)."""
    if _ATTRIBUTE_SPECIAL.search(value) is None:
        return value
    return (xml_text(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("\r", "&#13;").replace("\n", "&#10;")
            .replace("\t", "&#09;"))


def escape_text(value: str) -> str:
    """A text's content as it goes between tags (ElementTree's escapes)."""
    if _TEXT_SPECIAL.search(value) is None:
        return value
    return xml_text(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


#: Keyword names to attribute names: ``class_`` -> ``class``, ``stroke_width`` ->
#: ``stroke-width`` (filled as names are met; a game uses a few dozen).
_NAMES: dict[str, str] = {}


def attribute_name(key: str) -> str:
    name = _NAMES.get(key)
    if name is None:
        name = _NAMES[key] = key.rstrip("_").replace("_", "-")
    return name


def attribute_text(value: Any) -> str:
    """What an attribute says of a value, before escaping: a number written short,
    anything else its text."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return number(value)
    return str(value)


def start_tag(tag: str, attrs: dict[str, Any]) -> str:
    """``<tag name="value" ...`` without its end (``None`` values left out). The common
    kinds of value are dealt with here, in line: this runs for every shape drawn."""
    out = ["<", tag]
    for key, value in attrs.items():
        kind = type(value)
        if kind is str:
            if _ATTRIBUTE_SPECIAL.search(value) is not None:
                value = escape_attribute(value)
        elif kind is int:
            value = str(value)
        elif kind is float:
            value = number(value)
        elif value is None:
            continue
        else:
            value = escape_attribute(attribute_text(value))
        name = _NAMES.get(key) or attribute_name(key)
        out.append(f' {name}="{value}"')
    return "".join(out)


#: A finished shape's SVG text, made by :func:`shape` (so its values are escaped).
Shape = NewType("Shape", str)


class Element:
    """A shape being drawn: its opening tag (written, without its ``>``), its text
    (escaped) and what is drawn into it."""

    __slots__ = ("tag", "start", "text", "children")

    def __init__(self, tag: str, start: str, text: str) -> None:
        self.tag, self.start, self.text = tag, start, text
        self.children: list[Element | Shape] = []

    def __str__(self) -> str:
        if self.children:
            inner = "".join([str(child) for child in self.children])
            return f"{self.start}>{self.text}{inner}</{self.tag}>"
        if self.text:
            return f"{self.start}>{self.text}</{self.tag}>"
        return self.start + " />"


def shape(tag: str, text: str | None = None, **attrs: Any) -> Shape:
    """A shape without children as finished text, as :meth:`Drawing.add` would draw it: a
    game keeps the shapes it draws alike in every picture (a board's cells, its labels)
    and places them (:meth:`Drawing.place`) instead of writing them again."""
    return Shape(str(Element(tag, start_tag(tag, attrs), "" if text is None else escape_text(text))))
