"""Shaping results for people (error lines with carets) and for programs (JSON)."""
from __future__ import annotations

from typing import Any

from .ast import GLYPH_OF
from .game import AnyGame
from .outcome import Outcome
from .replay import positions, run
from .tree import ChildNode, GameNode, Node
from .walk import Walk, walk


def position_json(outcome: Outcome) -> dict[str, Any]:
    """``position`` and ``state`` of ``replay --json``: from the live state, or, for an
    outcome read back from a worker, as the worker wrote them in its ``data``."""
    if outcome.record is None:
        data = outcome.data if isinstance(outcome.data, dict) else {}
        return {"position": data.get("position"), "state": data.get("state")}
    game, state = outcome.game, outcome.state
    if game is None or state is None:
        return {"position": None, "state": None}
    return {"position": game.position(state), "state": game.state_json(state)}


def replay_json(outcome: Outcome) -> dict[str, Any]:
    """The object ``notation replay --json`` prints for one game."""
    view = position_json(outcome)
    return {
        "file": outcome.file,
        "game": outcome.game_name,
        "index": outcome.index,
        "tags": outcome.tags,
        "valid": outcome.valid,
        "plies": outcome.plies,
        "error": outcome.error.as_json() if outcome.error else None,
        "errors": [p.as_json() for p in outcome.problems],
        "position": view["position"],
        "state": view["state"],
        "result": outcome.result,
    }


def every_json(outcome: Outcome) -> list[dict[str, Any]]:
    """The position after every ply (``replay --json --every``): ply 0 is the start; the
    list stops before the first problem, as the replay does."""
    game = outcome.game
    if game is None:
        return []
    return [{"ply": ply, "event": None if event is None else game.format_event(event),
             **state_view(game, state)}
            for ply, event, state in positions(outcome)]


def state_view(game: AnyGame, state: Any) -> dict[str, Any]:
    """``position``, ``state`` and ``result`` of one position, as ``replay --json`` gives
    them (the contract), for ``--every`` and ``--tree`` alike."""
    return {"position": game.position(state), "state": game.state_json(state),
            "result": game.result_json(state)}


def tree_json(record: GameNode, outcome: Outcome | None = None) -> dict[str, Any] | None:
    """A record's tree (``replay --json --tree``): ``{"start": NODE, "mainline": [NODE, ...]}``,
    None when the record has no start (``replay --json``'s ``state`` is null then).

    A NODE is the start (``ply`` 0, ``event`` null) or one event of a line:
    ``ply`` (counted from the start, in variations too), ``event`` (written canonically; an
    unreadable one as written), ``mover`` (who was to move before it, in the game's words:
    ``Position.turn``, ``legal --json``'s ``to_move``), ``nags`` (ints in written order) and
    ``glyphs`` (:func:`glyph_text`: ``"!? $7"``), ``starting_comment`` (the remark of
    the comments before a variation's first event), ``comment`` (the remarks of the comments
    after it; the start's: those before the first event) and ``commands`` (theirs, ``{"clk":
    "0:01:30"}``), ``position``, ``state`` and ``result`` after it (``--every``'s, from the
    same function), ``error`` (null, or the problem there, as in ``errors``) and
    ``variations``: the alternatives to it (PGN's rule), each a list of NODEs from its ply on.

    A line ends at its first problem: that node has ``error`` set and null ``position``,
    ``state`` and ``result``; its own variations are still given (they start before it).
    A problem at ply 0 (a tag) leaves the mainline empty, as it stops the replay there.
    ``outcome``: the record's full :func:`run`, when the caller has it already.
    """
    outcome = run(record) if outcome is None else outcome
    game = outcome.game
    if game is None:
        return None
    tree = walk(record, outcome, lambda _node, _step, state: state_view(game, state))
    if not tree.start.reached:
        return None
    return {"start": _node_json(game, tree, tree.root),
            "mainline": _line_json(game, tree, tree.mainline)}


def _line_json(game: AnyGame, tree: Walk, line: list[Any]) -> list[dict[str, Any]]:
    """A line's nodes up to and with its first problem."""
    return [_node_json(game, tree, node) for node in tree.played(line)]


def glyph_words(nags: tuple[int, ...]) -> tuple[str, ...]:
    """Annotations as people read them: each as its glyph where it has one (``!?``), else
    as ``$N``, in written order."""
    return tuple(GLYPH_OF.get(n, f"${n}") for n in nags)


def glyph_text(nags: tuple[int, ...]) -> str:
    """:func:`glyph_words`, blank between."""
    return " ".join(glyph_words(nags))


def event_text(game: AnyGame | None, node: Node) -> str | None:
    """A walked node's event as ``replay --json --tree`` and the tables give it: written
    canonically (as read, with no game to write it), an unreadable one as written, None
    for the root."""
    if not isinstance(node, ChildNode):
        return None
    if node.unread is not None:
        return node.unread.text
    return str(node.move) if game is None else game.format_event(node.move)


def _node_json(game: AnyGame, tree: Walk, node: Node) -> dict[str, Any]:
    step = tree.steps[node]
    view = step.data if step.reached else {"position": None, "state": None, "result": None}
    return {"ply": step.ply, "event": event_text(game, node), "mover": step.mover,
            "nags": list(node.nags), "glyphs": glyph_text(tuple(node.nags)),
            "starting_comment": node.starting_comment, "comment": node.comment,
            "commands": node.commands, **view,
            "error": None if step.problem is None else step.problem.as_json(),
            "variations": [_line_json(game, tree, line) for line in step.variations]}


def legal_json(outcome: Outcome, moves: list[Any] | None, listed: bool = True) -> dict[str, Any]:
    """What ``legal --json`` prints for one game: the position after the plies replayed and
    its legal ``moves`` as text (``listed`` False: how many only). ``moves`` None: the game
    has a problem, given in ``errors``, and no position to play from (nulls)."""
    game, state = outcome.game, outcome.state
    data: dict[str, Any] = {
        "file": outcome.file, "index": outcome.index, "game": outcome.game_name,
        "ply": outcome.plies, "valid": outcome.valid,
        "errors": [p.as_json() for p in outcome.problems],
        "to_move": None, "over": None, "position": None, "count": None}
    if game is not None and moves is not None:
        data |= {"to_move": game.to_move(state), "over": game.is_over(state),
                 "position": game.position(state), "count": len(moves)}
    if listed:
        data["moves"] = (None if game is None or moves is None
                         else [game.format_event(m) for m in moves])
    return data
