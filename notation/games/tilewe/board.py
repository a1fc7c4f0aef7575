"""The Tilewe board: bitboards, move legality, legal-move generation, turn order.

Tiles are bits of Python ints (bit ``x + 20*y``). Every placement of every
(orientation, contact) pair on every target is precomputed once as a mask,
so checking a move is a handful of integer ``&``s.

Turn order is resolved lazily: the next player in cyclic order is only a
*candidate*; a move that is legal for the candidate proves the candidate can
move, so the full "can this player move at all?" search runs only when a
move does not fit the candidate, or when someone asks who is to move.
"""
from __future__ import annotations

from notation.core.game import state_repr, state_svg
from notation.core.errors import RuleError

from .moves import BOARD_CORNERS, SIZE, Move, square_name
from .pieces import CANONICAL, ORIENTATIONS, PIECE_NAMES

COLORS = ("blue", "yellow", "red", "green")
COLOR_LETTERS = "byrg"
N_PIECES = len(PIECE_NAMES)
ALL_PIECES = (1 << N_PIECES) - 1

FULL = (1 << SIZE * SIZE) - 1
_COL_A = sum(1 << (SIZE * y) for y in range(SIZE))
NOT_A = FULL ^ _COL_A
NOT_T = FULL ^ (_COL_A << (SIZE - 1))
CORNER_MASK = sum(1 << c for c in BOARD_CORNERS)


def edge_neighbours(m: int) -> int:
    """Tiles edge-adjacent to any tile of ``m`` (not wrapping around the board)."""
    return (((m << 1) & NOT_A) | ((m >> 1) & NOT_T) | (m << SIZE) | (m >> SIZE)) & FULL


def diagonal_neighbours(m: int) -> int:
    """Tiles diagonally adjacent to any tile of ``m``."""
    return (((m << (SIZE + 1)) & NOT_A) | ((m << (SIZE - 1)) & NOT_T)
            | ((m >> (SIZE - 1)) & NOT_A) | ((m >> (SIZE + 1)) & NOT_T)) & FULL


def squares(m: int) -> list[int]:
    """The set bits of ``m``, ascending."""
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


class Shape:
    """One distinct orientation of a piece, ready for bit-parallel search.

    ``cells`` and ``contacts`` index the 25 offsets ``x + 5*y`` of a 5x5 box;
    ``valid`` has a bit at every origin (bottom-left corner) that keeps the
    whole bounding box on the board, so shifted masks never wrap a row.
    """

    __slots__ = ("piece", "orientation", "mask", "width", "height", "cells", "contacts", "valid")

    def __init__(self, piece: int, o) -> None:
        self.piece, self.orientation = piece, o.index
        self.mask = sum(1 << (x + SIZE * y) for x, y in o.cells)
        self.width, self.height = o.width, o.height
        self.cells = tuple(x + 5 * y for x, y in o.cells)
        # (index into the 25 offsets, offset on the board, contact cell), by x + 20*y
        self.contacts = tuple(sorted(((x + 5 * y, x + SIZE * y, (x, y)) for x, y in o.contacts),
                                     key=lambda c: c[1]))
        row = (1 << (SIZE - o.width + 1)) - 1
        self.valid = sum(row << (SIZE * y) for y in range(SIZE - o.height + 1))


#: The 25 board offsets of a 5x5 box, indexed by x + 5*y.
OFFSETS = tuple(x + SIZE * y for y in range(5) for x in range(5))
#: SHAPES[piece]: the piece's distinct orientations, canonical order.
SHAPES: tuple[tuple[Shape, ...], ...] = tuple(
    tuple(Shape(piece, o) for o in oriented) for piece, oriented in enumerate(ORIENTATIONS))
#: (piece, canonical orientation, contact cell) -> (shape, contact's board offset)
SPELLING: dict[tuple[int, int, tuple[int, int]], tuple[Shape, int]] = {
    (shape.piece, shape.orientation, contact): (shape, offset)
    for shapes in SHAPES for shape in shapes for _, offset, contact in shape.contacts}


def placement_mask(shape: Shape, offset: int, target: int) -> int:
    """Tiles covered with the contact (at ``offset`` in the piece) on ``target``; 0 if off the board."""
    origin = target - offset
    x0 = target % SIZE - offset % SIZE
    if x0 < 0 or origin < 0 or not shape.valid >> origin & 1:
        return 0
    return shape.mask << origin


class Board:
    """A Tilewe position with its players' hands and whose turn it is."""

    __repr__ = state_repr("tilewe")
    _repr_svg_ = state_svg("tilewe")

    __slots__ = ("players", "occupied", "own", "adj", "diag", "used", "turn", "turn_known",
                 "out", "over", "ply", "last_mover", "last")

    def __init__(self, players: int = 4) -> None:
        if not 1 <= players <= 4:
            raise ValueError("Tilewe is for 1 to 4 players")
        self.players = players
        self.occupied = 0
        self.own = [0] * players      # tiles of each colour
        self.adj = [0] * players      # tiles edge-adjacent to each colour
        self.diag = [0] * players     # tiles diagonal to each colour
        self.used = [0] * players     # bit i set: piece i placed
        self.turn = 0                 # candidate player to move
        self.turn_known = False       # True once `turn` is known to have a move
        self.out = 0                  # bit p set: player p can never move again
        self.over = False
        self.ply = 0
        self.last_mover: int | None = None
        self.last = 0                 # the tiles of the last placement (for pictures)

    def copy(self) -> "Board":
        other = Board.__new__(Board)
        for name in Board.__slots__:
            value = getattr(self, name)
            setattr(other, name, value[:] if isinstance(value, list) else value)
        return other

    # -- queries --------------------------------------------------------------
    def scores(self) -> list[int]:
        return [m.bit_count() for m in self.own]

    def winners(self) -> list[int]:
        scores = self.scores()
        top = max(scores)
        return [p for p, s in enumerate(scores) if s == top]

    def color_at(self, square: int) -> int | None:
        bit = 1 << square
        if not self.occupied & bit:
            return None
        return next(p for p, m in enumerate(self.own) if m & bit)

    def remaining(self, player: int) -> list[int]:
        used = self.used[player]
        return [i for i in range(N_PIECES) if not used >> i & 1]

    def anchors(self, player: int) -> int:
        """Tiles where ``player``'s next piece may put its contact tile."""
        if not self.used[player]:
            return CORNER_MASK & ~self.occupied
        return self.diag[player] & ~(self.occupied | self.adj[player])

    def can_move(self, player: int) -> bool:
        """Whether ``player`` has at least one legal move (stops at the first found)."""
        if self.out >> player & 1:
            return False
        anchors = self.anchors(player)
        if not anchors:
            return False
        if not self.used[player] & 1:  # O1 still in hand fits on any anchor
            return True
        shifted_anchors = [anchors >> off for off in OFFSETS]
        for shape, free in self._free_origins(player):
            for i, _, _ in shape.contacts:
                if free & shifted_anchors[i]:
                    return True
        return False

    def _free_origins(self, player: int):
        """Yield ``(shape, origins)`` for each orientation in hand that fits somewhere.

        Bit-parallel: the origins where no cell of the shape is blocked are
        ``valid & ~OR(blocked >> cell offset)``, one shift per cell offset.
        """
        blocked = self.occupied | self.adj[player]
        used = self.used[player]
        shifted_blocked = [blocked >> off for off in OFFSETS]
        for piece in range(N_PIECES):
            if used >> piece & 1:
                continue
            for shape in SHAPES[piece]:
                hit = 0
                for i in shape.cells:
                    hit |= shifted_blocked[i]
                free = shape.valid & ~hit
                if free:
                    yield shape, free

    def to_move(self) -> int | None:
        """The player to move, skipping players who cannot; None when the game is over."""
        if self.over:
            return None
        if self.turn_known:
            return self.turn
        p = self.turn
        for _ in range(self.players):
            if not self.out >> p & 1:
                if self.can_move(p):
                    self.turn, self.turn_known = p, True
                    return p
                self.out |= 1 << p
            p = (p + 1) % self.players
        self.over = True
        return None

    def legal_moves(self, player: int | None = None) -> list[Move]:
        """Every legal move spelling, in the reference's order (target, piece, orientation, contact).

        A contact on an anchor is one ``&`` of the free origins with the
        anchors shifted by the contact's offset.
        """
        if player is None:
            player = self.to_move()
            if player is None:
                return []
        anchors = self.anchors(player)
        if not anchors:
            return []
        shifted_anchors = [anchors >> off for off in OFFSETS]
        found = []
        for shape, free in self._free_origins(player):
            for i, offset, contact in shape.contacts:
                hits = free & shifted_anchors[i]
                while hits:
                    low = hits & -hits
                    hits ^= low
                    found.append((low.bit_length() - 1 + offset, shape.piece, shape.orientation,
                                  offset, contact))
        found.sort()
        return [Move(piece, o, contact, target) for target, piece, o, _, contact in found]

    def placement(self, move: Move) -> int:
        """The tiles ``move`` covers, as a mask (0 if it leaves the board)."""
        shape, offset = SPELLING[(move.piece, CANONICAL[move.piece][move.orientation], move.contact)]
        return placement_mask(shape, offset, move.target)

    # -- playing --------------------------------------------------------------
    def push(self, move: Move) -> None:
        """Play ``move`` for the player whose turn it is, or raise :class:`RuleError`."""
        if self.over:
            raise RuleError("the game is over: no player can move", "game end")
        spelling = SPELLING.get((move.piece, CANONICAL[move.piece][move.orientation], move.contact))
        if spelling is None:
            raise RuleError(f"{move} is not a move: its contact is not a contact tile", "notation")
        mask = placement_mask(spelling[0], spelling[1], move.target)
        bit = 1 << move.target
        n = self.players
        p = self.turn
        for _ in range(n):
            if not self.out >> p & 1:
                used = self.used[p]
                if (mask and not used >> move.piece & 1 and not mask & (self.occupied | self.adj[p])
                        and (bit & self.diag[p] if used else bit & CORNER_MASK)):
                    self._place(p, move.piece, mask)
                    return
                if self.turn_known and p == self.turn or self.can_move(p):
                    message, rule = self._why_illegal(p, move, mask)
                    raise RuleError(message, rule)
                self.out |= 1 << p
            p = (p + 1) % n
        self.over = True
        raise RuleError("the game is over: no player can move", "game end")

    def _place(self, player: int, piece: int, mask: int) -> None:
        self.occupied |= mask
        self.own[player] |= mask
        self.adj[player] |= edge_neighbours(mask)
        self.diag[player] |= diagonal_neighbours(mask)
        self.used[player] |= 1 << piece
        self.ply += 1
        self.last_mover = player
        self.last = mask
        self.turn = (player + 1) % self.players
        self.turn_known = False

    def _why_illegal(self, player: int, move: Move, mask: int) -> tuple[str, str]:
        who = COLORS[player]
        if self.used[player] >> move.piece & 1:
            return f"{who} has already placed {move.piece_name}", "each piece once"
        if not mask:
            return (f"{move} would put part of {move.piece_name} off the board",
                    "on the board")
        taken = mask & self.occupied
        if taken:
            owners = ", ".join(f"{square_name(s)} ({COLORS[self.color_at(s)]})"
                               for s in squares(taken))
            return f"{move} covers occupied tiles: {owners}", "empty tiles"
        touching = mask & self.adj[player]
        if touching:
            tiles = " ".join(square_name(s) for s in squares(touching))
            return (f"{move} touches {who}'s own pieces along an edge at {tiles}",
                    "no edge contact with own colour")
        target = square_name(move.target)
        if not self.used[player]:
            return (f"{who}'s first piece must put its contact tile on an empty board corner "
                    f"(a1, t1, a20, t20), not {target}", "first piece in a corner")
        return (f"the target {target} is not diagonal to any {who} tile (not an open corner)",
                "contact on an open corner")
