"""One game's rows of the three tables, from its checked replay and its walked tree, or,
for a plain game (tags and events only), from one pass that reads and replays it.

Rows hold each column's values natively (lists, a dict for a map, numbers), a game's rows
of a table as columns (lists by column name, or the cheaper forms of :mod:`.columns`), so
that worker processes send them home inside an outcome's ``data`` as they send any
verdict; a text format writes the nested ones as JSON text.
"""
from __future__ import annotations

import json
from functools import partial
from typing import Any

from notation.core.tree import ChildNode, GameNode
from notation.core.fastpath import plain_game
from notation.core.fields import field_columns
from notation.core.notes import read_clock, read_eval
from notation.core.game import AnyGame
from notation.core.forfeit import ending
from notation.core.outcome import Outcome
from notation.core.protocols import Result
from notation.core.output import event_text, glyph_words
from notation.core.replay import end_checks, run
from notation.core.walk import Step, walk

from .columns import Columns, Fields, Repeated
from .keys import position_keys
from .schema import EVENTS, POSITIONS, TAG_COLUMNS

Row = dict[str, Any]


#: JSON text with keys in a stable order (one encoder for the run, not one a value).
_encode = json.JSONEncoder(sort_keys=True, ensure_ascii=False).encode

#: The values a plain game's every event has (one object each, shared: never changed).
NO_GLYPHS: tuple[str, ...] = ()
NO_NAGS: tuple[int, ...] = ()
NO_COMMANDS: dict[str, str] = {}
#: No value given (``None`` is a value here).
_NOTHING: Any = object()


def _json(value: Any) -> str | None:
    """A JSON column's text (null stays null), keys in a stable order."""
    return None if value is None else _encode(value)


def game_row(outcome: Outcome, players: int | None = None, over: bool | None = None,
             winners: list[str] | None = None, result: Any = _NOTHING) -> Row:
    """A game's row; ``over`` and ``winners`` are known for a valid game only. Works on
    an outcome read back from a worker too (a game whose rows failed keeps this one);
    ``result``: the outcome's, where the caller has it already."""
    error = outcome.error
    if result is _NOTHING:
        result = outcome.result
    scores = result.get("scores") if isinstance(result, dict) else None
    tags = outcome.tags
    return {
        "file": outcome.file, "index": outcome.index, "game": outcome.game_name,
        "tags": list(tags.items()),
        **{name.lower(): tags.get(name) for name in TAG_COLUMNS},
        "players": players, "plies": outcome.plies,
        "valid": outcome.valid,
        "error": None if error is None else error.message,
        "error_line": None if error is None else error.line,
        "error_column": None if error is None else error.column,
        "error_ply": None if error is None else error.ply,
        "result": _json(result), "over": over,
        "winners": None if winners is None else list(winners),
        "scores": list(scores) if scores is not None and _whole_numbers(scores) else None,
    }


def _whole_numbers(values: Any) -> bool:
    """Whether ``values`` is a list of whole numbers (``scores`` is BIGINT[]: a game whose
    scores are other numbers has them in ``result`` only)."""
    return isinstance(values, list) and all(
        type(value) is int and -2**63 <= value < 2**63 for value in values)


def _columns(names: tuple[str, ...], rows: list[Row]) -> Columns:
    return {name: [row[name] for row in rows] for name in names}


def placed_rows(outcome: Outcome) -> dict[str, Any]:
    """The game's rows as the tables take them, each with the columns every table starts
    with (file, index, game) as ``outcome`` has them: a worker's games are numbered from
    1 in its batch and their outcomes renumbered when they come home (``Outcome.shifted``),
    so the place is written here, never in the rows a worker made. A game whose rows
    failed is its games row alone."""
    rows = outcome.data if outcome.data is not None else {"games": game_row(outcome)}
    file, index, game = outcome.file, outcome.index, outcome.game_name
    placed: dict[str, Any] = {
        "games": {**rows["games"], "file": file, "index": index, "game": game}}
    for table in ("events", "positions"):
        if table in rows:
            count = len(rows[table]["ply"])
            placed[table] = {"file": Repeated(file, count), "index": Repeated(index, count),
                             "game": Repeated(game, count), **rows[table]}
    return placed


def _event_row(game: AnyGame | None, node: ChildNode, step: Step) -> Row:
    """An event's row; the ``fields`` are filled for the whole game at once."""
    commands = node.commands
    remarks = " ".join(r for r in (node.starting_comment, node.comment) if r)
    nags = tuple(node.nags)
    return {"ply": step.ply, "variation": step.label, "mover": step.mover,
            "event": event_text(game, node) or "", "fields": None,
            "glyphs": glyph_words(nags) if nags else NO_GLYPHS,
            "nags": nags if nags else NO_NAGS,
            "comment": remarks, "commands": dict(commands) if commands else NO_COMMANDS,
            "clock_seconds": read_clock(commands.get("clk")),
            "eval": read_eval(commands.get("eval")),
            "error": None if step.problem is None else step.problem.message}


_EVENT_NAMES = tuple(c.name for c in EVENTS[3:])
_POSITION_NAMES = tuple(c.name for c in POSITIONS[3:])


def _games_row(outcome: Outcome, standing: Result | None = None) -> Row:
    """The games row of an outcome with its record (``standing``: how its game stands,
    where the caller has it already)."""
    game, state = outcome.game, outcome.state
    valid_end = outcome.valid and game is not None and state is not None
    record = outcome.record
    over, winners = (ending(record, game, state, standing) if valid_end and game is not None
                     and record is not None else (None, None))
    return game_row(outcome,
                    game.player_count(state) if game is not None and state is not None else None,
                    over, winners, _NOTHING if standing is None else standing.details)


def table_rows(record: GameNode, outcome: Outcome, symmetric: bool = False) -> dict[str, Any]:
    """``{"games": ROW, "events": COLUMNS, "positions": COLUMNS}`` of one game
    (``outcome``: its full :func:`run`)."""
    game = outcome.game
    same = game is not None and game.compact_is_full

    def visit(node: object, step: Step, live: Any) -> Row:
        """A position's row, its ``key`` the full position until the keys are taken."""
        assert game is not None  # a walk reaches positions of a known game only
        text = game.position(live)
        return {"ply": step.ply, "variation": step.label, "position": text,
                "key": text if same else game.full_position(live)}

    tree = walk(record, outcome, visit)
    events: list[Row] = []
    taken: list[bool] = []  # (the rows of events read: the ones with fields)
    positions: list[Row] = [tree.start.data] if tree.start.reached else []
    for line in tree.lines() if tree.start.reached else []:
        for node in line:
            step = tree.steps[node]
            row = _event_row(game, node, step)
            events.append(row)
            taken.append(game is not None and node.unread is None)
            if step.reached:
                positions.append(step.data)
    if game is not None:  # the game's fields and keys at once, as the one-pass path does
        keys = position_keys(game, [row["key"] for row in positions], symmetric)
        for row, key in zip(positions, keys):
            row["key"] = key
    columns = _columns(_EVENT_NAMES, events)
    columns["fields"] = _fields(game, [row["event"] for row in events], taken)
    return {"games": _games_row(outcome), "events": columns,
            "positions": _columns(_POSITION_NAMES, positions)}


def _fields(game: AnyGame | None, texts: list[str], taken: list[bool]) -> Fields:
    """The ``fields`` column of a game's events (``taken``: the rows of events read)."""
    if game is None or not any(taken):
        return Fields(None if game is None else game.name, {}, len(texts), taken)
    values = field_columns(game, [text if read else "" for text, read in zip(texts, taken)])
    return Fields(game.name, dict(values), len(texts), None if all(taken) else taken)


def plain_rows(record: GameNode, symmetric: bool = False) -> Outcome | None:
    """The rows of a plain game read in headers mode, read and replayed here in one pass
    (no syntax tree, no second replay): the same rows as :func:`table_rows`, which a test
    holds. None when it is not plain or has any problem: the full path says what."""
    plain = plain_game(record)
    if plain is None:
        return None
    start, game, read = plain
    try:
        columns = game.event_columns(read)
        if columns is None:
            written = list(map(game.format_event, read))
            columns = written, field_columns(game, written)
        texts, values = columns
        fields = Fields(game.name, dict(values), len(read))
        state = game.start(start)
        movers, boards, fulls = game.line_columns(state, read)
    except Exception:  # a rule broken, or a bug of ours: the full path says where and what
        return None
    plies = len(read)
    standing = game.result(state)  # (asked once: the checks and the games row share it)
    if end_checks(start, game, state, plies, standing) is not None:
        return None
    outcome = Outcome(record, game, state, plies, [])
    nothing = Repeated(None, plies)
    outcome.data = {
        "games": _games_row(outcome, standing),
        "events": {"ply": range(1, plies + 1),
                   "variation": Repeated("", plies), "mover": movers[1:], "event": texts,
                   "fields": fields, "glyphs": Repeated(NO_GLYPHS, plies),
                   "nags": Repeated(NO_NAGS, plies), "comment": Repeated("", plies),
                   "commands": Repeated(NO_COMMANDS, plies), "clock_seconds": nothing,
                   "eval": nothing, "error": nothing},
        "positions": {"ply": range(plies + 1),
                      "variation": Repeated("", plies + 1), "position": boards,
                      "key": position_keys(game, fulls, symmetric)}}
    return outcome


def tabled(record: GameNode, symmetric: bool = False) -> Outcome:
    """The game's verdict with its rows as ``data``: the task workers run for ``export``
    (a plain game read in headers mode in one pass, any other in full)."""
    fast = plain_rows(record, symmetric) if record.unread else None
    if fast is not None:
        return fast
    outcome = run(record)
    outcome.data = table_rows(record, outcome, symmetric)
    return outcome


#: ``tabled`` with Tilewe positions folded by symmetry (a task must be picklable).
tabled_symmetric = partial(tabled, symmetric=True)
