"""The exploration nomic's replay engine (rules file, sections 1-3 and 7).

Each mechanical check belongs to one rule of the Initial Set and runs only
while that rule is in effect with its original text: once an amendment or
repeal of it takes effect, the check switches off (section 2).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from notation.core.game import state_repr, state_svg
from notation.core.errors import RuleError

from .events import (
    Coord, End, Event, Invoke, Join, Judgment, Move, Note, Outcome, Propose, Reveal, Roll, Round,
    Turn, Vote, coord_text,
)

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
STEP = {"N": (0, 1), "S": (0, -1), "E": (1, 0), "W": (-1, 0)}
RESOURCES = ("Wood", "Metal", "Water", "Food")
ORIGIN = (0, 0)
#: The world a record may explore: |x| and |y| at most this. The rules set no edge,
#: but a record must not make the replay (or its map) grow without bound.
MAX_COORD = 10_000
#: The largest total a roll may show once rule 109 no longer limits it to one die.
MAX_ROLL = 1_000


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


def _key(name: str) -> str:
    return name.casefold()


def distance(a: Coord, b: Coord) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


@dataclass
class NomicState:

    __repr__ = state_repr("nomic")
    _repr_svg_ = state_svg("nomic")
    players: dict[str, Coord | None] = field(default_factory=dict)
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

    def copy(self) -> "NomicState":
        other = NomicState.__new__(NomicState)
        other.__dict__.update(self.__dict__)
        other.players = dict(self.players)
        other.revealed = dict(self.revealed)
        other.rules = {n: Rule(r.number, r.text, r.origin, r.adopted, r.in_effect, r.status,
                               list(r.history), r.amended) for n, r in self.rules.items()}
        other.pending = list(self.pending)
        other.members = None if self.members is None else list(self.members)
        other.taken = list(self.taken)
        other.votes = dict(self.votes)
        return other

    # -- which checks are on -----------------------------------------------------------
    def on(self, rule: int) -> bool:
        """A check of Initial Set rule ``rule`` runs while it is in effect, unamended."""
        r = self.rules[rule]
        return r.in_effect and not r.amended

    def checks_off(self) -> list[int]:
        return [n for n in CHECKS if not self.on(n)]

    def order(self) -> list[str]:
        """Players in turn order: alphabetical, ignoring case (ambiguity 1)."""
        return sorted(self.players, key=_key)

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

    def turn_complete(self) -> bool:
        if self.current is None:
            return True
        if self.invoked is not None and self.on(114):
            return False
        return self.decided or not self.on(112)

    # -- applying events ---------------------------------------------------------------
    # Each check names the Initial Set rule that provides it (section 2) and runs only
    # while that rule is on. A few limits are not rules but what a record must be for
    # the replay to follow it at all (two players with one name, two rules with one
    # number, an event outside any turn); those are labelled by what they protect.
    def apply(self, event: Event) -> None:
        if self.ended:
            raise RuleError("the record has ended ('end'); nothing may follow", "end")
        if (self.reveal_due is not None and self.on(106)
                and not isinstance(event, (Reveal, Note, Invoke, Judgment))):
            # 106.4 holds whatever comes next; notes and judgments may stand anywhere in a
            # turn (rules file, section 7.3), so they may stand between move and reveal.
            self._fail(106, f"{coord_text(self.reveal_due)} was landed on and is unknown: its "
                            f"reveal comes right after the move, before '{event}'")
        handler = getattr(self, f"_{type(event).__name__.lower()}")
        handler(event)

    def _fail(self, rule: int | str, message: str) -> None:
        """Raise the rule error; a rule number ("106", "112.2") also prefixes the message."""
        label = str(rule)
        numbered = label[:1].isdigit()
        raise RuleError(f"rule {label}: {message}" if numbered else message, label)

    def _close_turn(self, what: str) -> None:
        """A round, turn or end line: the current turn must be complete."""
        if self.current is None or self.turn_complete():
            return
        if self.invoked is not None and self.on(114):
            self._fail(114, f"the judgment invoked by {self.invoked.name} has no ruling yet")
        missing = ("a proposal" if self.proposal is None else
                   "votes from " + ", ".join(p for p in self.order() if p not in self.votes)
                   if len(self.votes) < len(self.players) else "the outcome (adopted or failed)")
        self._fail(112, f"{self.current}'s turn is not complete before '{what}': {missing} missing")

    def _round(self, event: Round) -> None:
        self._close_turn(str(event))
        if self.on(102):
            if event.number != self.round + 1:
                self._fail(102, f"round {self.round + 1} comes next, not round {event.number}")
            if self.round >= 1 and self.next_turn() is not None:
                self._fail(102, f"round {self.round} is not complete: {self.next_turn()} has not "
                                f"had a turn")
        self.round = event.number
        self.members, self.taken = None, []
        self.current, self.phase = None, "between turns"
        self.label = f"round {self.round}"

    def _join(self, event: Join) -> None:
        name = event.name
        if any(_key(p) == _key(name) for p in self.players):
            self._fail("names", f"{name} is already a player: two players cannot share a name "
                                f"(names are compared ignoring case)")
        if self.on(101) and self.round >= 1 and (self.taken or self.current is not None):
            self._fail("101.2", "players may join only before the game begins or at the start "
                                "of a round")
        self.players[name] = ORIGIN

    def _turn(self, event: Turn) -> None:
        self._close_turn(str(event))
        name = event.name
        if name not in self.players:
            self._fail("players", f"{name} is not a player")
        if self.round == 0 and self.on(102):
            self._fail(102, "turns begin with 'round 1'")
        if self.members is None:
            self.members = self.order()
        if self.on(102):
            expected = self.next_turn()
            if expected is None:
                self._fail(102, f"every player has had a turn in round {self.round}; "
                                f"'round {self.round + 1}' comes next")
            if name != expected:
                self._fail("102.2", f"next turn belongs to {expected} (alphabetical order)")
        self.taken.append(name)
        self.current, self.phase = name, "movement"
        self.label = f"round {self.round} turn {name}"
        self.rolls, self.moved, self.landed, self.reveal_due = None, False, None, None
        self.proposal, self.votes, self.decided, self.invoked = None, {}, False, None
        for kind, number, text in self.pending:  # rule 111: in effect as this turn begins
            rule = self.rules.get(number)
            if rule is None:  # a change of a rule that never existed (112 was off): nothing
                continue
            if kind == "enact":
                rule.in_effect, rule.status = True, "in effect"
            elif kind == "repeal":
                rule.in_effect, rule.status = False, "repealed"
            else:
                rule.text, rule.amended = text, True
            rule.history.append(f"{kind} effective {self.label}")
        self.pending = []

    def _in_turn(self, what: str) -> str:
        if self.current is None:
            self._fail("turns", f"'{what}' outside a turn: every action belongs to a turn")
        return self.current

    def _roll(self, event: Roll) -> None:
        self._in_turn(str(event))
        if self.on(103) and (self.rolls is not None or self.moved):
            self._fail(103, "one roll per turn, before the move")
        if self.on(109):
            if len(event.values) != 1 or not 1 <= event.values[0] <= 6:
                self._fail(109, "exactly one die value 1..6 expected")
        elif any(v < 1 for v in event.values):
            self._fail("roll", "die values are positive")
        if sum(event.values) > MAX_ROLL:
            self._fail("limits", f"a roll totals {sum(event.values)}; this toolkit replays rolls "
                                 f"of at most {MAX_ROLL}")
        self.rolls = event.values

    def _move(self, event: Move) -> None:
        who = self._in_turn(str(event))
        if self.moved and self.on(103):
            self._fail(103, "one move per turn")
        if self.rolls is None and self.on(109):
            self._fail(109, "roll before moving: the destination is the roll away")
        start = self.players[who]
        dest = event.to
        if event.steps:
            if self.on(108):
                letters = set(event.steps)
                for a, b in (("N", "S"), ("E", "W")):
                    if a in letters and b in letters:
                        first, then = (a, b) if event.steps.index(a) < event.steps.index(b) else (b, a)
                        self._fail(108, f"path goes back on itself ({first} then {then}); a path "
                                        f"has as many steps as the distance it covers")
            x, y = start
            for letter in event.steps:
                dx, dy = STEP[letter]
                x, y = x + dx, y + dy
            if dest is None:
                dest = (x, y)
            elif (x, y) != dest and self.on(108):
                self._fail(108, f"the path {event.steps} from {coord_text(start)} ends at "
                                f"{coord_text((x, y))}, not {coord_text(dest)}")
        if max(abs(dest[0]), abs(dest[1])) > MAX_COORD:
            self._fail("limits", f"destination {coord_text(dest)} is beyond the {MAX_COORD:,} "
                                 f"spaces from the origin this toolkit replays")
        if self.on(109) and distance(start, dest) != self.rolls[0]:
            self._fail(109, f"destination {coord_text(dest)} is {distance(start, dest)} away "
                            f"from {coord_text(start)}, roll was {self.rolls[0]}")
        self.players[who] = dest
        self.moved, self.landed = True, dest
        if dest != ORIGIN and dest not in self.revealed and self.on(106):
            self.reveal_due = dest

    def _reveal(self, event: Reveal) -> None:
        self._in_turn(str(event))
        at = event.at
        if self.on(106):
            if at == ORIGIN:
                self._fail(106, "the origin provides no resource")
            if at in self.revealed:
                self._fail(106, f"{coord_text(at)} is already known ({self.revealed[at]}); "
                                f"nothing to reveal")
            if self.reveal_due is None:
                self._fail(106, f"nothing to reveal: {coord_text(at)} was not landed on")
            if at != self.reveal_due:
                self._fail(106, f"the space landed on is {coord_text(self.reveal_due)}, not "
                                f"{coord_text(at)}")
        self.revealed[at] = event.resource
        if at == self.reveal_due:
            self.reveal_due = None

    def _propose(self, event: Propose) -> None:
        self._in_turn(str(event))
        if self.on(103) and (not self.moved or (self.rolls is None and self.on(109))):
            self._fail(103, "the movement phase (roll, move) comes before the proposal")
        checked = self.on(112)
        if self.proposal is not None and checked:
            self._fail("112.1", "one proposal per turn")
        n = event.number
        if event.kind == "enact":
            if checked and n != self.counter:
                self._fail("112.2", f"next rule number is {self.counter}, not {n}")
            if n in self.rules:
                self._fail("rule numbers", f"rule {n} already exists: two rules cannot share a "
                                           f"number")
            if checked and not (event.text or "").strip():
                self._fail(112, "a new rule needs a text")
            self.rules[n] = Rule(n, event.text, "enacted", adopted=False, in_effect=False,
                                 status="proposed", history=[f"proposed {self.label}"])
            self.counter = max(self.counter, n + 1)
        elif checked:
            target = self.rules.get(n)
            if target is None or not target.in_effect:
                self._fail(112, f"rule {n} is not in effect; only rules in effect can be "
                                f"repealed or amended")
            if event.kind == "amend" and not (event.text or "").strip():
                self._fail(112, "an amendment needs the full new text")
        self.proposal = event
        self.phase = "rule-change"

    def _vote(self, event: Vote) -> None:
        self._in_turn(str(event))
        if self.on(112):
            if self.proposal is None:
                self._fail(112, "a vote needs a proposal")
            if self.decided:
                self._fail(112, "the outcome is already given")
            if event.name not in self.players:
                self._fail("112.4", f"{event.name} is not a player")
            if event.name in self.votes:
                self._fail("112.4", f"{event.name} has already voted")
        self.votes[event.name] = event.yes

    def _outcome(self, event: Outcome) -> None:
        self._in_turn(str(event))
        unanimous = all(self.votes.values())
        if self.on(112):
            if self.proposal is None:
                self._fail(112, "an outcome needs a proposal")
            if self.decided:
                self._fail(112, "the outcome is already given")
            missing = [p for p in self.order() if p not in self.votes]
            if missing:
                self._fail("112.4", f"no vote from {', '.join(missing)}")
            if event.adopted and not unanimous:
                self._fail("112.3", "not unanimous, the proposal fails")
            if not event.adopted and unanimous:
                self._fail("112.3", "the vote is unanimous, the proposal is adopted")
        self.decided = True
        p = self.proposal
        if p is None:  # 112 is off and nothing was proposed: an outcome of nothing
            return
        target = self.rules.get(p.number)
        if event.adopted:
            if p.kind == "enact" and target is not None:
                target.adopted, target.status = True, "adopted, pending"
            self.pending.append((p.kind, p.number, p.text))  # in effect at the next turn (111)
            if target is not None:
                target.history.append(f"{p.kind} adopted {self.label}")
        elif p.kind == "enact" and target is not None:
            target.status = "failed"

    def _invoke(self, event: Invoke) -> None:
        self._in_turn(str(event))
        if self.on(114):
            if event.name not in self.players:
                self._fail(114, f"{event.name} is not a player")
            if self.invoked is not None:
                self._fail(114, "a judgment is already invoked and not yet ruled")
        self.invoked = event

    def _judgment(self, event: Judgment) -> None:
        self._in_turn(str(event))
        if self.on(114):
            if self.invoked is None:
                self._fail(114, "a judgment answers an invocation; none is pending")
            judge = self.judge()
            if event.judge != judge:
                self._fail(114, f"the judge for {self.current}'s turn is {judge} (the player "
                                f"before {self.current} in turn order), not {event.judge}")
            if event.number != self.counter:  # section 2: a ruling carries the next free number
                self._fail(114, f"next rule number is {self.counter}, not {event.number}")
        if event.number in self.rules:
            self._fail("rule numbers", f"rule {event.number} already exists: two rules cannot "
                                       f"share a number")
        question = self.invoked.question if self.invoked else ""
        self.rules[event.number] = Rule(
            event.number, event.ruling, "judgment", history=[
                f"judgment by {event.judge} {self.label} on {question!r}"])
        self.counter = max(self.counter, event.number + 1)
        self.invoked = None

    def _note(self, event: Note) -> None:
        pass

    def _end(self, event: End) -> None:
        self._close_turn("end")
        self.ended = True
        if self.current is not None:
            self.current, self.phase = None, "between turns"
