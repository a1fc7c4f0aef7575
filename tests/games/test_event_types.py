"""Every game's event types are one base's (:class:`EventTuple`): built by position or
by name, copied with ``_replace``, pickled for worker processes, equal (and hashed alike)
only to an event of the same type with the same fields, and read back from their text.

Tilewe's ``Move`` keeps its own named tuple (plain tuple equality and C hashing for long
legal-move lists; its ``parse`` is the strict reader the fast one falls back on).
"""
from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import notation
from notation.core.new_games import random_record
from notation.core import registry
from notation.core.events import EventTuple

GAMES = ("flows", "nomic", "philosophy", "sanguine")
KINDS = [kind for game in GAMES for kind in registry.require(game).event_types]
#: Field values of any type: what a tuple holds does not change how an event behaves.
VALUES = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=6),
                   st.tuples(st.integers(0, 9), st.integers(0, 9)),
                   st.lists(st.text(max_size=3), max_size=3).map(tuple))


@st.composite
def events(draw: st.DrawFn, kinds: list[type[EventTuple]] = KINDS) -> EventTuple:
    kind = draw(st.sampled_from(kinds))
    return kind(*draw(st.lists(VALUES, min_size=len(kind._fields),
                               max_size=len(kind._fields))))


def test_every_event_type_of_the_games_is_an_event_tuple_with_the_shared_parse():
    assert len(KINDS) == 3 + 13 + 6 + 5  # (Flows' Draw: played, never written)
    for kind in KINDS:
        assert issubclass(kind, EventTuple) and kind.game in GAMES, kind
        assert "parse" not in vars(kind) and not hasattr(kind(*kind._fields), "__dict__"), kind


@settings(max_examples=300)
@given(event=events(), data=st.data())
def test_an_event_is_built_copied_and_pickled_as_its_fields(event: EventTuple,
                                                            data: st.DataObject) -> None:
    kind = type(event)
    values = tuple(event)
    assert [getattr(event, name) for name in kind._fields] == list(values)
    assert kind(**dict(zip(kind._fields, values))) == event
    assert kind.__match_args__ == kind._fields
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(event, protocol))
        assert type(again) is kind and again == event and hash(again) == hash(event)
    assert event._replace() == event
    if kind._fields:
        name = data.draw(st.sampled_from(kind._fields))
        value = data.draw(VALUES)
        changed = event._replace(**{name: value})
        assert type(changed) is kind and getattr(changed, name) == value
        assert changed._replace(**{name: getattr(event, name)}) == event
    with pytest.raises(ValueError, match="unexpected field names"):
        event._replace(no_such_field=1)
    with pytest.raises(AttributeError):
        setattr(event, "no_such_field", 1)


@settings(max_examples=300)
@given(first=events(), second=events(), same_values=st.booleans())
def test_events_are_equal_when_of_one_type_with_equal_fields(first: EventTuple,
                                                             second: EventTuple,
                                                             same_values: bool) -> None:
    if same_values and len(first) == len(second):  # (two types with one shape of fields)
        second = type(second)(*first)
    equal = type(first) is type(second) and tuple(first) == tuple(second)
    assert (first == second) is equal and (first != second) is not equal
    assert (second == first) is equal and (second != first) is not equal
    if equal:
        assert hash(first) == hash(second) and len({first, second}) == 1
    assert first != tuple(first) and tuple(first) != first


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=5, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_each_event_of_a_random_game_reads_back_from_its_text(name: str, seed: int) -> None:
    game = registry.require(name)
    for event in random_record(game, random.Random(seed), {}).events:
        again = type(event).parse(str(event))
        assert again == event and repr(again) == repr(event)


def test_a_type_declares_its_game_its_slots_and_defaults_last() -> None:
    with pytest.raises(TypeError, match="name its game"):
        class Nameless(EventTuple):
            __slots__ = ()
            x: int
    with pytest.raises(TypeError, match="__slots__"):
        class Roomy(EventTuple, game="nomic"):
            x: int
    with pytest.raises(TypeError, match="without a default follows"):
        class Late(EventTuple, game="nomic"):
            __slots__ = ()
            x: int = 0
            y: int
    with pytest.raises(TypeError, match="cannot name a field"):
        class Private(EventTuple, game="nomic"):
            __slots__ = ()
            _x: int


def test_a_type_with_defaults_and_class_variables_builds_as_a_named_tuple_would() -> None:
    from typing import ClassVar

    class Pair(EventTuple, game="nomic"):
        __slots__ = ()
        limit: ClassVar[int] = 3
        left: int
        right: str = "r"

        def __str__(self) -> str:
            return f"{self.left}{self.right}"

    assert Pair._fields == ("left", "right") and Pair.limit == 3
    assert Pair(1) == Pair(1, "r") == Pair(left=1) and tuple(Pair(2, right="x")) == (2, "x")
    assert repr(Pair(1)) == "Pair('1r')"
    with pytest.raises(TypeError, match="Pair.__new__"):
        Pair()


SHOUT = "!"  # a name the spelling below finds in its module when called


def test_a_spelling_is_an_f_string_over_the_fields() -> None:
    class Shout(EventTuple, game="nomic",
                spelling="shout {word.upper()}{SHOUT * times}{'' if who is None else ' ' + who}"):
        __slots__ = ()
        word: str
        times: int = 1
        who: str | None = None

    assert str(Shout("hey")) == "shout HEY!" and str(Shout("a", 3, "Ann")) == "shout A!!! Ann"
    assert repr(Shout("a", 0)) == "Shout('shout A')"
    assert Shout.__str__.__qualname__.endswith("Shout.__str__")

    class Quiet(Shout, spelling="{word}"):  # only its text differs: its base's fields
        __slots__ = ()

    assert str(Quiet("hey")) == "hey" and Quiet._fields == Shout._fields
    with pytest.raises(TypeError, match="is not an f-string over its fields"):
        class Broken(EventTuple, game="nomic", spelling="open {x"):
            __slots__ = ()
            x: int


@pytest.mark.parametrize("name", ["tilewe", "flows", "philosophy", "sanguine", "nomic"])
def test_a_name_that_is_no_event_terminal_is_refused_in_one_way(name):
    """Every game's reader of a terminal its grammar has not (one token's reading, or the
    reader a scanner asks for) refuses in the core's words, not in a game's own."""
    game = notation.registry.require(name)
    for read in (lambda: game.read_event("NOPE", "x"), lambda: game.event_reader("NOPE")("x")):
        with pytest.raises(notation.NotationError, match=f"^{name} has no event terminal NOPE$"):
            read()
