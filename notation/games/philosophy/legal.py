"""What may be played next in Philosophy (``Position.legal_moves``, ``notation legal``,
the generator): the open choice's options or the placements, then joins and leaves.

Placements come as a lazy sequence in the reference order, so the generator can pick
one of several hundred without building them all.
"""
from __future__ import annotations

from typing import Any, Iterator, Mapping, Sequence, overload

from notation.core.errors import NotationError

from .events import Choice, Event, Join, Leave, Placement, Respect, RuleChange
from .geometry import CENTRE
from .state import PLAYER_CODES, VARIANTS, PhilosophyState
from .tiles import FACINGS, TILE_CODES, TILES


class Placements(Sequence[Placement]):
    """Every placement the player to move may make now, in the reference order (space,
    tile, facing), built only when asked for: the generator picks one of hundreds."""

    def __init__(self, state: PhilosophyState) -> None:
        closed = state.over or state.pending is not None or len(state.order) < 2
        self.player = "" if closed else state.order[0]
        first = state.placements == 0 and not state.set_up
        self.spaces = [] if closed else [s for s in sorted(CENTRE) if s not in state.board
                                          and not (s == "C5" and first)]
        self.tiles = [] if closed else [t for t in TILE_CODES if t in state.hands[self.player]]

    def __len__(self) -> int:
        return len(self.spaces) * len(self.tiles) * FACINGS

    def __iter__(self) -> Iterator[Placement]:
        """All of them in index order, built straight (``Sequence``'s own iteration goes
        through ``__getitem__`` and its checks, twice as slow for ``legal_moves``)."""
        player = self.player
        for space in self.spaces:
            for tile in self.tiles:
                for facing in TILES[tile].facings:
                    yield Placement(player, space, tile, facing)

    @overload
    def __getitem__(self, index: int) -> Placement: ...

    @overload
    def __getitem__(self, index: slice) -> list[Placement]: ...

    def __getitem__(self, index: int | slice) -> Placement | list[Placement]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("placement index out of range")
        per_space = len(self.tiles) * FACINGS
        tile = self.tiles[index % per_space // FACINGS]
        return Placement(self.player, self.spaces[index // per_space], tile,
                         TILES[tile].facings[index % FACINGS])


def legal_joins(state: PhilosophyState) -> list[Join]:
    """Who may join now, without a name: the reference's four colours, then any code a
    ``[ColorXx]`` tag names or that holds tiles, once the rule on joining allows it."""
    if state.over or (state.placements
                      and state.variants[("join", "permitted")] == "only_before_any_placement"):
        return []
    codes = dict.fromkeys([*PLAYER_CODES, *sorted(state.colour_tags), *sorted(state.hands)])
    return [Join(code) for code in codes if code not in state.order]


def legal_leaves(state: PhilosophyState) -> list[Leave]:
    """Who may leave now (the rule on leaving decides; by default a leave ends the game)."""
    permitted = state.variants[("leave", "permitted")]
    if state.over or permitted == "never" or (permitted == "only_before_any_placement"
                                              and state.placements):
        return []
    return [Leave(code) for code in state.order]


def legal_moves(state: PhilosophyState, /, **options: Any) -> list[Event]:
    """The open choice's options, else every legal placement; then the joins and leaves
    the rules allow. Respect passes and rule changes, legal at any time, move nothing on,
    so they are listed only when nothing else is legal: a game that stalls (a full centre,
    an empty hand; the reference has no rule for it) can still change its rules, say to
    let a player leave, rather than offer nothing while it is not over. The game takes
    no options: any given is refused, by name."""
    no_options("legal moves take no options", options)
    if state.over:
        return []
    moves: list[Event] = ([Choice(o) for o in state.pending.options]
                          if state.pending is not None else list(Placements(state)))
    moves += legal_joins(state)
    moves += legal_leaves(state)
    if not moves:
        moves += [RuleChange(rule, variable, value) for (rule, variable), values
                  in VARIANTS.items() for value in values
                  if value != state.variants[(rule, variable)]]
        moves += [Respect(code) for code in state.order if code != state.respect]
    return moves


def no_options(refusal: str, options: Mapping[str, Any]) -> None:
    """The game has no options of its own: any given is refused, by name."""
    if options:
        raise NotationError(f"philosophy {refusal} ({', '.join(options)})")
