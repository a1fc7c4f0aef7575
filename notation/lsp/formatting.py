"""What an editor's "format document" does to a record file: what ``notation fmt``
writes (the Game tag first, every event in its canonical spelling), for the whole
document or for the games a range touches; nothing for a document with a record that has
a problem, as ``fmt`` writes none."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from notation.archive.rewrite import canonical_text, to_format
from notation.core.errors import Problem
from notation.core.game import AnyGame
from notation.core.tree import GameNode
from notation.read.reading import text_records

from .edits import pieces_touching


@dataclass(frozen=True, slots=True)
class Formatted:
    """A document's text as ``fmt`` writes it, or None with the reason it writes none."""

    text: str | None
    refused: str = ""


#: What a rewrite does to a record before it is written: the record to write and its
#: problems (it is written only without any): ``fmt``'s :func:`to_format` by default.
Prepare = Callable[[GameNode], tuple[GameNode, list[Problem]]]


def formatted(text: str, source: str, game: str | AnyGame | None = None,
              prepare: Prepare = to_format) -> Formatted:
    """``fmt``'s text of a whole document (``prepare``: what is done to each record
    first, as ``fmt --fix-results`` or ``strip -V`` do)."""
    out: list[str] = []
    for record in text_records(text, source, game):
        written, problems = prepare(record)
        if problems:
            return Formatted(None, f"game {record.index}: {problems[0].describe()} (fmt "
                                   f"writes no record with a problem)")
        out.append(canonical_text(written).rstrip("\n") + "\n")
    return Formatted("\n".join(out))


@dataclass(frozen=True, slots=True)
class PieceEdit:
    """One game's lines (``first_line`` to ``last_line``, 1-based, whole lines) and the text
    ``fmt`` writes in their place."""

    first_line: int
    last_line: int
    text: str


def formatted_range(text: str, source: str, first_line: int, last_line: int,
                    game: str | AnyGame | None = None) -> list[PieceEdit] | Formatted:
    """The edits that format each game with a line from ``first_line`` to ``last_line``
    (the blank lines between games stay as they are); a :class:`Formatted` saying why
    when one of them has a problem."""
    edits: list[PieceEdit] = []
    for start, end, piece in pieces_touching(text, source, first_line, last_line):
        done = formatted(piece, source, game)
        if done.text is None:
            return done
        if done.text.rstrip("\n") != piece.rstrip("\n"):
            edits.append(PieceEdit(start, end, done.text.rstrip("\n")))
    return edits


__all__ = ["Formatted", "PieceEdit", "formatted", "formatted_range"]
