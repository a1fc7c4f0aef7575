"""New Philosophy games: ``notation.new``'s display names, and random games for
``notation random`` (joins, then placements with their choices, and now and then a
respect pass, a rule change, a mid-game join or a leave)."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Mapping

from notation.core.ast import Tag
from notation.core.protocols import RecordView

from .events import Choice, Event, Join, Leave, Respect, RuleChange
from .legal import Placements
from .rules import apply, start
from .state import PLAYER_CODES

if TYPE_CHECKING:  # (start-up: ``random`` only names the type of an argument)
    import random

#: ``notation.new("philosophy", color_in="Indiana Jones")`` sets ``[ColorIn]``.
_COLOUR_OPTION = re.compile(r"color_([a-z])([a-z])")


def option_tags(options: Mapping[str, Any], /) -> dict[str, Tag]:
    """``color_in="Indiana Jones"``: a ``[ColorIn]`` display name (the other options,
    ``join_permitted="between_turns"``, ``position=...``, are the base game's)."""
    return {key: Tag(f"Color{m[1].upper()}{m[2]}", str(value))
            for key, value in options.items() if (m := _COLOUR_OPTION.fullmatch(key))}


def random_events(rng: random.Random, record: RecordView, /, max_plies: int = 400) -> list[Event]:
    """As many joins as the record's ``[Players]`` says, then placements with their
    choices; now and then a respect pass, a rule change with a mid-game join, or a leave
    that removes the leaver's tiles.

    One state is played on, event by event: the choices written in a placement's
    brackets are made on it as bare choices would be, which leaves the same state.
    """
    state = start(record)
    players = int(record.headers.get("Players", "2"))
    pool = list(PLAYER_CODES)
    rng.shuffle(pool)
    out: list[Event] = []

    def play(event: Event) -> None:
        apply(state, event)
        out.append(event)

    for code in pool[:players]:
        play(Join(code, rng.choice([None, code.lower()])))
    if rng.random() < 0.5:
        play(RuleChange("leave", "permitted", "anytime"))
        play(RuleChange("leave", "effect", "remove_their_tiles"))
    spare = pool[players:]
    while not state.over and len(out) < max_plies:
        if state.pending is not None:
            play(Choice(rng.choice(state.pending.options)))
            continue
        roll = rng.random()
        if roll < 0.05:
            play(Respect(rng.choice(state.order)))
            continue
        if roll < 0.08 and spare:
            if state.variants[("join", "permitted")] != "between_turns":
                play(RuleChange("join", "permitted", "between_turns"))
            play(Join(spare.pop()))
            continue
        if (roll < 0.10 and len(state.order) > 2
                and state.variants[("leave", "permitted")] == "anytime"):
            play(Leave(rng.choice(state.order)))
            continue
        moves = Placements(state)  # built lazily: only the one chosen is made
        if not moves:
            break  # the centre is full or the player's hand is empty: the game stalls
        move = rng.choice(moves)
        apply(state, move)
        if rng.random() < 0.5:  # write the choices made next in brackets, where there are any
            params: list[str] = []
            while state.pending is not None and rng.random() < 0.8:
                option = rng.choice(state.pending.options)
                apply(state, Choice(option))
                params.append(option)
            # closed only with something to close: "[]" is not written, so not read back
            move = move._replace(params=tuple(params),
                                 closed=bool(params) and state.pending is None)
        lines = len(state.conclusions())
        out.append(move._replace(dots=lines) if lines else move)
    return out
