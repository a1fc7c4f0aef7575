"""Sanguine behind the core's :class:`~notation.core.game.Game` interface."""
from __future__ import annotations

import os
import random
import re
from importlib import resources
from typing import Any, Mapping

from notation.core.ast import Directive, EventNode, Record, Tag
from notation.core.errors import InputError, NotationError, TagError
from notation.core.game import Game
from notation.core.limits import is_whole, shorten, whole

from . import events as ev
from .deck import Card, Deck, DeckError, load_deck, load_deck_beside, parse_deck
from .engine import SanguineState
from .events import SIDE_NAMES, Deal, Draw, Pass, Place, Result

_CELL = re.compile(r"\.|[rb][1-3]|[RB]:[^\s,/]+")


def _int_tag(tags: Mapping[str, str], key: str) -> int:
    value = tags.get(key)
    if value is None:
        raise TagError(key, f"the [{key}] tag is required")
    try:
        return whole(value.strip(), f"[{key}]", signed=True)
    except NotationError as exc:
        raise TagError(key, str(exc)) from None



#: The decks installed with the package (``notation.samples``), by name.
BUNDLED_DECKS = ("ember", "legion", "skirmish", "tide")


def bundled_deck(name: str) -> str:
    """A deck file's path: ``name`` itself when it is a file, else the bundled deck of that
    name (``legion``), so ``notation random sanguine`` works wherever the package is."""
    if os.path.exists(name) or name not in BUNDLED_DECKS:
        return name
    return str(resources.files("notation.samples") / "sanguine" / "decks" / f"{name}.deck")

class Sanguine(Game):
    name = "sanguine"
    title = "Sanguine (PawnsBoard), a two-player card game on a grid, events like R place Spark (1,0)"
    extensions = (".sanguine", ".sgr")
    grammar = "sanguine.lark"
    directives = frozenset({"DECK_BLOCK"})
    event_per_line = True
    numbered = False
    tags = {
        "Game": '"Sanguine"',
        "Rows": "board rows, at least 1 (required)",
        "Cols": "board columns, odd and at least 3 (required)",
        "HandSize": "starting hand H, 1 <= H and 3H <= each deck's size (required)",
        "RedDeck": 'deck file path relative to the record, or "inline" (then a deck R block)',
        "BlueDeck": 'likewise for Blue ("inline": a deck B block)',
        "Order": '"recorded" (default): deals and draws are any cards left; "file": file order',
        "Perspective": '"blue": place columns are written from Blue\'s side (mirrored)',
        "Result": '"*" or "RED-BLUE red|blue|tie"; when the game is over it must match',
    }

    # -- notation ---------------------------------------------------------------------
    def read_event(self, kind: str, text: str) -> ev.Event:
        return ev.read(kind, text)

    def diagnose(self, text: str) -> str:
        return ev.diagnose(text)


    # -- setup ---------------------------------------------------------------------------
    def _deck(self, record: Record, side: int) -> Deck:
        key = ("RedDeck", "BlueDeck")[side]
        value = record.tag_dict.get(key)
        if value is None:
            raise TagError(key, f"the [{key}] tag is required")
        blocks = [d for d in record.items if isinstance(d, Directive)
                  and re.match(rf"deck[ \t]+{'RB'[side]}\b", d.text)]
        if value == "inline":
            if len(blocks) != 1:
                raise TagError(key, f"[{key} \"inline\"] needs exactly one deck {'RB'[side]} "
                                    f"block, found {len(blocks)}")
            block = blocks[0]
            lines = block.text.split("\n")
            if len(lines) < 2 or lines[-1].strip() != "enddeck":
                raise TagError(key, f"the deck {'RB'[side]} block at line {block.pos.line} is "
                                    f"never closed: a line that is enddeck alone must end it")
            source = f"{record.source} (deck {'RB'[side]} block)"
            try:
                return parse_deck("\n".join(lines[1:-1]), source, block.pos.line + 1)
            except DeckError as exc:
                problem = exc.problems[0]
                raise TagError(key, f"{record.source}:{problem.line}: {problem.message}") from None
        if blocks:
            raise TagError(key, f"a deck {'RB'[side]} block is given but [{key}] names a file")
        try:
            return load_deck_beside(record.source, value)
        except InputError as exc:
            raise TagError(key, f"{SIDE_NAMES[side]} deck {shorten(value)!r}: {exc.message}") from None
        except DeckError as exc:
            # The file is named by the record, not by the user: say where, quote nothing of it.
            count = len(exc.problems)
            lines = ", ".join(str(p.line) for p in exc.problems[:5])
            raise TagError(key, f"{SIDE_NAMES[side]} deck {value!r} is not a valid deck "
                                f"({count} problem{'s' * (count != 1)}, line{'s' * (count != 1)} "
                                f"{lines}{', ...' if count > 5 else ''}); see: notation deck "
                                f"check {exc.source}") from None

    def start(self, record: Record) -> SanguineState:
        tags = record.tag_dict
        rows, cols, hand = _int_tag(tags, "Rows"), _int_tag(tags, "Cols"), _int_tag(tags, "HandSize")
        if rows < 1:
            raise TagError("Rows", f"Rows must be at least 1, got {rows}")
        if cols < 3 or cols % 2 == 0:
            raise TagError("Cols", f"Cols must be odd and at least 3, got {cols}")
        order = tags.get("Order", "recorded")
        if order not in ("recorded", "file"):
            raise TagError("Order", f'[Order "{order}"]: expected "recorded" or "file"')
        view = tags.get("Perspective", "red")
        if view not in ("red", "blue"):
            raise TagError("Perspective", f'[Perspective "{view}"]: expected "red" or "blue"')
        result = tags.get("Result", "*")
        if result != "*" and not re.fullmatch(r"[0-9]+-[0-9]+ (red|blue|tie)", result):
            raise TagError("Result", f'[Result "{result}"]: expected "*" or "RED-BLUE red|blue|tie"')
        decks = (self._deck(record, 0), self._deck(record, 1))
        for side, deck in enumerate(decks):
            key = ("RedDeck", "BlueDeck")[side]
            if len(deck) < rows * cols:
                raise TagError(key, f"{SIDE_NAMES[side]} deck has {len(deck)} cards; a {rows}x{cols} "
                                    f"board needs at least {rows * cols}")
            if hand < 1 or 3 * hand > len(deck):
                raise TagError("HandSize", f"HandSize {hand} must be at least 1 and at most a third "
                                           f"of the {SIDE_NAMES[side]} deck ({len(deck)} cards, "
                                           f"max {len(deck) // 3})")
        return SanguineState(rows, cols, hand, decks, order == "file", view == "blue")

    def apply(self, state: SanguineState, event: ev.Event) -> None:
        state.apply(event)

    def result_tags(self, state: SanguineState) -> dict[str, str]:
        """``[Result]``: ``"*"`` until the game is over, then ``"RED-BLUE winner"`` (4.2, 7.1.8)."""
        return {"Result": state.result_text() if state.over else "*"}

    def winner_words(self, state: SanguineState) -> list[str]:
        return state.winners() if state.over else []

    def player_count(self, state: SanguineState) -> int:
        return 2

    def facts(self, state: SanguineState) -> dict[str, Any]:
        red, blue = state.totals()
        return {"red score": red, "blue score": blue}

    def legal_moves(self, state: SanguineState, **options: Any) -> list[ev.Event]:
        if options:
            raise NotationError(f"sanguine legal moves take no options ({', '.join(options)})")
        if state.over:
            return []
        side = state.to_move
        if not all(state.dealt):
            return []
        if state.draw_due():  # the turn begins with a draw: any card left may come
            return [Draw(side, name) for name in sorted(state.left[side]) if state.left[side][name]]
        moves: list[ev.Event] = state.placements(side)
        if state.mirrored:
            moves = [m._replace(col=state.cols - 1 - m.col) for m in moves]
        return moves + [Pass(side)]

    def is_over(self, state: SanguineState) -> bool:
        return state.over

    def copy(self, state: SanguineState) -> SanguineState:
        return state.copy()

    def to_move(self, state: SanguineState) -> str | None:
        return None if state.over else SIDE_NAMES[state.to_move]

    # -- views ------------------------------------------------------------------------------
    @staticmethod
    def _token(cell) -> str:
        if cell is None:
            return "."
        owner, content = cell
        if isinstance(content, Card):
            return f"{'RB'[owner]}:{content.name}"
        return f"{'rb'[owner]}{content}"

    def position(self, state: SanguineState) -> str:
        """Cells row by row (``/`` between rows, ``,`` between cells), to-move, passes."""
        rows = "/".join(",".join(self._token(c) for c in row) for row in state.board)
        return f"{rows} {'-' if state.over else SIDE_NAMES[state.to_move]} {state.passes}"

    def read_position(self, text: str) -> SanguineState:
        """A board without decks (card values unknown): enough to diff cells."""
        fields = text.split()
        if len(fields) != 3 or fields[1] not in ("red", "blue", "-") or not is_whole(fields[2]):
            raise NotationError("a Sanguine position is CELLS TO-MOVE PASSES, e.g. "
                                "'r1,.,b1/r1,.,b1 red 0'")
        rows = [r.split(",") for r in fields[0].split("/")]
        cols = len(rows[0])
        if any(len(r) != cols for r in rows) or cols < 3 or cols % 2 == 0:
            raise NotationError("every row needs the same odd number (3 or more) of cells")
        state = SanguineState(len(rows), cols, 1, (Deck("-", []), Deck("-", [])))
        for r, row in enumerate(rows):
            for c, token in enumerate(row):
                if not _CELL.fullmatch(token):
                    raise NotationError(f"cell ({r},{c}) {token!r} is not ., r1-r3, b1-b3, R:NAME or B:NAME")
                if token == ".":
                    state.board[r][c] = None
                elif ":" in token:
                    state.board[r][c] = ("RB".index(token[0]), Card(token[2:], 1, 0, ()))
                else:
                    state.board[r][c] = ("rb".index(token[0]), int(token[1]))
        state.over = fields[1] == "-"
        state.to_move = 0 if fields[1] != "blue" else 1
        state.passes = int(fields[2])
        state.dealt = [True, True]
        return state

    def basic_view(self, state: SanguineState) -> str:
        lines = []
        for row, (red, blue) in zip(state.board, state.row_scores()):
            cells = "".join("_" if c is None else ("RB"[c[0]] if isinstance(c[1], Card) else str(c[1]))
                            for c in row)
            lines.append(f"{red} {cells} {blue}")
        return "\n".join(lines)

    def full_view(self, state: SanguineState) -> str:
        lines = [f"game sanguine {state.rows}x{state.cols} hand-size {state.hand_size}",
                 f"turn {state.turn} to-move {'-' if state.over else SIDE_NAMES[state.to_move]} "
                 f"passes {state.passes} status {'over' if state.over else 'playing'}"]
        for side, label in ((0, "red "), (1, "blue")):
            hand = " ".join(sorted(state.hands[side].elements()))
            lines.append(f"{label} deck {sum(state.left[side].values())} hand {hand}".rstrip())
        for r, (row, (red, blue)) in enumerate(zip(state.board, state.row_scores())):
            cells = " ".join(self._token(c) for c in row)
            lines.append(f"row {r}: {cells} | red {red} blue {blue}")
        red, blue = state.totals()
        lines.append(f"score red {red} blue {blue}")
        if state.over:
            lines.append(f"result {state.result_text()}")
        return "\n".join(lines)

    def drawing(self, state: SanguineState, **options: Any) -> Any:
        """The board as Red sees it, or mirrored with ``perspective="blue"``."""
        perspective = str(options.pop("perspective", None) or "red").lower()
        if options or perspective not in SIDE_NAMES:
            raise NotationError("sanguine pictures take --perspective red or blue")
        from .svg import draw
        return draw(state, SIDE_NAMES.index(perspective))

    def render(self, state: SanguineState, color: bool = False, **options: Any) -> str:
        view = options.pop("view", "full")
        if options or view not in ("basic", "full"):
            raise NotationError("sanguine boards take --view basic or --view full")
        return self.basic_view(state) if view == "basic" else self.full_view(state)

    def state_json(self, state: SanguineState) -> dict[str, Any]:
        def cell(c):
            if c is None:
                return None
            if isinstance(c[1], Card):
                return {"owner": SIDE_NAMES[c[0]], "card": c[1].name}
            return {"owner": SIDE_NAMES[c[0]], "pawns": c[1]}
        return {
            "board": [[cell(c) for c in row] for row in state.board],
            "hands": {SIDE_NAMES[s]: sorted(state.hands[s].elements()) for s in (0, 1)},
            "decks": {SIDE_NAMES[s]: sum(state.left[s].values()) for s in (0, 1)},
            "row_scores": [list(rs) for rs in state.row_scores()],
            "to_move": self.to_move(state),
            "turn": state.turn,
            "passes": state.passes,
        }

    def result_json(self, state: SanguineState) -> dict[str, Any]:
        red, blue = state.totals()
        return {"over": state.over, "scores": [red, blue],
                "winners": state.winners() if state.over else []}

    def cells(self, state: SanguineState) -> dict[str, str]:
        out = {f"({r},{c})": self._token(cell) for r, row in enumerate(state.board)
               for c, cell in enumerate(row)}
        for s in (0, 1):
            out[f"{SIDE_NAMES[s]} hand"] = " ".join(sorted(state.hands[s].elements()))
            out[f"{SIDE_NAMES[s]} deck"] = str(sum(state.left[s].values()))
        for r, (red, blue) in enumerate(state.row_scores()):
            out[f"row {r} scores"] = f"red {red} blue {blue}"
        red, blue = state.totals()
        out["totals"] = f"red {red} blue {blue}"
        out["to move"] = self.to_move(state) or "nobody (game over)"
        return out

    # -- generation -------------------------------------------------------------------------
    def random_record(self, rng: random.Random, options: Mapping[str, Any]) -> Record:
        """A complete random game; both decks inline, so the record stands alone."""
        rows, cols = options.get("rows") or 5, options.get("cols") or 7
        try:
            decks = [load_deck(bundled_deck(options.get(side) or "legion"))
                     for side in ("red", "blue")]
        except (InputError, DeckError) as exc:
            raise NotationError(str(exc)) from None
        hand = options.get("hand_size") or max(1, min(3, min(len(d) for d in decks) // 3))
        tags = {"Game": "Sanguine", "Rows": str(rows), "Cols": str(cols), "HandSize": str(hand),
                "RedDeck": "inline", "BlueDeck": "inline", "Order": "recorded"}
        items: list[Any] = [Directive("DECK_BLOCK", f"deck {'RB'[s]}\n{decks[s].text()}enddeck")
                            for s in (0, 1)]
        record = Record(self.name, [Tag(k, v) for k, v in tags.items()], items)
        try:
            state = self.start(record)
        except TagError as exc:
            raise NotationError(exc.message) from None
        events: list[ev.Event] = []

        def play(event: ev.Event) -> None:
            state.apply(event)
            events.append(event)

        for side in (0, 1):
            pool = list(state.left[side].elements())
            rng.shuffle(pool)
            play(Deal(side, tuple(pool[:hand])))
        while not state.over:
            side = state.to_move
            if state.draw_due():
                play(Draw(side, rng.choice(sorted(state.left[side].elements()))))
            moves = state.placements(side)
            play(rng.choice(moves) if moves and rng.random() < 0.9 else Pass(side))
        play(Result(*state.totals(), state.result_text().split()[1]))
        record.items += [EventNode(e) for e in events]
        return record

    # -- perspective ---------------------------------------------------------------------------
    def convert(self, record: Record, **options: Any) -> Record:
        """``perspective="blue"`` writes place columns from Blue's side; ``"red"`` back."""
        target = options.pop("perspective", None)
        if target not in ("red", "blue") or options:
            raise NotationError("sanguine converts with --perspective red or --perspective blue")
        tags = record.tag_dict
        current = tags.get("Perspective", "red")
        try:
            cols = _int_tag(tags, "Cols")
        except TagError as exc:
            raise NotationError(f"{exc.message}; it is needed to mirror columns") from None
        items = []
        for item in record.items:
            if (isinstance(item, EventNode) and isinstance(item.event, Place)
                    and current != target):
                new = item.event._replace(col=cols - 1 - item.event.col)
                item = EventNode(new, item.number, item.pos, str(new))
            items.append(item)
        new_tags = [t for t in record.tags if not (isinstance(t, Tag) and t.key == "Perspective")]
        if target == "blue":
            new_tags.append(Tag("Perspective", "blue"))
        return Record(record.game, new_tags, items, record.index, record.source, record.pos)
