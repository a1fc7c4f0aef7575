"""SGF's shape: a file's game trees, nodes and properties, with every problem placed.

Read as a stream, a tree at a time (:func:`cut`, then :func:`read_trees` on each piece),
in time linear in the text and memory for one game. ``grammars/blksgf.lark``'s terminals
cut a piece into tokens; here they become trees. Nothing raises for the text: a ``)``
that closes nothing, a value after no property, text outside a tree or a tree never
closed is a :class:`Problem` at its line and column, and reading goes on.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from notation.core.ast import Pos
from notation.read.grammars import terminals
from notation.core.limits import MAX_PROBLEMS
from notation.read.text import check_game

GRAMMAR = "blksgf.lark"
_ESCAPE = re.compile(r"\\(\r\n|\n\r|[\s\S])")
_SPECIAL = re.compile(r"[\]\\]")


@dataclass(slots=True)
class Property:
    ident: str
    values: list[str]
    pos: Pos


@dataclass(slots=True)
class Node:
    """One node of an SGF file as written (its properties, then its children): the
    format's own syntax, as Lark's tree is a grammar's. The reader turns it into a record
    (a :class:`~notation.core.tree.GameNode`), the one game tree of the library."""

    properties: list[Property]
    pos: Pos
    children: list[Node] = field(default_factory=list)

    def get(self, ident: str) -> Property | None:
        return next((p for p in self.properties if p.ident == ident), None)


@dataclass(slots=True)
class Problem:
    text: str
    message: str
    pos: Pos


@dataclass(slots=True)
class Unlisted(Problem):
    """``count`` problems in a row past the most a game lists (``MAX_PROBLEMS``), counted
    and not built; ``pos`` is the first one's."""

    count: int = 1


def add_problem(problems: list[Problem], found: Problem) -> None:
    """``found`` added to a tree's ``problems``, or past the cap counted there."""
    if len(problems) < MAX_PROBLEMS:
        problems.append(found)
    elif isinstance(problems[-1], Unlisted):
        problems[-1].count += 1
    else:
        problems.append(Unlisted("", "", found.pos))


@dataclass(slots=True)
class Tree:
    """One game tree of the file (``root`` None when it has no node)."""

    pos: Pos
    root: Node | None = None
    problems: list[Problem] = field(default_factory=list)


def unescape(value: str) -> str:
    """A value's text: ``\\X`` is ``X``; a backslash before a line break removes both."""
    if "\\" not in value:
        return value
    return _ESCAPE.sub(lambda m: "" if m.group(1) in ("\n", "\r", "\r\n", "\n\r") else m.group(1),
                       value)


def escape(text: str) -> str:
    """``text`` as a value (``]`` and ``\\`` escaped)."""
    return _SPECIAL.sub(lambda m: "\\" + m.group(), text)


@dataclass(frozen=True, slots=True)
class Piece:
    """A game tree's text and what comes before it up to the tree before (text outside
    trees is a problem of the tree after it; after the last tree, of the last), from line
    ``line``, column ``column`` of the file."""

    line: int
    column: int
    text: str

    def end(self) -> Pos:
        """Where its text ends."""
        breaks = self.text.count("\n")
        if not breaks:
            return Pos(self.line, self.column + len(self.text))
        return Pos(self.line + breaks, len(self.text) - self.text.rfind("\n"))


@lru_cache(maxsize=None)
def _tokens_pattern() -> re.Pattern[str]:
    """The grammar's terminals as one pattern of named groups (they never overlap: a
    ``[`` starts a value, closed or not, and no other token holds one)."""
    return re.compile("|".join(f"(?P<{t.name}>{t.regexp})" for t in terminals(GRAMMAR)))


#: A value's text after its ``[``, up to its ``]`` or the text's end: blksgf.lark's VALUE
#: between its brackets (a test holds them equal).
_VALUE_BODY = re.compile(r"[^\]\\]*+(?:\\.[^\]\\]*+)*+", re.DOTALL)
#: What a tree's bounds depend on: a value's start (no bracket counts inside one) and
#: the parentheses.
_BOUNDS = re.compile(r"[\[()]")


class _Place:
    """Line and column of positions in one chunk after another, counted once each."""

    __slots__ = ("line", "chunk", "at", "start")

    def __init__(self) -> None:
        self.line, self.chunk, self.at, self.start = 1, "", 0, 0  # start: at's line start

    def next_chunk(self, chunk: str) -> None:
        self.line += self.chunk.count("\n", self.at)
        found = self.chunk.rfind("\n", self.at)
        self.start = (found + 1 if found >= 0 else self.start) - len(self.chunk)
        self.chunk, self.at = chunk, 0

    def of(self, pos: int) -> tuple[int, int]:
        """The line and column of ``pos`` in the chunk (positions never go back)."""
        breaks = self.chunk.count("\n", self.at, pos)
        if breaks:
            self.line += breaks
            self.start = self.chunk.rfind("\n", self.at, pos) + 1
        self.at = pos
        return self.line, pos - self.start + 1


def cut(chunks: Iterable[str], source: str) -> Iterator[Piece]:
    """A file's text (chunks, cut anywhere) in :class:`Piece` s of a game tree each, each
    given once the next tree begins or the text ends; none longer than a game may be
    (:data:`~notation.core.limits.MAX_GAME_CHARS`: an ``InputError`` naming ``source``)."""
    place = _Place()
    parts: list[str] = []   # the piece's text up to its tree's end (all of it, before)
    after: list[str] = []   # the text after its tree: the next piece's, or its own at the end
    held = 0                # characters in both
    start = (1, 1)          # where the piece starts
    closed_at = (1, 1)      # where its tree ended
    depth = 0               # trees and variations open
    in_value = escaped = closed = False
    for chunk in chunks:
        place.next_chunk(chunk)
        at = pos = 0        # the chunk's text not yet in parts or after; the scan
        size = len(chunk)
        if escaped and size:  # the last chunk ended in a value's backslash: this escapes
            pos, escaped = 1, False
        while pos < size:
            if in_value:
                body = _VALUE_BODY.match(chunk, pos)
                end = body.end() if body is not None else pos  # (it always matches)
                if end < size and chunk[end] == "]":
                    in_value, pos = False, end + 1
                    continue
                escaped = end < size  # (a backslash, the chunk's last character)
                break
            found = _BOUNDS.search(chunk, pos)
            if found is None:
                break
            mark, pos = found.group(), found.end()
            if mark == "[":
                in_value = True
            elif mark == "(":
                if not depth and closed:  # the next tree: the piece before is complete
                    after.append(chunk[at:found.start()])
                    held, at = held + found.start() - at, found.start()
                    text = _joined(parts)
                    held -= len(text)
                    yield Piece(*start, text)
                    text = ""
                    parts, after, closed, start = after, [], False, closed_at
                depth += 1
            elif depth:
                depth -= 1
                if not depth:  # the tree closed: what follows may be the next piece's
                    parts.append(chunk[at:pos])
                    held, at, closed, closed_at = held + pos - at, pos, True, place.of(pos)
        (after if closed else parts).append(chunk[at:])
        held += size - at
        check_game(held, start[0], source)
    text = _joined(parts + after)
    if text:
        yield Piece(*start, text)


def _joined(parts: list[str]) -> str:
    """The parts as one string, the list emptied (no second copy held meanwhile)."""
    text = "".join(parts)
    parts.clear()
    return text


class _Builder:
    """Tokens in, trees out: a stack of branch points, one per open ``(`` but the first."""

    def __init__(self) -> None:
        self.trees: list[Tree] = []
        self.tree: Tree | None = None
        self.current: Node | None = None
        self.branches: list[Node | None] = []
        self.property: Property | None = None
        self.loose: list[Problem] = []  # problems outside any tree, for the next one

    def problem(self, text: str, pos: Pos, message: str) -> None:
        found = Problem(text[:80], message, pos)
        add_problem(self.tree.problems if self.tree is not None else self.loose, found)

    def feed(self, kind: str, text: str, pos: Pos) -> None:
        if kind != "VALUE":
            self._end_property()
        if kind == "OPEN":
            self._open(text, pos)
        elif kind == "CLOSE":
            self._close(text, pos)
        elif kind == "NODE":
            self._node(text, pos)
        elif kind == "PROPERTY":
            if self.current is None:
                self.problem(text, pos, f"property {text[:20]} outside a node (a node starts "
                                        f"with ';')")
            else:
                self.property = Property(text, [], pos)
                self.current.properties.append(self.property)
        elif kind == "VALUE":
            if self.property is None:
                self.problem(text, pos, "a value with no property before it")
            else:
                self.property.values.append(unescape(text[1:-1]))
        elif kind == "UNCLOSED":
            self.problem(text, pos, "'[' never closed by ']'")
        else:
            self.problem(text, pos, f"unexpected {text[:20]!r} (SGF is '(', ';', properties "
                                    f"such as C[...], ')')")

    def _end_property(self) -> None:
        if self.property is not None and not self.property.values and self.tree is not None:
            where = self.property
            add_problem(self.tree.problems, Problem(where.ident, f"property {where.ident[:20]} "
                                                                 f"has no value", where.pos))
            if self.current is not None:
                self.current.properties.pop()  # (the last one: a node of a million is read
                # in linear time)
        self.property = None

    def _open(self, text: str, pos: Pos) -> None:
        if self.tree is None:
            self.tree = Tree(pos, problems=self.loose)
            self.loose = []
            self.current = None
            return
        if self.current is None:
            self.problem(text, pos, "'(' before the tree's first node")
        self.branches.append(self.current)

    def _close(self, text: str, pos: Pos) -> None:
        if self.tree is None:
            self.problem(text, pos, "')' closes no game tree")
        elif self.branches:
            self.current = self.branches.pop()
        else:
            self.trees.append(self.tree)
            self.tree, self.current = None, None

    def _node(self, text: str, pos: Pos) -> None:
        if self.tree is None:
            self.problem(text, pos, "';' outside a game tree (a tree starts with '(')")
            return
        node = Node([], pos)
        if self.current is not None:
            self.current.children.append(node)
        elif self.tree.root is None:
            self.tree.root = node
        else:
            self.problem(text, pos, "a second root node in one game tree")
        self.current = node

    def finish(self, end: Pos) -> list[Tree]:
        self._end_property()
        if self.tree is not None:
            add_problem(self.tree.problems, Problem("", "the game tree is never closed by ')'",
                                                    end))
            self.trees.append(self.tree)
        elif self.loose:
            if self.trees:
                self.trees[-1].problems.extend(self.loose)
            else:
                self.trees.append(Tree(self.loose[0].pos, problems=self.loose))
        return self.trees


def read_trees(piece: Piece) -> list[Tree]:
    """The game trees of a piece's text (of :func:`cut`: one, or none in a text of none),
    each with its problems."""
    builder = _Builder()
    text = piece.text
    line, line_start = piece.line, 1 - piece.column  # (a line's start, as an index)
    for found in _tokens_pattern().finditer(text):
        kind = found.lastgroup or ""
        at, end = found.start(), found.end()
        if kind != "WS":
            builder.feed(kind, found.group(), Pos(line, at - line_start + 1))
        breaks = text.count("\n", at, end)  # (values and blanks may hold line breaks)
        if breaks:
            line, line_start = line + breaks, text.rfind("\n", at, end) + 1
    return builder.finish(piece.end())
