"""The exploration nomic's state: the players on the world, the spaces revealed, the rules
with their histories, and where the round and turn stand. Queries only; rules.py plays
events on it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .events import Coord, Invoke, Propose, coord_text

INITIAL_SET = {
    101: "The player agreement", 102: "Definition: Rounds", 103: "Definition: Turns",
    104: "Definition: World", 105: "Definition: Space", 106: "Definition: Resource",
    107: "Definition: Movement", 108: "Definition: Path", 109: "Phase: Movement",
    110: "Definition: Rule-Change", 111: "Definition: Adopted Rule", 112: "Phase: Rule-Change",
    113: "Rule vs. Rule Conflict", 114: "Rule vs. Player Conflict", 115: "Aliases",
}
#: Which checks each Initial Set rule provides (for the "checks off" report).
CHECKS = {101: "joining", 102: "rounds and turn order", 103: "phase order",
          106: "reveals", 108: "paths", 109: "roll and distance", 111: "timing of changes",
          112: "proposals, numbers and votes", 114: "judgments"}
#: What a revealed space holds (rule 106).
RESOURCES = ("Wood", "Metal", "Water", "Food")
ORIGIN = (0, 0)


@dataclass
class Rule:
    number: int
    text: str
    origin: str              # initial, enacted or judgment
    adopted: bool = True
    in_effect: bool = True
    status: str = "in effect"
    history: list[str] = field(default_factory=list)
    amended: bool = False

    def copy(self) -> Rule:
        return Rule(self.number, self.text, self.origin, self.adopted, self.in_effect,
                    self.status, list(self.history), self.amended)

    def as_json(self) -> dict[str, Any]:
        return {"number": self.number, "text": self.text, "origin": self.origin,
                "adopted": self.adopted, "in_effect": self.in_effect, "status": self.status,
                "amended": self.amended, "history": self.history}


def name_key(name: str) -> str:
    """Names are compared ignoring case (two players cannot share one)."""
    return name.casefold()


@dataclass(repr=False)
class NomicState:
    players: dict[str, Coord] = field(default_factory=dict)
    revealed: dict[Coord, str] = field(default_factory=dict)
    rules: dict[int, Rule] = field(default_factory=lambda: {
        n: Rule(n, text, "initial") for n, text in INITIAL_SET.items()})
    counter: int = 201
    pending: list[tuple[str, int, str | None]] = field(default_factory=list)
    round: int = 0
    members: list[str] | None = None       # turn order of the round (fixed at its first turn)
    taken: list[str] = field(default_factory=list)
    current: str | None = None
    phase: str = "before game"             # before game, movement, rule-change, between turns
    rolls: tuple[int, ...] | None = None
    moved: bool = False
    landed: Coord | None = None
    reveal_due: Coord | None = None
    proposal: Propose | None = None
    votes: dict[str, bool] = field(default_factory=dict)
    decided: bool = False
    invoked: Invoke | None = None
    ended: bool = False
    label: str = "before game"             # "round 1 turn Alice", for rule histories

    def copy(self) -> NomicState:
        other = NomicState.__new__(NomicState)
        other.__dict__.update(self.__dict__)
        other.players = dict(self.players)
        other.revealed = dict(self.revealed)
        other.rules = {n: r.copy() for n, r in self.rules.items()}
        other.pending = list(self.pending)
        other.members = None if self.members is None else list(self.members)
        other.taken = list(self.taken)
        other.votes = dict(self.votes)
        return other

    def position(self) -> str:
        """The compact position notation (position.py reads it): players and locations,
        revealed spaces, round and phase, on one line."""
        players = " ".join(f"{p}@{coord_text(self.players[p])}" for p in self.order())
        revealed = " ".join(f"{coord_text(c)}{r}" for c, r in sorted(self.revealed.items()))
        return f"{self.label}; {players}; {revealed or '-'}; next {self.counter}"

    def __repr__(self) -> str:
        try:
            return f"<nomic position {self.position()!r}>"
        except Exception:  # a half-built state: still something readable
            return "<nomic state (no position yet)>"

    # -- which checks are on -----------------------------------------------------------
    def on(self, rule: int) -> bool:
        """A check of Initial Set rule ``rule`` runs while it is in effect, unamended."""
        r = self.rules[rule]
        return r.in_effect and not r.amended

    def checks_off(self) -> list[int]:
        return [n for n in CHECKS if not self.on(n)]

    # -- whose turn --------------------------------------------------------------------
    def order(self) -> list[str]:
        """Players in turn order: alphabetical, ignoring case (ambiguity 1)."""
        return sorted(self.players, key=name_key)

    def judge(self) -> str | None:
        """The player preceding the current one, cyclically (ambiguity 2)."""
        if self.current is None:
            return None
        order = self.order()
        return order[order.index(self.current) - 1]

    def next_turn(self) -> str | None:
        members = self.members if self.members is not None else self.order()
        left = [p for p in members if p not in self.taken]
        return left[0] if left else None

    def to_move(self) -> str | None:
        if self.ended:
            return None
        return self.current or self.next_turn()

    def turn_complete(self) -> bool:
        if self.current is None:
            return True
        if self.invoked is not None and self.on(114):
            return False
        return self.decided or not self.on(112)

    def rules_in_effect(self) -> int:
        return sum(1 for r in self.rules.values() if r.in_effect)

    def as_json(self) -> dict[str, Any]:
        """The ``state`` object of ``replay --json``."""
        return {
            "players": [{"name": p, "at": list(self.players[p])} for p in self.order()],
            "revealed": [{"at": list(c), "resource": r} for c, r in sorted(self.revealed.items())],
            "rules": [r.as_json() for _, r in sorted(self.rules.items())],
            "next_rule_number": self.counter,
            "pending": [{"kind": k, "rule": n} for k, n, _ in self.pending],
            "checks_off": self.checks_off(),
            "round": self.round,
            "turn": self.current,
            "phase": self.phase if self.current or self.round == 0 else "between turns",
            "next": None if self.ended else self.next_turn(),
        }
