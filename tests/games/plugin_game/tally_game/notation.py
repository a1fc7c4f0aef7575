"""How Tally is written (notation's Notation protocol): ``+1`` or ``+2``, and a position
``TOTAL/GOAL/PLY``."""
from __future__ import annotations

from notation.core.errors import NotationError
from notation.read.grammars import terminal_pattern

from . import SPEC
from .rules import Total


def read_add(text: str) -> int:
    found = terminal_pattern(SPEC.grammar, "ADD", SPEC.grammar_package).fullmatch(text)
    if found is None:
        raise NotationError(f"not an addition: {text!r}")
    return int(found.group("amount"))


#: The reader of each event terminal of tally.lark.
readers = {"ADD": read_add}
event_types: tuple[type, ...] = (int,)


def format_event(event: int, /) -> str:
    return f"+{event}"


def diagnose(text: str, /) -> str:
    return f"{text!r} is not +1 or +2"


def read_position(text: str, /) -> Total:
    parts = text.split("/")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        raise NotationError(f"a tally position is TOTAL/GOAL/PLY, not {text!r}")
    return Total(int(parts[1]), int(parts[0]), int(parts[2]))


def write_position(state: Total, /) -> str:
    return f"{state.total}/{state.goal}/{state.ply}"
