"""Reading Flows' compact position notation (``state.py`` writes it), and the seat lists
it shares with the ``[Seats]`` tag.

A position is ``<rows> <to-move> <seats> <result> [<view>]``, e.g. the start of a
2-player game ``..../...../....../......./....../...../.... P1 0,3 *``:

* rows: row 6 (top) down to row 0, ``/`` between rows; a hex is ``.`` or two digits,
  tile type and rotation (0-5, clockwise sixths of a turn, internal frame);
* to-move: ``P{n}``, or ``-`` once the game is over (it must be whoever the number
  of tiles on the board makes it); ``P{n}T{type}`` once chance has handed the mover a
  tile of that type to place (a bot's position between the draw and the placement);
* seats: each player's side in turn order, ``0,3``;
* result: ``*`` while playing, else ``flow:2``, ``tie:1,2`` or ``constraint:2,4``;
* view (optional): ``side:K`` when every move is written from side K's view (a
  ``[Perspective]`` game); left out, each move is in its mover's own view. It is
  part of the position because the text of every move to come depends on it.
  ``P{n}`` is read as that player's side.

What is in the bag follows from the board (10 of each type, less those placed),
so the notation has no field for it; a record's move names the tile it drew (see
``play.legal_moves``), so a drawn tile is held only where chance drew it ahead.
"""
from __future__ import annotations

import re

from notation.core.errors import NotationError, shorten
from notation.core.limits import is_whole

from .geometry import INDEX
from .routes import flow_winners
from .state import FlowsState, Seating, mover_name, write_position
from .tiles import TILES_PER_TYPE
from .views import parse_perspective

#: The to-move field of a mover holding a tile chance drew: ``P1T2``.
_HELD = re.compile(r"(?P<mover>P[1-6])T(?P<tile>[0-3])")
_RESULT = re.compile(r"(flow|tie|constraint):([1-6](?:,[1-6])*)")
#: ``replay --json``'s position: the board without the view (``select --position`` too).
compact_position = write_position


def parse_seats(value: str) -> tuple[int, ...]:
    """``"0 3"`` or ``"0,3"`` -> each player's side, in turn order."""
    parts = value.replace(",", " ").split()
    if not parts or not all(is_whole(p) for p in parts):
        raise NotationError(f"seats {shorten(value)!r} must be side numbers 0-5, e.g. \"0 3\"")
    return tuple(int(p) for p in parts)


def read_position(text: str) -> FlowsState:
    """The state a position describes; NotationError when it is not one a game can reach."""
    fields = text.split()
    if len(fields) not in (4, 5):
        raise NotationError("a Flows position has four fields and an optional view: rows, "
                            "to-move, seats, result [, side:K]")
    rows, mover, seats, result = fields[:4]
    held = _HELD.fullmatch(mover)
    if held is not None:
        mover = held["mover"]
    try:
        seating = Seating.make(len(parse_seats(seats)), parse_seats(seats))
    except ValueError as exc:
        raise NotationError(str(exc)) from None
    state = FlowsState(seating, _view(fields[4], seating) if len(fields) == 5 else None)
    _place_rows(state, rows)
    for t in range(4):
        if state.placed[t] > TILES_PER_TYPE:
            raise NotationError(f"{state.placed[t]} T{t} tiles on the board; there are only 10")
    state.ply = sum(state.placed)
    state.step = state.ply
    winners = flow_winners(state)
    if result == "*":
        if winners:
            raise NotationError("'*' says the game goes on, but a flow already connects")
        expected = mover_name(state)
        if mover != expected:
            raise NotationError(f"after {state.ply} tiles it is {expected}'s turn, not {mover}")
        if held is not None:
            state.drawn = int(held["tile"])
            if state.placed[state.drawn] >= TILES_PER_TYPE:
                raise NotationError(f"{mover} holds a T{state.drawn}, but all "
                                    f"{TILES_PER_TYPE} are on the board")
        return state
    m = _RESULT.fullmatch(result)
    if not m or mover != "-":
        raise NotationError(f"result {result!r} with to-move {mover!r}: expected '*' and a player, "
                            "or '-' and flow:P, tie:P,P or constraint:P")
    state.over = True
    state.win_type = m.group(1)
    if state.win_type == "constraint":
        state.ply += 1  # the tile that fits nowhere was a move too
    state.winners = [int(p) - 1 for p in m.group(2).split(",")]
    if state.win_type != "constraint" and state.winners != winners:
        raise NotationError(f"the tiles connect {[p + 1 for p in winners]}, not {m.group(2)}")
    if max(state.winners) >= seating.players:
        raise NotationError("a winner who is not a player")
    return state


def _view(text: str, seating: Seating) -> int:
    """The view field: ``side:K`` (or ``P{n}``, that player's side)."""
    side = parse_perspective(text, seating) if text != "mover" else None
    if side is None:
        raise NotationError(f"view {text!r}: leave the field out for each mover's own view")
    return side


def _place_rows(state: FlowsState, rows: str) -> None:
    """Put the tiles of the rows field (top row first, ``.`` or type and rotation)."""
    parts = rows.split("/")
    if len(parts) != 7:
        raise NotationError(f"{len(parts)} rows given; the board has 7")
    for i, part in enumerate(parts):
        r = 6 - i
        cols = [c for c in range(7) if (r, c) in INDEX]
        pos = 0
        for c in cols:
            if pos >= len(part):
                raise NotationError(f"row {r} is short: {len(cols)} hexes expected")
            if part[pos] == ".":
                pos += 1
                continue
            cell = part[pos:pos + 2]
            if not (len(cell) == 2 and cell[0] in "0123" and cell[1] in "012345"):
                raise NotationError(f"row {r}: {cell!r} is not '.' or a type 0-3 and rotation 0-5")
            state.tiles[INDEX[(r, c)]] = (int(cell[0]), int(cell[1]))
            state.placed[int(cell[0])] += 1
            pos += 2
        if pos != len(part):
            raise NotationError(f"row {r} is too long: {len(cols)} hexes expected")
