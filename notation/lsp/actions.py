"""The fixes an editor offers on a record (code actions): each a title and the text edits
that make it, worked out by the library's own commands.

- the result tags set to what the replay reaches (``fmt --fix-results``);
- the tag a refusal advises (``add [Dialect "quortextt"]``, one of the ``[Seats]`` under
  which the record replays): one tag line added, changed or removed;
- an illegal event replaced by a legal one of the same piece or tile (what ``notation
  legal`` lists at that point of the record, the closest spellings first; where that
  piece has no legal placement left, the closest legal events of any);
- the variations stripped (``strip -V``).

A fix that rewrites a game writes it as ``fmt`` does, and is offered only where ``fmt``
would write the result (the game then has no problem).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Iterator

from notation.archive.rewrite import to_format
from notation.archive.strip import Strip
from notation.core.ast import Tag, Variation
from notation.core.errors import Problem
from notation.core.fields import event_fields
from notation.core.game import AnyGame
from notation.core.replay import game_of, run
from notation.core.tree import GameNode
from notation.core.writer import quote
from notation.read.other_readings import advised_tags
from notation.read.reading import records_of_pieces

from .completions import completions_at
from .edits import pieces_touching
from .formatting import Prepare, formatted

#: At most this many replacements are offered for one illegal event.
MOST_REPLACEMENTS = 12
#: The parts of an event that name what is played (a replacement plays the same one).
_PLAYED = ("piece", "tile")


@dataclass(frozen=True, slots=True)
class Replace:
    """Text from ``line``, ``column`` to ``end_line``, ``end_column`` (1-based, the end
    just past it) replaced by ``text``."""

    line: int
    column: int
    end_line: int
    end_column: int
    text: str


@dataclass(frozen=True, slots=True)
class Action:
    """One fix: what the editor's menu says, its kind (``quickfix`` mends a problem,
    ``source`` rewrites a valid game) and its edits."""

    title: str
    kind: str
    edits: tuple[Replace, ...]


def actions_at(text: str, source: str, first_line: int, last_line: int,
               game: str | AnyGame | None = None) -> list[Action]:
    """The fixes for the games with a line from ``first_line`` to ``last_line``."""
    found: list[Action] = []
    for start, end, piece in pieces_touching(text, source, first_line, last_line):
        for record in records_of_pieces([(start, piece)], source, game):
            found.extend(_fixes(text, source, record, start, end, piece, first_line,
                                last_line, game))
    return found


def _fixes(text: str, source: str, record: GameNode, start: int, end: int, piece: str,
           first_line: int, last_line: int, game: str | AnyGame | None
           ) -> Iterator[Action]:
    problems = run(record).problems
    if problems and _result_tags_differ(record):  # (then rewritten: the costlier step)
        rewritten = _rewritten(piece, source, start, end, game,
                               lambda r: to_format(r, fix_results=True))
        if rewritten is not None:
            yield Action("Set the result tags to what the replay reaches", "quickfix",
                         (rewritten,))
    advised: list[tuple[str, str | None]] = []
    for problem in problems:
        for change in advised_tags(problem.message):
            if change not in advised:
                advised.append(change)
    for key, value in advised:
        yield _tag_action(record, start, key, value)
    for problem in problems:
        if (problem.event and "\n" not in problem.event
                and first_line <= problem.line <= last_line):
            yield from _replacements(text, source, record, problem, game)
    if any(isinstance(item, Variation) for item in record.items):
        rewritten = _rewritten(piece, source, start, end, game,
                               lambda r: to_format(Strip(variations=True).record(r)))
        if rewritten is not None:
            yield Action("Strip the variations (strip -V)",
                         "quickfix" if problems else "source", (rewritten,))


def _rewritten(piece: str, source: str, start: int, end: int,
               game: str | AnyGame | None, prepare: Prepare) -> Replace | None:
    """The piece's lines replaced by what ``fmt`` writes of it after ``prepare`` (None:
    it would write nothing)."""
    done = formatted(piece, source, game, prepare)
    if done.text is None:
        return None
    last = piece.rstrip("\n").split("\n")[-1]
    return Replace(start, 1, end, len(last) + 1, done.text.rstrip("\n"))


def _result_tags_differ(record: GameNode) -> bool:
    fixed, problems = to_format(record, fix_results=True)
    return not problems and dict(fixed.headers) != dict(record.headers)


def _tag_action(record: GameNode, start: int, key: str, value: str | None) -> Action:
    """The tag ``key`` given ``value`` (None: removed), on its own line."""
    tags = [tag for tag in record.tags if isinstance(tag, Tag)]
    same = [tag for tag in tags if tag.key == key]
    written = f"[{key} {quote(value)}]" if value is not None else ""
    if same:
        line = same[0].pos.line
        if value is None:
            title = f"Remove [{key}]"
            edit = Replace(line, 1, line + 1, 1, "")
        else:
            title = f"Change [{key}] to {written}"
            edit = Replace(line, 1, line, 1 + len(_line_of(record, line)), written)
    else:
        title = f"Add {written}"
        after = max((tag.pos.line for tag in tags), default=start - 1)
        edit = Replace(after + 1, 1, after + 1, 1, written + "\n")
    return Action(title, "quickfix", (edit,))


def _line_of(record: GameNode, line: int) -> str:
    text = record.raw or record.text
    rows = text.split("\n")
    index = line - record.first_line
    return rows[index] if 0 <= index < len(rows) else ""


def _replacements(text: str, source: str, record: GameNode, problem: Problem,
                  game: str | AnyGame | None) -> Iterator[Action]:
    """The legal events at the place of ``problem``'s event that play the same piece or
    tile (any, if none does), the closest spellings first."""
    assert problem.event is not None
    chosen = game_of(record)
    if chosen is None:
        return
    legal = completions_at(text, source, problem.line, problem.column, game)
    if not legal:
        return
    wrong = event_fields(chosen, problem.event)
    ranked = []
    for word in legal:
        fields = event_fields(chosen, word)
        other = any(key in wrong and key in fields and wrong[key] != fields[key]
                    for key in _PLAYED)
        same = sum(fields.get(key) == value for key, value in wrong.items())
        ranked.append((other, -same, -len(os.path.commonprefix([word, problem.event])), word))
    if ranked and not all(other for other, *_rest in ranked):  # the same piece, if it can
        ranked = [rank for rank in ranked if not rank[0]]
    ranked.sort()
    for _other, _same, _prefix, word in ranked[:MOST_REPLACEMENTS]:
        yield Action(f"Replace {problem.event} by {word}", "quickfix",
                     (Replace(problem.line, problem.column, problem.line,
                              problem.column + len(problem.event), word),))


__all__ = ["Action", "MOST_REPLACEMENTS", "Replace", "actions_at"]
