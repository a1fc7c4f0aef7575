"""The exploration nomic's rules engine (rules file, sections 1-3 and 7).

Each mechanical check belongs to one rule of the Initial Set and runs only
while that rule is in effect with its original text: once an amendment or
repeal of it takes effect, the check switches off (section 2). A few limits
are not rules but what a record must be for the replay to follow it at all
(two players with one name, two rules with one number, an event outside any
turn); those are labelled by what they protect.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, NoReturn


from notation.core.protocols import RecordView
from notation.core.errors import NotationError, RuleError, TagError
from notation.core.protocols import Result

from .events import (
    Coord, End, Event, Invoke, Join, Judgment, Move, Note, Outcome, Propose, Reveal, Roll, Round,
    Turn, Vote, coord_text, is_name,
)
from . import RULESET
from .legal import legal_moves as legal_moves
from .state import MAX_COORD, MAX_ROLL, ORIGIN, NomicState, Rule, name_key

STEP = {"N": (0, 1), "S": (0, -1), "E": (1, 0), "W": (-1, 0)}


def distance(a: Coord, b: Coord) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def start(record: RecordView, /) -> NomicState:
    """The state before the first event: the players of the ``Players`` tag at the origin."""
    return start_from(record.headers)


def start_from(tags: Mapping[str, str]) -> NomicState:
    """:func:`start` from the tags alone."""
    ruleset = tags.get("Ruleset", RULESET)
    if ruleset != RULESET:
        raise TagError("Ruleset", f'[Ruleset "{ruleset}"]: only "{RULESET}" is known')
    state = NomicState()
    for name in tags.get("Players", "").split():
        if not is_name(name):
            raise TagError("Players", f"{name!r} is not a player name ([A-Za-z][A-Za-z0-9_-]*)")
        if any(name_key(p) == name_key(name) for p in state.players):
            raise TagError("Players", f"{name} is named twice (names are compared ignoring case)")
        state.players[name] = ORIGIN
    return state


def fail(rule: int | str, message: str) -> NoReturn:
    """Raise the rule error; a rule number ("106", "112.2") also prefixes the message."""
    label = str(rule)
    numbered = label[:1].isdigit()
    raise RuleError(f"rule {label}: {message}" if numbered else message, label)


def apply(state: NomicState, event: Event) -> None:
    """Check ``event`` against the rules in effect and play it, or raise ``RuleError``."""
    if state.ended:
        raise RuleError("the record has ended ('end'); nothing may follow", "end")
    if (state.reveal_due is not None and state.on(106)
            and not isinstance(event, (Reveal, Note, Invoke, Judgment))):
        # 106.4 holds whatever comes next; notes and judgments may stand anywhere in a
        # turn (rules file, section 7.3), so they may stand between move and reveal.
        fail(106, f"{coord_text(state.reveal_due)} was landed on and is unknown: its "
                  f"reveal comes right after the move, before '{event}'")
    match event:
        case Vote():
            _vote(state, event)
        case Turn():
            _turn(state, event)
        case Roll():
            _roll(state, event)
        case Move():
            _move(state, event)
        case Reveal():
            _reveal(state, event)
        case Propose():
            _propose(state, event)
        case Outcome():
            _outcome(state, event)
        case Round():
            _round(state, event)
        case Join():
            _join(state, event)
        case Invoke():
            _invoke(state, event)
        case Judgment():
            _judgment(state, event)
        case Note():
            pass
        case End():
            _end(state)


def _close_turn(state: NomicState, what: str) -> None:
    """A round, turn or end line: the current turn must be complete."""
    if state.current is None or state.turn_complete():
        return
    if state.invoked is not None and state.on(114):
        fail(114, f"the judgment invoked by {state.invoked.name} has no ruling yet")
    missing = ("a proposal" if state.proposal is None else
               "votes from " + ", ".join(p for p in state.order() if p not in state.votes)
               if len(state.votes) < len(state.players) else "the outcome (adopted or failed)")
    fail(112, f"{state.current}'s turn is not complete before '{what}': {missing} missing")


def _round(state: NomicState, event: Round) -> None:
    _close_turn(state, str(event))
    if state.on(102):
        if event.number != state.round + 1:
            fail(102, f"round {state.round + 1} comes next, not round {event.number}")
        if state.round >= 1 and state.next_turn() is not None:
            fail(102, f"round {state.round} is not complete: {state.next_turn()} has not had "
                      f"a turn")
    state.round = event.number
    state.members, state.taken = None, []
    state.current, state.phase = None, "between turns"
    state.label = f"round {state.round}"


def _join(state: NomicState, event: Join) -> None:
    name = event.name
    if any(name_key(p) == name_key(name) for p in state.players):
        fail("names", f"{name} is already a player: two players cannot share a name "
                      f"(names are compared ignoring case)")
    if state.on(101) and state.round >= 1 and (state.taken or state.current is not None):
        fail("101.2", "players may join only before the game begins or at the start of a round")
    state.players[name] = ORIGIN


def _turn(state: NomicState, event: Turn) -> None:
    _close_turn(state, str(event))
    name = event.name
    if name not in state.players:
        fail("players", f"{name} is not a player")
    if state.round == 0 and state.on(102):
        fail(102, "turns begin with 'round 1'")
    if state.members is None:
        state.members = state.order()
    if state.on(102):
        expected = state.next_turn()
        if expected is None:
            fail(102, f"every player has had a turn in round {state.round}; "
                      f"'round {state.round + 1}' comes next")
        if name != expected:
            fail("102.2", f"next turn belongs to {expected} (alphabetical order)")
    state.taken.append(name)
    state.current, state.phase = name, "movement"
    state.label = f"round {state.round} turn {name}"
    state.rolls, state.moved, state.reveal_due = None, False, None
    state.proposal, state.votes, state.decided, state.invoked = None, {}, False, None
    for kind, number, text in state.pending:  # rule 111: in effect as this turn begins
        rule = state.rules.get(number)
        if rule is None:  # a change of a rule that never existed (112 was off): nothing
            continue
        effective = f"{kind} effective {state.label}"
        if kind == "enact":
            rule = rule.changed(effective, in_effect=True, status="in effect")
        elif kind == "repeal":
            rule = rule.changed(effective, in_effect=False, status="repealed")
        else:
            rule = rule.changed(effective, text=text or "", amended=True)
        state.rules[number] = rule
    state.pending = []


def _in_turn(state: NomicState, what: str) -> str:
    if state.current is None:
        fail("turns", f"'{what}' outside a turn: every action belongs to a turn")
    return state.current


def _roll(state: NomicState, event: Roll) -> None:
    _in_turn(state, str(event))
    if state.on(103) and (state.rolls is not None or state.moved):
        fail(103, "one roll per turn, before the move")
    if state.on(109):
        if len(event.values) != 1 or not 1 <= event.values[0] <= 6:
            fail(109, "exactly one die value 1..6 expected")
    elif any(v < 1 for v in event.values):
        fail("roll", "die values are positive")
    if sum(event.values) > MAX_ROLL:
        fail("limits", f"a roll totals {sum(event.values)}; this toolkit replays rolls of at "
                       f"most {MAX_ROLL}")
    state.rolls = event.values


def _move(state: NomicState, event: Move) -> None:
    who = _in_turn(state, str(event))
    if state.moved and state.on(103):
        fail(103, "one move per turn")
    if state.rolls is None and state.on(109):
        fail(109, "roll before moving: the destination is the roll away")
    start = state.players[who]
    dest = event.to
    if event.steps:
        if state.on(108):
            letters = set(event.steps)
            for a, b in (("N", "S"), ("E", "W")):
                if a in letters and b in letters:
                    first, then = (a, b) if event.steps.index(a) < event.steps.index(b) else (b, a)
                    fail(108, f"path goes back on itself ({first} then {then}); a path has as "
                              f"many steps as the distance it covers")
        x, y = start
        for letter in event.steps:
            dx, dy = STEP[letter]
            x, y = x + dx, y + dy
        if dest is None:
            dest = (x, y)
        elif (x, y) != dest and state.on(108):
            fail(108, f"the path {event.steps} from {coord_text(start)} ends at "
                      f"{coord_text((x, y))}, not {coord_text(dest)}")
    if dest is None:
        raise NotationError("a move needs steps or a destination")
    if max(abs(dest[0]), abs(dest[1])) > MAX_COORD:
        fail("limits", f"destination {coord_text(dest)} is beyond the {MAX_COORD:,} spaces from "
                       f"the origin this toolkit replays")
    if state.on(109) and state.rolls is not None and distance(start, dest) != state.rolls[0]:
        fail(109, f"destination {coord_text(dest)} is {distance(start, dest)} away from "
                  f"{coord_text(start)}, roll was {state.rolls[0]}")
    state.players[who] = dest
    state.moved = True
    if dest != ORIGIN and dest not in state.revealed and state.on(106):
        state.reveal_due = dest


def _reveal(state: NomicState, event: Reveal) -> None:
    _in_turn(state, str(event))
    at = event.at
    if state.on(106):
        if at == ORIGIN:
            fail(106, "the origin provides no resource")
        if at in state.revealed:
            fail(106, f"{coord_text(at)} is already known ({state.revealed[at]}); nothing to "
                      f"reveal")
        if state.reveal_due is None:
            fail(106, f"nothing to reveal: {coord_text(at)} was not landed on")
        if at != state.reveal_due:
            fail(106, f"the space landed on is {coord_text(state.reveal_due)}, not "
                      f"{coord_text(at)}")
    state.revealed[at] = event.resource
    if at == state.reveal_due:
        state.reveal_due = None


def _propose(state: NomicState, event: Propose) -> None:
    _in_turn(state, str(event))
    if state.on(103) and (not state.moved or (state.rolls is None and state.on(109))):
        fail(103, "the movement phase (roll, move) comes before the proposal")
    checked = state.on(112)
    if state.proposal is not None and checked:
        fail("112.1", "one proposal per turn")
    n = event.number
    if event.kind == "enact":
        if checked and n != state.counter:
            fail("112.2", f"next rule number is {state.counter}, not {n}")
        if n in state.rules:
            fail("rule numbers", f"rule {n} already exists: two rules cannot share a number")
        if checked and not (event.text or "").strip():
            fail(112, "a new rule needs a text")
        state.rules[n] = Rule(n, event.text or "", "enacted", adopted=False, in_effect=False,
                              status="proposed", history=(f"proposed {state.label}",))
        state.counter = max(state.counter, n + 1)
    elif checked:
        target = state.rules.get(n)
        if target is None or not target.in_effect:
            fail(112, f"rule {n} is not in effect; only rules in effect can be repealed or "
                      f"amended")
        if event.kind == "amend" and not (event.text or "").strip():
            fail(112, "an amendment needs the full new text")
    state.proposal = event
    state.phase = "rule-change"


def _vote(state: NomicState, event: Vote) -> None:
    _in_turn(state, str(event))
    if state.on(112):
        if state.proposal is None:
            fail(112, "a vote needs a proposal")
        if state.decided:
            fail(112, "the outcome is already given")
        if event.name not in state.players:
            fail("112.4", f"{event.name} is not a player")
        if event.name in state.votes:
            fail("112.4", f"{event.name} has already voted")
    state.votes[event.name] = event.yes


def _outcome(state: NomicState, event: Outcome) -> None:
    _in_turn(state, str(event))
    unanimous = all(state.votes.values())
    if state.on(112):
        if state.proposal is None:
            fail(112, "an outcome needs a proposal")
        if state.decided:
            fail(112, "the outcome is already given")
        missing = [p for p in state.order() if p not in state.votes]
        if missing:
            fail("112.4", f"no vote from {', '.join(missing)}")
        if event.adopted and not unanimous:
            fail("112.3", "not unanimous, the proposal fails")
        if not event.adopted and unanimous:
            fail("112.3", "the vote is unanimous, the proposal is adopted")
    state.decided = True
    p = state.proposal
    if p is None:  # 112 is off and nothing was proposed: an outcome of nothing
        return
    target = state.rules.get(p.number)
    if event.adopted:
        state.pending.append((p.kind, p.number, p.text))  # in effect at the next turn (111)
        if target is not None:
            adopted = f"{p.kind} adopted {state.label}"
            state.rules[p.number] = (
                target.changed(adopted, adopted=True, status="adopted, pending")
                if p.kind == "enact" else target.changed(adopted))
    elif p.kind == "enact" and target is not None:
        state.rules[p.number] = replace(target, status="failed")


def _invoke(state: NomicState, event: Invoke) -> None:
    _in_turn(state, str(event))
    if state.on(114):
        if event.name not in state.players:
            fail(114, f"{event.name} is not a player")
        if state.invoked is not None:
            fail(114, "a judgment is already invoked and not yet ruled")
    state.invoked = event


def _judgment(state: NomicState, event: Judgment) -> None:
    _in_turn(state, str(event))
    if state.on(114):
        if state.invoked is None:
            fail(114, "a judgment answers an invocation; none is pending")
        judge = state.judge()
        if event.judge != judge:
            fail(114, f"the judge for {state.current}'s turn is {judge} (the player before "
                      f"{state.current} in turn order), not {event.judge}")
        if event.number != state.counter:  # section 2: a ruling carries the next free number
            fail(114, f"next rule number is {state.counter}, not {event.number}")
    if event.number in state.rules:
        fail("rule numbers", f"rule {event.number} already exists: two rules cannot share a "
                             f"number")
    question = state.invoked.question if state.invoked else ""
    state.rules[event.number] = Rule(
        event.number, event.ruling, "judgment", history=(
            f"judgment by {event.judge} {state.label} on {question!r}",))
    state.counter = max(state.counter, event.number + 1)
    state.invoked = None


def _end(state: NomicState) -> None:
    _close_turn(state, "end")
    state.ended = True
    if state.current is not None:
        state.current, state.phase = None, "between turns"


# -- results ------------------------------------------------------------------------------------

def result(state: NomicState, /) -> Result:
    """The Initial Set has no end condition, so no game has a result or a winner."""
    return Result(state.ended, [], {"Result": "*"},
                  {"over": state.ended, "winners": [], "complete_turn": state.turn_complete()})


def is_over(state: NomicState, /) -> bool:
    return state.ended


def copy(state: NomicState, /) -> NomicState:
    return state.copy()


def to_move(state: NomicState, /) -> str | None:
    return state.to_move()


# -- scores -------------------------------------------------------------------------------------

def seats(state: NomicState, /) -> list[str]:
    """The players on the world, in the order they joined."""
    return list(state.players)


def player_count(state: NomicState, /) -> int:
    return len(state.players)


def facts(state: NomicState, /) -> dict[str, Any]:
    return {"rules in effect": state.rules_in_effect()}
