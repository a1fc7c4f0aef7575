"""Flows behind the core's :class:`~notation.core.game.Game` interface."""
from __future__ import annotations

import random
import re
from typing import Any, Mapping

from notation.core.ast import Directive, EventNode, Record, Tag
from notation.core.errors import NotationError, RuleError, TagError
from notation.core.game import Game
from notation.core.limits import is_whole, shorten

from . import moves
from .board import DEFAULT_SEATS, FlowsBoard, Seating, TILES_PER_TYPE
from .geometry import (
    HEXES, INDEX, N_HEXES, hex_of, label_of, name_of_rotation, parse_internal,
    rotation_from_name,
)
from .moves import Placement, Unplaceable
from .render import render

_SEED_HEADER = re.compile(r"Game:\s*([2-6])-player\b")
_PERSPECTIVE = re.compile(r"(?:P([1-6])|side:([0-5]))\Z")


class FlowsState(FlowsBoard):
    """A board plus the side its record's labels are read from (None: each mover's own)."""

    __slots__ = ("view",)

    def __init__(self, seating: Seating, view: int | None = None) -> None:
        super().__init__(seating)
        self.view = view

    def side_for(self, player: int) -> int:
        return self.seating.seats[player] if self.view is None else self.view


def locate(event: Placement, side: int) -> tuple[int, int]:
    """(hex, rotation) of a placement written from ``side``; NotationError off the board."""
    return hex_of(event.label, side), rotation_from_name(event.orientation, side)


def spell(player: int, tile: int, h: int, rotation: int, side: int) -> Placement:
    """The placement of 1-based ``player`` as written from ``side``."""
    return Placement(player, label_of(h, side), tile, name_of_rotation(rotation, side))


def parse_seats(value: str) -> tuple[int, ...]:
    parts = value.replace(",", " ").split()
    if not parts or not all(is_whole(p) for p in parts):
        raise NotationError(f"seats {shorten(value)!r} must be side numbers 0-5, e.g. \"0 3\"")
    return tuple(int(p) for p in parts)


def parse_perspective(value: str, seating: Seating) -> int | None:
    """``P2`` or ``side:3`` -> a side; ``mover`` (or empty) -> None."""
    if value in ("", "mover"):
        return None
    m = _PERSPECTIVE.match(value)
    if not m:
        raise NotationError(f"perspective {value!r} is not P1..P6, side:0..side:5 or mover")
    if m.group(2) is not None:
        return int(m.group(2))
    player = int(m.group(1))
    if player > seating.players:
        raise NotationError(f"perspective {value!r}: the game has {seating.players} players")
    return seating.seats[player - 1]


class Flows(Game):
    name = "flows"
    title = "Flows (Quortex), hex tiles and flows (2-6 players), moves like P1A2T0N"
    extensions = (".flows",)
    grammar = "flows.lark"
    directives = frozenset({"SEED_HEADER", "ABRIDGED"})
    tags = {
        "Game": '"flows"',
        "Players": "2 to 6 (default: the seed header 'Game: N-player', else the seats, else 2)",
        "Seats": "each player's side in turn order, e.g. \"0 3\" (defaults: 2p 0 3, 3p 0 2 4, "
                 "4p 0 1 3 4, 5p 0 1 2 3 4, 6p 0 1 2 3 4 5)",
        "Perspective": "P1..P6 or side:K: every move is written in that view (default: each "
                       "move in its mover's own view)",
        "Position": "a set-up position to start from (its seats decide the players)",
        "Result": '"*" while the game goes on, else how it ended and the winners: "flow P2", '
                  '"tie P1 P2", "constraint P2 P4"',
    }

    # -- notation ---------------------------------------------------------------------
    def read_event(self, kind: str, text: str) -> Placement | Unplaceable:
        return moves.read(text)

    def diagnose(self, text: str) -> str:
        return moves.diagnose(text)


    # -- rules ------------------------------------------------------------------------
    def seating(self, record: Record) -> Seating:
        tags = record.tag_dict
        header = next((d.text for d in record.items
                       if isinstance(d, Directive) and d.kind == "SEED_HEADER"), None)
        players = None
        if header is not None:
            m = _SEED_HEADER.match(header)
            if not m:
                raise TagError("Players", f"header {header!r} does not say 'Game: N-player'")
            players = int(m.group(1))
        seats = None
        if "Seats" in tags:
            try:
                seats = parse_seats(tags["Seats"])
            except NotationError as exc:
                raise TagError("Seats", str(exc)) from None
        if "Players" in tags:
            value = tags["Players"]
            if not (is_whole(value) and 2 <= int(value) <= 6):
                raise TagError("Players", f"[Players \"{shorten(value)}\"]: Flows is for 2 to 6 "
                                          f"players")
            if players is not None and int(value) != players:
                raise TagError("Players", f"[Players \"{value}\"] but the header says {header!r}")
            players = int(value)
        if players is None:
            players = len(seats) if seats else 2
        try:
            return Seating.make(players, seats)
        except ValueError as exc:
            raise TagError("Seats" if seats else "Players", str(exc)) from None

    setup_positions = True

    def start(self, record: Record) -> FlowsState:
        if "Position" in record.tag_dict:
            return self._set_up(record)
        seating = self.seating(record)
        try:
            view = parse_perspective(record.tag_dict.get("Perspective", ""), seating)
        except NotationError as exc:
            raise TagError("Perspective", str(exc)) from None
        return FlowsState(seating, view)

    def _set_up(self, record: Record) -> FlowsState:
        """A set-up position (``[Position]``): its seats decide the players and sides."""
        tags = record.tag_dict
        try:
            state = read_position(tags["Position"])
        except NotationError as exc:
            raise TagError("Position", f"[Position]: {exc}") from None
        seating = state.seating
        if "Players" in tags and tags["Players"] != str(seating.players):
            raise TagError("Players", f"[Players \"{shorten(tags['Players'])}\"] but the "
                                      f"[Position] seats {seating.players} players")
        if "Seats" in tags:
            try:
                seats = parse_seats(tags["Seats"])
            except NotationError as exc:
                raise TagError("Seats", str(exc)) from None
            if seats != tuple(seating.seats):
                raise TagError("Seats", f"[Seats \"{shorten(tags['Seats'])}\"] but the "
                                        f"[Position] seats the players at {list(seating.seats)}")
        try:
            state.view = parse_perspective(tags.get("Perspective", ""), seating)
        except NotationError as exc:
            raise TagError("Perspective", str(exc)) from None
        return state

    def result_tags(self, state: FlowsState) -> dict[str, str]:
        """``"*"``, or how the game ended and who won: ``"flow P2"``, ``"tie P1 P2"``,
        ``"constraint P2 P4"`` (a team's members both listed)."""
        if not state.over:
            return {"Result": "*"}
        return {"Result": " ".join([state.win_type or "flow"]
                                   + [f"P{p + 1}" for p in state.winners])}

    def winner_words(self, state: FlowsState) -> list[str]:
        return [f"P{p + 1}" for p in state.winners] if state.over else []

    def player_count(self, state: FlowsState) -> int:
        return state.seating.players

    def facts(self, state: FlowsState) -> dict[str, Any]:
        return {"ended by": state.win_type} if state.over else {}

    def apply(self, state: FlowsState, event: Placement | Unplaceable) -> None:
        player = event.player - 1
        if player >= state.seating.players:
            raise RuleError(f"there is no P{event.player} in a {state.seating.players}-player game",
                            "players")
        state.expect_turn(player)  # who moves is checked before what the label means
        if isinstance(event, Unplaceable):
            state.unplaceable(player, event.tile)
            return
        side = state.side_for(player)
        try:
            h, rotation = locate(event, side)
        except NotationError as exc:
            raise RuleError(str(exc), "on the board") from None
        if state.tiles[h] is not None:
            r, c = HEXES[h]
            raise RuleError(f"{event.label} (hex ({r},{c}) seen from side {side}) is already "
                            f"occupied by a T{state.tiles[h][0]} tile", "empty hex")
        state.place(player, h, event.tile, rotation)

    def legal_moves(self, state: FlowsState, **options: Any) -> list[Placement]:
        tile = options.pop("tile", None)
        if options:
            raise NotationError(f"flows legal moves take only a tile ({', '.join(options)})")
        mover = state.to_move
        if mover is None:
            return []
        side = state.side_for(mover)
        tiles = [tile] if tile is not None else [t for t in range(4) if state.in_bag(t)]
        out = []
        for t in tiles:
            if not 0 <= t <= 3:
                raise NotationError(f"tile type {t} is not 0 to 3")
            out += [spell(mover + 1, t, h, rotation, side)
                    for h, rotation in state.legal_placements(t)]
        return out

    def is_over(self, state: FlowsState) -> bool:
        return state.over

    def copy(self, state: FlowsState) -> FlowsState:
        return state.copy()

    def to_move(self, state: FlowsState) -> str | None:
        return None if state.to_move is None else f"P{state.to_move + 1}"

    # -- positions and output ---------------------------------------------------------
    def position(self, state: FlowsState) -> str:
        return write_position(state)

    def read_position(self, text: str) -> FlowsState:
        return read_position(text)

    def state_json(self, state: FlowsState) -> dict[str, Any]:
        return {
            "tiles": [[*HEXES[h], t[0], t[1]] for h, t in enumerate(state.tiles) if t is not None],
            "flows": {f"P{p + 1}": [[*HEXES[h], a, b] for h, a, b in state.flow_segments(p)]
                      for p in range(state.seating.players)},
            "to_move": self.to_move(state),
            "seats": list(state.seating.seats),
            "teams": [[p + 1 for p in team] for team in sorted(
                {state.seating.team(p) for p in range(state.seating.players)
                 if state.seating.partner[p] is not None})],
            "bag": [state.in_bag(t) for t in range(4)],
        }

    def result_json(self, state: FlowsState) -> dict[str, Any]:
        return {"over": state.over, "winners": [p + 1 for p in state.winners],
                "win_type": state.win_type}

    def drawing(self, state: FlowsState, **options: Any) -> Any:
        """The board from ``perspective`` (as :meth:`render`): the picture turns, and its
        labels are that view's."""
        from .svg import draw
        return draw(state, self._side(state, options))

    def _side(self, state: FlowsState, options: dict[str, Any]) -> int:
        perspective = options.pop("perspective", None)
        if options:
            raise NotationError(f"flows boards take only a perspective ({', '.join(options)})")
        side = parse_perspective(perspective, state.seating) if perspective else None
        if side is None:
            side = state.view if state.view is not None else state.seating.seats[0]
        return side

    def render(self, state: FlowsState, color: bool = False, **options: Any) -> str:
        """The board from ``perspective`` (P2, side:3; default: the record's view, else P1's)."""
        return render(state, self._side(state, options), color)

    def cells(self, state: FlowsState) -> dict[str, str]:
        out = {}
        for h in range(N_HEXES):
            tile = state.tiles[h]
            out[f"({HEXES[h][0]},{HEXES[h][1]})"] = "" if tile is None else f"T{tile[0]} r{tile[1]}"
        for p in range(state.seating.players):
            out[f"P{p + 1} flow"] = " ".join(f"({HEXES[h][0]},{HEXES[h][1]}){a}-{b}"
                                             for h, a, b in state.flow_segments(p))
        out["to move"] = self.to_move(state) or "nobody (game over)"
        out["result"] = str(self.result_json(state))
        return out

    # -- generation -------------------------------------------------------------------
    def random_tags(self, options: Mapping[str, Any]) -> dict[str, str]:
        players = options.get("players") or 2
        if not 2 <= players <= 6:
            raise NotationError("Flows is for 2 to 6 players")
        seats = " ".join(map(str, DEFAULT_SEATS[players]))
        return {"Game": self.name, "Players": str(players), "Seats": seats}

    def random_events(self, rng: random.Random, record: Record,
                      max_plies: int = 10_000) -> list[Placement | Unplaceable]:
        """Draw from the bag, then place uniformly among the legal (hex, rotation) pairs."""
        state = self.start(record)
        events: list[Placement | Unplaceable] = []
        while not state.over:
            bag = [t for t in range(4) for _ in range(state.in_bag(t))]
            tile = rng.choice(bag)
            mover = state.to_move
            placements = state.legal_placements(tile)
            if not placements:
                event: Placement | Unplaceable = Unplaceable(mover + 1, tile)
            else:
                h, rotation = rng.choice(placements)
                event = spell(mover + 1, tile, h, rotation, state.side_for(mover))
            self.apply(state, event)
            events.append(event)
        return events

    def event_keys(self, record: Record) -> list[str]:
        """Moves compared in side 0's view, so a converted record equals its original."""
        try:
            return [str(e) for e in self.convert(record, perspective="side:0").events]
        except NotationError:  # a move that cannot be read: compare as written
            return super().event_keys(record)

    # -- perspectives -----------------------------------------------------------------
    def convert(self, record: Record, **options: Any) -> Record:
        """Rewrite every move into one seat's view (``perspective``: P2, side:3 or mover)."""
        target = options.pop("perspective", None)
        if target is None or options:
            raise NotationError("flows converts with --perspective P1..P6, side:K or mover")
        try:
            state = self.start(record)
        except TagError as exc:
            raise NotationError(exc.message) from None
        to_side = parse_perspective(target, state.seating)
        items = []
        for item in record.items:
            if isinstance(item, EventNode) and isinstance(item.event, Placement):
                event = item.event
                player = event.player - 1
                if player >= state.seating.players:
                    raise NotationError(f"there is no P{event.player} to convert")
                h, rotation = locate(event, state.side_for(player))
                side_to = state.seating.seats[player] if to_side is None else to_side
                new = spell(event.player, event.tile, h, rotation, side_to)
                item = EventNode(new, item.number, item.pos, str(new))
            items.append(item)
        tags = [t for t in record.tags if not (isinstance(t, Tag) and t.key == "Perspective")]
        if to_side is not None:
            tags.append(Tag("Perspective", target))
        return Record(record.game, tags, items, record.index, record.source, record.pos)

    def convert_coordinate(self, text: str, to: str, options: Mapping[str, Any]) -> str:
        """``P2A4`` -> ``P1G4`` (``to="P1"``), ``6,3`` (``to="internal"``), ``side:K``."""
        players = options.get("players")
        seats = parse_seats(options["seats"]) if options.get("seats") else None
        seating = Seating.make(players or (len(seats) if seats else 2), seats)
        m = re.fullmatch(r"(?:P([1-6])|side:([0-5]):?)([A-G][1-7])", text.strip())
        if m:
            side = (int(m.group(2)) if m.group(2) is not None
                    else parse_perspective(f"P{m.group(1)}", seating))
            h = hex_of(m.group(3), side)
        else:
            h = parse_internal(text)
        if to == "internal":
            return f"{HEXES[h][0]},{HEXES[h][1]}"
        side = parse_perspective(to, seating)
        if side is None:
            raise NotationError("--to needs P1..P6, side:K or internal")
        prefix = to if to.startswith("P") else f"{to}:"
        return f"{prefix}{label_of(h, side)}"


# -- position notation -------------------------------------------------------------------

def write_position(state: FlowsBoard) -> str:
    """``<rows> <to-move> <seats> <result>`` (see the README)."""
    rows = []
    for r in range(6, -1, -1):
        cells = []
        for c in range(7):
            if (r, c) in INDEX:
                tile = state.tiles[INDEX[(r, c)]]
                cells.append("." if tile is None else f"{tile[0]}{tile[1]}")
        rows.append("".join(cells))
    mover = "-" if state.to_move is None else f"P{state.to_move + 1}"
    seats = ",".join(map(str, state.seating.seats))
    result = "*" if not state.over else (
        f"{state.win_type}:{','.join(str(p + 1) for p in state.winners)}")
    return f"{'/'.join(rows)} {mover} {seats} {result}"


def read_position(text: str) -> FlowsState:
    fields = text.split()
    if len(fields) != 4:
        raise NotationError("a Flows position has four fields: rows, to-move, seats, result")
    rows, mover, seats, result = fields
    try:
        seating = Seating.make(len(parse_seats(seats)), parse_seats(seats))
    except ValueError as exc:
        raise NotationError(str(exc)) from None
    state = FlowsState(seating)
    parts = rows.split("/")
    if len(parts) != 7:
        raise NotationError(f"{len(parts)} rows given; the board has 7")
    for i, part in enumerate(parts):
        r = 6 - i
        cols = [c for c in range(7) if (r, c) in INDEX]
        pos = 0
        for c in cols:
            if pos >= len(part):
                raise NotationError(f"row {r} is short: {len(cols)} hexes expected")
            if part[pos] == ".":
                pos += 1
                continue
            cell = part[pos:pos + 2]
            if not (len(cell) == 2 and cell[0] in "0123" and cell[1] in "012345"):
                raise NotationError(f"row {r}: {cell!r} is not '.' or a type 0-3 and rotation 0-5")
            state.tiles[INDEX[(r, c)]] = (int(cell[0]), int(cell[1]))
            state.placed[int(cell[0])] += 1
            pos += 2
        if pos != len(part):
            raise NotationError(f"row {r} is too long: {len(cols)} hexes expected")
    for t in range(4):
        if state.placed[t] > TILES_PER_TYPE:
            raise NotationError(f"{state.placed[t]} T{t} tiles on the board; there are only 10")
    state.ply = sum(state.placed)
    state.step = state.ply
    winners = state.flow_winners()
    if result == "*":
        if winners:
            raise NotationError("'*' says the game goes on, but a flow already connects")
        expected = f"P{state.to_move + 1}"
        if mover != expected:
            raise NotationError(f"after {state.ply} tiles it is {expected}'s turn, not {mover}")
        return state
    m = re.fullmatch(r"(flow|tie|constraint):([1-6](?:,[1-6])*)", result)
    if not m or mover != "-":
        raise NotationError(f"result {result!r} with to-move {mover!r}: expected '*' and a player, "
                            "or '-' and flow:P, tie:P,P or constraint:P")
    state.over = True
    state.win_type = m.group(1)
    state.winners = [int(p) - 1 for p in m.group(2).split(",")]
    if state.win_type != "constraint" and state.winners != winners:
        raise NotationError(f"the tiles connect {[p + 1 for p in winners]}, not {m.group(2)}")
    if max(state.winners) >= seating.players:
        raise NotationError("a winner who is not a player")
    return state
