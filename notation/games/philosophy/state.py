"""Philosophy's state: the board, the hands, the players, the rule variants in force
and the turn in progress. Queries only; the rules that change it are in rules.py."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from notation.core.game import state_repr

from . import PLAYER_CODES as PLAYER_CODES
from .geometry import ENDS_FROM, LINE_ENDS_FROM, LINES, RANK, Line

#: Rule variants: (rule, variable) -> allowed values, default first (section 8).
VARIANTS: dict[tuple[str, str], tuple[str, ...]] = {
    ("join", "permitted"): ("only_before_any_placement", "between_turns"),
    ("join", "where"): ("immediately_next", "after_a_full_turn"),
    ("leave", "permitted"): ("only_before_any_placement", "never", "anytime"),
    ("leave", "effect"): ("ends_game", "rollback_placement", "remove_their_tiles"),
}

Tile = tuple[str, str, str]  # owner, tile type, facing


class Pending(NamedTuple):
    """A choice the placing player must make before the turn can go on."""

    kind: str                 # "candidate", "decision" or "rephrase"
    options: tuple[str, ...]  # sorted in plain ASCII order, as the reference writes them
    target: str | None = None               # the tile being moved or turned
    directions: tuple[tuple[str, str], ...] = ()  # decision: (option, direction), sorted


def _default_variants() -> dict[tuple[str, str], str]:
    return {key: values[0] for key, values in VARIANTS.items()}


def board_text(board: dict[str, Tile]) -> str:
    """The board-state notation (section 11): ``SPACE:XxTtDd`` items in space order."""
    return "/".join(f"{s}:{o}{t}{f}" for s, (o, t, f) in
                    sorted(board.items(), key=lambda kv: RANK[kv[0]]))


@dataclass(repr=False)
class PhilosophyState:
    board: dict[str, Tile] = field(default_factory=dict)
    #: each player's tiles in hand; a hand is replaced, never changed in place, so the
    #: snapshot in ``before_last_placement`` may share the sets
    hands: dict[str, set[str]] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)   # turn order; order[0] is to move
    names: dict[str, str] = field(default_factory=dict)
    colour_tags: dict[str, str] = field(default_factory=dict)
    variants: dict[tuple[str, str], str] = field(default_factory=_default_variants)
    respect: str | None = None
    placements: int = 0          # placement events so far (joins and leaves count these)
    set_up: bool = False         # started from a [Position] with tiles: past the first placement
    over: bool = False
    winner: str | None = None
    ended_by: str | None = None  # "conclusion" or "leave"
    # the turn in progress
    mover: str | None = None
    touched_own: set[str] = field(default_factory=set)     # A
    touched_other: set[str] = field(default_factory=set)   # B
    activated: set[tuple[str, str]] = field(default_factory=set)  # (owner, tile type)
    pending: Pending | None = None
    #: the players who hold a line of three on this board, where known (None: to be
    #: found at the turn's end); a placement that moves tiles and a leave that takes
    #: tiles off make it None, a placement that moves none adds its own player or not
    holders: frozenset[str] | None = field(default=None, compare=False)
    before_last_placement: tuple[dict[str, Tile], dict[str, set[str]]] | None = None

    def __repr__(self) -> str:
        return state_repr("philosophy", self.position)

    def copy(self) -> PhilosophyState:
        """An independent copy: every dict, set and list is new (tiles and the pending
        choice are immutable tuples, so they are shared)."""
        other = PhilosophyState.__new__(PhilosophyState)
        other.__dict__.update(self.__dict__)
        other.board = dict(self.board)
        other.hands = {p: set(h) for p, h in self.hands.items()}
        other.order = list(self.order)
        other.names = dict(self.names)
        other.colour_tags = dict(self.colour_tags)
        other.variants = dict(self.variants)
        other.touched_own = set(self.touched_own)
        other.touched_other = set(self.touched_other)
        other.activated = set(self.activated)
        if self.before_last_placement is not None:
            board, hands = self.before_last_placement
            other.before_last_placement = (dict(board), {p: set(h) for p, h in hands.items()})
        return other

    def restore(self, snapshot: PhilosophyState) -> None:
        """Become ``snapshot`` again (a rejected event rolls back to the copy taken before it)."""
        self.__dict__.update(snapshot.__dict__)

    # -- queries ------------------------------------------------------------------
    @property
    def to_move(self) -> str | None:
        """Who acts next: the chooser of a pending choice, else the head of the order."""
        if self.over:
            return None
        if self.pending is not None:
            return self.mover
        return self.order[0] if self.order else None

    def position(self) -> str:
        """The board-state notation (section 11) of the board."""
        return board_text(self.board)

    def conclusions(self) -> list[tuple[str, Line]]:
        """Every line of three spaces held by one player, with its owner, in LINES order."""
        board = self.board
        get = board.get
        found = []
        for space, (owner, _, _) in board.items():
            for i, second, third in LINE_ENDS_FROM[space]:
                b = get(second)
                if b is not None and b[0] == owner:
                    c = get(third)
                    if c is not None and c[0] == owner:
                        found.append(i)
        found.sort()
        return [(board[LINES[i][0]][0], LINES[i]) for i in found]

    def line_owners(self) -> set[str]:
        """The players who hold some line of three: what a turn's end needs of
        :meth:`conclusions` (the same owners), found with no list built or sorted."""
        board = self.board
        if len(board) < 3:  # (a game's first turns)
            return set()
        held: dict[str, set[str]] = {}
        for space, tile in board.items():
            spaces = held.get(tile[0])
            if spaces is None:
                held[tile[0]] = {space}
            else:
                spaces.add(space)
        owners = set()
        for owner, spaces in held.items():
            if len(spaces) > 2 and _holds_line(spaces):
                owners.add(owner)
        return owners


def _holds_line(spaces: set[str]) -> bool:
    """Whether ``spaces`` hold every space of some line."""
    for space in spaces:
        for second, third in ENDS_FROM[space]:
            if second in spaces and third in spaces:
                return True
    return False
