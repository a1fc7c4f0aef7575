"""What a game tree's node says about its move in words: its comment text, its comment
commands (``[%clk 0:01:30]``) and the clock and evaluation values read from them.

A node keeps the comments it was read from (:class:`Written`) beside the values it
read, so a node nobody changed is written back exactly as it stood (``{idea}`` stays
``{idea}``, a line comment stays one); a changed node is written afresh by
:func:`fresh_comments`.
"""
from __future__ import annotations

import math
import re
from typing import Iterable

from .ast import COMMAND, Comment
from .errors import NotationError
from .hand_dataclass import hand_dataclass

#: What a command may hold to be written back and read the same: a key as the reader
#: takes it, a value without brackets, braces or line breaks.
COMMAND_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_BAD_VALUE = re.compile(r"[\[\]{}\n]")
#: ``H:MM:SS``, ``MM:SS`` or ``H:MM:SS.fff``: a ``[%clk]`` value.
_CLOCK = re.compile(r"(?:([0-9]{1,6}):)?([0-9]{1,2}):([0-9]{1,2}(?:\.[0-9]{1,9})?)")
#: A ``[%eval]`` value: a signed decimal (a mate score such as ``#3`` is no float).
_EVAL = re.compile(r"[+-]?(?:[0-9]{1,9}(?:\.[0-9]{0,9})?|\.[0-9]{1,9})")


def remark_of(comments: Iterable[Comment]) -> str:
    """The comments' texts without their commands, joined with a space (empty ones left
    out): several comments after one move read as one."""
    return " ".join(text for text in (c.remark for c in comments) if text)


def commands_of(comments: Iterable[Comment]) -> dict[str, str]:
    """The comments' commands in order; a key given again keeps its last value, as
    within one comment."""
    found: dict[str, str] = {}
    for comment in comments:
        found.update(comment.commands)
    return found


@hand_dataclass(frozen=True)
class Written:
    """Comments as they stood in a record, and what they read as: reused on writing while
    the node still says exactly that."""

    comments: tuple[Comment, ...]
    remark: str
    commands: tuple[tuple[str, str], ...]

    def __init__(self, comments: tuple[Comment, ...], remark: str,
                 commands: tuple[tuple[str, str], ...]) -> None:
        object.__setattr__(self, "comments", comments)
        object.__setattr__(self, "remark", remark)
        object.__setattr__(self, "commands", commands)

    @classmethod
    def of(cls, comments: list[Comment]) -> Written:
        return cls(tuple(comments), remark_of(comments), tuple(commands_of(comments).items()))

    def says(self, remark: str, commands: dict[str, str]) -> bool:
        return self.remark == remark and self.commands == tuple(commands.items())


def fresh_comments(remark: str, commands: dict[str, str]) -> list[Comment]:
    """Comments that read back as ``remark`` and ``commands``: one brace comment, commands
    first (PGN's way); a remark a brace comment cannot hold as text (a ``}``, or words
    that read as a command) goes in a line comment of its own."""
    for key, value in commands.items():
        if not COMMAND_KEY.fullmatch(key) or _BAD_VALUE.search(value) or value != value.strip():
            raise NotationError(f"the command [%{key} {value}] cannot be written in a comment")
    words = " ".join(remark.split())  # blanks read back as one space anyway
    if "}" in words or COMMAND.search(words):
        head = [Comment.make("", commands)] if commands else []
        return [*head, Comment(f" {words}", False)]
    if not words and not commands:
        return []
    return [Comment.make(words, commands)]


def read_clock(value: str | None) -> float | None:
    """A ``[%clk]`` value in seconds; None when there is none or it is not a clock."""
    m = _CLOCK.fullmatch(value.strip()) if value is not None else None
    if m is None:
        return None
    hours, minutes, seconds = m.groups()
    return int(hours or 0) * 3600 + int(minutes) * 60 + float(seconds)


def write_clock(seconds: float) -> str:
    """Seconds as a ``[%clk]`` value, ``H:MM:SS`` (milliseconds after a point if any)."""
    if not math.isfinite(seconds) or seconds < 0:
        raise ValueError(f"a clock holds a time left, not {seconds!r}")
    millis = round(seconds * 1000)
    whole, millis = divmod(millis, 1000)
    hours, rest = divmod(whole, 3600)
    text = f"{hours}:{rest // 60:02d}:{rest % 60:02d}"
    return f"{text}.{millis:03d}".rstrip("0") if millis else text


def read_eval(value: str | None) -> float | None:
    """An ``[%eval]`` value as a number; None when there is none or it is no decimal."""
    if value is None or not _EVAL.fullmatch(value.strip()):
        return None
    return float(value)


def write_eval(value: float) -> str:
    """A number as an ``[%eval]`` value, two decimals (PGN's pawns and hundredths)."""
    if not math.isfinite(value):
        raise ValueError(f"an evaluation is a finite number, not {value!r}")
    return f"{value:.2f}"
