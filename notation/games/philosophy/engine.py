"""The Philosophy rules engine (rules file sections 2-9).

It follows the reference's activation algorithm (section 5) with the sane
behaviour the rules file gives for each reference defect (section 5.1).
Every event is applied as a transaction: a rejected event leaves the state
exactly as it was.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from notation.core.game import state_repr, state_svg
from notation.core.errors import RuleError

from .board import (
    CELL, CENTRE, LINES, RANK, TILE_CODES, TILES, target_of, step, turn,
)
from .events import Choice, Event, Join, Leave, Placement, Respect, RuleChange

#: Rule variants: (rule, variable) -> allowed values, default first (section 8).
VARIANTS: dict[tuple[str, str], tuple[str, ...]] = {
    ("join", "permitted"): ("only_before_any_placement", "between_turns"),
    ("join", "where"): ("immediately_next", "after_a_full_turn"),
    ("leave", "permitted"): ("only_before_any_placement", "never", "anytime"),
    ("leave", "effect"): ("ends_game", "rollback_placement", "remove_their_tiles"),
}
#: PGN-like tags that set a variant: JoinPermitted -> ("join", "permitted").
VARIANT_TAGS = {f"{r.title()}{v.title()}": (r, v) for r, v in VARIANTS}

Tile = tuple[str, str, str]  # owner, tile type, facing


class Pending(NamedTuple):
    """A choice the placing player must make before the turn can go on."""

    kind: str                 # "candidate", "decision" or "rephrase"
    options: tuple[str, ...]  # sorted in plain ASCII order, as the reference writes them
    target: str | None = None               # the tile being moved or turned
    directions: tuple[tuple[str, str], ...] = ()  # decision: option -> direction


@dataclass
class PhilosophyState:

    __repr__ = state_repr("philosophy")
    _repr_svg_ = state_svg("philosophy")
    board: dict[str, Tile] = field(default_factory=dict)
    hands: dict[str, set[str]] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)   # turn order; order[0] is to move
    names: dict[str, str] = field(default_factory=dict)
    colour_tags: dict[str, str] = field(default_factory=dict)
    variants: dict[tuple[str, str], str] = field(
        default_factory=lambda: {k: v[0] for k, v in VARIANTS.items()})
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
    before_last_placement: tuple[dict[str, Tile], dict[str, set[str]]] | None = None

    def copy(self) -> "PhilosophyState":
        other = PhilosophyState.__new__(PhilosophyState)
        other.__dict__.update(self.__dict__)
        other.board = dict(self.board)
        other.hands = {p: set(h) for p, h in self.hands.items()}
        other.order = list(self.order)
        other.names = dict(self.names)
        other.variants = dict(self.variants)
        other.touched_own = set(self.touched_own)
        other.touched_other = set(self.touched_other)
        other.activated = set(self.activated)
        return other

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
        return "/".join(f"{s}:{o}{t}{f}" for s, (o, t, f) in
                        sorted(self.board.items(), key=lambda kv: RANK[kv[0]]))

    def conclusions(self) -> list[tuple[str, tuple[str, str, str]]]:
        """Every line of three spaces held by one player, with its owner."""
        board = self.board
        found = []
        for line in LINES:
            a = board.get(line[0])
            if a is None:
                continue
            b, c = board.get(line[1]), board.get(line[2])
            if b is not None and c is not None and a[0] == b[0] == c[0]:
                found.append((a[0], line))
        return found

    # -- applying events ------------------------------------------------------------
    def apply(self, event: Event) -> None:
        """Apply one event, or raise RuleError and leave the state untouched.

        Every check comes before the first change, except a placement's
        bracket parameters (checked while the chain reaction runs): only
        that case needs a snapshot to roll back to.
        """
        if not (isinstance(event, Placement) and event.params):
            self._apply(event)
            return
        snapshot = self.copy()
        try:
            self._apply(event)
        except RuleError:
            self.__dict__.update(snapshot.__dict__)
            raise

    def _apply(self, event: Event) -> None:
        if self.over:
            raise RuleError("the game is over", "game end")
        if isinstance(event, Placement):
            self._place(event)
        elif isinstance(event, Choice):
            self._choose_bare(event.option)
        elif isinstance(event, Join):
            self._join(event)
        elif isinstance(event, Leave):
            self._leave(event.player)
        elif isinstance(event, Respect):
            if event.player not in self.order:
                raise RuleError(f"{event.player} is not in the game, so cannot hold the "
                                f"respect token", "respect token")
            self.respect = event.player
        elif isinstance(event, RuleChange):
            self._rule_change(event)

    # -- players -----------------------------------------------------------------------
    def _join(self, event: Join) -> None:
        code = event.player
        if code in self.order:
            raise RuleError(f"{code} is already in the game", "join once")
        started = self.placements > 0
        if started and self.variants[("join", "permitted")] == "only_before_any_placement":
            raise RuleError(f"{code} cannot join: joining is only allowed before the first "
                            f"placement (rule:join:permitted)", "join permitted")
        if not started or self.variants[("join", "where")] == "after_a_full_turn":
            self.order.append(code)
        elif self.pending is not None:
            self.order.insert(1, code)  # right after the player who is choosing
        else:
            self.order.insert(0, code)  # places next
        self.names[code] = event.name or self.colour_tags.get(code, code)
        self.hands.setdefault(code, set(TILE_CODES))  # a set-up position may hold some

    def _leave(self, code: str) -> None:
        if code not in self.order:
            raise RuleError(f"{code} is not in the game", "leave")
        permitted = self.variants[("leave", "permitted")]
        if permitted == "never":
            raise RuleError(f"{code} cannot leave: leaving is not allowed (rule:leave:permitted)",
                            "leave permitted")
        if permitted == "only_before_any_placement" and self.placements:
            raise RuleError(f"{code} cannot leave: leaving is only allowed before the first "
                            f"placement (rule:leave:permitted)", "leave permitted")
        effect = self.variants[("leave", "effect")]
        self.order.remove(code)
        if self.mover == code:
            self._clear_turn()
        if effect == "ends_game":
            self.over, self.ended_by = True, "leave"
            self._clear_turn()
        elif effect == "remove_their_tiles":
            self.board = {s: t for s, t in self.board.items() if t[0] != code}
        elif effect == "rollback_placement" and self.before_last_placement is not None:
            board, hands = self.before_last_placement
            self.board = dict(board)
            kept = {p: set(h) for p, h in hands.items()}
            self.hands.update({p: h for p, h in kept.items() if p in self.hands})
            self._clear_turn()

    def _rule_change(self, event: RuleChange) -> None:
        key = (event.rule, event.variable)
        if key not in VARIANTS:
            raise RuleError(f"rule:{event.rule} has no variable {event.variable!r}; it has "
                            + ", ".join(v for r, v in VARIANTS if r == event.rule), "rule change")
        if event.value not in VARIANTS[key]:
            raise RuleError(f"{event.value!r} is not a value of rule:{event.rule}:{event.variable}"
                            f" ({', '.join(VARIANTS[key])})", "rule change")
        self.variants[key] = event.value

    # -- placing ---------------------------------------------------------------------------
    def _place(self, event: Placement) -> None:
        """Checks in the reference's order (section 10), then the chain reaction."""
        p = event.player
        if len(self.order) < 2:
            raise RuleError("a placement needs at least two players in the game", "two players")
        if self.pending is not None:
            who = "first" if p == self.mover else f"wait: {self.mover} must first"
            raise RuleError(f"{who} choose one of {' '.join(self.pending.options)}",
                            "pending choice")
        if p != self.order[0]:
            raise RuleError(f"it is {self.order[0]}'s turn, not {p}'s", "turn order")
        if event.tile not in TILES:
            raise RuleError(f"unknown tile {event.tile!r} (tiles: {' '.join(TILE_CODES)})",
                            "tile")
        if event.space not in CELL:
            raise RuleError(f"unknown space {event.space!r}", "space")
        if event.space == "C5" and self.placements == 0 and not self.set_up:
            raise RuleError("the first placement of the game may not be on C5", "first placement")
        if event.space not in CENTRE:
            raise RuleError(f"{event.space} is outside the centre: tiles are placed on C1-C9",
                            "centre only")
        if event.space in self.board:
            o, t, f = self.board[event.space]
            raise RuleError(f"{event.space} is occupied by {o}{t}{f}", "empty space")
        if event.tile not in self.hands[p]:
            raise RuleError(f"{p} has no {event.tile} in hand (it is on the board)", "tile in hand")
        kind = TILES[event.tile]
        if event.facing not in kind.facings:
            raise RuleError(f"a {kind.name} ({event.tile}) faces {' '.join(kind.facings)}, "
                            f"not {event.facing}", "facing")
        self.before_last_placement = (dict(self.board), {q: set(h) for q, h in self.hands.items()})
        self.placements += 1
        self.hands[p].discard(event.tile)
        self.board[event.space] = (p, event.tile, event.facing)
        self.mover = p
        self.touched_own, self.touched_other, self.activated = set(), set(), set()
        self._touch(event.space)
        self._run()
        for param in event.params:
            if self.pending is None:
                raise RuleError(f"parameter {param} given, but no choice is open", "choice")
            self._choose(param)

    def _choose_bare(self, option: str) -> None:
        if self.pending is None:
            raise RuleError(f"choice {option} given, but no choice is open", "choice")
        self._choose(option)

    def _choose(self, option: str) -> None:
        pending = self.pending
        if option not in pending.options:
            raise RuleError(f"{option} is not one of the options {' '.join(pending.options)}",
                            "choice")
        self.pending = None
        if pending.kind == "candidate":
            self._activate(option)
        elif pending.kind == "decision":
            self._move(pending.target, 1, dict(pending.directions)[option])
        else:  # rephrase
            owner, tile, _ = self.board[pending.target]
            self.board[pending.target] = (owner, tile, option)
            ahead = step(pending.target, option)
            if ahead is not None and ahead in self.board:
                self._touch(ahead)
        self._run()

    # -- the chain reaction (section 5) ---------------------------------------------------
    def _touch(self, space: str) -> None:
        if self.board[space][0] == self.mover:
            self.touched_own.add(space)
        else:
            self.touched_other.add(space)

    def _candidates(self) -> list[str]:
        p, board = self.mover, self.board
        found = []
        for space, (owner, tile, facing) in board.items():
            if owner != p or (owner, tile) in self.activated:
                continue
            target = target_of(space, tile, facing)
            if target is None or target not in board or board[target][0] == p:
                continue
            if space in self.touched_own or target in self.touched_other:
                found.append(space)
        return found

    def _run(self) -> None:
        """Activate candidates until none is left or a choice is needed."""
        while self.pending is None:
            candidates = self._candidates()
            if not candidates:
                self._end_turn()
                return
            if len(candidates) > 1:
                self.pending = Pending("candidate", tuple(sorted(candidates)))
                return
            self._activate(candidates[0])

    def _activate(self, space: str) -> None:
        owner, tile, facing = self.board[space]
        self.activated.add((owner, tile))
        target = target_of(space, tile, facing)
        kind = TILES[tile]
        if kind.moves is not None:
            self._move(target, kind.steps, turn(facing, kind.moves))
        elif tile == "De":
            choices = []
            for eighths in (-2, 2):
                direction = turn(facing, eighths)
                choices.append((step(target, direction) or "OO", direction))
            options = tuple(sorted({o for o, _ in choices}))
            if len(options) == 1:  # both ways off the board: nothing to choose
                self._move(target, 1, choices[0][1])
            else:
                self.pending = Pending("decision", options, target, tuple(choices))
        else:  # Rephrase: a new facing from the target's own set
            target_tile = self.board[target][1]
            facings = TILES[target_tile].facings
            self.pending = Pending("rephrase", tuple(sorted(facings)), target)

    def _move(self, space: str, steps: int, direction: str) -> None:
        """Move the tile on ``space``, shoving any line in the way (section 3.1)."""
        owner, tile, facing = self.board[space]
        dest = step(space, direction, steps)
        if dest is None:  # off the board: back to its owner's hand
            del self.board[space]
            self.hands.setdefault(owner, set()).add(tile)
            return
        if dest in self.board:
            self._move(dest, 1, direction)
        del self.board[space]
        self.board[dest] = (owner, tile, facing)
        self._touch(dest)

    def _clear_turn(self) -> None:
        self.pending = None
        self.mover = None
        self.touched_own, self.touched_other, self.activated = set(), set(), set()

    def _end_turn(self) -> None:
        mover = self.mover
        self._clear_turn()
        if mover in self.order:
            self.order.remove(mover)
            self.order.append(mover)
        owners = {owner for owner, _ in self.conclusions()}
        if len(owners) == 1:
            self.over, self.ended_by = True, "conclusion"
            self.winner = owners.pop()

    # -- listing options ---------------------------------------------------------------------
    def legal_placements(self) -> list[Placement]:
        """Every placement the player to move may make now (none while a choice is open)."""
        if self.over or self.pending is not None or len(self.order) < 2:
            return []
        p = self.order[0]
        out = []
        for space in sorted(CENTRE):
            if space in self.board or (space == "C5" and self.placements == 0 and not self.set_up):
                continue
            for tile in TILE_CODES:
                if tile in self.hands[p]:
                    for facing in TILES[tile].facings:
                        out.append(Placement(p, space, tile, facing))
        return out

