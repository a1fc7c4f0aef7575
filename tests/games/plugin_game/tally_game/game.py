"""The rules and notation of Tally, behind notation's Game interface."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from notation.core.ast import Record
from notation.core.errors import NotationError, RuleError, TagError
from notation.core.game import Game
from notation.core.grammars import terminal_pattern
from notation.core.svg import Drawing

from . import PLUGIN


@dataclass
class Total:
    goal: int
    total: int = 0
    ply: int = 0


class Tally(Game[Total, int]):
    name = "tally"
    title = "Tally, a counting game for two (a third-party plug-in)"
    extensions = PLUGIN.extensions
    options = PLUGIN.options
    grammar = "tally.lark"
    grammar_package = "tally_game"
    tags = {"Game": '"tally"', "Goal": "the total that wins (default 10)",
            "Result": '"*" while the game goes on, else "A" or "B"'}

    def read_event(self, kind: str, text: str) -> int:
        found = terminal_pattern(self.grammar, "ADD", self.grammar_package).fullmatch(text)
        if found is None:
            raise NotationError(f"not an addition: {text!r}")
        return int(found.group("amount"))

    def format_event(self, event: int) -> str:
        return f"+{event}"

    def diagnose(self, text: str) -> str:
        return f"{text!r} is not +1 or +2"

    def start(self, record: Record) -> Total:
        goal = record.headers.get("Goal", "10")
        if not goal.isdigit() or not 2 <= int(goal) <= 99:
            raise TagError("Goal", f"goal must be 2..99, not {goal!r}")
        return Total(int(goal))

    def apply(self, state: Total, event: int) -> None:
        if self.is_over(state):
            raise RuleError("the game is over", "game over")
        if state.total + event > state.goal:
            raise RuleError(f"{state.total} + {event} passes {state.goal}", "no overshoot")
        state.total += event
        state.ply += 1

    def legal_moves(self, state: Total, **options: Any) -> list[int]:
        if options:
            raise NotationError(f"tally has no option {sorted(options)[0]}")
        return [] if self.is_over(state) else [n for n in (1, 2)
                                                if state.total + n <= state.goal]

    def is_over(self, state: Total) -> bool:
        return state.total == state.goal

    def copy(self, state: Total) -> Total:
        return Total(state.goal, state.total, state.ply)

    def to_move(self, state: Total) -> str | None:
        return None if self.is_over(state) else "AB"[state.ply % 2]

    def winner_words(self, state: Total) -> list[str]:
        return ["AB"[(state.ply - 1) % 2]] if self.is_over(state) else []

    def result_tags(self, state: Total) -> dict[str, str]:
        return {"Result": self.winner_words(state)[0] if self.is_over(state) else "*"}

    def position(self, state: Total) -> str:
        return f"{state.total}/{state.goal}/{state.ply}"

    def read_position(self, text: str) -> Total:
        parts = text.split("/")
        if len(parts) != 3 or not all(p.isdigit() for p in parts):
            raise NotationError(f"a tally position is TOTAL/GOAL/PLY, not {text!r}")
        return Total(int(parts[1]), int(parts[0]), int(parts[2]))

    def state_json(self, state: Total) -> dict[str, Any]:
        return {"total": state.total, "goal": state.goal, "to_move": self.to_move(state)}

    def result_json(self, state: Total) -> dict[str, Any]:
        return {"over": self.is_over(state), "winners": self.winner_words(state)}

    def render(self, state: Total, color: bool = False, **options: Any) -> str:
        return f"total {state.total} of {state.goal}"

    def drawing(self, state: Total, **options: Any) -> Drawing:
        picture = Drawing(120, 30, f"tally {self.position(state)}")
        picture.text(10, 20, f"{state.total} / {state.goal}")
        return picture

    def cells(self, state: Total) -> dict[str, str]:
        return {"total": str(state.total), "to move": self.to_move(state) or "nobody"}

    def random_tags(self, options: Mapping[str, Any]) -> dict[str, str]:
        return {"Game": self.name, "Goal": str(options.get("goal") or 10)}
