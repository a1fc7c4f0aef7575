"""Every class made by ``hand_dataclass`` against the class ``dataclasses.dataclass``
makes of the same fields: the same signature, fields, slots, ``repr``, equality, hash,
freezing and ``replace``; and a small ``validate`` compiles no method at all."""
from __future__ import annotations

import copy
import dataclasses
import importlib
import inspect
import pickle
import pkgutil
import subprocess
import sys
from dataclasses import field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, reject, settings
from hypothesis import strategies as st

import notation
from notation.core.hand_dataclass import MADE, hand_dataclass

ROOT = Path(__file__).resolve().parents[2]


def _import_everything() -> None:
    """Every module of the package (the CLI's too), so that every such class is made."""
    import notation.cli
    for package in (notation, notation.cli):
        for found in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(found.name)


_import_everything()


# Classes of the test's own, for the cases the package's classes leave out.
@hand_dataclass(frozen=True)
class One:
    """One field: compared and hashed as a tuple of one (a NaN equal to itself)."""

    value: Any

    def __init__(self, value: Any) -> None:
        object.__setattr__(self, "value", value)


@hand_dataclass(frozen=True)
class Flags:
    """Fields left out of the comparison, the hash or the repr."""

    kept: Any
    unhashed: Any = field(default=0, hash=False)
    hashed: Any = field(default=0, compare=False, hash=True)
    unseen: Any = field(default=0, repr=False)

    def __init__(self, kept: Any, unhashed: Any = 0, hashed: Any = 0, unseen: Any = 0) -> None:
        object.__setattr__(self, "kept", kept)
        object.__setattr__(self, "unhashed", unhashed)
        object.__setattr__(self, "hashed", hashed)
        object.__setattr__(self, "unseen", unseen)


@hand_dataclass()
class Empty:
    """No field at all."""

    def __init__(self) -> None:
        pass


CLASSES = sorted(MADE, key=lambda cls: f"{cls.__module__}.{cls.__qualname__}")


def reference(cls: type) -> Any:
    """The class ``dataclass`` makes of ``cls``'s fields, under its name."""
    spec = [(f.name, f.type, dataclasses.field(
        default=f.default, default_factory=f.default_factory, init=f.init, repr=f.repr,
        hash=f.hash, compare=f.compare, metadata=f.metadata, kw_only=f.kw_only))
        for f in dataclasses.fields(cls)]
    made = dataclasses.make_dataclass(cls.__name__, spec, **MADE[cls])
    made.__qualname__ = cls.__qualname__
    return made


def _reduces_itself(cls: type) -> bool:
    """Whether the class pickles in its own way (an outcome travels as its JSON)."""
    return any("__reduce__" in base.__dict__ for base in cls.__mro__[:-1])


def _name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def test_the_start_up_classes_are_made_by_hand() -> None:
    # A regression guard as well as a check that the walk found them.
    names = {_name(cls) for cls in CLASSES}
    assert {"notation.core.ast.Tag", "notation.core.errors.Problem",
            "notation.core.outcome.Outcome", "notation.cli.inputs.Inputs"} <= names


@pytest.mark.parametrize("cls", CLASSES, ids=_name)
def test_the_shape_is_dataclass_s(cls: type) -> None:
    ref = reference(cls)
    ours_signature = inspect.signature(cls)
    ref_signature = inspect.signature(ref)
    assert list(ours_signature.parameters) == list(ref_signature.parameters)
    for name, theirs in ref_signature.parameters.items():
        ours = ours_signature.parameters[name]
        assert ours.kind == theirs.kind, name
        if theirs.default is inspect.Parameter.empty:
            assert ours.default is inspect.Parameter.empty, name
        elif repr(theirs.default) == "<factory>":  # a new one each time: None says so here
            assert ours.default is None, name
        else:
            assert ours.default is theirs.default, name
    assert getattr(cls, "__match_args__") == getattr(ref, "__match_args__")
    assert ("__slots__" in cls.__dict__) == ("__slots__" in ref.__dict__)
    if "__slots__" in ref.__dict__:
        own = set(cls.__dict__["__slots__"])
        assert own == set(ref.__dict__["__slots__"]) - _inherited_slots(cls)
    assert (cls.__hash__ is None) == (ref.__hash__ is None)  # type: ignore[comparison-overlap]
    flags = ("init", "repr", "eq", "order", "unsafe_hash", "frozen")
    ours_params, ref_params = getattr(cls, "__dataclass_params__"), getattr(ref, "__dataclass_params__")
    assert [getattr(ours_params, f) for f in flags] == [getattr(ref_params, f) for f in flags]
    for name in ("__repr__", "__eq__", "__setattr__", "__getstate__"):
        method = cls.__dict__.get(name)
        if callable(method):
            assert method.__module__ == cls.__module__, name


def _inherited_slots(cls: type) -> set[str]:
    return {name for base in cls.__mro__[1:] for name in getattr(base, "__slots__", ())}


NAN = float("nan")
#: Values the fields are given: equal and unequal ones, a NaN alone and inside a tuple
#: (equal to itself as the same object, as dataclass's tuples compare).
VALUES = st.sampled_from(["", "a", "ab", (), (1,), NAN, (NAN,), ("a", 2)])


@st.composite
def arguments(draw: st.DrawFn, cls: type) -> dict[str, Any]:
    """Keyword arguments for ``cls``: every field without a default, others at random."""
    found: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if not f.init:
            continue
        has_default = f.default is not dataclasses.MISSING or \
            f.default_factory is not dataclasses.MISSING
        if not has_default or draw(st.booleans()):
            found[f.name] = draw(VALUES)
    return found


def _fields(obj: Any) -> dict[str, Any]:
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}


@pytest.mark.parametrize("cls", CLASSES, ids=_name)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_instances_behave_as_dataclass_s(cls: type, data: st.DataObject) -> None:
    ref = reference(cls)
    one, other = data.draw(arguments(cls)), data.draw(arguments(cls))
    try:
        ours, ours_other = cls(**one), cls(**other)
    except TypeError:  # a value of a type the class cannot take (a problem measures texts)
        reject()
    theirs, theirs_other = ref(**one), ref(**other)
    assert _fields(ours) == _fields(theirs)
    assert repr(ours) == repr(theirs)
    assert (ours == ours_other) == (theirs == theirs_other)
    assert (ours != ours_other) == (theirs != theirs_other)
    assert ours.__eq__(object()) is theirs.__eq__(object())
    if not MADE[cls]["eq"]:  # the identity's hash
        assert cls.__hash__ is ref.__hash__ is object.__hash__
    elif cls.__hash__ is not None:  # type: ignore[comparison-overlap]
        assert _result(hash, ours) == _result(hash, theirs)
    for f in dataclasses.fields(cls):
        if f.default_factory is not dataclasses.MISSING and f.name not in one:
            assert getattr(ours, f.name) == f.default_factory()
            assert getattr(ours, f.name) is not getattr(cls(**one), f.name)  # a new one
    changes = {name: value for name, value in other.items()}
    assert _fields(dataclasses.replace(ours, **changes)) == \
        _fields(dataclasses.replace(theirs, **changes))
    assert type(dataclasses.replace(ours, **changes)) is cls
    _same_freezing(ours, theirs)


@pytest.mark.parametrize("cls", [cls for cls in CLASSES if not _reduces_itself(cls)], ids=_name)
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_instances_pickle_and_copy(cls: type, data: st.DataObject) -> None:
    try:
        ours = cls(**data.draw(arguments(cls)))
    except TypeError:  # (as above)
        reject()
    for back in (pickle.loads(pickle.dumps(ours)), copy.copy(ours), copy.deepcopy(ours)):
        assert type(back) is cls and repr(back) == repr(ours)


def _result(function: Any, *args: Any) -> tuple[str, Any]:
    """What ``function(*args)`` returns, or the type of what it raises."""
    try:
        return "returned", function(*args)
    except Exception as exc:  # noqa: BLE001 (compared, not kept)
        return "raised", type(exc)


def _same_freezing(ours: Any, theirs: Any) -> None:
    """A field and a name that is none set and deleted: refused (how) or done alike. (Not
    the other name with slots: Python 3.11's frozen dataclass with slots then fails on its
    own, its ``__setattr__`` naming the class before slots were added.)"""
    names = [f.name for f in dataclasses.fields(ours)[:1]]
    if "__slots__" not in type(ours).__dict__:
        names.append("elsewhere")
    changes = [change for name in names for change in (
        lambda obj, name=name: setattr(obj, name, "changed"),
        lambda obj, name=name: delattr(obj, name))]
    for change in changes:
        outcomes = []
        for obj in (ours, theirs):
            try:
                change(obj)
                outcomes.append(None)
            except (dataclasses.FrozenInstanceError, AttributeError) as exc:
                outcomes.append(f"{type(exc).__name__}: {exc}")
        assert outcomes[0] == outcomes[1]


def test_an_object_never_equals_one_of_a_subclass() -> None:
    from notation.core.ast import Malformed, Unlisted
    base, sub = Malformed("x", "y"), Unlisted("x", "y")
    assert base != sub and sub != base and not base == sub
    assert Unlisted("x", "y") == sub


def test_repr_of_an_object_inside_itself_stops() -> None:
    @hand_dataclass()
    class Box:
        inside: Any

        def __init__(self, inside: Any) -> None:
            self.inside = inside
    box = Box(None)
    box.inside = [box]
    assert repr(box) == "test_repr_of_an_object_inside_itself_stops.<locals>.Box(inside=[...])"
    del MADE[Box]


def test_a_subclass_is_frozen_as_its_base_says() -> None:
    from notation.core.errors import Problem
    with pytest.raises(TypeError, match="non-frozen dataclass from a frozen one"):
        @dataclasses.dataclass
        class Thawed(Problem):
            extra: int = 0

    @dataclasses.dataclass(frozen=True)
    class Frozen(Problem):
        extra: int = 0
    assert Frozen.__dataclass_params__.frozen  # type: ignore[attr-defined]


def test_what_a_frozen_one_cannot_take_is_refused() -> None:
    from notation.core.ast import Tag
    with pytest.raises(TypeError, match="takes no dataclass base"):
        @hand_dataclass(frozen=True)
        class Based(Tag):
            def __init__(self) -> None:
                pass
    with pytest.raises(TypeError, match="Cannot overwrite attribute __setattr__"):
        @hand_dataclass(frozen=True)
        class Setting:
            def __init__(self) -> None:
                pass

            def __setattr__(self, name: str, value: object) -> None:
                pass


def test_a_class_that_writes_no_init_is_refused() -> None:
    with pytest.raises(TypeError, match="must write its own __init__"):
        @hand_dataclass()
        class Bare:
            value: int


def test_methods_the_class_writes_are_kept() -> None:
    @hand_dataclass(frozen=True)
    class Own:
        value: int

        def __init__(self, value: int) -> None:
            object.__setattr__(self, "value", value)

        def __repr__(self) -> str:
            return "own"

        def __eq__(self, other: object) -> bool:
            return True

        def __hash__(self) -> int:
            return 7
    assert repr(Own(1)) == "own" and Own(1) == Own(2) and hash(Own(1)) == 7
    del MADE[Own]


#: A small ``validate`` with every method ``exec`` compiles counted (dataclass's and
#: named tuples' ways of making methods).
COUNT_COMPILED = """
import builtins, sys
compiled = []
for name in ("exec", "eval"):
    original = getattr(builtins, name)
    def counting(source, *rest, _original=original, _name=name):
        if isinstance(source, str):
            compiled.append(_name + ": " + source.strip().splitlines()[0])
        return _original(source, *rest)
    setattr(builtins, name, counting)
sys.argv = ["notation", "validate", sys.argv[1]]
from notation.cli.main import run
try:
    run()
except SystemExit:
    pass
sys.stdout.flush()
print("\\n".join(["compiled:"] + compiled))
"""


def test_a_small_validate_makes_no_dataclass_method() -> None:
    sample = ROOT / "samples" / "tilewe" / "tw-sample-1.tilewe"
    for _ in range(2):  # the second run counts: a first may build the terminal cache (Lark)
        done = subprocess.run([sys.executable, "-c", COUNT_COMPILED, str(sample)],
                              capture_output=True, text=True, check=True)
    compiled = done.stdout.split("compiled:\n", 1)[1].splitlines()
    assert not [line for line in compiled if "__dataclass" in line or "def __" in line]
