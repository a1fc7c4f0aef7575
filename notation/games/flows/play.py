"""How Flows is played: the start as the tags write it, turn order, the bag, legal
placements, victories (:mod:`.rules` adds what a record leaves to be found: its seats).

A placement is checked in the rules' order (section 9): whose turn, a tile in
the bag, an empty hex, then "anyone wins -> legal", else every player (team)
must keep a possible route. Each refusal is a :class:`RuleError` naming the rule.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from notation.core.protocols import RecordView
from notation.core.ast import Directive
from notation.core.errors import NotationError, RuleError, TagError, shorten
from notation.read.grammars import terminal_pattern
from notation.core.limits import is_whole

from .dialect import SEED, Notation, notation_named
from .events import GRAMMAR, Draw, Event, Placement, Unplaceable
from .geometry import HEXES, N_HEXES, ORIENTATIONS
from . import PLAYERS
from .position import parse_seats, read_position
from .routes import blocked_players, flow_winners
from .state import FlowsState, Seating, hex_name
from .tiles import PAIRS, TILES_PER_TYPE
from .views import parse_perspective

_SEED_HEADER = terminal_pattern(GRAMMAR, "SEED_HEADER")

# -- the start ---------------------------------------------------------------------------


def seating(record: RecordView) -> Seating:
    """Who sits where: from the seed header, ``[Players]`` and ``[Seats]`` (TagError)."""
    tags = record.headers
    header = next((d.text for d in record.items
                   if isinstance(d, Directive) and d.kind == "SEED_HEADER"), None)
    players = None
    if header is not None:
        m = _SEED_HEADER.match(header)
        if m is None or m["players"] is None:
            raise TagError("Players", f"header {header!r} does not say 'Game: N-player'")
        players = int(m["players"])
    seats = None
    if "Seats" in tags:
        try:
            seats = parse_seats(tags["Seats"])
        except NotationError as exc:
            raise TagError("Seats", str(exc)) from None
    if "Players" in tags:
        value = tags["Players"]
        if not (is_whole(value) and PLAYERS.takes(value)):
            raise TagError("Players", f"[Players \"{shorten(value)}\"]: Flows is for "
                                      f"{PLAYERS.allowed} players")
        if players is not None and int(value) != players:
            raise TagError("Players", f"[Players \"{value}\"] but the header says {header!r}")
        players = int(value)
    if players is None:
        players = len(seats) if seats else 2
    try:
        return Seating.make(players, seats)
    except ValueError as exc:
        raise TagError("Seats" if seats else "Players", str(exc)) from None


def start_as_written(record: RecordView) -> FlowsState:
    """The state before the first move, as the tags say it (no seats searched): an empty
    board, or the ``[Position]`` set up."""
    spelling = dialect(record.headers)
    if "Position" in record.headers:
        state = _set_up(record)
        state.notation = spelling
        return state
    seated = seating(record)
    return FlowsState(seated, _view(record.headers, seated), spelling)


def dialect(tags: Mapping[str, str]) -> Notation:
    """How the record spells placements: ``[Dialect]``, by default the seed's notation."""
    try:
        return notation_named(tags.get("Dialect", SEED))
    except NotationError as exc:
        raise TagError("Dialect", str(exc)) from None


def _view(tags: Mapping[str, str], seated: Seating) -> int | None:
    """The side every move is written from (``[Perspective]``), None: each mover's own."""
    try:
        return parse_perspective(tags.get("Perspective", ""), seated)
    except NotationError as exc:
        raise TagError("Perspective", str(exc)) from None


def _set_up(record: RecordView) -> FlowsState:
    """A set-up position (``[Position]``): its seats decide the players and sides, and
    its view (if it has one) how the moves are written."""
    tags = record.headers
    try:
        state = read_position(tags["Position"])
    except NotationError as exc:
        raise TagError("Position", f"[Position]: {exc}") from None
    seated = state.seating
    if "Players" in tags and tags["Players"] != str(seated.players):
        raise TagError("Players", f"[Players \"{shorten(tags['Players'])}\"] but the "
                                  f"[Position] seats {seated.players} players")
    if "Seats" in tags:
        try:
            seats = parse_seats(tags["Seats"])
        except NotationError as exc:
            raise TagError("Seats", str(exc)) from None
        if seats != tuple(seated.seats):
            raise TagError("Seats", f"[Seats \"{shorten(tags['Seats'])}\"] but the "
                                    f"[Position] seats the players at {list(seated.seats)}")
    if "Perspective" in tags:  # the tag may say the view the position says, or give one
        view = _view(tags, seated)
        if state.view is not None and view != state.view:
            raise TagError("Perspective", f"[Perspective \"{shorten(tags['Perspective'])}\"] "
                                          f"but the [Position] is written from side:{state.view}")
        state.view = view
    return state


# -- checking and playing --------------------------------------------------------------------


def apply(state: FlowsState, event: Event) -> None:
    """Play a move as written (its labels read from its mover's view), or raise RuleError;
    a refusal carries the state's hint, if any (the record reads in another notation)."""
    try:
        play(state, event)
    except RuleError as exc:
        if state.hint is None:
            raise
        raise RuleError(exc.message + state.hint(), exc.rule) from None


def play(state: FlowsState, event: Event) -> None:
    """:func:`apply` without the hint."""
    if isinstance(event, Draw):
        draw(state, event.tile)
        return
    player = event.player - 1
    if player >= state.seating.players:
        raise RuleError(f"there is no P{event.player} in a {state.seating.players}-player game",
                        "players")
    expect_turn(state, player)  # who moves is checked before what the label means
    if isinstance(event, Unplaceable):
        unplaceable(state, player, event.tile)
        return
    side = state.side_for(player)
    try:
        h, rotation = state.notation.locate(event, side)
    except NotationError as exc:
        raise RuleError(str(exc), "on the board") from None
    tile = state.tiles[h]
    if tile is not None:
        r, c = HEXES[h]
        raise RuleError(f"{event.label} (hex ({r},{c}) seen from side {side}) is already "
                        f"occupied by a T{tile[0]} tile", "empty hex")
    place(state, player, h, event.tile, rotation)


def expect_turn(state: FlowsState, player: int) -> None:
    """RuleError unless it is 0-based ``player``'s turn."""
    mover = state.to_move
    if mover is None:
        raise RuleError("the game is over", "game end")
    if player != mover:
        raise RuleError(f"it is P{mover + 1}'s turn, not P{player + 1}'s", "turn order")


def draw(state: FlowsState, tile: int) -> None:
    """Chance hands the mover ``tile`` (:class:`~.events.Draw`), to be placed next."""
    if state.to_move is None:
        raise RuleError("the game is over", "game end")
    if state.drawn is not None:
        raise RuleError(f"P{state.to_move + 1} already holds a T{state.drawn}; it is to be "
                        f"placed", "one tile a turn")
    if not 0 <= tile <= 3:
        raise NotationError(f"tile type {tile} is not 0 to 3")
    _draw(state, tile)
    state.drawn = tile


def _draw(state: FlowsState, tile: int) -> None:
    """The move's tile leaves the bag: the one chance handed the mover, if it did."""
    if state.drawn is not None and tile != state.drawn:
        raise RuleError(f"P{(state.to_move or 0) + 1} drew a T{state.drawn}, not a T{tile}",
                        "the drawn tile")
    if not state.in_bag(tile):
        raise RuleError(f"all {TILES_PER_TYPE} T{tile} tiles are already on the board",
                        "10 tiles of each type")


def _judge(state: FlowsState) -> tuple[list[int], tuple[str, str] | None]:
    """For the tiles as they stand: flow winners, and why it is illegal (or None).

    A placement that makes anybody win is legal whatever else it does;
    otherwise every player (team) must keep a possible route.
    """
    winners = flow_winners(state)
    if winners:
        return winners, None
    blocked = blocked_players(state)
    if blocked:
        names = ", ".join(f"P{p + 1}" for p in blocked)
        return [], (f"it leaves {names} with no possible route to the opposite side",
                    "every player keeps a route")
    return [], None


def check(state: FlowsState, h: int, tile: int, rotation: int) -> tuple[str, str] | None:
    """Why placing ``tile`` at ``h`` in ``rotation`` is illegal (message, rule), or None."""
    if state.tiles[h] is not None:
        return f"hex {hex_name(h)} is already occupied", "empty hex"
    state.tiles[h] = (tile, rotation)
    try:
        return _judge(state)[1]
    finally:
        state.tiles[h] = None


def legal_placements(state: FlowsState, tile: int) -> list[tuple[int, int]]:
    """Every legal (hex, rotation) for ``tile``, all six rotations counted."""
    found = []
    for h in range(N_HEXES):
        if state.tiles[h] is not None:
            continue
        verdicts: dict[tuple[tuple[int, int], ...], bool] = {}
        for rotation in range(6):
            key = PAIRS[tile][rotation]
            if key not in verdicts:  # equivalent rotations share a verdict
                verdicts[key] = check(state, h, tile, rotation) is None
            if verdicts[key]:
                found.append((h, rotation))
    return found


def place(state: FlowsState, player: int, h: int, tile: int, rotation: int) -> None:
    """Play a placement of 0-based ``player``, checking it in the rules' order."""
    expect_turn(state, player)
    _draw(state, tile)
    if state.tiles[h] is not None:
        raise RuleError(f"hex {hex_name(h)} is already occupied", "empty hex")
    state.tiles[h] = (tile, rotation)
    winners, why = _judge(state)
    if why is not None:
        state.tiles[h] = None
        raise RuleError(*why)
    _count(state, tile, winners)


def _count(state: FlowsState, tile: int, winners: list[int]) -> None:
    """Book a placement found legal (its tile already on the board): the bag, the ply,
    and the turn or the result."""
    state.placed[tile] += 1
    state.ply += 1
    state.drawn = None
    if winners:
        state.over = True
        state.winners = winners
        teams = {state.seating.team(p) for p in winners}
        state.win_type = "flow" if len(teams) == 1 else "tie"
        return
    state.step += 1


#: An orientation name's index in rotation order.
_ORIENTATION_INDEX = {name: i for i, name in enumerate(ORIENTATIONS)}
#: The tile types, for a quick test of an event's.
_TILE_TYPES = frozenset(range(4))


def applier(state: FlowsState) -> Callable[[Event], None]:
    """:func:`apply` for the events of one replay of ``state``, faster for a legal placement.

    The checks of :func:`play` and :func:`place` are made in one go; when any of them
    fails (or the event is not a placement) :func:`apply` plays it instead, from the
    state as it was, so every refusal and its message are apply's own.
    """
    def apply_event(event: Event) -> None:
        if type(event) is Placement and not state.over:
            seating = state.seating
            turns = seating.turns
            player = event.player - 1
            tile = event.tile
            if player == turns[state.step % len(turns)] and tile in _TILE_TYPES \
                    and state.placed[tile] < TILES_PER_TYPE and state.drawn is None:
                view = state.view
                side = seating.seats[player] if view is None else view
                spelling = state.notation
                h = spelling.hexes[side].get(event.label)
                index = _ORIENTATION_INDEX.get(event.orientation)
                tiles = state.tiles
                if h is not None and index is not None and tiles[h] is None:
                    tiles[h] = (tile, (index - spelling.shifts[side]) % 6)
                    winners = flow_winners(state)
                    if winners or not blocked_players(state):
                        _count(state, tile, winners)
                        return
                    tiles[h] = None
        apply(state, event)
    return apply_event


def unplaceable(state: FlowsState, player: int, tile: int) -> None:
    """The player drew ``tile`` and it fits nowhere: their team wins (constraint)."""
    expect_turn(state, player)
    _draw(state, tile)
    legal = legal_placements(state, tile)
    if legal:
        raise RuleError(f"T{tile} has {len(legal)} legal placements, so it must be placed",
                        "mandatory placement")
    state.ply += 1
    state.drawn = None
    state.over = True
    state.winners = list(state.seating.team(player))
    state.win_type = "constraint"


def legal_moves(state: FlowsState, /, **options: Any) -> list[Event]:
    """What the mover may play for each tile they could draw (``tile``: the one in hand).

    The draw is not an event a record writes: the notation writes it inside the move
    (``P1A2T0N`` drew a T0; ``P1T2`` drew a T2 that fits nowhere). So the moves
    are, for every type still in the bag (type by type, in hex and rotation
    order), its legal placements, or the ``P{n}T{type}`` that ends the game
    when it has none; a tile not in the bag cannot be drawn and gives nothing.
    Once chance has handed the mover a tile (:class:`~.events.Draw`), that tile's only.
    """
    tile = options.pop("tile", None)
    if options:
        raise NotationError(f"flows legal moves take only a tile ({', '.join(options)})")
    if tile is not None and not 0 <= tile <= 3:
        raise NotationError(f"tile type {tile} is not 0 to 3")
    if state.drawn is not None:
        if tile is not None and tile != state.drawn:
            return []
        tile = state.drawn
    mover = state.to_move
    if mover is None:
        return []
    side = state.side_for(mover)
    out: list[Event] = []
    for t in range(4):
        if (tile is not None and t != tile) or not state.in_bag(t):
            continue
        placements = legal_placements(state, t)
        if not placements:
            out.append(Unplaceable(mover + 1, t))
        out += [state.notation.spell(mover + 1, t, h, rotation, side)
                for h, rotation in placements]
    return out
