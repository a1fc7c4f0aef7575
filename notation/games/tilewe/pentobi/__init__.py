"""Pentobi's Blokus SGF (``.blksgf``) read and written as Tilewe records.

``sgf.py`` cuts a file into game trees, ``cells.py`` turns a move's cells into a Tilewe move
and back, ``reader.py`` makes records, ``writer.py`` writes them, ``format.py`` is the
:class:`~notation.core.formats.RecordFormat`. Importing the package only announces the
format (:data:`PLUGIN`, the ``notation.formats`` entry point).
"""
from notation.core.formats import FormatPlugin

#: A file of Pentobi's opens ``(;GM[Blokus...`` (``FF`` may come first); the other
#: variants' names too, so that they are refused by name rather than read as Tilewe.
PLUGIN = FormatPlugin(
    "blksgf", (".blksgf",),
    r"\(\s*;\s*(?:FF\[4\]\s*)?GM\[(?:Blokus|Nexos|Callisto|GembloQ)",
    "notation.games.tilewe.pentobi.format:FORMAT",
    "Pentobi's Blokus SGF (classic board: Blokus, Two-Player, Three-Player)")
