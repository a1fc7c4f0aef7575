"""``render --html`` against the same command drawing with ElementTree: figures, not tests.

    python tests/benchmarks/bench_render.py [--games 20] [--runs 5] [--games-of tilewe,flows]

Until issue 23 a picture was an ``xml.etree`` tree serialised element by element,
and that took half of ``render --html``'s time; pictures are now written as
strings, and the shapes drawn alike in every picture are written once. The peer
here is the old way, kept only in this file (:class:`TreeDrawing`, put in place
of the games' ``Drawing`` in the peer's process), but it too keeps those shapes
(parsed once into elements), so it is no slower than the old code was and its
ratio is a lower bound (the old tree itself, from ``git archive``, measured the
same or more). Both commands draw the same page of random games (``notation random``,
``--jobs`` does not apply), their pages are checked equal, and each one's CPU
time (user + system of the child, ``getrusage``) is the least of ``--runs``
interleaved runs. The target is 2x (issue 23).
"""
from __future__ import annotations

import argparse
import filecmp
import importlib
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Iterable

from notation.cli.entry import main as notation_main
from notation.render.svg import BASE_STYLE, SVG_NS, Drawing
from notation.render.svg_text import Shape, attribute_name, attribute_text, xml_text

sys.path.insert(0, str(Path(__file__).parent))

from child_cpu import cpu_of  # noqa: E402

NOTATION = str(Path(sys.executable).with_name("notation"))
PICTURED = ("tilewe", "flows", "philosophy", "sanguine", "nomic")
TARGET = 2.0
PEER_FLAG = "--elementtree-peer"


#: The peer's elements of the shapes games keep (``Drawing.place``), by their text.
PARSED: dict[str, ET.Element] = {}


class TreeDrawing(Drawing):
    """A picture as an ElementTree, serialised by the library (the way before issue 23)."""

    def __init__(self, width: float, height: float, title: str, style: str = "") -> None:
        super().__init__(width, height, title, style)
        self.root = ET.Element("svg", {"xmlns": SVG_NS, "viewBox": self.view_box,
                                       "width": attribute_text(width),
                                       "height": attribute_text(height),
                                       "class": "notation-board"})
        ET.SubElement(self.root, "title").text = xml_text(title)
        ET.SubElement(self.root, "style").text = BASE_STYLE + style

    def add(self, tag: str, parent: Any = None, text: str | None = None,
            **attrs: Any) -> Any:
        element = ET.SubElement(self.root if parent is None else parent, tag, {
            attribute_name(key): xml_text(attribute_text(value))
            for key, value in attrs.items() if value is not None})
        element.text = None if text is None else xml_text(text)
        return element

    def place(self, shapes: Iterable[Shape], parent: Any = None) -> None:
        """Shapes the games now keep: each parsed once, then added as an element."""
        (self.root if parent is None else parent).extend([
            PARSED.get(made) or PARSED.setdefault(made, ET.fromstring(made)) for made in shapes])

    def move_view(self, x: float, y: float) -> None:
        super().move_view(x, y)
        self.root.set("viewBox", self.view_box)

    def parts(self) -> list[str]:
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


def run_peer(args: list[str]) -> None:
    """The command line with every game drawing through :class:`TreeDrawing`."""
    for game in PICTURED:
        setattr(importlib.import_module(f"notation.games.{game}.svg"), "Drawing", TreeDrawing)
    sys.argv = ["notation", *args]
    notation_main()


def measure(path: Path, runs: int) -> tuple[float, float]:
    """The least CPU time of the peer and of ``render --html`` over ``runs`` interleaved
    runs, their pages checked equal."""
    pages = path.with_suffix(".peer.html"), path.with_suffix(".html")
    commands = [[sys.executable, __file__, PEER_FLAG, "render", "--html", str(path),
                 "-o", str(pages[0])],
                [NOTATION, "render", "--html", str(path), "-o", str(pages[1])]]
    best = [float("inf")] * 2
    for _ in range(runs):
        for at, command in enumerate(commands):
            best[at] = min(best[at], cpu_of(command))
    if not filecmp.cmp(*pages, shallow=False):
        raise SystemExit(f"{path.name}: the peer's page differs")
    return best[0], best[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="Games on each page.")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--games-of", default=",".join(PICTURED), help="Comma-separated names.")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="notation-render-"))
    rows = []
    try:
        for game in args.games_of.split(","):
            path = folder / f"archive.{game}"
            path.write_text(subprocess.run(
                [NOTATION, "random", game, "--count", str(args.games), "--seed", "23"],
                capture_output=True, text=True, check=True).stdout, encoding="utf-8")
            rows.append((game, *measure(path, args.runs)))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"`render --html`, {args.games} random games a page, CPU seconds "
          f"(least of {args.runs})\n")
    print(f"| game | ElementTree (before) | strings (now) | speed-up | target >= {TARGET}x |")
    print("|---|---|---|---|---|")
    for game, peer, now in rows:
        ratio = peer / now
        print(f"| {game} | {peer:.2f} | {now:.2f} | {ratio:.2f}x | "
              f"{'met' if ratio >= TARGET else 'not met'} |")


if __name__ == "__main__":
    if sys.argv[1:2] == [PEER_FLAG]:
        run_peer(sys.argv[2:])
    else:
        main()
