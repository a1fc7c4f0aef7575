"""Tilewe behind the core's :class:`~notation.core.game.Game` interface."""
from __future__ import annotations

from typing import Any, Mapping

from notation.core.ast import Record
from notation.core.errors import NotationError, TagError
from notation.core.game import Game
from notation.core.limits import is_whole, shorten

from . import position
from .board import COLORS, Board
from .moves import Move, diagnose, read_move, square_name
from .pieces import PIECE_NAMES
from .render import render


class Tilewe(Game):
    name = "tilewe"
    title = "Tilewe, the Blokus-like tile game (1-4 players), moves like F5e-a2d4"
    extensions = (".tilewe",)
    grammar = "tilewe.lark"
    tags = {
        "Game": '"tilewe"',
        "Players": "number of players, 1 to 4 (default 4); colours blue, yellow, red, green",
        "Position": "a set-up position in TPN to start from (the players are its hands)",
        "Result": '"*" while the game goes on, else the winners\' colours ("blue", "blue red")',
        "Scores": 'every player\'s score (tiles placed) at the record\'s end, e.g. "66 56 53 60"',
    }

    # -- notation -------------------------------------------------------------
    def read_event(self, kind: str, text: str) -> Move:
        return read_move(text)

    def diagnose(self, text: str) -> str:
        return diagnose(text)


    setup_positions = True

    # -- rules ----------------------------------------------------------------
    def start(self, record: Record) -> Board:
        tags = record.tag_dict
        if "Position" in tags:  # a set-up board (TPN), like PGN's FEN tag
            try:
                board = position.read(tags["Position"])
            except NotationError as exc:
                raise TagError("Position", f"[Position]: {exc}") from None
            if "Players" in tags and tags["Players"] != str(board.players):
                raise TagError("Players", f"[Players \"{shorten(tags['Players'])}\"] but the "
                                          f"[Position] has {board.players} hands")
            return board
        value = tags.get("Players", "4")
        if not (is_whole(value) and 1 <= int(value) <= 4):
            raise TagError("Players", f"[Players \"{shorten(value)}\"]: Tilewe is for 1 to 4 "
                                      f"players")
        return Board(int(value))

    def apply(self, state: Board, event: Move) -> None:
        state.push(event)

    def event_reader(self, kind: str) -> Any:
        return read_move

    def applier(self, state: Board) -> Any:
        return state.push

    def result_tags(self, state: Board) -> dict[str, str]:
        over = state.to_move() is None
        return {"Result": " ".join(COLORS[p] for p in state.winners()) if over else "*",
                "Scores": " ".join(map(str, state.scores()))}

    def legal_moves(self, state: Board, **options: Any) -> list[Move]:
        if options:
            raise NotationError(f"tilewe legal moves take no options ({', '.join(options)})")
        return state.legal_moves()

    def is_over(self, state: Board) -> bool:
        return state.to_move() is None

    def copy(self, state: Board) -> Board:
        return state.copy()

    def to_move(self, state: Board) -> str | None:
        mover = state.to_move()
        return None if mover is None else COLORS[mover]

    def winner_words(self, state: Board) -> list[str]:
        return [COLORS[p] for p in state.winners()] if state.to_move() is None else []

    def player_count(self, state: Board) -> int:
        return state.players

    def facts(self, state: Board) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for p, score in enumerate(state.scores()):
            out[f"{COLORS[p]} score"] = score
            out[f"{COLORS[p]} pieces left"] = len(state.remaining(p))
        return out

    # -- positions and output -------------------------------------------------
    def position(self, state: Board) -> str:
        return position.write(state)

    def read_position(self, text: str) -> Board:
        return position.read(text)

    def state_json(self, state: Board) -> dict[str, Any]:
        rows = []
        for y in range(19, -1, -1):
            rows.append("".join("." if (c := state.color_at(x + 20 * y)) is None else str(c)
                                for x in range(20)))
        mover = state.to_move()
        return {
            "board": rows,
            "players": state.players,
            "to_move": mover,
            "ply": state.ply,
            "pieces_left": [[PIECE_NAMES[i] for i in state.remaining(p)]
                            for p in range(state.players)],
        }

    def result_json(self, state: Board) -> dict[str, Any]:
        return {"over": state.to_move() is None, "scores": state.scores(),
                "winners": state.winners()}

    def drawing(self, state: Board, **options: Any) -> Any:
        if options:
            raise NotationError(f"tilewe pictures take no view options ({', '.join(options)})")
        from .svg import draw
        return draw(state)

    def render(self, state: Board, color: bool = False, **options: Any) -> str:
        if options:
            raise NotationError(f"tilewe boards take no view options ({', '.join(options)})")
        return render(state, color)

    def cells(self, state: Board) -> dict[str, str]:
        out = {}
        for s in range(400):  # every square, "" when empty, so diffs keep board order
            owner = state.color_at(s)
            out[square_name(s)] = "" if owner is None else COLORS[owner]
        mover = state.to_move()
        out["to move"] = "nobody (game over)" if mover is None else COLORS[mover]
        for p in range(state.players):
            out[f"{COLORS[p]} pieces left"] = " ".join(PIECE_NAMES[i] for i in state.remaining(p))
        return out

    # -- symmetries -------------------------------------------------------------
    def convert(self, record: Record, **options: Any) -> Record:
        """``transform=rot90|rot180|rot270|flip-h|flip-v|flip-d|flip-a``: the same game on a
        turned or mirrored board (every move rewritten; comments kept)."""
        from dataclasses import replace

        from notation.core.ast import EventNode

        from .symmetry import NAMES, transform_move
        name = options.pop("transform", None)
        if name not in NAMES or options:
            raise NotationError(f"tilewe converts with --transform {'|'.join(NAMES)}")
        if "Position" in record.tag_dict:
            raise NotationError("a record set up from a [Position] cannot be transformed here")
        items = [EventNode(transform_move(name, i.event), i.number, i.pos)
                 if isinstance(i, EventNode) else i for i in record.items]
        return replace(record, body=items, unread=False)

    def quick_keys(self, words: list[str]) -> list[str] | None:
        """``event_keys`` straight from the words as written, when every one is already a
        valid move in canonical spelling (words seen before are set lookups)."""
        from .moves import are_canonical
        return words if are_canonical(words) else None

    def symmetric_keys(self, record: Record) -> list[str]:
        """The record's events in the one of its 8 images that sorts first (for dedupe)."""
        from .symmetry import TRANSFORMS, transform_move
        events = record.events
        return min([self.format_event(transform_move(name, e)) for e in events]
                   for name in TRANSFORMS)

    # -- generation -----------------------------------------------------------
    def random_tags(self, options: Mapping[str, Any]) -> dict[str, str]:
        players = options.get("players") or 4
        if not 1 <= players <= 4:
            raise NotationError("Tilewe is for 1 to 4 players")
        return {"Game": self.name, "Players": str(players)}
