"""Dataclasses that compile nothing when their module is imported.

``dataclasses.dataclass`` writes a class's methods as source text and compiles each
(Python 3.11: one ``exec`` a method): 1.8 million instructions a plain class, 3.5 million a
frozen one with slots, a tenth of a small ``validate``'s start-up for the classes it loads.
:func:`hand_dataclass` keeps everything that makes a dataclass one (``fields``,
``replace``, ``asdict``, ``__match_args__``, slots) and makes its methods without a
compiler: the class writes its own ``__init__`` (the one method a call per object pays
for, and the one whose signature readers see), and ``__repr__``, ``__eq__`` and, for a
frozen class, ``__setattr__``, ``__delattr__``, ``__hash__`` (and with slots the pickle
state's two) are closures over the fields made here. Each behaves as ``dataclass``'s
does: tests/core/test_hand_dataclass.py holds every class made this way to the class
``dataclass`` makes of the same fields.

One difference is deliberate: a field with a ``default_factory`` takes ``None`` in the
class's ``__init__`` for "a new one" (``dataclass`` uses a private marker).
"""
from __future__ import annotations

import dataclasses
from _thread import get_ident
from copy import copy
from operator import attrgetter
from typing import Any, Callable, Iterable, TypeVar, dataclass_transform

T = TypeVar("T")

#: Every class made here, with the keywords it gave (what the test holds to ``dataclass``).
MADE: dict[type, dict[str, bool]] = {}


@dataclass_transform(field_specifiers=(dataclasses.field, dataclasses.Field))
def hand_dataclass(*, frozen: bool = False, eq: bool = True,
                   slots: bool = False) -> Callable[[type[T]], type[T]]:
    """``dataclass(frozen=..., eq=..., slots=...)`` for a class that writes its own
    ``__init__`` (a frozen one sets its fields with ``object.__setattr__``). A frozen one
    takes no dataclass base."""
    def make(cls: type[T]) -> type[T]:
        if "__init__" not in cls.__dict__:
            raise TypeError(f"{cls.__qualname__} must write its own __init__")
        if frozen:
            if any(dataclasses.is_dataclass(base) for base in cls.__mro__[1:]):
                raise TypeError(f"{cls.__qualname__}: a frozen hand_dataclass takes no "
                                f"dataclass base")
            for name in ("__setattr__", "__delattr__"):
                if name in cls.__dict__:  # (as dataclass refuses it)
                    raise TypeError(f"Cannot overwrite attribute {name} in class "
                                    f"{cls.__name__}")
        explicit_hash = _explicit_hash(cls)
        made: Any = dataclasses.dataclass(init=False, repr=False, eq=False, slots=slots)(cls)
        fields = dataclasses.fields(made)
        every = [f.name for f in fields]
        _add(made, "__repr__", _repr([f.name for f in fields if f.repr]))
        compared = [f.name for f in fields if f.compare]
        if eq:
            _add(made, "__eq__", _eq(_key(compared)))
        if frozen:
            names = frozenset(every)
            _add(made, "__setattr__", _frozen_setattr(made, names))
            _add(made, "__delattr__", _frozen_delattr(made, names))
            if slots:  # (pickled and copied as dataclass's are: set by object's setattr)
                _add(made, "__getstate__", _getstate(every))
                _add(made, "__setstate__", _setstate(every))
        if eq and not explicit_hash:
            if frozen:
                hashed = [f.name for f in fields if (f.compare if f.hash is None else f.hash)]
                setattr(made, "__hash__", _hash(_key(hashed)))
            else:
                setattr(made, "__hash__", None)
        # What the class is, for dataclass's own checks (a subclass's freezing) and readers.
        params = copy(made.__dataclass_params__)
        for name, value in (("init", True), ("repr", True), ("eq", eq), ("frozen", frozen)):
            setattr(params, name, value)
        made.__dataclass_params__ = params
        MADE[made] = {"frozen": frozen, "eq": eq, "slots": slots}
        made_class: type[T] = made
        return made_class
    return make


def _explicit_hash(cls: type) -> bool:
    """Whether the class body sets ``__hash__`` itself (Python sets it to None for a body
    that defines ``__eq__``: that one is not the class's own), as ``dataclass`` asks."""
    own = cls.__dict__.get("__hash__", dataclasses.MISSING)
    return not (own is dataclasses.MISSING or (own is None and "__eq__" in cls.__dict__))


def _add(cls: type, name: str, method: Callable[..., Any]) -> None:
    """Set ``method`` unless the class body defines that name (as ``dataclass`` does)."""
    if name not in cls.__dict__:
        method.__qualname__ = f"{cls.__qualname__}.{name}"
        method.__module__ = cls.__module__
        setattr(cls, name, method)


def _key(names: Iterable[str]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of an object's ``names``, in order (``dataclass`` compares and hashes
    tuples: their items are matched by identity first)."""
    names = tuple(names)
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


def _repr(names: list[str]) -> Callable[[Any], str]:
    running: set[tuple[int, int]] = set()

    def __repr__(self: Any) -> str:
        key = id(self), get_ident()
        if key in running:  # the object inside itself, as dataclass's repr says it
            return "..."
        running.add(key)
        try:
            shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        finally:
            running.discard(key)
        return f"{self.__class__.__qualname__}({shown})"
    return __repr__


def _eq(key: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any, Any], Any]:
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented
    return __eq__


def _hash(key: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(key(self))
    return __hash__


def _frozen_setattr(cls: type, names: frozenset[str]) -> Callable[[Any, str, Any], None]:
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)  # type: ignore[arg-type]  # (a class)
    return __setattr__


def _getstate(names: list[str]) -> Callable[[Any], list[Any]]:
    def __getstate__(self: Any) -> list[Any]:
        return [getattr(self, name) for name in names]
    return __getstate__


def _setstate(names: list[str]) -> Callable[[Any, list[Any]], None]:
    def __setstate__(self: Any, state: list[Any]) -> None:
        for name, value in zip(names, state):
            object.__setattr__(self, name, value)
    return __setstate__


def _frozen_delattr(cls: type, names: frozenset[str]) -> Callable[[Any, str], None]:
    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)  # type: ignore[arg-type]  # (a class)
    return __delattr__
