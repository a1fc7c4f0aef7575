"""Pentobi's Blokus SGF (``.blksgf``) read and written as Tilewe records.

``sgf.py`` cuts a file into game trees, ``cells.py`` turns a move's cells into a Tilewe move
and back, ``reader.py`` makes records, ``writer.py`` writes them, ``format.py`` is the
:class:`~notation.core.formats.RecordFormat`. The format is announced by Tilewe's package
(:data:`~notation.games.tilewe.BLKSGF`, the ``notation.formats`` entry point), which a
run loads anyway to know the games' extensions: one module fewer at every start.
"""
