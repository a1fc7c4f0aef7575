"""A tally of results: counted by pattern and seating, written seat by seat; held to a count
made seat by seat, game by game (its definition), on random games' results."""
from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from notation.explore.seats import KINDS, SeatResult
from notation.explore.tally import GameResults, Tally

SEATS = ("blue", "yellow", "red", "green")


def counted_seat_by_seat(games: list[list[SeatResult]]) -> dict[str, dict[str, Any]]:
    """What a tally writes, each seat's counts and scores added one result at a time."""
    rows: dict[str, dict[str, Any]] = {}
    scores: dict[str, list[float]] = {}
    for results in games:
        for result in results:
            row = rows.setdefault(result.seat, dict.fromkeys(KINDS, 0))
            row[result.kind] += 1
            if result.score is not None:
                summed = scores.setdefault(result.seat, [0.0, 0])
                summed[0] += result.score
                summed[1] += 1
    return {seat: {**row, "mean_score": round(scores[seat][0] / scores[seat][1], 3)
                   if seat in scores else None} for seat, row in rows.items()}


@st.composite
def game_results(draw: st.DrawFn) -> list[SeatResult]:
    """One game's results: some of the seats in some order (games of 2 to 4 players, or
    seats named in another order), each with a kind, scores for all, none, or some."""
    seats = draw(st.permutations(SEATS).map(list))[:draw(st.integers(1, 4))]
    scored = draw(st.sampled_from(["all", "none", "some"]))
    score = st.one_of(st.integers(-5, 90).map(float),
                      st.floats(-100, 100, allow_nan=False).map(lambda x: round(x, 2)))
    return [SeatResult(seat, draw(st.sampled_from(KINDS)),
                       None if scored == "none" or scored == "some" and draw(st.booleans())
                       else draw(score)) for seat in seats]


@settings(max_examples=200, deadline=None)
@given(st.lists(game_results(), max_size=12), st.booleans())
def test_a_tally_counts_what_each_seat_made_game_by_game(games: list[list[SeatResult]],
                                                         made_once: bool) -> None:
    tally = Tally()
    for results in games:
        tally.add(GameResults(results) if made_once else results)
    written = tally.as_json()
    expected = counted_seat_by_seat(games)
    assert list(written) == list(expected)  # (seats in the order first met)
    for seat, row in expected.items():
        assert {k: v for k, v in written[seat].items() if k != "mean_score"} == \
            {k: v for k, v in row.items() if k != "mean_score"}
        if row["mean_score"] is None:
            assert written[seat]["mean_score"] is None
        else:  # (summed by seating, then across: the last decimal may round the other way)
            assert abs(written[seat]["mean_score"] - row["mean_score"]) <= 0.0011
        assert tally.mean_score(seat) == written[seat]["mean_score"]


def test_a_mean_score_is_rounded_to_three_decimals_and_a_whole_one_kept() -> None:
    tally = Tally()
    for score in (1.0, 2.0, 2.0):
        tally.add([SeatResult("blue", "wins", score)])
    assert tally.as_json()["blue"]["mean_score"] == 1.667
    tally.add([SeatResult("blue", "wins", 3.0)])
    assert tally.as_json()["blue"] == {"wins": 4, "shared": 0, "losses": 0, "no_winner": 0,
                                       "unfinished": 0, "mean_score": 2.0}
