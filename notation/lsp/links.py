"""Where an editor's "go to definition" leads from a record: from a tag whose value names
a file beside the record (Sanguine's ``[RedDeck "decks/ember.deck"]``) to that file.

The file is found as the reader finds it (:func:`~notation.read.text.path_beside`):
inside the record's folder only; a tag that names one elsewhere leads nowhere.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from notation.core.errors import InputError
from notation.core.game import AnyGame
from notation.read.grammars import terminal_pattern
from notation.read.reading import choose_game
from notation.read.text import path_beside
from notation.read.visitor import tag_parts

from .edits import pieces_touching


@dataclass(frozen=True, slots=True)
class Link:
    """The span of the tag's value (1-based columns on ``line``, the end just past it)
    and the file it names."""

    line: int
    column: int
    end_column: int
    path: str


def link_at(text: str, source: str, line: int, column: int,
            game: str | AnyGame | None = None) -> Link | None:
    """The file the tag at ``line``, ``column`` names, if its game reads that tag as a
    file's path and the file is inside the record's folder (None otherwise)."""
    tag = terminal_pattern("record.lark", "TAG")
    for first_line, _last, piece in pieces_touching(text, source, line, line):
        row = piece.split("\n")[line - first_line]
        found = tag.search(row)
        chosen = choose_game(piece, source, game)
        if found is None or chosen is None or not found.start() <= column - 1 < found.end():
            return None
        key, value = tag_parts(row, found.start(), found.end())
        if key not in chosen.file_tags:
            return None
        try:
            _named, path = path_beside(source, value)
        except InputError:
            return None
        if not os.path.isfile(path):
            return None
        opening = row.index('"', found.start()) + 1
        return Link(line, opening + 1, row.rindex('"', 0, found.end()) + 1, path)
    return None


__all__ = ["Link", "link_at"]
