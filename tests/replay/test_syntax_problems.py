"""A record's syntax problems: the glance that passes a clean header (asked of every game
the reader's fast path takes) never passes one the full look finds a problem in."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from notation.core import registry
from notation.core.ast import Malformed, MalformedKind, Pos, Tag
from notation.core.replay import CORE_TAGS, _plainly_clean, _structure, structure_problems
from notation.core.tree import GameNode

GAMES = sorted(registry.names())


def _spellings(name: str) -> list[str]:
    return [name, name.lower(), name.upper(), name.swapcase()]


@st.composite
def records(draw: st.DrawFn) -> GameNode:
    """A record of any game with tags the game reads (spelt right or not), tags it does
    not read, names given twice, and a broken tag line now and then."""
    game = registry.get(draw(st.sampled_from(GAMES)))
    assert game is not None
    names = [*CORE_TAGS, *game.tags, "Seed", "Round", "Event", "Site"]
    key = st.sampled_from(names).flatmap(lambda n: st.sampled_from(_spellings(n)))
    tag = st.builds(Tag, key, st.sampled_from(["1", "x", ""]), st.builds(Pos, st.integers(1, 9),
                                                                         st.just(1)))
    broken = st.builds(Malformed, st.just("[x"), st.just("a broken tag line"),
                       st.just(MalformedKind.TAG), st.none(), st.just(Pos(1, 1)))
    tags = draw(st.lists(st.one_of(tag, tag, tag, broken), min_size=1, max_size=8))
    return GameNode(game.name, tags, [])


@settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))
@given(records())
def test_a_header_passed_at_a_glance_has_no_problem(record):
    full = _structure(record).listed()
    if _plainly_clean(record):
        assert full == []
    assert structure_problems(record) == full


def test_a_usual_header_is_passed_at_a_glance():
    tags = [Tag("Game", "tilewe"), Tag("Players", "4"), Tag("Seed", "11"), Tag("Result", "red")]
    assert _plainly_clean(GameNode("tilewe", tags, []))
    assert not _plainly_clean(GameNode("tilewe", [*tags, Tag("players", "2")], []))
    assert not _plainly_clean(GameNode("tilewe", [*tags, Tag("Seed", "12")], []))
