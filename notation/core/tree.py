"""Game trees, python-chess's shape (``chess.pgn.Game`` and ``ChildNode``) for every game.

A record with variations is a tree of moves: the root (:class:`GameNode`) holds the
record's tags and set-up, each :class:`ChildNode` one move with its comment, its
annotations (``nags``) and its comment commands, and ``variations`` lists the moves
played from there, the main one first::

    tree = notation.GameNode.from_record(notation.load("tree.tilewe")[0])
    first = tree.next()                               # the mainline's first move
    other = tree.add_variation("I2n-a1a1", comment="also fine")  # checked by the rules
    tree.promote_to_main(other)
    text = notation.format_record(tree.to_record())

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

from typing import Any, Iterable

from .ast import Comment, Directive, EventNode, Item, Malformed, Pos, Record, Tag, Variation
from .ast import MAX_NAG
from .errors import NotationError
from .game import AnyGame
from .notes import Written, commands_of, fresh_comments, read_clock, read_eval
from .notes import write_clock, write_eval
from .errors import IllegalMoveError, InvalidEventError
from .events import parse_event
from .position import Position, at_start
from .replay import game_of

__all__ = ["ChildNode", "GameNode", "IllegalMoveError", "InvalidEventError", "Node", "TreeError"]


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

    def __init__(self) -> None:
        self.variations: list[ChildNode] = []
        self.comment = ""
        self.starting_comment = ""
        self.nags: list[int] = []
        self.commands: dict[str, str] = {}
        self.pos: Pos | None = None
        self._before: Written | None = None  # the comments read before the move
        self._after: Written | None = None   # the comments read after it

    # -- where it stands -------------------------------------------------------------
    def game(self) -> GameNode:
        """The root of the tree."""
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
        position = self.game().start()
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
        identity = self.game().rules.event_identity
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
            return parse_event(self.game().rules, move)
        except NotationError:
            raise KeyError(f"{move.strip()!r} is no move of {self.game().rules.name}") from None

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
        if seconds is None:
            self.commands.pop("clk", None)
        else:
            self.commands["clk"] = write_clock(seconds)

    def eval(self) -> float | None:
        """The ``[%eval]`` value as a number (None when there is none or it is not one)."""
        return read_eval(self.commands.get("eval"))

    def set_eval(self, value: float | None) -> None:
        """Set the ``[%eval]`` command (None removes it)."""
        if value is None:
            self.commands.pop("eval", None)
        else:
            self.commands["eval"] = write_eval(value)

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
    the constructor appends the node to ``parent.variations`` unchecked."""

    parent: Node

    def __init__(self, parent: Node, move: Any) -> None:
        super().__init__()
        self.parent = parent
        self.move = move
        parent.variations.append(self)

    def __repr__(self) -> str:
        rules = self.game().rules
        return f"<ChildNode at ply {self.ply()}: {rules.format_event(self.move)}>"


class GameNode(Node):
    """The root of a tree: the record's tags (``headers``), its set-up lines
    (``directives``, and ``trailer``: those after the moves) and the first moves.

    ``rules`` is the game (its notation reads moves given as text); ``source``, ``index``
    and ``header_pos`` say where the record was read (a Sanguine deck named by a path is
    found beside ``source``).
    """

    def __init__(self, rules: AnyGame, headers: dict[str, str] | None = None,
                 directives: Iterable[Directive] = (), source: str = "<string>") -> None:
        super().__init__()
        self.parent = None
        self.move = None
        self.rules = rules
        self.headers: dict[str, str] = dict(headers or {"Game": rules.name})
        self.directives: list[Directive] = list(directives)
        self.trailer: list[Directive] = []
        self.source = source
        self.index = 1
        self.pos: Pos | None = None
        self.header_pos: dict[str, Pos] = {}
        self._start_cache: tuple[tuple[Any, ...], Position[Any]] | None = None

    def __repr__(self) -> str:
        return f"<GameNode {self.rules.name} from {self.source}, {len(self.mainline())} plies>"

    @classmethod
    def from_record(cls, record: Record) -> GameNode:
        """The tree of a record. One the tree cannot hold (unreadable text, a variation
        never closed or after no move, a tag given twice) raises :class:`TreeError`
        saying where; its moves are not checked (:meth:`position` does, as run does)."""
        rules = game_of(record)
        if rules is None:
            raise _where(record, record.pos, record.game_problem or "no known game")
        headers: dict[str, str] = {}
        places: dict[str, Pos] = {}
        for tag in record.tags:
            if isinstance(tag, Malformed):
                raise _where(record, tag.pos, tag.message)
            if tag.key in headers:
                raise _where(record, tag.pos, f"tag [{tag.key}] given twice")
            headers[tag.key], places[tag.key] = tag.value, tag.pos
        root = cls(rules, headers, source=record.source)
        root.index, root.pos, root.header_pos = record.index, record.pos, places
        reading = _Reading(record, root)
        reading.line(record.items, root, top=True)
        reading.settle()
        return root

    @classmethod
    def from_position(cls, position: Position[Any]) -> GameNode:
        """A tree of a position's game: its start, its pushed moves as the mainline
        (python-chess's ``Game.from_board``), its result tags if it is over."""
        return cls.from_record(position.record())

    def start(self) -> Position[Any]:
        """A fresh position at the start (the tags and set-up lines say which)."""
        key = (tuple(self.headers.items()), tuple(d.text for d in self.directives), self.source)
        if self._start_cache is None or self._start_cache[0] != key:
            record = Record(self.rules.name, [Tag(k, v) for k, v in self.headers.items()],
                            list(self.directives), source=self.source)
            self._start_cache = key, at_start(record)
        return self._start_cache[1].copy()

    def copy(self) -> GameNode:
        """An independent copy of the whole tree."""
        other = GameNode(self.rules, self.headers, self.directives, self.source)
        other.trailer = list(self.trailer)
        other.index, other.pos, other.header_pos = self.index, self.pos, dict(self.header_pos)
        _copy_words(self, other)
        for child in self.variations:
            other.graft(child)
        return other

    def to_record(self) -> Record:
        """The tree as a record (``notation.format_record(tree.to_record())`` writes it):
        it formats, parses and replays to the same tree. (A main continuation's
        ``starting_comment`` is written before it, where a reader gives it to the move
        before: nothing is lost, but it reads back as that move's comment.)"""
        body: list[Item] = [*self.directives, *self._comments_after()]
        if self.variations:
            body += _line(self.variations[0], self.rules)
        body += self.trailer
        return Record(self.rules.name, [Tag(k, v) for k, v in self.headers.items()], body,
                      index=self.index, source=self.source)


def _where(record: Record, pos: Pos, message: str) -> TreeError:
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


class _Reading:
    """One record read into a tree: nodes are made as events come; the comments found
    before and after each move are read into its words at the end (:meth:`settle`)."""

    def __init__(self, record: Record, root: GameNode) -> None:
        self.record, self.root = record, root
        self.before: dict[ChildNode, list[Comment]] = {}
        self.after: dict[Node, list[Comment]] = {}

    def line(self, items: list[Item], parent: Node, top: bool) -> list[Comment]:
        """One line of play from ``parent``, its variations in it; returns the comments
        of a line without a move (an empty variation's), for the move before it."""
        last: ChildNode | None = None
        leading: list[Comment] = []
        for item in items:
            if isinstance(item, EventNode):
                node = ChildNode(parent if last is None else last, item.event)
                node.nags, node.pos = list(item.nags), item.pos
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
                    raise self.where(item.pos, "a set-up line inside a variation")
                (self.root.directives if last is None else self.root.trailer).append(
                    Directive(item.kind, item.text, item.pos))
            else:
                raise self.where(item.pos, item.message)
        if last is None and top:
            self.after.setdefault(parent, []).extend(leading)
            return []
        return leading if last is None else []

    def variation(self, item: Variation, last: ChildNode | None) -> None:
        if not item.closed:
            raise self.where(item.pos, "variation '(' is never closed")
        if last is None:
            raise self.where(item.pos, "a variation '(' must follow the event it is an "
                                       "alternative to")
        left = self.line(item.items, last.parent, top=False)
        if left:
            self.after.setdefault(last, []).extend(left)

    def where(self, pos: Pos, message: str) -> TreeError:
        return _where(self.record, pos, message)

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
        items.append(EventNode(node.move, text=rules.format_event(node.move),
                               nags=tuple(node.nags)))
        items += node._comments_after()
        siblings = node.parent.variations
        if siblings[0] is node:
            items += [Variation(_line(side, rules)) for side in siblings[1:]]
        node = node.next()
    return items

