"""The handbook's Sphinx configuration (`make docs`: warnings are errors).

Pages are Markdown (MyST), the command reference comes from the click commands
(sphinx-click) and the API reference from the docstrings (autodoc), so a command or a
function renamed in the code breaks the build, and the suite builds the site
(tests/project/test_docs.py).
"""
from __future__ import annotations

from pathlib import Path

import notation

project = "notation"
author = "the notation developers"
copyright = "the notation developers, MIT licence"
release = version = notation.__version__

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx_click"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3

html_theme = "furo"
html_title = f"notation {release}"
html_static_path: list[str] = []

autodoc_member_order = "bysource"
autodoc_typehints = "description"


def _plain_text(_app: object, _ctx: object, lines: list[str]) -> None:
    """The commands' help is plain text, as a terminal shows it: a ``*`` there (``*.deck``)
    is a character, not reStructuredText emphasis."""
    lines[:] = [line.replace("*", r"\*") for line in lines]


HERE = Path(__file__).resolve().parent
#: The pictures each game page shows, drawn by `notation render` when the site is built
#: (into docs/_pictures/, which git ignores): a sample record and the command's options.
PICTURES = {
    "tilewe.svg": ("tilewe/tw-sample-1.tilewe", []),
    "tilewe-ply-12.svg": ("tilewe/tw-sample-1.tilewe", ["--ply", "12"]),
    "flows.svg": ("flows/flows-090.flows", []),
    "flows-P2.svg": ("flows/flows-090.flows", ["--perspective", "P2"]),
    "philosophy.svg": ("philosophy/phil-0009.philosophy", []),
    "sanguine.svg": ("sanguine/example-1.sanguine", []),
    "sanguine-blue.svg": ("sanguine/example-1.sanguine", ["--perspective", "blue"]),
    "nomic.svg": ("nomic/example-1.nomic", []),
}


def _draw_pictures(_app: object) -> None:
    """Every picture of the game pages, drawn by this checkout's `notation render`."""
    folder = HERE / "_pictures"
    folder.mkdir(exist_ok=True)
    from notation.cli.main import run  # (here, not in a process a picture: 3 s a build)
    for name, (sample, options) in PICTURES.items():
        try:
            run(["render", str(HERE.parent / "samples" / sample), *options,
                 "-o", str(folder / name)])
        except SystemExit as end:
            if end.code:
                raise RuntimeError(f"notation render {sample} {options} ended {end.code}")


def setup(app: object) -> None:
    app.connect("builder-inited", _draw_pictures)  # type: ignore[attr-defined]
    for part in ("description", "options", "arguments", "epilog"):
        app.connect(f"sphinx-click-process-{part}", _plain_text)  # type: ignore[attr-defined]
