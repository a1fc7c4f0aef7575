"""Philosophy behind the core's :class:`~notation.core.game.Game` interface."""
from __future__ import annotations

import random
import re
from typing import Any, Mapping

from notation.core.ast import EventNode, Record
from notation.core.errors import NotationError, RuleError, TagError
from notation.core.game import Game

from . import events as ev
from .board import CELL, ORDER, TILES
from .engine import VARIANT_TAGS, VARIANTS, PhilosophyState
from .events import Choice, Join, Leave, Placement, Respect, RuleChange
from .render import render

_POSITION_ITEM = re.compile(r"([A-Z][A-Za-z0-9]):([A-Z][a-z])([A-Z][a-z])(No|Ne|Ea|Se|So|Sw|We|Nw)\Z")


def tag_value(value: str) -> str:
    """``"Between Turns"`` -> ``between_turns`` (section 12)."""
    return "_".join(value.lower().split())


class Philosophy(Game):
    name = "philosophy"
    title = "Philosophy, tiles that push and turn (2-4 players), events like Te:C7ReNe[We]"
    extensions = (".philosophy", ".phil")
    grammar = "philosophy.lark"
    tags = {
        "Game": '"philosophy"',
        "ColorXx": "display name of the player with code Xx, e.g. [ColorIn \"Indiana Jones\"]",
        "JoinPermitted": '"Only Before Any Placement" (default) or "Between Turns"',
        "JoinWhere": '"Immediately Next" (default) or "After A Full Turn"',
        "LeavePermitted": '"Only Before Any Placement" (default), "Never" or "Anytime"',
        "LeaveEffect": '"Ends Game" (default), "Rollback Placement" or "Remove Their Tiles"',
        "Position": "a set-up board in the board-state notation (players still join)",
        "Players": "informational (written by notation random); the joins decide who plays",
        "Result": '"*" while the game goes on, else the winner\'s code ("Sa"), or "none" when '
                  'a leave ended it without one',
    }

    # -- notation ----------------------------------------------------------------------
    def read_event(self, kind: str, text: str) -> ev.Event:
        return ev.read(kind, text)

    def diagnose(self, text: str) -> str:
        return ev.diagnose(text)


    setup_positions = True

    # -- rules -------------------------------------------------------------------------
    def start(self, record: Record) -> PhilosophyState:
        tags = record.tag_dict
        state = PhilosophyState()
        if "Position" in tags:  # a set-up board, like PGN's FEN tag; players still join
            try:
                setup = self.read_position(tags["Position"])
            except NotationError as exc:
                raise TagError("Position", f"[Position]: {exc}") from None
            state.board, state.hands = setup.board, setup.hands
            state.set_up = bool(setup.board)
        for key, value in tags.items():
            if key in VARIANT_TAGS:
                variant = VARIANT_TAGS[key]
                if tag_value(value) not in VARIANTS[variant]:
                    allowed = ", ".join(f'"{v.replace("_", " ").title()}"' for v in VARIANTS[variant])
                    raise TagError(key, f"[{key} \"{value}\"]: expected one of {allowed}")
                state.variants[variant] = tag_value(value)
            elif re.fullmatch(r"Color[A-Z][a-z]", key):
                state.colour_tags[key[5:]] = value
        return state

    def apply(self, state: PhilosophyState, event: ev.Event) -> None:
        if not (isinstance(event, Placement) and event.dots):
            state.apply(event)
            return
        before = state.copy()
        state.apply(event)
        lines = len(state.conclusions())
        if lines != event.dots:  # the event is rejected as a whole
            state.__dict__.update(before.__dict__)
            raise RuleError(f"{event.dots} conclusion dot{'s' * (event.dots != 1)} written, "
                            f"but the board has {lines} line{'s' * (lines != 1)} of three",
                            "conclusion dots")

    def legal_moves(self, state: PhilosophyState, **options: Any) -> list[ev.Event]:
        if options:
            raise NotationError(f"philosophy legal moves take no options ({', '.join(options)})")
        if state.pending is not None:
            return [Choice(o) for o in state.pending.options]
        return list(state.legal_placements())

    def is_over(self, state: PhilosophyState) -> bool:
        return state.over

    def copy(self, state: PhilosophyState) -> PhilosophyState:
        return state.copy()

    def to_move(self, state: PhilosophyState) -> str | None:
        return state.to_move

    # -- positions and output ------------------------------------------------------------
    def position(self, state: PhilosophyState) -> str:
        return state.position()

    def read_position(self, text: str) -> PhilosophyState:
        """A board-state string; players and hands follow from the tiles on it."""
        state = PhilosophyState()
        last = -1
        for item in filter(None, text.strip().split("/")):
            m = _POSITION_ITEM.match(item)
            if not m or m.group(1) not in CELL:
                raise NotationError(f"{item!r} is not SPACE:XxTtDd such as C3:SaSlNo")
            space, owner, tile, facing = m.groups()
            if tile not in TILES or facing not in TILES[tile].facings:
                raise NotationError(f"{item!r}: no {tile} tile faces {facing}")
            rank = ORDER.index(space)
            if rank <= last:
                raise NotationError(f"{item!r} is out of order (C1..C9, NW, N1..N6, NE, E1..E6,"
                                    f" SE, S1..S6, SW, W1..W6)")
            last = rank
            hand = state.hands.setdefault(owner, set(TILES))
            if tile not in hand:
                raise NotationError(f"{owner} has only one {tile}")
            hand.discard(tile)
            state.board[space] = (owner, tile, facing)
            if owner not in state.order:
                state.order.append(owner)
        return state

    def state_json(self, state: PhilosophyState) -> dict[str, Any]:
        return {
            "players": [{"code": p, "name": state.names.get(p, p),
                         "hand": sorted(state.hands.get(p, ()))} for p in state.order],
            "to_move": state.to_move,
            "respect": state.respect,
            "rules": {f"{r}:{v}": value for (r, v), value in state.variants.items()},
            "placements": state.placements,
        }

    def result_tags(self, state: PhilosophyState) -> dict[str, str]:
        if not state.over:
            return {"Result": "*"}
        return {"Result": state.winner or "none"}

    def winner_words(self, state: PhilosophyState) -> list[str]:
        return [state.winner] if state.over and state.winner else []

    def player_count(self, state: PhilosophyState) -> int:
        return len(state.hands)

    def facts(self, state: PhilosophyState) -> dict[str, Any]:
        return {"ended by": state.ended_by} if state.over else {}

    def result_json(self, state: PhilosophyState) -> dict[str, Any]:
        awaiting = None
        if state.pending is not None:
            awaiting = {"player": state.mover, "kind": state.pending.kind,
                        "options": list(state.pending.options)}
        return {
            "over": state.over,
            "winners": [state.winner] if state.winner else [],
            "conclusions": [{"player": owner, "spaces": list(line)}
                            for owner, line in state.conclusions()],
            "awaiting": awaiting,
        }

    def drawing(self, state: PhilosophyState, **options: Any) -> Any:
        if options:
            raise NotationError(f"philosophy pictures take no view options ({', '.join(options)})")
        from .svg import draw
        return draw(state)

    def render(self, state: PhilosophyState, color: bool = False, **options: Any) -> str:
        if options:
            raise NotationError(f"philosophy boards take no view options ({', '.join(options)})")
        return render(state, color)

    def cells(self, state: PhilosophyState) -> dict[str, str]:
        out = {space: "".join(state.board[space]) if space in state.board else ""
               for space in ORDER}
        for p in state.order:
            out[f"{p} hand"] = " ".join(sorted(state.hands.get(p, ())))
        out["turn order"] = " ".join(state.order)
        out["respect"] = state.respect or ""
        out["awaiting"] = " ".join(state.pending.options) if state.pending else ""
        for (r, v), value in state.variants.items():
            out[f"rule:{r}:{v}"] = value
        return out

    # -- generation ----------------------------------------------------------------------
    def random_tags(self, options: Mapping[str, Any]) -> dict[str, str]:
        players = options.get("players") or 2
        if not 2 <= players <= 4:
            raise NotationError("Philosophy is for 2 to 4 players")
        return {"Game": self.name, "Players": str(players)}

    def random_events(self, rng: random.Random, record: Record,
                      max_plies: int = 400) -> list[ev.Event]:
        """Joins, then placements with their choices; now and then a respect pass,
        a rule change with a mid-game join, or a leave that removes the leaver's tiles."""
        state = self.start(record)
        players = int(record.tag_dict.get("Players", "2"))
        pool = ["In", "Te", "Am", "Sa"]
        rng.shuffle(pool)
        out: list[ev.Event] = []

        def play(event: ev.Event) -> None:
            self.apply(state, event)
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
            moves = state.legal_placements()
            if not moves:
                break  # the centre is full or the player's hand is empty: the game stalls
            move = rng.choice(moves)
            if rng.random() < 0.5:  # write the choices in brackets where possible
                trial = state.copy()
                trial.apply(move)
                params = []
                while trial.pending is not None and rng.random() < 0.8:
                    option = rng.choice(trial.pending.options)
                    trial.apply(Choice(option))
                    params.append(option)
                move = move._replace(params=tuple(params), closed=trial.pending is None)
            play(move)
            lines = len(state.conclusions())
            if lines:
                out[-1] = move._replace(dots=lines)
        return out

    # -- conversion ------------------------------------------------------------------------
    def convert(self, record: Record, **options: Any) -> Record:
        """``choices="inline"`` folds bare choices into brackets; ``"separate"`` splits them."""
        choices = options.pop("choices", None)
        if choices not in ("inline", "separate") or options:
            raise NotationError("philosophy converts with --choices inline or --choices separate")
        try:
            state = self.start(record)
        except TagError as exc:
            raise NotationError(exc.message) from None
        items: list[Any] = []
        open_placement: int | None = None  # index in items of the placement taking choices
        deferred: list[Any] = []           # events between a placement and its choices
        ply = 0
        for item in record.items:
            if not isinstance(item, EventNode):
                (deferred if open_placement is not None else items).append(item)
                continue
            event = item.event
            ply += 1
            # A choice can carry no dots: a placement whose dots count lines made by its
            # bracket choices stays as it is ("separate where possible").
            before = (state.copy() if choices == "separate" and isinstance(event, Placement)
                      and event.dots else None)
            try:
                self.apply(state, event)
            except RuleError as exc:
                raise NotationError(f"cannot convert past ply {ply} ({item.text}): "
                                    f"{exc.message}") from None
            if isinstance(event, Placement):
                items.extend(deferred)
                deferred = []
                if choices == "separate":
                    bare = event._replace(params=(), closed=False,
                                          options=None if event.params else event.options)
                    if before is not None:
                        before.apply(bare)
                    if before is None or len(before.conclusions()) == event.dots:
                        items.append(EventNode(bare, None, item.pos, str(bare)))
                        items.extend(EventNode(Choice(p), None, item.pos, p)
                                     for p in event.params)
                    else:
                        items.append(item)
                    open_placement = None
                else:
                    items.append(item)
                    open_placement = len(items) - 1
                self._close(items, open_placement, state)
                continue
            if isinstance(event, Choice) and choices == "inline" and open_placement is not None:
                node = items[open_placement]
                placement = node.event._replace(params=node.event.params + (event.option,))
                items[open_placement] = EventNode(placement, None, node.pos, str(placement))
                self._close(items, open_placement, state)
                continue
            if open_placement is not None and not isinstance(event, Choice):
                deferred.append(item)
            else:
                items.append(item)
        items.extend(deferred)
        return Record(record.game, list(record.tags), items, record.index, record.source,
                      record.pos)

    def _close(self, items: list[Any], index: int | None, state: PhilosophyState) -> None:
        """Brackets closed once no choice is open; options listed while one is."""
        if index is None:
            return
        node = items[index]
        placement = node.event
        pending = state.pending is not None and state.mover == placement.player
        placement = placement._replace(
            closed=not pending and bool(placement.params),
            options=state.pending.options if pending else None,
            dots=len(state.conclusions()) if not pending and placement.dots else placement.dots)
        items[index] = EventNode(placement, None, node.pos, str(placement))
