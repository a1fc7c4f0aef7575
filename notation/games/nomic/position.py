"""The exploration nomic's position notation, read back into a state.

A position is parts joined by ``"; "``. The first four are always written::

    round 2 turn Bob; Alice@(2,0) Bob@(-1,3); (-1,3)Food (2,1)Wood; next 203

the label (``before game``; ``round N`` between a round's start and its first
turn; ``round N turn NAME`` once that turn has begun), the players in turn order
with the space each stands on, the revealed spaces in (x, y) order with what
they hold (``-``: none), and the next free rule number. Then come, in this
order and each only when it says something the first four do not imply:

* ``rules 109e* 201r 202fj``: each rule that is not an untouched Initial Set
  rule: its number, its status (``e`` in effect, ``p`` proposed, ``a`` adopted
  and pending, ``f`` failed, ``r`` repealed), ``*`` when amended, ``j`` when a
  judgment made it;
* ``pending enact 203 repeal 201``: adopted changes waiting for the next turn;
* ``order A B C``: the round's turn order, when it is not the players'
  alphabetical order (someone joined during the round once rule 101 changed);
* ``played A B``: the turns taken in the round, when they are not the order
  up to the label's player (once rule 102 changed);
* the turn begun, as far as it has come: ``roll 4 5``, ``moved``, ``due (X,Y)``
  (a reveal owed), ``proposal amend 109``, ``votes Alice yes Bob no``,
  ``decided`` (the outcome was given), ``invoked Bob`` (a judgment asked for
  and not yet given);
* ``ended``: the record's ``end`` came.

Free texts (rules, proposals, questions, rulings) and rule histories are not
part of a position: the rules never read them, so they never decide what is
legal. A state read back has the Initial Set's titles for untouched rules and
empty texts elsewhere. The four first parts alone are the notation as it was
before the others were added, and still read.
"""
from __future__ import annotations

import re
from typing import Callable

from notation.core.errors import NotationError

from .events import Coord, Invoke, Propose, coord_text, is_name
from .state import (
    MAX_COORD, MAX_ROLL,
    INITIAL_SET, ORIGIN, RESOURCES, STATUS_CODES, NomicState, Rule, name_key, round_defaults,
)

FORM = "a nomic position is 'LABEL; PLAYERS; REVEALED; next N' and then optional parts"
#: The position's own numbers: a coordinate written without blanks, at most 9 digits each.
_AT = r"\((-?[0-9]{1,9}),(-?[0-9]{1,9})\)"
_PLAYER = re.compile(rf"([^@]*)@{_AT}")
_SPACE = re.compile(rf"{_AT}(.*)")
_COORD = re.compile(_AT)
#: The round number of a label (a counter: it tells no two positions apart in play).
_ROUND = re.compile(r"^round \d+")


def timeless(text: str) -> str:
    """A position without its round number."""
    return _ROUND.sub("round", text, count=1)


timeless_position = timeless
_NEXT = re.compile(r"next ([0-9]{1,10})")
_LABEL = re.compile(r"before game|round (-?[0-9]{1,9})(?: turn (\S+))?")
_RULE = re.compile(r"(-?[0-9]{1,9})([a-z])(\*?)(j?)")
_NUMBER = re.compile(r"-?[0-9]{1,9}")
_DIE = re.compile(r"[0-9]{1,9}")
STATUSES = {code: status for status, code in STATUS_CODES.items()}
KINDS = ("enact", "repeal", "amend")
#: The parts that tell how far a turn has come: only a turn begun has them.
TURN_PARTS = ("roll", "moved", "due", "proposal", "votes", "decided", "invoked")


def _coord(m: re.Match[str], first: int) -> Coord:
    return int(m[first]), int(m[first + 1])


def read(text: str) -> NomicState:
    """The state a position describes; :class:`NotationError` if it is none."""
    parts = [p.strip() for p in text.split(";")]
    if len(parts) < 4:
        raise NotationError(FORM)
    label, players, revealed, after, *more = parts
    state = NomicState()
    _read_players(state, players)
    _read_revealed(state, revealed)
    m = _NEXT.fullmatch(after)
    if m is None:
        raise NotationError(f"{after!r} is not 'next N'")
    state.counter = int(m[1])
    last = _read_label(state, label)
    state.members, state.taken = round_defaults(state.order(), last)
    seen: set[str] = set()
    for part in more:
        word, _, rest = part.partition(" ")
        reader = PARTS.get(word)
        if reader is None:
            raise NotationError(f"{part!r} is not a part of a nomic position "
                                f"({', '.join(PARTS)})")
        if word in seen:
            raise NotationError(f"the part {word!r} is written twice")
        seen.add(word)
        reader(state, rest.strip())
    state.current = None if state.ended else last
    if state.current is None and seen.intersection(TURN_PARTS):
        raise NotationError(f"{', '.join(p for p in TURN_PARTS if p in seen)}: only a turn "
                            f"in progress has these parts")
    _check(state)
    state.phase = ("before game" if label == "before game" else
                   "between turns" if state.current is None else
                   "rule-change" if state.proposal is not None else "movement")
    return state


def _read_players(state: NomicState, text: str) -> None:
    for item in text.split():
        m = _PLAYER.fullmatch(item)
        if m is None or not is_name(m[1]):
            raise NotationError(f"{item!r} is not NAME@(X,Y)")
        if any(name_key(p) == name_key(m[1]) for p in state.players):
            raise NotationError(f"{m[1]} is named twice (names are compared ignoring case)")
        at = _coord(m, 2)
        if max(map(abs, at)) > MAX_COORD:
            raise NotationError(f"{item}: players stand within {MAX_COORD:,} spaces of the "
                                f"origin")
        state.players[m[1]] = at


def _read_revealed(state: NomicState, text: str) -> None:
    if text == "-":
        return
    for item in text.split():
        m = _SPACE.fullmatch(item)
        if m is None or m[3] not in RESOURCES:
            raise NotationError(f"{item!r} is not (X,Y)Resource")
        state.revealed[_coord(m, 1)] = m[3]


def _read_label(state: NomicState, label: str) -> str | None:
    """Sets the round and the label; returns whose turn the label says has begun."""
    m = _LABEL.fullmatch(label)
    if m is None:
        raise NotationError(f"{label!r} is not 'before game', 'round N' or 'round N turn NAME'")
    state.label = label
    if m[1] is None:
        return None
    state.round = int(m[1])
    if m[2] is not None and m[2] not in state.players:
        raise NotationError(f"{label!r}: {m[2]} is not a player")
    return m[2]


def _names(text: str, what: str, state: NomicState) -> list[str]:
    names = text.split()
    stranger = [n for n in names if n not in state.players]
    if not names or stranger:
        raise NotationError(f"{what} {text!r}: names of players expected")
    return names


def _flag(word: str) -> Callable[[NomicState, str], None]:
    """A part that is its word alone (``moved``, ``decided``, ``ended``)."""
    def read_flag(state: NomicState, rest: str) -> None:
        if rest:
            raise NotationError(f"'{word}' stands alone, not '{word} {rest}'")
        setattr(state, word, True)
    return read_flag


def _read_rules(state: NomicState, text: str) -> None:
    written: set[int] = set()
    for item in text.split():
        m = _RULE.fullmatch(item)
        if m is None or m[2] not in STATUSES:
            raise NotationError(f"{item!r} is not a rule: NUMBER, a status letter "
                                f"({'/'.join(STATUSES)}), then * if amended, j if a judgment")
        n, status, amended = int(m[1]), STATUSES[m[2]], bool(m[3])
        if n in INITIAL_SET and m[4]:
            raise NotationError(f"{item!r}: rule {n} is an Initial Set rule, not a judgment")
        origin = "initial" if n in INITIAL_SET else "judgment" if m[4] else "enacted"
        if n in written:
            raise NotationError(f"rule {n} is written twice")
        written.add(n)
        text_now = INITIAL_SET[n] if origin == "initial" and not amended else ""
        state.rules[n] = Rule(n, text_now, origin, adopted=status not in ("proposed", "failed"),
                              in_effect=status == "in effect", status=status, amended=amended)


def _read_pending(state: NomicState, text: str) -> None:
    words = text.split()
    if not words or len(words) % 2:
        raise NotationError(f"pending {text!r}: KIND N pairs expected")
    for kind, number in zip(words[::2], words[1::2]):
        if kind not in KINDS or not _NUMBER.fullmatch(number):
            raise NotationError(f"pending {kind} {number}: enact, repeal or amend and a rule "
                                f"number expected")
        state.pending.append((kind, int(number), None))


def _read_order(state: NomicState, text: str) -> None:
    state.members = _names(text, "order", state)


def _read_played(state: NomicState, text: str) -> None:
    state.taken = _names(text, "played", state)


def _read_roll(state: NomicState, text: str) -> None:
    dice = text.split()
    if not dice or not all(_DIE.fullmatch(d) and int(d) >= 1 for d in dice):
        raise NotationError(f"roll {text!r}: positive die values expected")
    state.rolls = tuple(int(d) for d in dice)
    if sum(state.rolls) > MAX_ROLL:
        raise NotationError(f"roll {text}: rolls total at most {MAX_ROLL}")


def _read_due(state: NomicState, text: str) -> None:
    m = _COORD.fullmatch(text)
    if m is None:
        raise NotationError(f"due {text!r}: a space (X,Y) expected")
    state.reveal_due = _coord(m, 1)


def _read_proposal(state: NomicState, text: str) -> None:
    kind, _, number = text.partition(" ")
    if kind not in KINDS or not _NUMBER.fullmatch(number):
        raise NotationError(f"proposal {text!r}: enact, repeal or amend and a rule number "
                            f"expected")
    state.proposal = Propose(kind, int(number), None if kind == "repeal" else "")


def _read_votes(state: NomicState, text: str) -> None:
    words = text.split()
    if not words or len(words) % 2:
        raise NotationError(f"votes {text!r}: NAME yes|no pairs expected")
    for name, vote in zip(words[::2], words[1::2]):
        if not is_name(name) or vote not in ("yes", "no") or name in state.votes:
            raise NotationError(f"votes {text!r}: each voter once, NAME yes|no")
        state.votes[name] = vote == "yes"


def _read_invoked(state: NomicState, text: str) -> None:
    if not is_name(text):
        raise NotationError(f"invoked {text!r}: the name of who invoked judgment expected")
    state.invoked = Invoke(text, "")


#: Each optional part by its first word, in the order positions write them.
PARTS: dict[str, Callable[[NomicState, str], None]] = {
    "rules": _read_rules, "pending": _read_pending, "order": _read_order,
    "played": _read_played, "roll": _read_roll, "moved": _flag("moved"), "due": _read_due,
    "proposal": _read_proposal, "votes": _read_votes, "decided": _flag("decided"),
    "invoked": _read_invoked, "ended": _flag("ended"),
}


def _check(state: NomicState) -> None:
    """What every replayed state keeps, so a position read back plays on as one does."""
    if state.counter < 201 or state.counter <= max(state.rules):
        raise NotationError(f"next {state.counter}: the next rule number is at least 201 and "
                            f"above every rule's")
    if state.rolls is not None and state.on(109) and (
            len(state.rolls) != 1 or not 1 <= state.rolls[0] <= 6):
        raise NotationError("roll: while rule 109 holds, a roll is one die value 1..6")
    due = state.reveal_due
    if due is not None and (due == ORIGIN or due in state.revealed):
        raise NotationError(f"due {coord_text(due)}: only an unknown space other than the origin is owed "
                            f"a reveal")
