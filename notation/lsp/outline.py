"""The shape of a record file as an editor's outline and folds show it: its games, each
game's variations (nested as written), and the comments that run over several lines.

Worked out from the records the reader gives (:class:`~notation.core.tree.GameNode`),
with every line 1-based and the file's. A plain game (no ``(`` and no ``{`` in its text)
has neither variations nor brace comments, and its events are not read for the outline.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from notation.core.ast import (Comment, Directive, EventNode, Item, Malformed, MalformedKind,
                               Variation)
from notation.core.tree import GameNode

#: The tags that name a game in the outline, in the order they are tried.
_NAMING_TAGS = ("Event", "Id", "Site", "Date", "White", "Black", "Red", "Blue", "Players")


@dataclass(frozen=True, slots=True)
class Fold:
    """Lines ``line`` to ``end_line`` that fold as one: a ``variation``, a ``comment``
    or a ``game``."""

    line: int
    end_line: int
    kind: str

    def moved(self, lines: int) -> Fold:
        return replace(self, line=self.line + lines, end_line=self.end_line + lines)


@dataclass(frozen=True, slots=True)
class Branch:
    """One variation: where it is written (its ``(``, to its last line), the ply its first
    event is played at, that event as written, and the variations inside it."""

    line: int
    column: int
    end_line: int
    ply: int
    first: str
    branches: tuple[Branch, ...]

    def moved(self, lines: int) -> Branch:
        return replace(self, line=self.line + lines, end_line=self.end_line + lines,
                       branches=tuple(b.moved(lines) for b in self.branches))


@dataclass(frozen=True, slots=True)
class GameOutline:
    """One game: its number in the file, its lines, what its tags call it (``Event``,
    ``Id``, the players' names...: "" when none does), its result tag, its variations
    and the folds inside it (variations and long comments)."""

    number: int
    line: int
    end_line: int
    name: str
    result: str
    branches: tuple[Branch, ...]
    folds: tuple[Fold, ...]

    def moved(self, lines: int, number: int) -> GameOutline:
        return replace(self, number=number, line=self.line + lines,
                       end_line=self.end_line + lines,
                       branches=tuple(b.moved(lines) for b in self.branches),
                       folds=tuple(f.moved(lines) for f in self.folds))


def outline(record: GameNode, number: int) -> GameOutline:
    """The outline of ``record``, the ``number``-th game of its file."""
    text = record.raw or record.text
    first = record.first_line
    last = first + text.rstrip("\n").count("\n")
    tags = record.headers
    named = [tags[key] for key in _NAMING_TAGS
             if tags.get(key) and not tags[key].isdigit()]  # ([Players "4"] names none)
    name = " · ".join(named[:3])
    branches: tuple[Branch, ...] = ()
    folds: list[Fold] = []
    if "(" in text or "{" in text:
        branches = _branches(record.items, 0, folds)
    return GameOutline(number, first, last, name, tags.get("Result", ""), branches,
                       tuple(folds))


def _branches(items: list[Item], before: int, folds: list[Fold]) -> tuple[Branch, ...]:
    """The variations of a line whose first event is played at ply ``before + 1``; the
    folds found on the way are added to ``folds``."""
    found: list[Branch] = []
    ply = before
    for item in items:
        if isinstance(item, EventNode) or (isinstance(item, Malformed)
                                           and item.what == MalformedKind.EVENT):
            ply += 1
        elif isinstance(item, Variation):
            inner = _branches(item.items, ply - 1, folds)
            end = _last_line(item)
            first = next((i.text for i in item.items
                          if isinstance(i, (EventNode, Malformed))), "")
            found.append(Branch(item.pos.line, item.pos.column, end, ply, first, inner))
            if end > item.pos.line:
                folds.append(Fold(item.pos.line, end, "variation"))
        elif isinstance(item, Comment) and item.brace and "\n" in item.text:
            folds.append(Fold(item.pos.line, item.pos.line + item.text.count("\n"),
                              "comment"))
    return tuple(found)


def _last_line(item: Item) -> int:
    """The last line ``item`` is written on."""
    if isinstance(item, Variation):
        return max([item.pos.line] + [_last_line(i) for i in item.items])
    text = item.text if isinstance(item, (Comment, Directive, EventNode, Malformed)) else ""
    return item.pos.line + text.count("\n")


def line_comment_folds(lines: list[str], first_line: int = 1) -> list[Fold]:
    """Runs of two or more lines that hold only a line comment (``;`` or ``#``)."""
    folds: list[Fold] = []
    start = None
    for index, line in enumerate(lines + [""]):
        comment = line.lstrip().startswith((";", "#"))
        if comment and start is None:
            start = index
        elif not comment and start is not None:
            if index - 1 > start:
                folds.append(Fold(first_line + start, first_line + index - 1, "comment"))
            start = None
    return folds


__all__ = ["Branch", "Fold", "GameOutline", "line_comment_folds", "outline"]
