"""SGF's shape: a file's game trees, nodes and properties, with every problem placed.

``grammars/blksgf.lark`` cuts the text into tokens; here they become trees. Nothing raises:
a ``)`` that closes nothing, a value after no property, text outside a tree or a tree never
closed is a :class:`Problem` at its line and column, and reading goes on.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from lark import Token

from notation.core.ast import Pos
from notation.core.grammars import grammar

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


def _pos(tok: Token) -> Pos:
    return Pos(tok.line or 0, tok.column or 0)


class _Builder:
    """Tokens in, trees out: a stack of branch points, one per open ``(`` but the first."""

    def __init__(self) -> None:
        self.trees: list[Tree] = []
        self.tree: Tree | None = None
        self.current: Node | None = None
        self.branches: list[Node | None] = []
        self.property: Property | None = None
        self.loose: list[Problem] = []  # problems outside any tree, for the next one

    def problem(self, tok: Token, message: str) -> None:
        found = Problem(str(tok)[:80], message, _pos(tok))
        (self.tree.problems if self.tree is not None else self.loose).append(found)

    def feed(self, tok: Token) -> None:
        kind = tok.type
        if kind != "VALUE":
            self._end_property()
        if kind == "OPEN":
            self._open(tok)
        elif kind == "CLOSE":
            self._close(tok)
        elif kind == "NODE":
            self._node(tok)
        elif kind == "PROPERTY":
            if self.current is None:
                self.problem(tok, f"property {str(tok)[:20]} outside a node (a node starts with ';')")
            else:
                self.property = Property(str(tok), [], _pos(tok))
                self.current.properties.append(self.property)
        elif kind == "VALUE":
            if self.property is None:
                self.problem(tok, "a value with no property before it")
            else:
                self.property.values.append(unescape(str(tok)[1:-1]))
        elif kind == "UNCLOSED":
            self.problem(tok, "'[' never closed by ']'")
        else:
            self.problem(tok, f"unexpected {str(tok)[:20]!r} (SGF is '(', ';', properties "
                              f"such as C[...], ')')")

    def _end_property(self) -> None:
        if self.property is not None and not self.property.values and self.tree is not None:
            where = self.property
            self.tree.problems.append(Problem(where.ident, f"property {where.ident[:20]} has "
                                                           f"no value", where.pos))
            if self.current is not None:
                self.current.properties.remove(where)
        self.property = None

    def _open(self, tok: Token) -> None:
        if self.tree is None:
            self.tree = Tree(_pos(tok), problems=self.loose)
            self.loose = []
            self.current = None
            return
        if self.current is None:
            self.problem(tok, "'(' before the tree's first node")
        self.branches.append(self.current)

    def _close(self, tok: Token) -> None:
        if self.tree is None:
            self.problem(tok, "')' closes no game tree")
        elif self.branches:
            self.current = self.branches.pop()
        else:
            self.trees.append(self.tree)
            self.tree, self.current = None, None

    def _node(self, tok: Token) -> None:
        if self.tree is None:
            self.problem(tok, "';' outside a game tree (a tree starts with '(')")
            return
        node = Node([], _pos(tok))
        if self.current is not None:
            self.current.children.append(node)
        elif self.tree.root is None:
            self.tree.root = node
        else:
            self.problem(tok, "a second root node in one game tree")
        self.current = node

    def finish(self, end: Pos) -> list[Tree]:
        self._end_property()
        if self.tree is not None:
            self.tree.problems.append(Problem("", "the game tree is never closed by ')'", end))
            self.trees.append(self.tree)
        elif self.loose:
            if self.trees:
                self.trees[-1].problems.extend(self.loose)
            else:
                self.trees.append(Tree(self.loose[0].pos, problems=self.loose))
        return self.trees


def read_trees(text: str) -> list[Tree]:
    """Every game tree of a file's text, each with its problems."""
    builder = _Builder()
    for tok in _tokens(text):
        builder.feed(tok)
    lines = text.split("\n")
    return builder.finish(Pos(len(lines), len(lines[-1]) + 1))


def _tokens(text: str) -> Iterator[Token]:
    for child in grammar(GRAMMAR).parse(text).children:
        if isinstance(child, Token):
            yield child
