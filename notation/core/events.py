"""What every game's events share: their base type (:class:`EventTuple`: fields, comparison
by type, ``repr`` as written, ``parse``) and one read from its text with the game's own
grammar terminals (readers that remember what they read: :func:`.limits.remembered`).

Light: a game's events module imports it at load, and a check loads no more of the
core's positions than it plays (:mod:`notation.core.position` builds on this).
"""
from __future__ import annotations

import sys
from keyword import iskeyword
from operator import itemgetter
from typing import Any, ClassVar, Self, dataclass_transform, get_origin

from . import registry
from .errors import NotationError, shorten
from notation.read.scanner import scanner
from .game import AnyGame

try:  # the C getter a named tuple's fields use
    from _collections import _tuplegetter as _field  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - another Python than CPython
    def _field(index: int, doc: str) -> Any:
        return property(itemgetter(index), doc=doc)


def game_named(game: str | AnyGame) -> AnyGame:
    """The game of that name (any case), or the game itself; Error for an unknown one."""
    return registry.require(game) if isinstance(game, str) else game


def parse_event(game: str | AnyGame, text: str) -> Any:
    """One event written in the game's notation, read with its own grammar terminals.

    Raises :class:`NotationError` (with the game's own diagnosis) for text that
    is not exactly one event; an event number in front (``12. F5e-a2d4``) is not
    part of the event.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_event takes an event's text (a str), not "
                        f"{type(text).__name__} {shorten(repr(text))}")
    game = game_named(game)
    scan = scanner(game)
    word = text.strip()
    m = scan.token.fullmatch(word)
    kind = m.lastgroup if m is not None else None
    if m is None or kind is None or kind not in scan.readers:  # a set-up line, a comment
        raise NotationError(game.diagnose(word))
    if word[:1].isdigit():
        raise NotationError(f"{word!r}: write the event without its number")
    reader = scan.readers[kind]
    return reader(m.group(m.lastindex or 0))


def parse_event_as(game: str | AnyGame, kind: type, text: str) -> Any:
    """One event of type ``kind`` (``Move.parse``): :func:`parse_event`, then a
    :class:`NotationError` if the text is another kind of event."""
    event = parse_event(game, text)
    if not isinstance(event, kind):
        raise NotationError(f"{text.strip()!r} is a {type(event).__name__}, not a {kind.__name__}")
    return event


def event_repr(event: Any) -> str:
    """An event's ``repr`` in its notation, the same shape in every game: ``Move('F5e-a2d4')``."""
    return f"{type(event).__name__}({str(event)!r})"


def _is_class_variable(hint: Any) -> bool:
    """Whether an annotation (its text under ``from __future__ import annotations``)
    declares a class variable (``ClassVar[...]``), not a field."""
    if isinstance(hint, str):
        return hint.startswith(("ClassVar", "typing.ClassVar"))
    return hint is ClassVar or get_origin(hint) is ClassVar


def _constructor(kind: type, fields: tuple[str, ...], defaults: tuple[Any, ...]) -> Any:
    """``kind.__new__``, taking the fields by position or name: one call of
    ``tuple.__new__`` with the values in order, as fast as a named tuple's."""
    names = ", ".join(fields)
    values = f"({names},)" if fields else "()"
    namespace: dict[str, Any] = {"_tuple_new": tuple.__new__}
    source = f"def __new__(_cls, {names}):\n    return _tuple_new(_cls, {values})\n"
    exec(compile(source, f"<{kind.__name__}.__new__>", "exec", dont_inherit=True), namespace)
    new = namespace["__new__"]
    new.__defaults__ = defaults or None
    new.__qualname__ = f"{kind.__qualname__}.__new__"
    new.__doc__ = f"{kind.__name__}({names})"
    return new


def _spelled(kind: type, fields: tuple[str, ...], spelling: str) -> Any:
    """``kind.__str__`` from its spelling, an f-string over its fields
    (``"vote {name} {'yes' if yes else 'no'}"``), compiled once: as fast as one written
    by hand, names other than the fields looked up in the type's module when called."""
    # (the event is ``_event``: a field cannot start with "_", so no field hides it)
    unpack = f"    {', '.join(fields)}, = _event\n" if fields else ""
    source = f"def __str__(_event):\n{unpack}    return f{spelling!r}\n"
    namespace: dict[str, Any] = {}
    module = sys.modules[kind.__module__].__dict__
    try:
        code = compile(source, f"<{kind.__name__}.__str__>", "exec", dont_inherit=True)
    except SyntaxError as exc:
        raise TypeError(f"event type {kind.__name__}: spelling {spelling!r} is not an "
                        f"f-string over its fields ({exc.msg})") from None
    exec(code, module, namespace)
    spell = namespace["__str__"]
    spell.__qualname__ = f"{kind.__qualname__}.__str__"
    spell.__doc__ = f"The event as written: {spelling}"
    return spell


@dataclass_transform(eq_default=False, frozen_default=True)
class EventTuple(tuple[Any, ...]):
    """What a game's event type derives from: a tuple of the fields its class body
    annotates (``class Vote(EventTuple, game="nomic"): name: str; yes: bool``), built,
    read and copied as fast as a named tuple, equal only to an event of its own type
    with equal fields (nomic's ``join Bob`` is not ``turn Bob``), shown as written
    (``Vote('vote Bob yes')``) and read strictly by ``Vote.parse``.

    Each type writes ``__slots__ = ()`` (an event has no attributes but its fields; a
    metaclass that wrote it would slow every ``isinstance`` against an event type)
    and its text: ``spelling``, an f-string over the fields (``class Round(EventTuple,
    game="nomic", spelling="round {number}")``), or a ``__str__`` of its own.
    """

    __slots__ = ()
    #: The name of the game whose grammar reads the type's events.
    game: ClassVar[str] = ""
    #: False for an event of play that no record writes (Flows' tile drawn, which the
    #: placement after it names): :class:`Position` plays it but neither counts it as a
    #: ply nor lists it in ``moves``.
    written: ClassVar[bool] = True
    _fields: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, game: str = "", spelling: str | None = None,
                          **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "__slots__" not in cls.__dict__:
            raise TypeError(f"event type {cls.__name__}: declare __slots__ = () (an event "
                            f"holds its fields only)")
        cls.game = game or cls.game
        if not cls.game:
            raise TypeError(f"event type {cls.__name__}: name its game "
                            f"(class {cls.__name__}(EventTuple, game=...))")
        hints = cls.__dict__.get("__annotations__", {})
        fields = tuple(name for name, hint in hints.items() if not _is_class_variable(hint))
        if not fields and cls._fields:  # a type that only adds behaviour keeps its base's fields
            if spelling is not None:
                setattr(cls, "__str__", _spelled(cls, cls._fields, spelling))
            return
        if cls._fields:
            raise TypeError(f"event type {cls.__name__} adds fields to {cls.__mro__[1].__name__}")
        defaults: list[Any] = []
        for index, name in enumerate(fields):
            if not name.isidentifier() or iskeyword(name) or name.startswith("_"):
                raise TypeError(f"{cls.__name__}: {name!r} cannot name a field")
            if name in cls.__dict__:
                defaults.append(cls.__dict__[name])
            elif defaults:
                raise TypeError(f"{cls.__name__}: field {name!r} without a default follows "
                                f"one with a default")
            setattr(cls, name, _field(index, f"Field {index} of {cls.__name__}: {name}"))
        cls._fields = fields
        setattr(cls, "__match_args__", fields)
        setattr(cls, "__new__", staticmethod(_constructor(cls, fields, tuple(defaults))))
        if spelling is not None:
            setattr(cls, "__str__", _spelled(cls, fields, spelling))

    @classmethod
    def parse(cls, text: str) -> Self:
        """The one event of this type ``text`` writes (``Vote.parse("vote Bob yes")``),
        read with the game's grammar; :class:`NotationError` for any other text."""
        event: Self = parse_event_as(cls.game, cls, text)
        return event

    def _replace(self, **changes: Any) -> Self:
        """A copy with the fields ``changes`` names set to new values."""
        copy: Self = tuple.__new__(type(self), map(changes.pop, self._fields, self))
        if changes:
            raise ValueError(f"Got unexpected field names: {list(changes)!r}")
        return copy

    def __getnewargs__(self) -> tuple[Any, ...]:
        """The fields, which ``__new__`` takes back (pickling: worker processes)."""
        return tuple(self)

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not (type(self) is type(other) and tuple.__eq__(self, other))

    def __hash__(self) -> int:
        return hash((type(self).__name__, tuple.__hash__(self)))

    def __repr__(self) -> str:
        return event_repr(self)
