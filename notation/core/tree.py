"""Game records as trees, python-chess's shape (``chess.pgn.Game`` and ``ChildNode``).

A record *is* its tree's root (:class:`GameNode`): it holds the tags, the set-up lines
and the body as read, and each :class:`ChildNode` one move with its comment, its
annotations (``nags``) and its comment commands; ``variations`` lists the moves played
from there, the main one first::

    tree = notation.load("tree.tilewe")[0]
    first = tree.next()                               # the mainline's first move
    other = tree.add_variation("I2n-a1a1", comment="also fine")  # checked by the rules
    tree.promote_to_main(other)
    text = notation.format_record(tree)
    tree.save("tree.tilewe.gz")                       # whole or not at all, compressed

Lazy, as sgfmill's unexpanded root is: a reader makes the root with its body as read
(``items``: events, comments, variations and unreadable text, in file order), and a
reader of verdicts or headers leaves even that unread (``raw``, read on first use). The
child nodes are made from the body the first time a caller walks the tree; from then
on the nodes are the record, and ``items`` is written from them. Replaying and writing
a record never expands it.

How a record reads as a tree (PGN readers do the same):

* comments after a move are that node's ``comment``, several joined with a space
  (their ``[%key value]`` commands united in ``commands``, a key given twice keeping its
  last value); a comment standing after a variation's ``)`` belongs to the move before
  that variation, as one between that move and the ``(`` does;
* comments before a variation's first move are that node's ``starting_comment`` (their
  commands join its ``commands``); comments before the game's first move are the root's;
* an empty variation ``()`` is no node: comments in it go to the move before it;
* a variation holding an alternative to a variation's first move is one more alternative
  at that point: ``2. a (2. b (2. c))`` is written back ``2. a (2. b) (2. c)``;
* the set-up lines (directives: Sanguine's deck blocks, Flows' ``Game:`` line) are the
  root's: those before the first move are written before it, the others (Flows' closing
  ``...``) after the last.

``nags`` is a list in written order (python-chess keeps a set): ``!`` is 1, ``$14`` 14.
A node that nobody changed is written back as it was read (its comments' spelling kept);
a changed one is written in canonical form.
"""
from __future__ import annotations

import os
from typing import (Any, Callable, Generic, ItemsView, Iterable, Iterator, Mapping, MutableMapping,
                    TypeVar, ValuesView)
from typing import overload

from .ast import Comment, Directive, EventNode, Item, Malformed, MalformedKind, Pos, Tag
from .ast import Unlisted, Variation, last_tag_value, tag_values
from .ast import MAX_NAG
from .errors import Error, NotationError
from .game import AnyGame
from .notes import Written, commands_of, fresh_comments, read_clock, read_eval
from .notes import write_clock, write_eval
from .errors import IllegalMoveError, InvalidEventError
from .events import parse_event
from .position import Position, at_start
from .replay import game_of

T = TypeVar("T")

__all__ = ["ChildNode", "GameNode", "Headers", "IllegalMoveError", "InvalidEventError", "Node",
           "RecordFile", "TreeError"]


class TreeError(NotationError):
    """A record a tree cannot hold (unreadable text, a variation never closed): ``source``,
    ``line`` and ``column`` say where, ``message`` what."""

    def __init__(self, source: str, pos: Pos, message: str) -> None:
        super().__init__(f"{source}:{pos.line}:{pos.column}: {message}")
        self.source, self.line, self.column, self.message = source, pos.line, pos.column, message


class Node:
    """What the root and every move share: the moves after it and the words about it.

    Attributes: ``parent`` (None for the root), ``move`` (the game's event value; None for
    the root), ``variations`` (the nodes after it, main first), ``comment`` (text, commands
    left out), ``starting_comment`` (the comment before a variation's first move),
    ``nags`` (a list, in written order), ``commands`` (``{"clk": "0:01:30"}``), ``pos``
    (where the move was read, if it was).
    """

    parent: Node | None
    move: Any
    variations: list[ChildNode]
    pos: Pos | None

    def __init__(self) -> None:
        self.comment = ""
        self.starting_comment = ""
        self.nags: list[int] = []
        self.commands: dict[str, str] = {}
        self._before: Written | None = None  # the comments read before the move
        self._after: Written | None = None   # the comments read after it

    # -- where it stands -------------------------------------------------------------
    def root(self) -> GameNode:
        """The root of the tree: the record (python-chess's ``node.game()``)."""
        node = self
        while node.parent is not None:
            node = node.parent
        if not isinstance(node, GameNode):  # pragma: no cover - every tree has a GameNode root
            raise TypeError("a tree's root is a GameNode")
        return node

    def ply(self) -> int:
        """How many moves lead here from the start (the root: 0)."""
        count, node = 0, self
        while node.parent is not None:
            count, node = count + 1, node.parent
        return count

    def path(self) -> list[Any]:
        """The moves from the start to this node, first to last."""
        moves, node = [], self
        while node.parent is not None:
            moves.append(node.move)
            node = node.parent
        return moves[::-1]

    def position(self) -> Position[Any]:
        """A fresh :class:`Position` after this node, the path's moves pushed from the start
        (``pop`` works); the first illegal move on the path raises its
        :class:`IllegalMoveError`."""
        position = self.root().start()
        for move in self.path():
            position.push(move)
        return position

    def is_main_variation(self) -> bool:
        """Whether this node is its parent's main continuation (the root is)."""
        return self.parent is None or self.parent.variations[0] is self

    def is_mainline(self) -> bool:
        """Whether this node lies on the game's mainline (every step a main one)."""
        node: Node = self
        while node.parent is not None:
            if node.parent.variations[0] is not node:
                return False
            node = node.parent
        return True

    # -- moving along ----------------------------------------------------------------
    def next(self) -> ChildNode | None:
        """The main continuation, None at the end of a line."""
        return self.variations[0] if self.variations else None

    def variation(self, key: int | Any) -> ChildNode:
        """A move after this one: by index, by move (an event or its text, any spelling
        of the move: ``Game.event_identity``) or the node itself; KeyError when there is
        no such move (IndexError for an index)."""
        if isinstance(key, int) and not isinstance(key, bool):
            return self.variations[key]
        if isinstance(key, ChildNode):
            if any(node is key for node in self.variations):
                return key
            raise KeyError(f"{key!r} is not a variation of this node")
        identity = self.root().rules.event_identity
        wanted = identity(self._event(key))
        for node in self.variations:
            if identity(node.move) == wanted:
                return node
        raise KeyError(f"no variation {key!s} here")

    def has_variation(self, key: Any) -> bool:
        """Whether a move (event, text or node) is among the moves after this one."""
        try:
            self.variation(key)
        except (KeyError, IndexError):
            return False
        return True

    def mainline(self) -> list[ChildNode]:
        """The nodes after this one along main continuations, first to last."""
        nodes: list[ChildNode] = []
        node = self.next()
        while node is not None:
            nodes.append(node)
            node = node.next()
        return nodes

    def mainline_moves(self) -> list[Any]:
        """The moves of :meth:`mainline`."""
        return [node.move for node in self.mainline()]

    def end(self) -> Node:
        """The last node along main continuations (this one at the end of a line)."""
        line = self.mainline()
        return line[-1] if line else self

    def _event(self, move: Any) -> Any:
        """A move given as text read with the game's notation; an event value kept."""
        if not isinstance(move, str):
            return move
        try:
            return parse_event(self.root().rules, move)
        except NotationError:
            raise KeyError(f"{move.strip()!r} is no move of {self.root().rules.name}") from None

    # -- editing ---------------------------------------------------------------------
    def add_variation(self, move: Any, *, comment: str = "", starting_comment: str = "",
                      nags: Iterable[int] = (), commands: dict[str, str] | None = None
                      ) -> ChildNode:
        """A move after this one, as the last variation; ``move`` (an event or its text)
        must be legal here (nothing is added otherwise).

        :raises InvalidEventError: text that is no event of the game.
        :raises IllegalMoveError: an event the rules forbid here."""
        given = _checked(nags)
        node = ChildNode(self, self.position().push(move))
        _annotate(node, comment, starting_comment, given, commands)
        return node

    def add_main_variation(self, move: Any, *, comment: str = "", starting_comment: str = "",
                           nags: Iterable[int] = (), commands: dict[str, str] | None = None
                           ) -> ChildNode:
        """:meth:`add_variation`, as the main continuation (the old one becomes the first
        alternative)."""
        node = self.add_variation(move, comment=comment, starting_comment=starting_comment,
                                  nags=nags, commands=commands)
        self.promote_to_main(node)
        return node

    def add_line(self, moves: Iterable[Any], *, comment: str = "", nags: Iterable[int] = (),
                 commands: dict[str, str] | None = None) -> Node:
        """Moves played one after another from here, each added as a variation and checked
        (an illegal one raises with the moves before it kept); the words go on the last.
        Returns the last node (this one if ``moves`` is empty)."""
        given = _checked(nags)
        position = self.position()
        node: Node = self
        for move in moves:
            node = ChildNode(node, position.push(move))
        if node is not self:
            _annotate(node, comment, "", given, commands)
        return node

    def promote_to_main(self, key: Any) -> None:
        """Make a variation (index, move or node) the main continuation."""
        node = self.variation(key)
        self.variations.remove(node)
        self.variations.insert(0, node)

    def promote(self, key: Any) -> None:
        """Move a variation one place up (toward the main one)."""
        index = self._index(key)
        if index > 0:
            line = self.variations
            line[index - 1], line[index] = line[index], line[index - 1]

    def demote(self, key: Any) -> None:
        """Move a variation one place down."""
        index = self._index(key)
        if index + 1 < len(self.variations):
            self.promote(self.variations[index + 1])

    def remove_variation(self, key: Any) -> None:
        """Remove a variation (index, move or node) and everything after it."""
        node = self.variation(key)
        self.variations.remove(node)

    def _index(self, key: Any) -> int:
        node = self.variation(key)
        return next(i for i, other in enumerate(self.variations) if other is node)

    def graft(self, other: ChildNode) -> ChildNode:
        """A copy of ``other`` and every move after it, as the last variation here.

        For trees of the same start (copying a tree): the moves are not checked again,
        so they must be legal here, as they were where they came from.
        """
        copies: list[tuple[Node, ChildNode]] = [(self, other)]
        top: ChildNode | None = None
        while copies:
            parent, source = copies.pop()
            node = ChildNode(parent, source.move)
            _copy_words(source, node)
            if top is None:
                top = node
            copies += [(node, child) for child in reversed(source.variations)]
        assert top is not None
        return top

    # -- words about the move --------------------------------------------------------
    def keep_written(self, other: Node) -> None:
        """Write this node's comments as ``other``'s were read, for as long as they say
        the same (a merge laying a copy's words on a new node keeps their spelling)."""
        self._before, self._after = other._before, other._after

    def clock(self) -> float | None:
        """The ``[%clk]`` time left, in seconds (None when there is none)."""
        return read_clock(self.commands.get("clk"))

    def set_clock(self, seconds: float | None) -> None:
        """Set the ``[%clk]`` command (None removes it)."""
        self._set_command("clk", None if seconds is None else write_clock(seconds))

    def eval(self) -> float | None:
        """The ``[%eval]`` value as a number (None when there is none or it is not one)."""
        return read_eval(self.commands.get("eval"))

    def set_eval(self, value: float | None) -> None:
        """Set the ``[%eval]`` command (None removes it)."""
        self._set_command("eval", None if value is None else write_eval(value))

    def _set_command(self, key: str, text: str | None) -> None:
        if text is None:
            self.commands.pop(key, None)
        else:
            self.commands[key] = text

    def _comments_before(self) -> list[Comment]:
        written = self._before
        if written is not None and written.says(self.starting_comment, {}):
            return list(written.comments)
        return fresh_comments(self.starting_comment, {})

    def _comments_after(self) -> list[Comment]:
        written = self._after
        if written is not None and written.says(self.comment, self.commands):
            return list(written.comments)
        return fresh_comments(self.comment, self.commands)


class ChildNode(Node):
    """One move of a tree. Build with :meth:`Node.add_variation` (which checks the move);
    the constructor appends the node to ``parent.variations`` unchecked.

    In a tree read leniently (:func:`lenient_tree`) an unreadable event is a node too:
    ``move`` None and ``unread`` the text that failed to read."""

    parent: Node
    #: The unreadable text this node stands for (only in a leniently read tree).
    unread: Malformed | None = None

    def __init__(self, parent: Node, move: Any) -> None:
        super().__init__()
        self.parent = parent
        self.move = move
        self.variations = []
        self.pos = None
        parent.variations.append(self)

    def __repr__(self) -> str:
        rules = self.root().rules
        return f"<ChildNode at ply {self.ply()}: {rules.format_event(self.move)}>"


class _RootWord(Generic[T]):
    """One of the root's words (``comment``, ``nags``...): read with the tree, so reading
    it walks the tree first; kept in the attribute of its name with a ``_`` before."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = "_" + name

    @overload
    def __get__(self, record: None, owner: type) -> _RootWord[T]: ...
    @overload
    def __get__(self, record: GameNode, owner: type) -> T: ...
    def __get__(self, record: GameNode | None, owner: type) -> T | _RootWord[T]:
        if record is None:
            return self
        record._walked()
        value: T = getattr(record, self.slot)
        return value

    def __set__(self, record: GameNode, value: T) -> None:
        setattr(record, self.slot, value)


class GameNode(Node):
    """A game record, and the root of its tree: the tags (``tags`` as read, ``headers`` by
    name), the body (``items``), the set-up lines (``directives``, and ``trailer``: those
    after the moves) and the first moves (``variations``).

    ``game`` is the registered game's name (None when the record names no known game:
    ``game_problem`` says why), ``rules`` that game; ``source``, ``index`` and ``pos`` say
    where the record was read (a Sanguine deck named by a path is found beside
    ``source``), ``text`` is the piece of the file it was read from (for excerpts) and
    ``raw`` its own lines as written (``select`` and ``split`` copy them). A reader's fast
    path leaves its verdict in ``outcome``.

    :raises Error: an unknown game given by name.
    """

    pos: Pos  # where the record starts (a move's node: where it was read, if it was)

    def __init__(self, game: str | AnyGame | None = None,
                 tags: Iterable[Tag | Malformed] | None = None, items: Iterable[Item] = (), *,
                 index: int = 1, source: str = "<string>", pos: Pos = Pos(1, 1),
                 game_problem: str | None = None, text: str = "", first_line: int = 1,
                 outcome: Any = None, raw: str = "",
                 reread: Callable[[GameNode], tuple[list[Tag | Malformed], list[Item]]]
                 | None = None) -> None:
        # (the words set here, not by Node.__init__ through the properties: one record
        # is made per game read, millions in an archive)
        self._comment = self._starting_comment = ""
        self._nags: list[int] = []
        self._commands: dict[str, str] = {}
        self._before: Written | None = None
        self._after: Written | None = None
        self.parent = None
        self.move = None
        self._rules: AnyGame | None = None
        if game is not None and not isinstance(game, str):
            self._rules, game = game, game.name
        #: The registered game's name, None when unknown.
        self.game: str | None = game
        #: The tag lines as read, a broken one Malformed.
        # (lists a reader made are kept as they are, as a record always kept them)
        self.tags: list[Tag | Malformed] = (
            tags if isinstance(tags, list) else list(tags) if tags is not None
            else [Tag("Game", game)] if game else [])
        self._body: list[Item] = items if isinstance(items, list) else list(items)
        self._reread = reread
        self._children: list[ChildNode] | None = None  # made from the body on first walk
        self._directives: list[Directive] = []
        self._trailer: list[Directive] = []
        self.index, self.source, self.pos = index, source, pos
        self.game_problem, self.text, self.first_line = game_problem, text, first_line
        self.outcome, self.raw = outcome, raw
        self._start_cache: tuple[tuple[Any, ...], Position[Any]] | None = None

    def __repr__(self) -> str:
        return f"<GameNode {self.game} from {self.source}, {self.event_count} plies>"

    # -- the record as read -----------------------------------------------------------
    @property
    def reread(self) -> Callable[[GameNode], tuple[list[Tag | Malformed], list[Item]]] | None:
        """The reader's function that reads the body from ``raw`` on first use, if unread."""
        return self._reread

    @reread.setter
    def reread(self, value: Callable[[GameNode], tuple[list[Tag | Malformed], list[Item]]] | None
               ) -> None:
        self._reread = value

    @property
    def unread(self) -> bool:
        """Whether the body is still to be read from ``raw`` (a verdicts or headers reading)."""
        return self._reread is not None

    def _read(self) -> None:
        if self._reread is not None:
            reread, self._reread = self._reread, None
            self.tags, self._body = reread(self)

    @property
    def items(self) -> list[Item]:
        """The body in file order: set-up lines, comments, events, variations and unreadable
        text (written from the nodes once the tree has been walked)."""
        if self._children is not None:
            return self._written()
        self._read()
        return self._body

    @items.setter
    def items(self, value: list[Item]) -> None:
        self._body, self._reread, self._children = value, None, None
        self._start_cache = None

    @property
    def header_pos(self) -> dict[str, Pos]:
        """Where each tag was read, by name (the last line of a tag given twice)."""
        return {t.key: t.pos for t in self.tags if isinstance(t, Tag)}

    @property
    def headers(self) -> Headers:
        """The tags by name (python-chess's ``game.headers``), a live view: setting one
        changes or adds its tag line; a broken tag is left out."""
        return Headers(self)

    @property
    def events(self) -> list[Any]:
        """The mainline's events."""
        if self._children is not None:
            return self.mainline_moves()
        return [i.event for i in self.items if isinstance(i, EventNode)]

    @property
    def has_variations(self) -> bool:
        if self._children is not None:
            node: Node | None = self
            while node is not None:
                if len(node.variations) > 1:
                    return True
                node = node.next()
            return False
        return any(isinstance(i, Variation) for i in self.items)

    @property
    def event_count(self) -> int:
        """Events and unreadable events: the plies the record claims."""
        return sum(i.count if isinstance(i, Unlisted) else 1 for i in self.items
                   if isinstance(i, EventNode)
                   or isinstance(i, Malformed) and i.what == MalformedKind.EVENT)

    def rewritten(self, items: list[Item], tags: list[Tag | Malformed] | None = None
                  ) -> GameNode:
        """The same game with another body (a conversion): what was read or judged of the
        old one (its fast-path outcome, its text) does not come with it."""
        return GameNode(self._rules or self.game, list(self.tags) if tags is None else tags,
                        items, index=self.index, source=self.source, pos=self.pos,
                        game_problem=self.game_problem, first_line=self.first_line)

    def without_variations(self) -> GameNode:
        """The mainline alone (what ``diff``, ``dedupe`` and ``stats`` compare)."""
        if not self.has_variations:
            return self
        return self.rewritten([i for i in self.items if not isinstance(i, Variation)])

    def source_line(self, line: int) -> str | None:
        """Line ``line`` of the file, if it lies in this record's piece."""
        return self.source_lines((line,))[line]

    def source_lines(self, lines: Iterable[int]) -> dict[int, str | None]:
        """Lines ``lines`` of the file, each None where it lies outside this record's
        piece, in the order first asked. One pass over the piece up to the last line
        asked, however many are: a line at a time, a million problems on one 1 MB line
        were a million copies of it."""
        wanted = dict.fromkeys(lines)
        found: dict[int, str | None] = {}
        text, line, start = self.text, self.first_line, 0  # ``line`` starts at ``start``
        for number in sorted(wanted):
            if not text or number < self.first_line:
                found[number] = None
                continue
            while line < number and start >= 0:
                start = text.find("\n", start)
                if start >= 0:
                    start, line = start + 1, line + 1
            if start < 0:
                found[number] = None
                continue
            end = text.find("\n", start)
            found[number] = text[start:end if end >= 0 else len(text)]
        return {number: found[number] for number in wanted}

    # -- the tree ---------------------------------------------------------------------
    @property
    def rules(self) -> AnyGame:
        """The record's game.

        :raises TreeError: a record of no known game."""
        if self._rules is None:
            found = game_of(self)
            if found is None:
                raise _where(self, self.pos, self.game_problem or "no known game")
            self._rules = found
        return self._rules

    @property
    def variations(self) -> list[ChildNode]:
        """The first moves, main first (the tree is made from the body on first use).

        :raises TreeError: a body a tree cannot hold (unreadable text, a variation never
            closed or after no move, a tag given twice), saying where."""
        self._walked()
        assert self._children is not None
        return self._children

    @variations.setter
    def variations(self, value: list[ChildNode]) -> None:
        self._walked()  # (the set-up lines and the root's words are read first)
        self._children = value

    # The root's own words (the comments before the first move) are read with the tree.
    comment: _RootWord[str] = _RootWord()
    starting_comment: _RootWord[str] = _RootWord()
    nags: _RootWord[list[int]] = _RootWord()
    commands: _RootWord[dict[str, str]] = _RootWord()

    def _walked(self) -> None:
        if self._children is None:
            self._expand()

    @property
    def directives(self) -> list[Directive]:
        """The set-up lines before the first move."""
        self._walked()
        return self._directives

    @property
    def trailer(self) -> list[Directive]:
        """The set-up lines after the last move (Flows' closing ``...``)."""
        self._walked()
        return self._trailer

    def _expand(self) -> None:
        self._read()
        seen: set[str] = set()
        for tag in self.tags:
            if isinstance(tag, Malformed):
                raise _where(self, tag.pos, tag.message)
            if tag.key in seen:
                raise _where(self, tag.pos, f"tag [{tag.key}] given twice")
            seen.add(tag.key)
        self.rules  # a record of no known game is no tree
        self._children, self._directives, self._trailer = [], [], []
        try:
            reading = _Reading(self)
            reading.line(self._body, self, top=True)
            reading.settle()
        except TreeError:
            self._children = None
            raise

    @classmethod
    def from_position(cls, position: Position[Any], **tags: Any) -> GameNode:
        """A record of a position's game (python-chess's ``Game.from_board``): its
        starting tags, then ``tags`` (``Event="club night"``), its set-up lines, the events
        pushed as the mainline, and the result tags where the game has any.

        A position set up from its notation is recorded with a ``[Position]`` tag;

        :raises Error: a game whose records cannot start from a set-up position."""
        game = position.game
        if position.set_up is not None and not game.setup_positions:
            raise Error(f"{game.name} records cannot start from a set-up position; "
                        f"only a game pushed from the start can be recorded")
        values = {**position.tags, **{key: str(value) for key, value in tags.items()}}
        if game.is_over(position.state):
            values.update(game.result_tags(position.state))
        body: list[Item] = [*position.directives, *(EventNode(e) for e in position.moves)]
        return cls(game, [Tag(key, value) for key, value in values.items()], body)

    def start(self) -> Position[Any]:
        """A fresh position at the start (the tags and set-up lines say which).

        :raises Error: tags the game cannot start from."""
        key = (tuple(self.headers.items()), tuple(d.text for d in self.directives), self.source)
        if self._start_cache is None or self._start_cache[0] != key:
            setup = GameNode(self.rules, list(self.tags), list(self.directives),
                             source=self.source, index=self.index)
            self._start_cache = key, at_start(setup)
        return self._start_cache[1].copy()

    def copy(self) -> GameNode:
        """An independent copy of the record and its whole tree."""
        other = GameNode(self._rules or self.game, list(self.tags), list(self.directives),
                         index=self.index, source=self.source, pos=self.pos)
        other._children, other._directives = [], list(self.directives)
        other._trailer = list(self.trailer)
        _copy_words(self, other)
        for child in self.variations:
            other.graft(child)
        return other

    def save(self, path: str | os.PathLike[str], encoding: str = "utf-8") -> None:
        """Write the record to ``path`` as one file, whole or not at all (a temporary
        beside it, then a rename), compressed as its name ends (``.gz``, ``.xz``, ...), in
        the format its name says (``.blksgf``, ``.notation.json``; any other name: the
        game's own notation). ``notation.write`` writes several records to one file.

        :raises WriteError: the file cannot be written (nothing is changed).
        :raises NotationError: a record the file's format cannot hold."""
        from notation.save.records import write  # (start-up: a reading never writes)
        write(self, path, encoding)

    def _written(self) -> list[Item]:
        """The body written from the nodes: set-up lines, the root's comments, the
        mainline with its variations (PGN's order), then the trailing set-up lines."""
        body: list[Item] = [*self._directives, *self._comments_after()]
        if self._children:
            body += _line(self._children[0], self.rules)
        return body + self._trailer


class Headers(MutableMapping[str, str]):
    """A record's tags by name, live: reading one reads its tag line (the last, if given
    twice), setting one rewrites it or adds a line, deleting one removes its lines.
    A look-up scans the few tag lines; nothing is copied."""

    __slots__ = ("_record",)

    def __init__(self, record: GameNode) -> None:
        self._record = record  # (its tag list, read anew: a full reading replaces it)

    @property
    def _tags(self) -> list[Tag | Malformed]:
        return self._record.tags

    @overload
    def get(self, key: str, /) -> str | None: ...
    @overload
    def get(self, key: str, default: str | T, /) -> str | T: ...

    def get(self, key: str, default: object = None, /) -> object:
        found = last_tag_value(self._tags, key)
        return default if found is None else found

    def __getitem__(self, key: str) -> str:
        found = last_tag_value(self._tags, key)
        if found is None:
            raise KeyError(key)
        return found

    def __contains__(self, key: object) -> bool:
        for tag in self._tags:  # (a loop, not any() over a generator: asked every game)
            if isinstance(tag, Tag) and tag.key == key:
                return True
        return False

    def __setitem__(self, key: str, value: str) -> None:
        if not isinstance(value, str):
            raise TypeError(f"a tag's value is text, not {type(value).__name__}")
        lines = [at for at, t in enumerate(self._tags) if isinstance(t, Tag) and t.key == key]
        if not lines:
            self._tags.append(Tag(key, value))
        for at in lines:
            self._tags[at] = Tag(key, value, self._tags[at].pos)

    def __delitem__(self, key: str) -> None:
        if key not in self:
            raise KeyError(key)
        self._tags[:] = [t for t in self._tags if not (isinstance(t, Tag) and t.key == key)]

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys(t.key for t in self._tags if isinstance(t, Tag)))

    def as_dict(self) -> dict[str, str]:
        """``dict(headers)`` in one pass over the tag lines (each key where it first
        appears, with its last value), not a scan a key."""
        return tag_values(self._tags)

    def items(self) -> ItemsView[str, str]:
        """The tags as (name, value), as they stand now (:meth:`as_dict`'s: one pass, where
        the mapping's own view looks each name up again)."""
        return self.as_dict().items()

    def values(self) -> ValuesView[str]:
        """The tags' values, as they stand now (see :meth:`items`)."""
        return self.as_dict().values()

    def __len__(self) -> int:
        return len({t.key for t in self._tags if isinstance(t, Tag)})

    def __repr__(self) -> str:
        return f"Headers({dict(self)!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return dict(self) == dict(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


class RecordFile:
    """Every game of one file, in file order."""

    def __init__(self, source: str, records: list[GameNode]) -> None:
        self.source, self.records = source, records

    def __iter__(self) -> Iterator[GameNode]:
        return iter(self.records)

    def __len__(self) -> int:
        return len(self.records)

    def __getitem__(self, index: int) -> GameNode:
        return self.records[index]

    def __repr__(self) -> str:
        return f"RecordFile({self.source!r}, {len(self.records)} games)"


def _where(record: GameNode, pos: Pos, message: str) -> TreeError:
    return TreeError(record.source, pos, message)


def _checked(nags: Iterable[int]) -> list[int]:
    """Annotations as a list, each one ``$N`` can write (ValueError otherwise)."""
    given = list(nags)
    for nag in given:
        if not 0 <= nag <= MAX_NAG:
            raise ValueError(f"an annotation is $0 to ${MAX_NAG}, not ${nag}")
    return given


def _annotate(node: Node, comment: str, starting_comment: str, nags: list[int],
              commands: dict[str, str] | None) -> None:
    node.comment, node.starting_comment, node.nags = comment, starting_comment, nags
    node.commands = dict(commands or {})


def _copy_words(source: Node, node: Node) -> None:
    """Everything said about a move, and where it was read, from ``source`` to ``node``."""
    node.comment, node.starting_comment = source.comment, source.starting_comment
    node.nags, node.commands = list(source.nags), dict(source.commands)
    node.pos, node._before, node._after = source.pos, source._before, source._after


def lenient_tree(record: GameNode, items: list[Item] | None = None
                 ) -> tuple[GameNode, dict[int, list[ChildNode]]]:
    """``record``'s body read into a fresh tree as far as it reads (for a walk that shows a
    broken record too; ``record`` itself is not expanded): an unreadable event is a node
    whose ``move`` is None and ``unread`` its text, and the nodes after it hang from it; a
    variation after no move, set-up lines inside a variation and other unreadable text
    are left out, a variation never closed ends with the body. Also each line's nodes,
    by the ``id`` of the item list they were read from (the lines the replayer plays;
    ``items``: the body to read, ``record.items`` by default)."""
    root = GameNode(record._rules or record.game, list(record.tags), index=record.index,
                    source=record.source, pos=record.pos)
    root._children = []
    reading = _Reading(root, lenient=True)
    reading.line(record.items if items is None else items, root, top=True)
    reading.settle()
    return root, reading.lines


class _Reading:
    """One record read into a tree: nodes are made as events come; the comments found
    before and after each move are read into its words at the end (:meth:`settle`).
    ``lenient``: what a tree cannot hold is left out or kept as an unread node
    (:func:`lenient_tree`), and each line's nodes are kept in ``lines``."""

    def __init__(self, root: GameNode, lenient: bool = False) -> None:
        self.root = root
        self.lenient = lenient
        self.lines: dict[int, list[ChildNode]] = {}
        self.before: dict[ChildNode, list[Comment]] = {}
        self.after: dict[Node, list[Comment]] = {}

    def line(self, items: list[Item], parent: Node, top: bool) -> list[Comment]:
        """One line of play from ``parent``, its variations in it; returns the comments
        of a line without a move (an empty variation's), for the move before it."""
        last: ChildNode | None = None
        leading: list[Comment] = []
        made: list[ChildNode] | None = None
        if self.lenient:
            made = self.lines[id(items)] = []
        for item in items:
            if isinstance(item, EventNode) or (made is not None and isinstance(item, Malformed)
                                               and item.what == MalformedKind.EVENT):
                node = ChildNode(parent if last is None else last, item.event
                                 if isinstance(item, EventNode) else None)
                if isinstance(item, EventNode):
                    node.nags = list(item.nags)
                else:
                    node.unread = item
                node.pos = item.pos
                if made is not None:
                    made.append(node)
                if last is None and leading:
                    if top:
                        self.after.setdefault(parent, []).extend(leading)
                    else:
                        self.before[node] = leading
                last = node
            elif isinstance(item, Comment):
                if last is None:
                    leading.append(item)
                else:
                    self.after.setdefault(last, []).append(item)
            elif isinstance(item, Variation):
                self.variation(item, last)
            elif isinstance(item, Directive):
                if not top:
                    if self.lenient:
                        continue
                    raise self.where(item.pos, "a set-up line inside a variation")
                (self.root._directives if last is None else self.root._trailer).append(
                    Directive(item.kind, item.text, item.pos))
            elif not self.lenient:
                raise self.where(item.pos, item.message)
        if last is None and top:
            self.after.setdefault(parent, []).extend(leading)
            return []
        return leading if last is None else []

    def variation(self, item: Variation, last: ChildNode | None) -> None:
        if self.lenient and last is None:
            return
        if not item.closed and not self.lenient:
            raise self.where(item.pos, "variation '(' is never closed")
        if last is None:
            raise self.where(item.pos, "a variation '(' must follow the event it is an "
                                       "alternative to")
        left = self.line(item.items, last.parent, top=False)
        if left:
            self.after.setdefault(last, []).extend(left)

    def where(self, pos: Pos, message: str) -> TreeError:
        return _where(self.root, pos, message)

    def settle(self) -> None:
        for node, comments in self.before.items():
            node._before = Written.of(comments)
            node.starting_comment = node._before.remark
            node.commands = commands_of(comments)
        for owner, comments in self.after.items():
            owner._after = Written.of(comments)
            owner.comment = owner._after.remark
            owner.commands = {**owner.commands, **commands_of(comments)}


def _line(first: ChildNode, rules: AnyGame) -> list[Item]:
    """The items of a line of play from ``first``: after each main continuation, its
    alternatives as variations (PGN's rule), each written the same way."""
    items: list[Item] = []
    node: ChildNode | None = first
    while node is not None:
        items += node._comments_before()
        items.append(EventNode(node.move, pos=node.pos or Pos(0, 0),
                               text=rules.format_event(node.move), nags=tuple(node.nags)))
        items += node._comments_after()
        siblings = node.parent.variations
        if siblings[0] is node:
            items += [Variation(_line(side, rules)) for side in siblings[1:]]
        node = node.next()
    return items

