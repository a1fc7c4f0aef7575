"""One game's rows of the three tables, from its checked replay and its walked tree.

Rows are plain JSON types (dicts keyed by column name), so that worker processes send
them home inside an outcome's ``data`` as they send any verdict.
"""
from __future__ import annotations

import json
from collections import deque
from functools import partial
from typing import Any

from notation.core.ast import EventNode, Record
from notation.core.game import AnyGame, Game
from notation.core.outcome import Outcome
from notation.core.output import glyph_text
from notation.core.replay import run
from notation.core.notes import remark_of
from notation.core.walk import Node, played, walk

from .keys import position_key

Row = dict[str, Any]


def _json(value: Any) -> str | None:
    """A JSON column's text (null stays null), keys in a stable order."""
    return None if value is None else json.dumps(value, sort_keys=True, ensure_ascii=False)


def game_row(outcome: Outcome, players: int | None = None, over: bool | None = None,
             winners: list[str] | None = None) -> Row:
    """A game's row; ``over`` and ``winners`` are known for a valid game only. Works on
    an outcome read back from a worker too (a game whose rows failed keeps this one)."""
    error = outcome.error
    result = outcome.result
    scores = result.get("scores") if isinstance(result, dict) else None
    return {
        "file": outcome.file, "index": outcome.index, "game": outcome.game_name,
        "tags": _json(outcome.tags), "players": players, "plies": outcome.plies,
        "valid": outcome.valid,
        "error": None if error is None else error.message,
        "error_line": None if error is None else error.line,
        "error_column": None if error is None else error.column,
        "error_ply": None if error is None else error.ply,
        "result": _json(result), "over": over, "winners": _json(winners),
        "scores": _json(scores),
    }


def _lines(tree_mainline: list[Node]) -> list[list[Node]]:
    """Every line of the tree, the mainline first, each up to and with its first problem
    (as ``replay --json --tree`` gives them: what follows a problem was never played)."""
    found: list[list[Node]] = []
    waiting = deque([tree_mainline])
    while waiting:
        kept = played(waiting.popleft())
        for node in kept:
            waiting.extend(node.variations)
        found.append(kept)
    return found


def _event_row(where: Row, game: AnyGame | None, node: Node) -> Row:
    item = node.item
    if isinstance(item, EventNode) and game is not None:
        text = game.format_event(item.event)
    else:
        text = "" if item is None else item.text
    commands = node.commands
    remarks = remark_of((*node.starting, *node.comments))
    return {**where, "ply": node.ply, "variation": node.label, "mover": node.mover,
            "event": text, "glyphs": glyph_text(node.nags), "nags": _json(list(node.nags)),
            "comment": remarks, "commands": _json(commands), "clock": commands.get("clk"),
            "eval": commands.get("eval"),
            "error": None if node.problem is None else node.problem.message}


def table_rows(record: Record, outcome: Outcome, symmetric: bool = False) -> dict[str, Any]:
    """``{"games": ROW, "events": [ROW...], "positions": [ROW...]}`` of one game
    (``outcome``: its full :func:`run`)."""
    game, state = outcome.game, outcome.state
    valid_end = outcome.valid and game is not None and state is not None
    games = game_row(outcome,
                     game.player_count(state) if game is not None and state is not None else None,
                     game.is_over(state) if valid_end and game is not None else None,
                     game.winner_words(state) if valid_end and game is not None else None)
    where = {"file": outcome.file, "index": outcome.index, "game": outcome.game_name}

    full = game is not None and type(game).full_position is Game.full_position

    def visit(node: Node, live: Any) -> Row:
        assert game is not None  # a walk reaches positions of a known game only
        text = game.position(live)
        return {**where, "ply": node.ply, "variation": node.label, "position": text,
                "key": position_key(game, live, symmetric, text if full else None)}

    tree = walk(record, outcome, visit)
    events: list[Row] = []
    positions: list[Row] = [tree.start.data] if tree.start.reached else []
    for line in _lines(tree.mainline) if tree.start.reached else []:
        for node in line:
            events.append(_event_row(where, game, node))
            if node.reached:
                positions.append(node.data)
    return {"games": games, "events": events, "positions": positions}


def tabled(record: Record, symmetric: bool = False) -> Outcome:
    """The game's verdict with its rows as ``data``: the task workers run for ``export``."""
    outcome = run(record)
    outcome.data = table_rows(record, outcome, symmetric)
    return outcome


#: ``tabled`` with Tilewe positions folded by symmetry (a task must be picklable).
tabled_symmetric = partial(tabled, symmetric=True)
