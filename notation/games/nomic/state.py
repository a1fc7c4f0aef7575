"""The exploration nomic's state: the players on the world, the spaces revealed, the rules
with their histories, and where the round and turn stand. Queries only; rules.py plays
events on it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from notation.core.game import state_repr

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
#: How the position notation writes a rule's status (position.py reads it back).
STATUS_CODES = {"in effect": "e", "proposed": "p", "adopted, pending": "a", "failed": "f",
                "repealed": "r"}
#: What a revealed space holds (rule 106).
RESOURCES = ("Wood", "Metal", "Water", "Food")
ORIGIN = (0, 0)
#: The world a record may explore: |x| and |y| at most this. The rules set no edge,
#: but a record must not make the replay (or its map) grow without bound.
MAX_COORD = 10_000
#: The largest total a roll may show once rule 109 no longer limits it to one die.
MAX_ROLL = 1_000


@dataclass(frozen=True)
class Rule:
    """A rule as it stands: a value, never changed in place (the rules replace it with
    :meth:`changed`), so that a state's copies share their rules safely."""

    number: int
    text: str
    origin: str              # initial, enacted or judgment
    adopted: bool = True
    in_effect: bool = True
    status: str = "in effect"
    history: tuple[str, ...] = ()
    amended: bool = False

    def changed(self, event: str, **fields: Any) -> Rule:
        """The rule with ``fields`` changed and ``event`` added to its history (what
        ``dataclasses.replace`` would make, built directly: 1.7 us where it took 2.2, and
        a replay changes a rule at most turns)."""
        if "history" in fields:  # (as replace refuses a second one)
            raise TypeError("changed() got multiple values for keyword argument 'history'")
        values: dict[str, Any] = {
            "number": self.number, "text": self.text, "origin": self.origin,
            "adopted": self.adopted, "in_effect": self.in_effect, "status": self.status,
            "history": (*self.history, event), "amended": self.amended}
        values.update(fields)
        return self.__class__(**values)

    def untouched(self) -> bool:
        """An Initial Set rule as the game began: the position notation leaves it out."""
        return self.origin == "initial" and self.status == "in effect" and not self.amended

    def code(self) -> str:
        """The rule in the position notation: ``109e*`` (in effect, amended), ``202rj``
        (a judgment, repealed)."""
        return (f"{self.number}{STATUS_CODES[self.status]}{'*' if self.amended else ''}"
                f"{'j' if self.origin == 'judgment' else ''}")

    def as_json(self) -> dict[str, Any]:
        return {"number": self.number, "text": self.text, "origin": self.origin,
                "adopted": self.adopted, "in_effect": self.in_effect, "status": self.status,
                "amended": self.amended, "history": list(self.history)}


def name_key(name: str) -> str:
    """Names are compared ignoring case (two players cannot share one)."""
    return name.casefold()


def round_defaults(order: list[str], last: str | None) -> tuple[list[str] | None, list[str]]:
    """The round's turn order and the turns taken in it that a position's label implies
    (``last``: whose turn the label names): the notation writes them only when they differ."""
    if last is None:
        return None, []
    return list(order), order[:order.index(last) + 1] if last in order else [last]


#: The Initial Set as rules: values, shared by every game's start (a rule is never
#: changed in place).
INITIAL_RULES = {n: Rule(n, text, "initial") for n, text in INITIAL_SET.items()}


@dataclass(repr=False)
class NomicState:
    players: dict[str, Coord] = field(default_factory=dict)
    revealed: dict[Coord, str] = field(default_factory=dict)
    rules: dict[int, Rule] = field(default_factory=lambda: dict(INITIAL_RULES))
    counter: int = 201
    pending: list[tuple[str, int, str | None]] = field(default_factory=list)
    round: int = 0
    members: list[str] | None = None       # turn order of the round (fixed at its first turn)
    taken: list[str] = field(default_factory=list)
    current: str | None = None
    phase: str = "before game"             # before game, movement, rule-change, between turns
    rolls: tuple[int, ...] | None = None
    moved: bool = False
    reveal_due: Coord | None = None
    proposal: Propose | None = None
    votes: dict[str, bool] = field(default_factory=dict)
    decided: bool = False
    invoked: Invoke | None = None
    ended: bool = False
    label: str = "before game"             # "round 1 turn Alice", for rule histories

    def copy(self) -> NomicState:
        """An independent copy; the rules are values (frozen), shared by both."""
        other = NomicState.__new__(NomicState)
        other.__dict__.update(self.__dict__)
        other.players = dict(self.players)
        other.revealed = dict(self.revealed)
        other.rules = dict(self.rules)
        other.pending = list(self.pending)
        other.members = None if self.members is None else list(self.members)
        other.taken = list(self.taken)
        other.votes = dict(self.votes)
        return other

    def position(self) -> str:
        """The position notation (documented and read back in position.py): the label,
        the players, the revealed spaces and the next rule number, then only the parts
        that differ from what those imply."""
        players = " ".join(f"{p}@{coord_text(self.players[p])}" for p in self.order())
        revealed = " ".join(f"{coord_text(c)}{r}" for c, r in sorted(self.revealed.items()))
        parts = [self.label, players, revealed or "-", f"next {self.counter}"]
        changed = [r.code() for _, r in sorted(self.rules.items()) if not r.untouched()]
        if changed:
            parts.append("rules " + " ".join(changed))
        if self.pending:
            parts.append("pending " + " ".join(f"{kind} {n}" for kind, n, _ in self.pending))
        members, taken = round_defaults(self.order(), self.taken[-1] if self.taken else None)
        if self.members is not None and self.members != members:
            parts.append("order " + " ".join(self.members))
        if self.taken != taken:
            parts.append("played " + " ".join(self.taken))
        parts += self.turn_parts()
        if self.ended:
            parts.append("ended")
        return "; ".join(parts)

    def turn_parts(self) -> list[str]:
        """How far the turn has come, for the position notation; nothing between turns,
        where what the last turn left matters no more (the next one starts afresh, and
        no turn ends with a reveal owed)."""
        if self.current is None:
            return []
        parts = []
        if self.rolls is not None:
            parts.append("roll " + " ".join(map(str, self.rolls)))
        if self.moved:
            parts.append("moved")
        if self.reveal_due is not None:
            parts.append(f"due {coord_text(self.reveal_due)}")
        if self.proposal is not None:
            parts.append(f"proposal {self.proposal.kind} {self.proposal.number}")
        if self.votes:
            parts.append("votes " + " ".join(f"{p} {'yes' if yes else 'no'}"
                                             for p, yes in self.votes.items()))
        if self.decided:
            parts.append("decided")
        if self.invoked is not None:
            parts.append(f"invoked {self.invoked.name}")
        return parts

    def __repr__(self) -> str:
        return state_repr("nomic", self.position)

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
        """Whose turn it is: the current player until the outcome (and any ruling owed)
        is in, then whoever takes the next turn; None once ended (or with nobody)."""
        if self.ended:
            return None
        if self.current is not None and not (self.decided and self.turn_complete()):
            return self.current
        order = self.order()
        return self.next_turn() or (order[0] if order else None)

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
