"""A part travels home packed, each bare outcome as its plies alone: it arrives as it left."""
from __future__ import annotations

import pickle

from hypothesis import given
from hypothesis import strategies as st

from notation.core.errors import Problem, ProblemKind
from notation.core.outcome import Facts, Outcome
from notation.parallel.work import Part, packed, unpacked

SOURCE = "games.tilewe"


@st.composite
def outcomes(draw: st.DrawFn, index: int) -> Outcome:
    """An outcome as a worker detaches it: mostly bare, some with what a bare one lacks
    (another place, file or game, tags, a result, problems, text, data)."""
    game = draw(st.sampled_from(["tilewe", "tilewe", "flows", None]))
    place = draw(st.sampled_from([index, index, index + 1]))
    file = draw(st.sampled_from([SOURCE, SOURCE, "other.tilewe"]))
    tags = draw(st.sampled_from([{}, {}, {"Game": "tilewe"}]))
    result = draw(st.sampled_from([None, None, {"over": True}]))
    problems = draw(st.sampled_from([[], [], [Problem(ProblemKind.RULE, 3, 1, 2, "X", "no",
                                                     "on the board")]]))
    lines = draw(st.sampled_from([{}, {3: "1. X"}])) if problems else {}
    text = draw(st.sampled_from([None, None, "[Game \"tilewe\"]\n"]))
    data = draw(st.sampled_from([None, None, {"ply": 2}]))
    return Outcome(None, None, None, draw(st.integers(0, 500)), problems, text, data,
                   Facts(file, place, game, tags, result, lines))


@st.composite
def parts(draw: st.DrawFn) -> list[Outcome]:
    count = draw(st.integers(0, 12))
    return [draw(outcomes(index)) for index in range(1, count + 1)]


@given(parts())
def test_unpacked_outcomes_equal_the_packed_ones(listed: list[Outcome]) -> None:
    game, items = packed(SOURCE, listed)
    back = unpacked(SOURCE, game, items)
    assert [o.to_json() for o in back] == [o.to_json() for o in listed]


@given(parts())
def test_a_part_arrives_as_it_left(listed: list[Outcome]) -> None:
    part = Part(SOURCE, listed, 1234, "cannot read", None, None)
    back = pickle.loads(pickle.dumps(part))
    assert [o.to_json() for o in back.outcomes] == [o.to_json() for o in listed]
    assert (back.source, back.size, back.input_error, back.failure, back.warning) == \
        (SOURCE, 1234, "cannot read", None, None)


def test_bare_outcomes_travel_as_their_plies() -> None:
    bare = [Outcome(None, None, None, plies, [], None, None,
                    Facts(SOURCE, index, "tilewe", {}, None, {}))
            for index, plies in enumerate([57, 60, 3], 1)]
    assert packed(SOURCE, bare) == ("tilewe", [57, 60, 3])
    tagged = Outcome(None, None, None, 8, [], None, None,
                     Facts(SOURCE, 4, "tilewe", {"Game": "tilewe"}, None, {}))
    assert packed(SOURCE, [*bare, tagged])[1][3] is tagged


@given(parts(), st.integers(0, 50), st.integers(0, 50))
def test_a_part_placed_in_its_file_moves_every_game_alike(listed: list[Outcome], by: int,
                                                           more: int) -> None:
    """A part that came packed is placed without making its outcomes; placed, pickled and
    placed again, its games stand where the outcomes shifted by hand stand."""
    expected = [o.shifted(by + more).to_json() for o in listed]
    sent = pickle.loads(pickle.dumps(Part(SOURCE, listed, 7)))
    placed = pickle.loads(pickle.dumps(sent.placed(by))).placed(more)
    assert placed.games == len(listed)
    assert [o.to_json() for o in placed.outcomes] == expected
    here = Part(SOURCE, list(listed), 7).placed(by).placed(more)  # (never packed)
    assert [o.to_json() for o in here.outcomes] == expected
    assert sent.outcomes == [o.shifted(0) for o in listed] or not listed
