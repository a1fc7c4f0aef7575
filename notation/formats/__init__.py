"""Record formats the project itself publishes (see :mod:`notation.core.formats`).

``json``: one JSON document per game (``schemas/record.schema.json``), for web and
JavaScript tools; a file of several games holds one document after another (JSON
Lines: one a line, as ``notation convert --to json`` writes them). Files are
``.notation.json`` or ``.notation.jsonl``, or any file whose first document opens
with ``{"format": "notation-record"`` (blanks allowed): a native record that begins
with a brace comment is not claimed.
"""
from __future__ import annotations

from notation.core.formats import FormatPlugin

#: The value of every JSON record's ``format`` member, and the version this code reads.
FORMAT_NAME = "notation-record"
VERSION = 1

PLUGIN = FormatPlugin(
    "json", (".notation.json", ".notation.jsonl"),
    r'\{[ \t\r\n]*"format"[ \t\r\n]*:[ \t\r\n]*"notation-record"',
    "notation.formats.jsonrecord:FORMAT", "JSON records (schemas/record.schema.json)")

__all__ = ["FORMAT_NAME", "PLUGIN", "VERSION"]
