"""The game-neutral record AST: tags, comments and events with their positions.

A record file holds any number of games. Each record (a tree's root,
:class:`~notation.core.tree.GameNode`) keeps its tags, and its body as a list of
these items (:class:`Comment`, :class:`EventNode`, :class:`Malformed`, ...) in file
order, so the text can be written back without losing anything. ``EventNode.event`` is
the game's own value type (a Tilewe ``Move``, say); the core never looks inside it.
"""
from __future__ import annotations

import re
from dataclasses import field, replace
from enum import StrEnum
from typing import Any, Callable, Iterable, Iterator, NamedTuple, Union

from .hand_dataclass import hand_dataclass
from .limits import MAX_PROBLEMS


class Pos(NamedTuple):
    """Where an item starts: 1-based line and column."""

    line: int
    column: int


#: Where an item made by a program (not read from a file) stands: nowhere (its problems
#: say line 0).
NOWHERE = Pos(0, 0)


@hand_dataclass(slots=True)
class Tag:
    """A tag line, ``[Key "value"]``: its key, its value unescaped, and where it starts."""

    key: str
    value: str
    pos: Pos = field(default=NOWHERE, compare=False)

    def __init__(self, key: str, value: str, pos: Pos = NOWHERE) -> None:
        self.key = key
        self.value = value
        self.pos = pos


#: A comment command, PGN's ``[%clk 0:01:30]``: a key, then (after blanks) a value up to
#: ``]``. The value holds no bracket, so a failed match stops at the next ``[``: linear.
COMMAND = re.compile(r"\[%([A-Za-z][A-Za-z0-9_]*)(?:[ \t\n]++([^\[\]]*))?\]")
_BLANKS = re.compile(r"\s+")


@hand_dataclass(slots=True)
class Comment:
    """``; to end of line`` (``brace=False``) or ``{ ... }`` (``brace=True``).

    ``marker`` is the character that opened a line comment (``#`` where a
    game's grammar allows it). The text is kept as written; :attr:`commands`
    and :attr:`remark` read it as data.
    """

    text: str
    brace: bool
    pos: Pos = field(default=NOWHERE, compare=False)
    marker: str = ";"

    def __init__(self, text: str, brace: bool, pos: Pos = NOWHERE, marker: str = ";") -> None:
        self.text = text
        self.brace = brace
        self.pos = pos
        self.marker = marker

    @classmethod
    def make(cls, remark: str = "", commands: dict[str, str] | None = None) -> Comment:
        """A brace comment holding ``commands`` (written first, PGN's way) and ``remark``."""
        words = [f"[%{key} {value}]" if value else f"[%{key}]"
                 for key, value in (commands or {}).items()]
        text = " ".join(words + ([remark] if remark else []))
        return cls(f" {text} " if text else "", True)

    @property
    def commands(self) -> dict[str, str]:
        """Its ``[%key value]`` commands (brace comments only), in order, blanks trimmed;
        a key given twice keeps its last value."""
        if not self.brace or "[%" not in self.text:
            return {}
        return {m.group(1): _BLANKS.sub(" ", m.group(2) or "").strip()
                for m in COMMAND.finditer(self.text)}

    @property
    def remark(self) -> str:
        """Its text without the commands, blanks trimmed."""
        text = COMMAND.sub(" ", self.text) if self.brace and "[%" in self.text else self.text
        return _BLANKS.sub(" ", text).strip()


#: Move glyphs and the numeric annotation glyphs (NAGs) they stand for, PGN's.
GLYPHS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
GLYPH_OF = {number: glyph for glyph, number in GLYPHS.items()}
#: The largest ``$N`` (PGN's NAGs are one byte).
MAX_NAG = 255


@hand_dataclass(slots=True)
class EventNode:
    """One event, with the optional ``N.`` number written before it and its annotations
    (``nags``: ``!`` is 1, ``?`` 2, ..., ``$N`` is N; in the order written)."""

    event: Any
    number: int | None = None
    pos: Pos = field(default=NOWHERE, compare=False)
    text: str = field(default="", compare=False)  # as written in the file
    nags: tuple[int, ...] = ()

    def __init__(self, event: Any, number: int | None = None, pos: Pos = NOWHERE,
                 text: str = "", nags: tuple[int, ...] = ()) -> None:
        self.event = event
        self.number = number
        self.pos = pos
        self.text = text
        self.nags = nags


class MalformedKind(StrEnum):
    """Which part of a record could not be read."""

    EVENT = "event"
    TAG = "tag"
    NUMBER = "number"      # an event number with no event after it
    COMMENT = "comment"    # a brace comment never closed
    VARIATION = "variation"  # a ")" that closes no variation
    ANNOTATION = "annotation"  # a glyph or "$N" after no event


@hand_dataclass(slots=True)
class Malformed:
    """Text where an event (or tag, number, comment) should be that cannot be read."""

    text: str
    message: str
    what: MalformedKind = MalformedKind.EVENT
    number: int | None = None
    pos: Pos = field(default=NOWHERE, compare=False)

    def __init__(self, text: str, message: str, what: MalformedKind = MalformedKind.EVENT,
                 number: int | None = None, pos: Pos = NOWHERE) -> None:
        self.text = text
        self.message = message
        self.what = what
        self.number = number
        self.pos = pos


@hand_dataclass(slots=True)
class Unlisted(Malformed):
    """Problems of one kind in a row that the reader counted but did not build: past the
    most a game lists (:data:`~notation.core.limits.MAX_PROBLEMS`), a problem costs no
    text, message or object of its own, only a count here; ``pos`` is the first one's.
    Of kind ``EVENT`` it stands for ``count`` unreadable events, as many plies: its line
    of play stops at the first, as at any unreadable event."""

    count: int = 1

    def __init__(self, text: str, message: str, what: MalformedKind = MalformedKind.EVENT,
                 number: int | None = None, pos: Pos = NOWHERE, count: int = 1) -> None:
        Malformed.__init__(self, text, message, what, number, pos)  # (slots: no bare super())
        self.count = count


#: What an :class:`Unlisted` says when a problem must be made of it (the first problem of
#: the mainline may be one): one string, shared by all.
UNLISTED_MESSAGE = f"not read further: past the first {MAX_PROBLEMS} problems of the game"


@hand_dataclass(slots=True)
class Directive:
    """A game-specific line that is not an event (Flows' ``Game: 2-player, ...``).

    ``kind`` is the grammar terminal's name; the game reads it in ``start``.
    """

    kind: str
    text: str
    pos: Pos = field(default=NOWHERE, compare=False)

    def __init__(self, kind: str, text: str, pos: Pos = NOWHERE) -> None:
        self.kind = kind
        self.text = text
        self.pos = pos


@hand_dataclass(slots=True)
class Variation:
    """``( ... )``: an alternative to the event just before it, with its own items
    (events, comments, deeper variations). Its events count from that event's ply."""

    items: list[Item]
    pos: Pos = field(default=NOWHERE, compare=False)
    closed: bool = True  # False: no ")" before the game ended

    def __init__(self, items: list[Item], pos: Pos = NOWHERE, closed: bool = True) -> None:
        self.items = items
        self.pos = pos
        self.closed = closed


Item = Union[Comment, Directive, EventNode, Malformed, Variation]


def last_tag_value(tags: list[Tag | Malformed], key: str) -> str | None:
    """The value of the last tag line named ``key`` (a broken one left out), or None: a
    scan of the few tag lines, for a reader that asks one name."""
    for tag in reversed(tags):
        if isinstance(tag, Tag) and tag.key == key:
            return tag.value
    return None


def tag_values(tags: Iterable[Tag | Malformed]) -> dict[str, str]:
    """The tags by name, each with its last value, a broken one left out: one pass for a
    reader that asks several (a record's ``headers`` scans the lines a name)."""
    return {t.key: t.value for t in tags if isinstance(t, Tag)}


def branch_points(items: list[Item]) -> set[int]:
    """Where in ``items`` the events stand that variations are alternatives to: a line's
    walker keeps the state before these alone (no other event pays for a copy)."""
    found: set[int] = set()
    last = None
    for at, item in enumerate(items):
        if isinstance(item, EventNode) or (isinstance(item, Malformed)
                                           and item.what == MalformedKind.EVENT):
            last = at
        elif isinstance(item, Variation) and last is not None:
            found.add(last)
    return found


def map_events(items: list[Item], rewrite: Callable[[Any], Any]) -> list[Item]:
    """``items`` with every event, in every variation too, replaced by ``rewrite(event)``;
    numbers, annotations and comments kept (a conversion that needs no state)."""
    out: list[Item] = []
    for item in items:
        if isinstance(item, EventNode):
            new = rewrite(item.event)
            item = replace(item, event=new, text=str(new))
        elif isinstance(item, Variation):
            item = replace(item, items=map_events(item.items, rewrite))
        out.append(item)
    return out
