"""What an editor shows over an event of a record: its ply, its line of play, who played
it and the position after it (the game's text board and its position notation), worked
out by the one walk of the record's tree (:func:`notation.core.walk.walk`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from notation.core.game import AnyGame, MissingCapability
from notation.core.replay import run
from notation.core.tree import ChildNode, Node
from notation.core.walk import Step, walk
from notation.read.reading import records_of_pieces
from notation.read.text import chunks, pieces


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
    """The event written at ``line``, ``column`` of a document (1-based), or None where no
    event is (a tag, a comment, blank space)."""
    for first_line, piece in pieces(chunks((text,), source), source):  # (CR ends lines)
        if first_line > line:
            break
        if line > first_line + piece.count("\n"):
            continue
        for record in records_of_pieces([(first_line, piece)], source, game):
            found = _hover_in(record, line, column)
            if found is not None:
                return found
    return None


def _covers(node: Node, step: Step, line: int, column: int) -> bool:
    pos = node.pos
    return (isinstance(node, ChildNode) and pos is not None and pos.line == line
            and pos.column <= column < pos.column + max(len(step.written), 1))


def _hover_in(record: Any, line: int, column: int) -> Hover | None:
    outcome = run(record)
    game = outcome.game
    shown: dict[int, tuple[str, str]] = {}

    def visit(node: Node, step: Step, state: Any) -> None:
        if game is not None and _covers(node, step, line, column):
            shown[id(node)] = (_board(game, state), game.full_position(state))

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
            board, position = shown[id(node)]
            if board:
                parts.append(f"```text\n{board.rstrip()}\n```")
            parts.append(f"position: `{position}`")
        elif step.problem is None:
            parts.append("not reached: the line stopped before it")
        return Hover(pos.line, pos.column, pos.column + len(step.written), "\n\n".join(parts))
    return None


def _board(game: AnyGame, state: Any) -> str:
    """The game's text board ("" for a game that draws none)."""
    try:
        return game.render(state)
    except MissingCapability:
        return ""


__all__ = ["Hover", "hover_at"]
