"""What the two self-contained HTML pages (the viewer and the opening explorer) share:
pictures as indexes into one table of distinct SVG parts, and their data as JSON inside
a ``<script>`` element of the page's template.
"""
from __future__ import annotations

import json
from typing import Any

from notation.read.grammars import package_text


class PartTable:
    """Distinct SVG parts, each stored once: a picture is the list of its parts' indexes,
    so pictures that differ in a few cells share the rest."""

    def __init__(self) -> None:
        self.table: list[str] = []
        self.index: dict[str, int] = {}

    def add(self, parts: list[str]) -> list[int]:
        """The indexes of ``parts``, new ones added to the table."""
        ids = []
        for part in parts:
            at = self.index.get(part)
            if at is None:
                at = self.index[part] = len(self.table)
                self.table.append(part)
            ids.append(at)
        return ids


def script_json(value: Any) -> str:
    """JSON safe inside a ``<script>`` element (no ``</script>`` or ``<!--`` can form)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace(
        "<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def filled(template: str, data: Any) -> str:
    """The page ``templates/TEMPLATE`` with ``data`` where its script reads it; its
    ``<!--HEAD-->`` and ``<!--SCRIPT-->`` lines are what every page starts its head and
    its script with (``head.html``, ``script.html``: the security policy, the shared style, ``DATA``)."""
    text = package_text("notation.render", f"templates/{template}")
    for mark, part in (("<!--HEAD-->\n", "head.html"), ("<!--SCRIPT-->\n", "script.html")):
        text = text.replace(mark, package_text("notation.render", f"templates/{part}"), 1)
    return text.replace("/*DATA*/null", script_json(data), 1)
