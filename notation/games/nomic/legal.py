"""What may come next in an exploration nomic game: ``legal_moves``, in the order a turn
takes its events.

The options are the game's mechanics, each a legal event:

* between turns: the next player's ``turn`` (or the next ``round`` when every player
  has had one), then ``end``; once rule 102 has changed, the next round at any time;
* in a turn: the six rolls of one die (``roll 1`` to ``roll 6``), after the roll a
  ``move to`` every space that far away, after landing on an unknown space its four
  possible reveals, then the proposals (a new rule, and the repeal and the amendment
  of each rule in effect), then each missing player's vote yes and no,
  then the outcome the votes imply; and while a judgment is invoked, its ruling.

Free text cannot be listed, so a proposal or ruling is offered once with the
placeholder :data:`TEXT` (``propose enact 204 "<text>"``, ``propose amend 109
"<text>"``, ``judgment 205 Dana "<text>"``): push it as it is, or with your own text
(``move._replace(text="...")``). For the same reason ``join``, ``invoke`` and
``note`` are never listed, though they are legal where the rules allow them. Once a
rule's checks are off, more becomes legal than is listed (any dice once 109
changed, any player's turn once 102 changed): the list keeps to the moves a turn
takes under the Initial Set.
"""
from __future__ import annotations

from typing import Any, Mapping

from notation.core.errors import NotationError
from notation.core.limits import MAX_DIGITS

from .events import (
    End, Event, Judgment, Move, Outcome, Propose, Reveal, Roll, Round, Turn, Vote,
)
from .state import MAX_COORD, RESOURCES, NomicState

#: The text a listed proposal or ruling carries: free text cannot be listed.
TEXT = "<text>"
#: A rule number the notation can still write (a number has at most MAX_DIGITS digits).
NUMBERS = 10 ** MAX_DIGITS


def legal_moves(state: NomicState, /, **options: Any) -> list[Event]:
    """Every listed option at this point, in the order the turn takes them (the game
    takes no options: any given is refused, by name)."""
    no_options("legal moves take no options", options)
    if state.ended:
        return []
    who = state.current
    inside = [] if who is None else _in_turn(state, who)
    owed = state.reveal_due is not None and state.on(106)
    if who is not None and (owed or not state.turn_complete()):
        return inside
    return inside + _between_turns(state)


def _between_turns(state: NomicState) -> list[Event]:
    """The next turn or round, then the end."""
    after = state.next_turn()
    if not state.on(102):
        options: list[Event] = [Turn(after)] if after is not None else []
        return [*options, Round(state.round + 1), End()]
    if state.round == 0 or after is None:
        return [Round(state.round + 1), End()]
    return [Turn(after), End()]


def _in_turn(state: NomicState, who: str) -> list[Event]:
    """The current player's turn, from where it stands; the ruling owed stays open."""
    ruling: list[Event] = []
    if state.invoked is not None and state.on(114) and state.counter < NUMBERS:
        ruling.append(Judgment(state.counter, state.judge() or who, TEXT))
    if state.reveal_due is not None and state.on(106):
        return [*[Reveal(state.reveal_due, r) for r in RESOURCES], *ruling]
    if state.rolls is None and not state.moved:
        return [*[Roll((die,)) for die in range(1, 7)], *ruling]
    if not state.moved:
        return [*_destinations(state, who), *ruling]
    if state.proposal is None:
        return [*_proposals(state), *ruling]
    if state.decided:
        return ruling
    missing = [p for p in state.order() if p not in state.votes]
    if missing:
        return [*[Vote(p, yes) for p in missing for yes in (True, False)], *ruling]
    return [Outcome(all(state.votes.values())), *ruling]


def _destinations(state: NomicState, who: str) -> list[Event]:
    """``move to`` every space the roll away (rule 109 compares the one die; once it
    changed, the dice's total), within the world the toolkit replays."""
    rolls = state.rolls or (0,)
    (x, y), far = state.players[who], rolls[0] if state.on(109) else sum(rolls)
    ends = {(x + dx, y + sign * (far - abs(dx))) for dx in range(-far, far + 1) for sign in (1, -1)}
    return [Move(None, c) for c in sorted(ends)
            if abs(c[0]) <= MAX_COORD and abs(c[1]) <= MAX_COORD]


def _proposals(state: NomicState) -> list[Event]:
    """A new rule, then the repeal and the amendment of each rule in effect."""
    standing = [n for n, rule in sorted(state.rules.items()) if rule.in_effect]
    enact: list[Event] = ([Propose("enact", state.counter, TEXT)] if state.counter < NUMBERS
                          else [])
    return [*enact, *[Propose("repeal", n) for n in standing],
            *[Propose("amend", n, TEXT) for n in standing]]


def no_options(refusal: str, options: Mapping[str, Any]) -> None:
    """The game has no options of its own: any given is refused, by name."""
    if options:
        raise NotationError(f"nomic {refusal} ({', '.join(options)})")
