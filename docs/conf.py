"""The handbook's Sphinx configuration (`make docs`: warnings are errors).

Pages are Markdown (MyST), the command reference comes from the click commands
(sphinx-click) and the API reference from the docstrings (autodoc), so a command or a
function renamed in the code breaks the build, and the suite builds the site
(tests/project/test_docs.py).
"""
from __future__ import annotations

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


def setup(app: object) -> None:
    for part in ("description", "options", "arguments", "epilog"):
        app.connect(f"sphinx-click-process-{part}", _plain_text)  # type: ignore[attr-defined]
