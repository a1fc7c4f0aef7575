"""The nomic game's chance: the die of a turn's movement (rule 109: one d6) and the
resource a space shows when a player first lands on it (rule 106.4: each of the four
with probability 1/4). Where the rule that makes the draw is no longer in effect, the
record's own word decides: no chance event is offered."""
from __future__ import annotations

from .events import Event, Reveal, Roll
from .state import RESOURCES, NomicState

#: The faces of rule 109's die.
FACES = range(1, 7)


def chance_outcomes(state: NomicState, /) -> list[tuple[Event, float]]:
    """The reveal owed, or the roll that starts the turn's movement, each outcome with
    its probability; [] when a player acts (whether chance is due: the core's default,
    whether there are outcomes)."""
    if state.ended or state.current is None:
        return []
    if state.reveal_due is not None:
        if not state.on(106):
            return []
        at = state.reveal_due
        return [(Reveal(at, resource), 1 / len(RESOURCES)) for resource in RESOURCES]
    if state.rolls is None and not state.moved and state.on(109):
        return [(Roll((face,)), 1 / len(FACES)) for face in FACES]
    return []


def chance_event(event: Event, /) -> bool:
    """Whether ``event`` is chance's (a roll, a space revealed), not a player's."""
    return isinstance(event, (Roll, Reveal))


__all__ = ["chance_event", "chance_outcomes"]
