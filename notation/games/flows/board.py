"""The Flows rules engine: seats and teams, placement legality, flows, victories.

Positions on the board are nodes ``h * 6 + d`` ("entering hex h through its
edge d"), with the step across every edge precomputed. Placed tiles give each
edge at most two links, so flows are paths and a flow win is found by tracing;
"could this player still connect?" treats an empty hex as a wildcard joining
all six of its edges and is a depth-first search that stops at the first route.
"""
from __future__ import annotations

from dataclasses import dataclass

from notation.core.game import state_repr, state_svg
from notation.core.errors import RuleError

from .geometry import HEXES, N_HEXES, SIDE_EDGES, neighbour

#: Partner of each entry direction at rotation 0, per tile type (rules section 3).
PARTNERS0 = ((2, 4, 0, 5, 1, 3), (5, 3, 4, 1, 2, 0), (5, 4, 3, 2, 1, 0), (5, 2, 1, 4, 3, 0))
TILES_PER_TYPE = 10
#: Rotations giving the same connections: period 3 for T0 and T2, 6 for T1, 2 for T3.
PERIOD = (3, 6, 3, 2)


def partners(tile: int, rotation: int) -> tuple[int, ...]:
    """partner[d] of every direction d for a tile at a rotation."""
    base = PARTNERS0[tile]
    return tuple((base[(d - rotation) % 6] + rotation) % 6 for d in range(6))


PARTNER = tuple(tuple(partners(t, r) for r in range(6)) for t in range(4))
#: PAIRS[tile][rotation]: the three edge pairs (d, partner) with d < partner.
PAIRS = tuple(tuple(tuple((d, p[d]) for d in range(6) if d < p[d]) for p in per_tile)
              for per_tile in PARTNER)
DEFAULT_SEATS = {2: (0, 3), 3: (0, 2, 4), 4: (0, 1, 3, 4), 5: (0, 1, 2, 3, 4),
                 6: (0, 1, 2, 3, 4, 5)}


def _stepping() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Moves between hexes, as ``h * 6 + d`` = "entering hex h through its edge d".

    ``STEP_OUT[h * 6 + e]`` is the node entered by leaving h through edge e, or
    ``-1 - side`` when that edge is on the perimeter (``side`` owns it).
    """
    owner = {}
    for side, edges in enumerate(SIDE_EDGES):
        for h, d in edges:
            owner[(h, d)] = side
    out = []
    for h in range(N_HEXES):
        for e in range(6):
            q = neighbour(h, e)
            out.append(q * 6 + (e + 3) % 6 if q is not None else -1 - owner[(h, e)])
    starts = tuple(tuple(h * 6 + d for h, d in edges) for edges in SIDE_EDGES)
    return tuple(out), starts


STEP_OUT, SIDE_STARTS = _stepping()


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
    def make(cls, players: int, seats: tuple[int, ...] | None = None) -> "Seating":
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
        mate = self.partner[player]
        return (player,) if mate is None else tuple(sorted((player, mate)))


class FlowsBoard:
    """A Flows game in progress: tiles on hexes, the bag, whose turn, the result."""

    __repr__ = state_repr("flows")
    _repr_svg_ = state_svg("flows")

    __slots__ = ("seating", "tiles", "placed", "step", "over", "winners", "win_type", "ply")

    def __init__(self, seating: Seating) -> None:
        self.seating = seating
        self.tiles: list[tuple[int, int] | None] = [None] * N_HEXES  # (type, rotation)
        self.placed = [0, 0, 0, 0]   # tiles of each type on the board
        self.step = 0                # index into seating.turns
        self.over = False
        self.winners: list[int] = []  # 0-based players
        self.win_type: str | None = None
        self.ply = 0

    def copy(self):
        """An independent copy, of the same class (subclasses add slots of their own)."""
        cls = type(self)
        other = cls.__new__(cls)
        for klass in cls.__mro__:
            for name in getattr(klass, "__slots__", ()):
                value = getattr(self, name)
                setattr(other, name, value[:] if isinstance(value, list) else value)
        return other

    @property
    def to_move(self) -> int | None:
        """0-based player to move, None when the game is over."""
        return None if self.over else self.seating.turns[self.step % len(self.seating.turns)]

    def in_bag(self, tile: int) -> int:
        return TILES_PER_TYPE - self.placed[tile]

    # -- connectivity ------------------------------------------------------------
    # Goals pair the sides {0,3}, {1,4}, {2,5} and connection is symmetric, so
    # at most three searches answer every player's question.

    def _pairs(self) -> list[int]:
        """The distinct side pairs in play, each named by its lower side (0, 1 or 2)."""
        return sorted({s % 3 for s in self.seating.seats})

    def _traced(self, side: int) -> bool:
        """Whether a path of placed tiles joins ``side`` to the opposite side.

        In the placed-tile graph every edge has at most two links, so each
        component is a simple path: follow it from each of the side's edges.
        """
        goal = -1 - (side + 3) % 6
        tiles, step_out, partner = self.tiles, STEP_OUT, PARTNER
        for node in SIDE_STARTS[side]:
            while node >= 0:
                h, d = divmod(node, 6)
                tile = tiles[h]
                if tile is None:
                    break
                node = step_out[h * 6 + partner[tile[0]][tile[1]][d]]
            if node == goal:
                return True
        return False

    def _reachable(self, side: int) -> bool:
        """Whether ``side`` could still reach the opposite side, empty hexes as wildcards."""
        goal = -1 - (side + 3) % 6
        tiles, step_out, partner = self.tiles, STEP_OUT, PARTNER
        seen_hexes = 0
        seen = set()
        stack = list(SIDE_STARTS[side])
        while stack:
            node = stack.pop()
            h, d = divmod(node, 6)
            tile = tiles[h]
            if tile is None:
                if seen_hexes >> h & 1:
                    continue
                seen_hexes |= 1 << h
                for e in range(6):
                    nxt = step_out[h * 6 + e]
                    if nxt >= 0:
                        stack.append(nxt)
                    elif nxt == goal:
                        return True
            else:
                if node in seen:
                    continue
                seen.add(node)
                nxt = step_out[h * 6 + partner[tile[0]][tile[1]][d]]
                if nxt >= 0:
                    stack.append(nxt)
                elif nxt == goal:
                    return True
        return False

    def flow_winners(self) -> list[int]:
        """Players whose side connects to its goal through placed tiles (section 8.1)."""
        connected = {pair for pair in self._pairs() if self._traced(pair)}
        return [p for p, s in enumerate(self.seating.seats) if s % 3 in connected]

    def blocked_players(self) -> list[int]:
        """Players (or teams) left with no potential route, empty hexes as wildcards."""
        cut = {pair for pair in self._pairs() if not self._reachable(pair)}
        return [p for p, s in enumerate(self.seating.seats) if s % 3 in cut]

    # -- legality ----------------------------------------------------------------
    def _judge(self) -> tuple[list[int], tuple[str, str] | None]:
        """For the tiles as they stand: flow winners, and why it is illegal (or None).

        A placement that makes anybody win is legal whatever else it does;
        otherwise every player (team) must keep a possible route.
        """
        winners = self.flow_winners()
        if winners:
            return winners, None
        blocked = self.blocked_players()
        if blocked:
            names = ", ".join(f"P{p + 1}" for p in blocked)
            return [], (f"it leaves {names} with no possible route to the opposite side",
                        "every player keeps a route")
        return [], None

    def check(self, h: int, tile: int, rotation: int) -> tuple[str, str] | None:
        """Why placing ``tile`` at ``h`` in ``rotation`` is illegal, or None (section 9)."""
        if self.tiles[h] is not None:
            return f"hex {hex_name(h)} is already occupied", "empty hex"
        self.tiles[h] = (tile, rotation)
        try:
            return self._judge()[1]
        finally:
            self.tiles[h] = None

    def legal_placements(self, tile: int) -> list[tuple[int, int]]:
        """Every legal (hex, rotation) for ``tile``, all six rotations counted."""
        found = []
        for h in range(N_HEXES):
            if self.tiles[h] is not None:
                continue
            verdicts: dict[tuple, bool] = {}
            for rotation in range(6):
                key = PAIRS[tile][rotation]
                if key not in verdicts:  # equivalent rotations share a verdict
                    verdicts[key] = self.check(h, tile, rotation) is None
                if verdicts[key]:
                    found.append((h, rotation))
        return found

    # -- playing -------------------------------------------------------------------
    def expect_turn(self, player: int) -> None:
        if self.over:
            raise RuleError("the game is over", "game end")
        mover = self.to_move
        if player != mover:
            raise RuleError(f"it is P{mover + 1}'s turn, not P{player + 1}'s", "turn order")

    def _draw(self, tile: int) -> None:
        if not self.in_bag(tile):
            raise RuleError(f"all {TILES_PER_TYPE} T{tile} tiles are already on the board",
                            "10 tiles of each type")

    def place(self, player: int, h: int, tile: int, rotation: int) -> None:
        """Play a placement, checking it in the rules' order (section 9)."""
        self.expect_turn(player)
        self._draw(tile)
        if self.tiles[h] is not None:
            raise RuleError(f"hex {hex_name(h)} is already occupied", "empty hex")
        self.tiles[h] = (tile, rotation)
        winners, why = self._judge()
        if why is not None:
            self.tiles[h] = None
            raise RuleError(*why)
        self.placed[tile] += 1
        self.ply += 1
        if winners:
            self.over = True
            self.winners = winners
            teams = {self.seating.team(p) for p in winners}
            self.win_type = "flow" if len(teams) == 1 else "tie"
            return
        self.step += 1

    def unplaceable(self, player: int, tile: int) -> None:
        """The player drew ``tile`` and it fits nowhere: their team wins (constraint)."""
        self.expect_turn(player)
        self._draw(tile)
        legal = self.legal_placements(tile)
        if legal:
            raise RuleError(f"T{tile} has {len(legal)} legal placements, so it must be placed",
                            "mandatory placement")
        self.ply += 1
        self.over = True
        self.winners = list(self.seating.team(player))
        self.win_type = "constraint"

    # -- flows for display -----------------------------------------------------------
    def flow_segments(self, player: int) -> list[tuple[int, int, int]]:
        """The (hex, entry, exit) connections ``player``'s flow runs through (section 7).

        The same paths :meth:`_traced` follows, recorded; a path that returns
        to the player's own side is walked once.
        """
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
    r, c = HEXES[h]
    return f"({r},{c})"
