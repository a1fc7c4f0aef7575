"""Errors and problems with positions.

Two families: exceptions, every one a :class:`Error` (what ``except
notation.Error`` catches), among them those a game raises while reading or
applying one event (:class:`NotationError`, :class:`RuleError`,
:class:`TagError`); and the :class:`Problem` records the replay driver makes
of them, which know where in the file they happened and print as
``FILE:LINE:COL: error: ...``.
"""
from __future__ import annotations

import re
from dataclasses import asdict, replace
from enum import StrEnum
from typing import Any

from .hand_dataclass import hand_dataclass

EVENT_CHARS = 80
MESSAGE_CHARS = 400


#: How much of an offending text a message quotes.
QUOTE_CHARS = 60


def shorten(text: str, limit: int = QUOTE_CHARS) -> str:
    """``text`` cut to ``limit`` characters with a note of how long it was."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}...({len(text):,} characters)"


def rule_anchor(rule: str) -> str:
    """The rule's entry in the handbook's rule catalogue (``docs/catalogue.md``), so an
    editor can link an error to it: ``on the board`` is ``rule-on-the-board``, ``112.4``
    ``rule-112-4`` (lower case, each run of other characters one ``-``)."""
    return "rule-" + re.sub(r"[^a-z0-9]+", "-", rule.lower()).strip("-")


#: Between a variation and the one it is in, in a problem's ``variation`` path.
WITHIN = " in "


def variation_place(path: str) -> str:
    """A variation's path as one line says it, as long at any depth: a variation of the
    mainline as it is (``variation 2 after ply 9``), a nested one by the innermost, its
    depth and the mainline's variation it is in (``variation 1 after ply 34 at depth 12
    (in variation 2 after ply 9 of the mainline)``): the whole path, 64 deep, would make
    a line of thousands of characters."""
    steps = path.split(WITHIN)
    if len(steps) == 1:
        return path
    return f"{steps[0]} at depth {len(steps)} (in {steps[-1]} of the mainline)"


class Error(Exception):
    """The root of every exception notation raises on purpose."""


class ProblemKind(StrEnum):
    """What sort of thing is wrong (the JSON ``kind``: its value)."""

    SYNTAX = "syntax"      # the text does not read as a record of the game
    RULE = "rule"          # it reads, but the rules forbid it
    INTERNAL = "internal"  # a bug of ours, reported where it struck


class NotationError(Error, ValueError):
    """Text that does not denote an event, position or tag of the game."""


class RuleError(Error, ValueError):
    """A well-formed event that the rules forbid at this point of the game.

    ``rule`` names the rule broken, short enough to read in one line.
    """

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule


class TagError(Error, ValueError):
    """A tag whose value the game cannot start from (``[Players "9"]``)."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key
        self.message = message


class MoveError(Error, ValueError):
    """A move that cannot be pushed on a position; ``problem`` says where and why, and
    ``str()`` is what ``validate`` says of it (``ply 3 (F5e-a2t3): ... [rule: ...]``)."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.describe())
        self.problem = problem
        self.rule = problem.rule
        self.message = problem.message


class InvalidEventError(MoveError):
    """Text (or a value) that is no event of the game: it does not read in its notation
    (python-chess's ``InvalidMoveError``)."""


class IllegalMoveError(MoveError):
    """An event of the game that its rules forbid now (python-chess's
    ``IllegalMoveError``); ``rule`` names the rule broken."""


# Users catch them as ``notation.IllegalMoveError`` and so on: tracebacks say that name.
for _public in (MoveError, InvalidEventError, IllegalMoveError):
    _public.__module__ = "notation"


class InputError(Error):
    """A file that cannot be read at all (missing, unreadable, undecodable)."""

    def __init__(self, source: str, message: str) -> None:
        super().__init__(f"{source}: error: {message}")
        self.source = source
        self.message = message


class WriteError(Error):
    """An output that could not be written (the twin of :class:`InputError`); whatever it replaces is left as it was.

    ``path`` is the file concerned when the writer knows it better than its
    caller does (one of ``split``'s pieces, say).
    """

    def __init__(self, message: str, path: str | None = None) -> None:
        super().__init__(message)
        self.path = path


@hand_dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a record, as the CLI and the JSON output show it.

    ``kind`` is ``"syntax"`` (the text does not read as a record of the game)
    or ``"rule"`` (it reads, but the rules forbid it). ``ply`` is the 1-based
    index of the offending event, 0 for the header.
    """

    kind: ProblemKind
    line: int
    column: int
    ply: int
    event: str | None
    message: str
    rule: str = ""
    #: Where a problem inside a variation is: ``variation 2 after ply 9`` (nested ones
    #: outermost last: ``variation 1 after ply 10 in variation 2 after ply 9``), the whole
    #: path, which names the line (JSON gives it); :meth:`place` says it shorter.
    variation: str = ""

    def __init__(self, kind: ProblemKind, line: int, column: int, ply: int, event: str | None,
                 message: str, rule: str = "", variation: str = "") -> None:
        # Messages quote the record; a 10 MB bad token must not make a 10 MB line.
        if event is not None and len(event) > EVENT_CHARS:
            event = shorten(event, EVENT_CHARS)
        if len(message) > MESSAGE_CHARS:
            message = shorten(message, MESSAGE_CHARS)
        setting = object.__setattr__
        setting(self, "kind", kind)
        setting(self, "line", line)
        setting(self, "column", column)
        setting(self, "ply", ply)
        setting(self, "event", event)
        setting(self, "message", message)
        setting(self, "rule", rule)
        setting(self, "variation", variation)

    def as_json(self) -> dict[str, Any]:
        """The JSON form; ``rule`` and its catalogue ``anchor`` are null for syntax problems,
        ``variation`` is there only for a problem inside one."""
        data = asdict(self)
        data["rule"] = self.rule or None
        data["anchor"] = rule_anchor(self.rule) if self.rule else None
        if not self.variation:
            del data["variation"]
        return data

    def place(self) -> str:
        """Where in the game: ``ply P (EVENT)``, ``ply P``, or "" for the header; then, for
        a problem inside a variation, ``in`` and :func:`variation_place`."""
        if self.ply and self.event is not None:
            where = f"ply {self.ply} ({self.event})"
        else:
            where = f"ply {self.ply}" if self.ply else ""
        return f"{where} in {variation_place(self.variation)}" if self.variation else where

    def saying(self) -> str:
        """The message and the rule broken: ``MESSAGE [rule: RULE]``."""
        return f"{self.message} [rule: {self.rule}]" if self.rule else self.message

    def describe(self) -> str:
        """What ``validate`` says of the problem after ``game K, `` (``ply P (EVENT): MESSAGE
        [rule: RULE]``): the text of a ``ReplayError`` and of an ``IllegalMoveError``."""
        place = self.place()
        return f"{place}: {self.saying()}" if place else self.saying()


def problem_line(source: str, index: int, problem: Problem) -> str:
    """``FILE:LINE:COL: error: game K, ply P (EVENT): MESSAGE [rule]``."""
    severity = "error"
    if problem.kind == ProblemKind.INTERNAL:  # said once, in front
        severity = "internal error"
        problem = replace(problem, message=problem.message.removeprefix("internal error: "))
    where = f"game {index}, {problem.place()}" if problem.place() else f"game {index}"
    return f"{source}:{problem.line}:{problem.column}: {severity}: {where}: {problem.saying()}"


def caret(line: str | None, problem: Problem) -> str:
    """The offending source line with a caret under the column (for terminals)."""
    if line is None:
        return ""
    line = line.rstrip("\r\n").expandtabs(1)
    width = max(1, len(problem.event or "")) if problem.event else 1
    return f"    {line}\n    {' ' * (problem.column - 1)}^{'~' * (width - 1)}"
