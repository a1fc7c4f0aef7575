"""The state of a Flows game: who sits where, the tiles on the board, the bag, the result.

No rules here (``play.py`` changes a state); only what a state is and what it
can tell about itself, including its position notation (its ``repr`` shows it).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from notation.core.game import state_repr

from .dialect import SEED_NOTATION, Notation
from .geometry import HEXES, INDEX, N_HEXES, SIDE_STARTS, STEP_OUT
from .tiles import PARTNER, TILES_PER_TYPE

#: Where each number of players sits by default.
DEFAULT_SEATS = {2: (0, 3), 3: (0, 2, 4), 4: (0, 1, 3, 4), 5: (0, 1, 2, 3, 4),
                 6: (0, 1, 2, 3, 4, 5)}


@dataclass(frozen=True, slots=True)
class Seating:
    """Who sits where, who plays with whom, and the order of turns.

    Every player (0-based) must connect their side to the opposite one, which
    for a team is the partner's seat. ``partner[p]`` is None in individual
    play; ``turns`` lists whose turn each step of a round is (the 5-player
    solo moves twice, once for the empty seat opposite).
    """

    players: int
    seats: tuple[int, ...]
    partner: tuple[int | None, ...]
    turns: tuple[int, ...]

    @classmethod
    def make(cls, players: int, seats: tuple[int, ...] | None = None) -> Seating:
        """The seating of ``players`` at ``seats`` (default: the usual sides); ValueError
        for a seating the game does not have."""
        if not 2 <= players <= 6:
            raise ValueError("Flows is for 2 to 6 players")
        seats = DEFAULT_SEATS[players] if seats is None else tuple(seats)
        if len(seats) != players:
            raise ValueError(f"{len(seats)} seats given for {players} players")
        if len(set(seats)) != players or not all(0 <= s <= 5 for s in seats):
            raise ValueError("seats must be distinct sides 0 to 5")
        by_side = {s: p for p, s in enumerate(seats)}
        partner = [by_side.get((s + 3) % 6) for s in seats]
        if players in (2, 3):
            partner = [None] * players  # individual play, even on opposite seats
        elif players == 4 and any(p is None for p in partner):
            raise ValueError("4 players sit as two opposite pairs (e.g. sides 0 1 3 4)")
        elif players == 5 and sum(p is None for p in partner) != 1:
            raise ValueError("5 players sit as two opposite pairs and one solo player")
        turns = list(range(players))
        if players == 5:  # the solo player also moves for the empty seat opposite,
            solo = partner.index(None)  # at that seat's place in the clockwise round
            empty = (seats[solo] + 3) % 6
            before = sum(1 for s in seats if (s - seats[0]) % 6 < (empty - seats[0]) % 6)
            turns.insert(before, solo)
        return cls(players, seats, tuple(partner), tuple(turns))

    def team(self, player: int) -> tuple[int, ...]:
        """The player with their partner, if any, in player order."""
        mate = self.partner[player]
        return (player,) if mate is None else tuple(sorted((player, mate)))


class FlowsState:
    """A Flows game in progress: tiles on hexes, the bag, whose turn, the result, and
    the side the record's labels are read from (``view``; None: each mover's own).

    ``notation`` is how the record spells placements (the seed's, or the quortextt
    app's); ``hint``, when set, says after a refused move what else reads the record.
    ``routes`` remembers, per side pair, a route last found open (``routes.py``
    checks it against the tiles before trusting it, so it is never stale).
    """

    __slots__ = ("seating", "tiles", "placed", "step", "over", "winners", "win_type", "ply",
                 "view", "notation", "hint", "routes", "drawn")

    def __init__(self, seating: Seating, view: int | None = None,
                 notation: Notation = SEED_NOTATION) -> None:
        self.seating = seating
        self.tiles: list[tuple[int, int] | None] = [None] * N_HEXES  # (type, rotation)
        self.placed = [0, 0, 0, 0]   # tiles of each type on the board
        self.step = 0                # index into seating.turns
        self.over = False
        self.winners: list[int] = []  # 0-based players
        self.win_type: str | None = None
        self.ply = 0
        self.view = view
        self.notation = notation
        self.hint: Callable[[], str] | None = None
        self.routes: dict[int, tuple[tuple[int, int, int], ...]] = {}
        self.drawn: int | None = None  # a tile chance handed the mover (events.Draw)

    def __repr__(self) -> str:
        return state_repr("flows", lambda: write_position(self))

    def copy(self) -> FlowsState:
        """An independent copy (lists copied, the rest shared: it is immutable)."""
        other = FlowsState.__new__(FlowsState)
        other.seating = self.seating
        other.tiles = self.tiles[:]
        other.placed = self.placed[:]
        other.step = self.step
        other.over = self.over
        other.winners = self.winners[:]
        other.win_type = self.win_type
        other.ply = self.ply
        other.view = self.view
        other.notation = self.notation
        other.hint = self.hint
        other.routes = dict(self.routes)
        other.drawn = self.drawn
        return other

    @property
    def to_move(self) -> int | None:
        """0-based player to move, None when the game is over."""
        return None if self.over else self.seating.turns[self.step % len(self.seating.turns)]

    def in_bag(self, tile: int) -> int:
        """How many tiles of type ``tile`` are still to be drawn."""
        return TILES_PER_TYPE - self.placed[tile]

    def side_for(self, player: int) -> int:
        """The side whose view ``player``'s moves are written in."""
        return self.seating.seats[player] if self.view is None else self.view

    def flow_segments(self, player: int) -> list[tuple[int, int, int]]:
        """The (hex, entry, exit) connections ``player``'s flow runs through (section 7),
        from each edge of their side along the placed tiles; a path that returns to the
        player's own side is walked once."""
        seen: set[tuple[int, int, int]] = set()
        out = []
        for node in SIDE_STARTS[self.seating.seats[player]]:
            while node >= 0:
                h, d = divmod(node, 6)
                tile = self.tiles[h]
                if tile is None:
                    break
                e = PARTNER[tile[0]][tile[1]][d]
                segment = (h, min(d, e), max(d, e))
                if segment in seen:
                    break
                seen.add(segment)
                out.append((h, d, e))
                node = STEP_OUT[h * 6 + e]
        return out


def hex_name(h: int) -> str:
    """A hex in internal coordinates, ``(row,col)``, as messages name it."""
    r, c = HEXES[h]
    return f"({r},{c})"


def mover_name(state: FlowsState) -> str | None:
    """``P2``: who moves next, None once the game is over."""
    return None if state.to_move is None else f"P{state.to_move + 1}"


def write_position(state: FlowsState, view: bool = False) -> str:
    """``<rows> <to-move> <seats> <result> [side:K]`` (``position.py`` reads it and says
    what each field is). The view, with ``view`` and only for a game written in one: it
    is what a Position needs to read the moves to come (:func:`full_position`), but
    not part of the board (``replay --json``, ``select --position``)."""
    rows = []
    for r in range(6, -1, -1):
        cells = []
        for c in range(7):
            if (r, c) in INDEX:
                tile = state.tiles[INDEX[(r, c)]]
                cells.append("." if tile is None else f"{tile[0]}{tile[1]}")
        rows.append("".join(cells))
    mover = mover_name(state) or "-"
    if state.drawn is not None and mover != "-":
        mover += f"T{state.drawn}"  # (holding the tile chance drew: P1T2)
    seats = ",".join(map(str, state.seating.seats))
    result = "*" if not state.over else (
        f"{state.win_type}:{','.join(str(p + 1) for p in state.winners)}")
    side = "" if state.view is None or not view else f" side:{state.view}"
    return f"{'/'.join(rows)} {mover} {seats} {result}{side}"


def full_position(state: FlowsState, /) -> str:
    """The position with its view, if the game is written in one: what
    :func:`~notation.games.flows.position.read_position` reads back into the same game."""
    return write_position(state, view=True)


def result_json(state: FlowsState) -> dict[str, Any]:
    """The ``result`` object of ``replay --json``."""
    return {"over": state.over, "winners": [p + 1 for p in state.winners],
            "win_type": state.win_type}


def state_json(state: FlowsState) -> dict[str, Any]:
    """The ``state`` object of ``replay --json``: tiles, flows, seats, teams and the bag."""
    seating = state.seating
    return {
        "tiles": [[*HEXES[h], t[0], t[1]] for h, t in enumerate(state.tiles) if t is not None],
        "flows": {f"P{p + 1}": [[*HEXES[h], a, b] for h, a, b in state.flow_segments(p)]
                  for p in range(seating.players)},
        "to_move": mover_name(state),
        "seats": list(seating.seats),
        "teams": [[p + 1 for p in team] for team in sorted(
            {seating.team(p) for p in range(seating.players) if seating.partner[p] is not None})],
        "bag": [state.in_bag(t) for t in range(4)],
    }


def cells(state: FlowsState) -> dict[str, str]:
    """The state as named parts for diffs: each hex, each player's flow, mover, result."""
    out = {}
    for h in range(N_HEXES):
        tile = state.tiles[h]
        out[hex_name(h)] = "" if tile is None else f"T{tile[0]} r{tile[1]}"
    for p in range(state.seating.players):
        out[f"P{p + 1} flow"] = " ".join(f"{hex_name(h)}{a}-{b}"
                                         for h, a, b in state.flow_segments(p))
    out["to move"] = mover_name(state) or "nobody (game over)"
    out["result"] = str(result_json(state))
    return out
