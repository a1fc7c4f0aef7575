"""Random exploration nomic games (``notation random nomic``) that read like played ones."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping

from notation.core.plugins import whole_number
from notation.core.protocols import RecordView

from . import rules
from .events import (
    End, Event, Invoke, Join, Judgment, Move, Note, Outcome, Propose, Reveal, Roll, Round, Turn,
    Vote,
)
from . import NAMES
from .state import RESOURCES, NomicState

if TYPE_CHECKING:  # (start-up: ``random`` only names the type of an argument)
    import random

#: Players who may join at the start of a later round.
LATE = ("Ivy", "Jon", "Kim")
#: Plays an event on the state being generated and keeps it.
Play = Callable[[Event], None]


def random_tags(tags: dict[str, str], /) -> dict[str, str]:
    """A random game's tags name the game as the records write it."""
    return {**tags, "Game": "Nomic"}


def named_players(options: Mapping[str, Any], /) -> dict[str, Any]:
    """The options with a number of players as their names (``3``: Alice, Bob and Carol),
    for ``notation.new`` and ``random`` alike (which check the number against the option,
    :data:`~notation.games.nomic.OPTIONS`); names given stay as they are."""
    count = whole_number(options.get("players"))
    if count is None:
        return dict(options)
    return {**options, "players": " ".join(NAMES[:count])}


setup_options = named_players


def random_events(rng: random.Random, record: RecordView, /) -> list[Event]:
    """Three to five rounds from the record's start: moves along random staircase paths, random
    reveals, enactments, repeals and now and then an amendment, votes mostly yes, a
    judgment or a note, and a late joiner at a round's start."""
    state = rules.start(record)
    out: list[Event] = []

    def play(event: Event) -> None:
        rules.apply(state, event)
        out.append(event)

    spare = list(LATE)
    for number in range(1, rng.randint(3, 5) + 1):
        play(Round(number))
        if number > 1 and spare and rng.random() < 0.3:
            play(Join(spare.pop(0)))
        while (who := state.next_turn()) is not None:
            play(Turn(who))
            _move(rng, state, who, play)
            if rng.random() < 0.15:
                play(Invoke(rng.choice(state.order()), "Is this move legal?"))
                play(Judgment(state.counter, state.judge() or "", "Yes."))
            if rng.random() < 0.1:
                play(Note(f"{who} looks around."))
            _change(rng, state, who, play)
    play(End())
    return out


def _move(rng: random.Random, state: NomicState, who: str, play: Play) -> None:
    """The movement phase: a roll, a path of that many steps, the reveal it may need."""
    dice = rng.randint(1, 6)
    play(Roll((dice,)) if state.on(109) else Roll((dice, rng.randint(1, 6))))
    total = sum(state.rolls or ()) if not state.on(109) else dice
    dx = rng.randint(0, total)
    steps = ("E" if rng.random() < 0.5 else "W") * dx + \
            ("N" if rng.random() < 0.5 else "S") * (total - dx)
    steps = "".join(rng.sample(steps, len(steps)))
    form = rng.random()
    x, y = state.players[who]
    for letter in steps:
        x, y = x + rules.STEP[letter][0], y + rules.STEP[letter][1]
    play(Move(steps, None) if form < 0.4 else Move(None, (x, y)) if form < 0.7
         else Move(steps, (x, y)))
    if state.reveal_due is not None:
        play(Reveal(state.reveal_due, rng.choice(RESOURCES)))


def _change(rng: random.Random, state: NomicState, who: str, play: Play) -> None:
    """The rule-change phase: a proposal and everyone's vote on it."""
    repealable = [n for n, r in state.rules.items() if r.in_effect and n > 115]
    roll = rng.random()
    if roll < 0.15 and repealable:
        play(Propose("repeal", rng.choice(repealable)))
    elif roll < 0.2:
        play(Propose("amend", rng.choice([109, 201] if 201 in state.rules
                                         and state.rules[201].in_effect else [109]),
                     "Two d6 are rolled; their sum is the movement distance."))
    else:
        play(Propose("enact", state.counter, f"Rule made by {who}."))
    for p in state.order():
        play(Vote(p, rng.random() < 0.85))
    play(Outcome(all(state.votes.values())))
