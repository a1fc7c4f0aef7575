"""Record formats the project itself publishes (see :mod:`notation.core.formats`).

``json``: one JSON document per game (``schemas/record.schema.json``), for web and
JavaScript tools; a file of several games holds one document after another (JSON
Lines: one a line, as ``notation convert --to json`` writes them). Files are
``.notation.json`` or ``.notation.jsonl``, or any file whose first document opens
with ``{"format": "notation-record"`` (blanks allowed): a native record that begins
with a brace comment is not claimed. It is announced by the core
(:data:`notation.core.formats.JSON_RECORDS`), which every run loads anyway.
"""
from __future__ import annotations
from notation.core.tree import GameNode

#: The value of every JSON record's ``format`` member, and the version this code reads.
FORMAT_NAME = "notation-record"
VERSION = 1

__all__ = ["FORMAT_NAME", "VERSION"]
