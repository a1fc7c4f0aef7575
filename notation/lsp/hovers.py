"""What an editor shows over an event of a record: its ply, its line of play, who played
it and the position after it (the game's text board and its position notation), worked
out by the one walk of the record's tree (:func:`notation.core.walk.walk`)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from notation.core.game import AnyGame, MissingCapability
from notation.core.replay import run
from notation.core.tree import ChildNode, Node
from notation.core.walk import Step, walk
from notation.read.reading import choose_game, records_of_pieces

from .edits import pieces_touching

#: A tag as it starts a line: its key, and where its value starts.
_TAG = re.compile(r'[ \t]*\[[ \t]*(?P<key>[A-Za-z][A-Za-z0-9_]*)')


@dataclass(frozen=True, slots=True)
class Hover:
    """An event under the cursor: where it is written (1-based, the end just past it) and
    what to show of it (Markdown)."""

    line: int
    column: int
    end_column: int
    text: str


def hover_at(text: str, source: str, line: int, column: int,
             game: str | AnyGame | None = None) -> Hover | None:
    """The event written at ``line``, ``column`` of a document (1-based), or the tag
    (what it means to the record's game); None elsewhere (a comment, blank space)."""
    for first_line, _last, piece in pieces_touching(text, source, line, line):
        tag = _TAG.match(piece.split("\n")[line - first_line])
        if tag is not None:
            return _tag_hover(tag, line, column, choose_game(piece, source, game))
        for record in records_of_pieces([(first_line, piece)], source, game):
            found = _hover_in(record, line, column)
            if found is not None:
                return found
    return None


def _tag_hover(tag: re.Match[str], line: int, column: int, game: AnyGame | None
               ) -> Hover | None:
    """What the tag under the cursor means to ``game`` (its key: the tag's name)."""
    start, end = tag.span("key")
    if not start <= column - 1 < end:
        return None
    key = tag["key"]
    if game is None:
        meaning = "no known game reads this record"
    else:
        known = {name.lower(): name for name in game.tags}
        named = known.get(key.lower())
        if named is None:
            meaning = f"{game.name} reads no such tag (it reads {', '.join(game.tags)})"
        else:
            meaning = game.tags[named] + ("" if named == key else f" (spelled [{named}])")
    return Hover(line, start + 1, end + 1, f"**[{key}]** · {meaning}")


def _covers(node: Node, step: Step, line: int, column: int) -> bool:
    pos = node.pos
    return (isinstance(node, ChildNode) and pos is not None and pos.line == line
            and pos.column <= column < pos.column + max(len(step.written), 1))


def _hover_in(record: Any, line: int, column: int) -> Hover | None:
    outcome = run(record)
    game = outcome.game
    shown: dict[int, tuple[str, str, str]] = {}

    def visit(node: Node, step: Step, state: Any) -> None:
        if game is not None and _covers(node, step, line, column):
            shown[id(node)] = (_board(game, state), game.full_position(state),
                               _scores(game, state))

    walked = walk(record, outcome, visit)
    for node, step in walked.steps.items():
        if not _covers(node, step, line, column):
            continue
        pos = node.pos
        assert pos is not None  # (_covers says so)
        where = f" in {step.label}" if step.label else ""
        mover = f" · {step.mover}" if step.mover else ""
        parts = [f"**ply {step.ply}**{where}{mover} · `{step.written}`"]
        if step.problem is not None:
            parts.append(f"refused: {step.problem.saying()}")
        if id(node) in shown:
            board, position, scores = shown[id(node)]
            if board:
                parts.append(f"```text\n{board.rstrip()}\n```")
            if scores:
                parts.append(f"scores: {scores}")
            parts.append(f"position: `{position}`")
        elif step.problem is None:
            parts.append("not reached: the line stopped before it")
        return Hover(pos.line, pos.column, pos.column + len(step.written), "\n\n".join(parts))
    return None


def _scores(game: AnyGame, state: Any) -> str:
    """The scores the game keeps, by seat (``red 5 · blue 3``; "" for a game that keeps
    none), as ``stats`` reads them from its figures."""
    facts = game.facts(state)
    return " · ".join(f"{key.removesuffix(' score')} {value}" for key, value in facts.items()
                      if key.endswith(" score"))


def _board(game: AnyGame, state: Any) -> str:
    """The game's text board ("" for a game that draws none)."""
    try:
        return game.render(state)
    except MissingCapability:
        return ""


__all__ = ["Hover", "hover_at"]
