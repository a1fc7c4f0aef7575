"""What an editor shows of a record file: every problem ``validate`` finds, as a span of
the text with its rule, found again only for the games an edit touched.

A document is cut into pieces (:func:`notation.read.text.pieces`, the one rule for where
a game may begin) and each piece is checked on its own, as the reader checks it; the
findings of a piece are kept by its text, relative to its first line, so an edit that
changes one game of a thousand reads and replays that game only. The tests hold the
result equal to a reading of the whole text (``validate``'s), with one difference on
purpose: a game most of whose moves its game cannot read is tried as the other games
whatever came before it, where a reading of a whole file stops trying after
:data:`~notation.read.other_readings.OTHER_GAME_MISSES` such records in a row (a bound on
junk archives' cost, which one game's edit does not need).
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

from notation.core.ast import Comment
from notation.core.errors import Problem, rule_anchor
from notation.core.game import AnyGame
from notation.core.replay import run
from notation.read.reading import records_of_pieces
from notation.read.text import chunks, pieces

from .outline import GameOutline, outline


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem as an editor marks it: from ``line``, ``column`` to ``end_line``,
    ``end_column`` (1-based; the end just past the text), with what ``validate`` says of it
    (``game K, ply P (EVENT): MESSAGE``), its rule and the rule's catalogue anchor ("" for
    a problem of the text, which breaks no rule)."""

    line: int
    column: int
    end_line: int
    end_column: int
    message: str
    rule: str = ""
    anchor: str = ""
    severity: str = "error"

    def moved(self, lines: int) -> Finding:
        """The same finding ``lines`` further down."""
        return Finding(self.line + lines, self.column, self.end_line + lines, self.end_column,
                       self.message, self.rule, self.anchor, self.severity)


def finding(problem: Problem, game_index: int) -> Finding:
    """``problem`` of the ``game_index``-th game as a span: the event it names where it is
    written on one line, else one character."""
    width = len(problem.event) if problem.event and "\n" not in problem.event else 1
    line, column = max(problem.line, 1), max(problem.column, 1)
    return Finding(line, column, line, column + width,
                   f"game {game_index}, {problem.describe()}", problem.rule,
                   rule_anchor(problem.rule) if problem.rule else "",
                   "error")


class Document:
    """The findings of one open document, each game's kept by its text between edits.

    ``source`` names the file (its ending chooses the game, as for ``validate``);
    ``game``: the game to read it as, where neither its name nor its tags say.
    """

    #: At most this many games' findings are kept (a document of more re-reads the rest).
    KEPT = 20_000

    def __init__(self, source: str, game: str | AnyGame | None = None) -> None:
        self.source = source
        self.game = game
        self._kept: dict[Unit, Checked] = {}
        #: How many pieces the last :meth:`findings` read afresh (the rest were kept).
        self.read_afresh = 0
        #: The outline of each game of the text :meth:`findings` last read.
        self.outlines: list[GameOutline] = []

    def findings(self, text: str) -> list[Finding]:
        """Every finding of ``text``, in the document's order.

        :raises InputError: a game longer than any game may be (said once, at its start).
        """
        found: list[Finding] = []
        outlines: list[GameOutline] = []
        kept: dict[Unit, Checked] = {}
        self.read_afresh = 0
        index = 0
        unit: list[tuple[int, str]] = []  # pieces read as one: comments, then their game
        cut = pieces(chunks((text,), self.source), self.source)  # (CR and CRLF end lines)
        for first_line, piece in itertools.chain(cut, [(0, "")]):
            if piece:
                unit.append((first_line, piece))
            if not unit:
                continue
            start = unit[0][0]
            key = tuple((line - start + 1, part) for line, part in unit)
            checked = self._kept.get(key)
            if checked is None or (checked.start != start and checked.says_lines):
                checked = self._checked(unit)  # (a message that names a line is redone)
                self.read_afresh += 1
            if checked.hands_on and piece:  # its tags or comments open the next game
                continue
            if len(kept) < self.KEPT:
                kept[key] = checked
            found.extend(finding(problem, index + game).moved(start - checked.start)
                         for game, problem in checked.problems)
            if checked.shown_at != (start, index):  # (moved or renumbered: made again)
                checked.shown = [shape.moved(start - checked.start, index + shape.number)
                                 for shape in checked.outlines]
                checked.shown_at = (start, index)
            outlines.extend(checked.shown)
            index += checked.games
            unit = []
        self._kept, self.outlines = kept, outlines
        return found

    def _checked(self, unit: list[tuple[int, str]]) -> Checked:
        """Pieces read at their lines as the reader reads them in a row."""
        checked = Checked(unit[0][0])
        last = None
        for last in records_of_pieces(unit, self.source, self.game, checked=True):
            checked.games += 1
            checked.problems.extend((checked.games, p) for p in run(last).problems)
            checked.outlines.append(outline(last, checked.games))
        checked.hands_on = last is not None and not last.events and all(
            isinstance(item, Comment) for item in last.items)
        checked.says_lines = any(_LINE.search(p.message) for _game, p in checked.problems)
        return checked


#: A message that names a line of the file (``first at line 3``): kept only where it was.
_LINE = re.compile(r"\bline \d")


#: Pieces read as one, each with its first line counted from the first's.
Unit = tuple[tuple[int, str], ...]


@dataclass(slots=True)
class Checked:
    """What a unit of pieces holds: its games, each problem with its game's number among
    them, and whether its last "game" is only tags and comments, which the reader hands on
    to the next game (read with it). Kept by the pieces' text, it serves the unit where it
    moves (lines added above): its findings are moved with it."""

    #: The line the unit was read at (its problems' lines are the file's from there).
    start: int
    games: int = 0
    problems: list[tuple[int, Problem]] = field(default_factory=list)
    hands_on: bool = False
    #: Whether a message names a line: read again where the unit has moved.
    says_lines: bool = False
    #: Each game's outline, numbered from 1 in the unit, at the lines it was read at.
    outlines: list[GameOutline] = field(default_factory=list)
    #: The outlines as last given: at which first line and after how many games.
    shown: list[GameOutline] = field(default_factory=list)
    shown_at: tuple[int, int] = (0, -1)


__all__ = ["Checked", "Document", "Finding", "finding"]
