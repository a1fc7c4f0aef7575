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

from functools import lru_cache

from notation.core.errors import RuleError

from .moves import BOARD_CORNERS, SIZE, Move, square_name
from .pieces import CANONICAL, ORIENTATIONS, PIECE_NAMES, PIECE_SIZES

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


class _Tables:
    """Placement masks, built on first use (about 0.1 s)."""

    def __init__(self) -> None:
        # Each (piece, canonical orientation, contact) pair gets an index k.
        self.key_of: dict[tuple[int, int, tuple[int, int]], int] = {}
        self.pair: list[tuple[int, int, tuple[int, int]]] = []
        # by_target[t][piece] = [(k, mask), ...] in (orientation, contact) order.
        self.by_target: list[list[list[tuple[int, int]]]] = [
            [[] for _ in range(N_PIECES)] for _ in range(SIZE * SIZE)]
        self.mask: list[list[int]] = []  # mask[k][t], 0 when off the board
        for piece, oriented in enumerate(ORIENTATIONS):
            for o in oriented:
                shape = sum(1 << (x + SIZE * y) for x, y in o.cells)
                w, h = o.width, o.height
                for c in sorted(o.contacts, key=lambda c: c[0] + SIZE * c[1]):
                    k = len(self.pair)
                    self.key_of[(piece, o.index, c)] = k
                    self.pair.append((piece, o.index, c))
                    row = [0] * (SIZE * SIZE)
                    for t in range(SIZE * SIZE):
                        x0, y0 = t % SIZE - c[0], t // SIZE - c[1]
                        if 0 <= x0 and x0 + w <= SIZE and 0 <= y0 and y0 + h <= SIZE:
                            m = shape << (x0 + SIZE * y0)
                            row[t] = m
                            self.by_target[t][piece].append((k, m))
                    self.mask.append(row)


@lru_cache(maxsize=1)
def tables() -> _Tables:
    return _Tables()


class Board:
    """A Tilewe position with its players' hands and whose turn it is."""

    __slots__ = ("players", "occupied", "own", "adj", "diag", "used", "turn", "turn_known",
                 "out", "over", "ply", "last_mover", "_t")

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
        self._t = tables()

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
        if self.out >> player & 1:
            return False
        blocked = self.occupied | self.adj[player]
        used = self.used[player]
        by_target = self._t.by_target
        corners = self.anchors(player)
        while corners:
            low = corners & -corners
            per_piece = by_target[low.bit_length() - 1]
            corners ^= low
            for piece in range(N_PIECES):
                if used >> piece & 1:
                    continue
                for _, m in per_piece[piece]:
                    if not m & blocked:
                        return True
        return False

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
        """Every legal move spelling, in the reference's order (target, piece, orientation, contact)."""
        if player is None:
            player = self.to_move()
            if player is None:
                return []
        blocked = self.occupied | self.adj[player]
        used = self.used[player]
        t = self._t
        pair = t.pair
        moves = []
        for target in squares(self.anchors(player)):
            per_piece = t.by_target[target]
            for piece in range(N_PIECES):
                if used >> piece & 1:
                    continue
                for k, m in per_piece[piece]:
                    if not m & blocked:
                        _, orientation, contact = pair[k]
                        moves.append(Move(piece, orientation, contact, target))
        return moves

    def placement(self, move: Move) -> int:
        """The tiles ``move`` covers, as a mask (0 if it leaves the board)."""
        k = self._t.key_of[(move.piece, CANONICAL[move.piece][move.orientation], move.contact)]
        return self._t.mask[k][move.target]

    # -- playing --------------------------------------------------------------
    def push(self, move: Move) -> None:
        """Play ``move`` for the player whose turn it is, or raise :class:`RuleError`."""
        if self.over:
            raise RuleError("the game is over: no player can move", "game end")
        k = self._t.key_of.get((move.piece, CANONICAL[move.piece][move.orientation], move.contact))
        if k is None:
            raise RuleError(f"{move} is not a move: its contact is not a contact tile", "notation")
        mask = self._t.mask[k][move.target]
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
