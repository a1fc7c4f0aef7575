"""How many problems a game lists, what each costs, and where they point.

A game lists its first ``MAX_PROBLEMS`` problems, then one that says how many more: a
stray character a million times is a hundred and one lines, not a million (400 MB of
output), and the reader counts the rest without building them. A variation nested too
deep is one problem, its text skipped up to its own ``)``. The source lines the
problems point at are worked out in one pass over the record's text. Times are CPU
times of this thread (``time.thread_time``), never the wall clock.
"""
from __future__ import annotations

import gc
import json
import math
import subprocess
import time
import tracemalloc

import pytest

from notation.core.tree import GameNode
import notation
from notation.parallel import runs as runner
from notation.core.ast import Unlisted
from notation.core.errors import Problem, ProblemKind
from notation.core.limits import MAX_PROBLEMS, MAX_VARIATION_DEPTH
from notation.core.outcome import Outcome
from notation.read.reading import text_records

from conftest import cpu_limited, invoke, notation_exe

HEAD = '[Game "tilewe"]\n[Players "2"]\n\n'
BAD = "'z' is not a Tilewe move; expected [Piece][Rotation]-[Contact][Target] such as F5e-a2d4"


def more(count: int) -> str:
    return f"... and {count:,} more problems (a game lists its first {MAX_PROBLEMS})"


def cpu_of(work) -> float:
    """The least CPU time of a few runs of ``work()`` (as many as fit in about 0.2 s)."""
    best, spent = float("inf"), 0.0
    for _ in range(10):
        began = time.thread_time()
        work()
        took = time.thread_time() - began
        best, spent = min(best, took), spent + took
        if spent > 0.2:
            break
    return best


def growth(times: list[float]) -> float:
    """CPU-time ratio from the first size to the last (sizes doubling), the dearest step
    left out: linear about 4, quadratic about 16 (as in test_linear)."""
    steps = [later / earlier for earlier, later in zip(times, times[1:])]
    return math.prod(steps) / max(steps)


# ---------------------------------------------------------------- source lines

@pytest.mark.parametrize("text, first", [
    ("a\nbb\n\nccc", 1), ("a\nbb\n\nccc\n", 5), ("", 1), ("\n\n", 3), ("one line", 2)])
def test_source_lines_are_the_lines_source_line_gives(text, first):
    record = GameNode("tilewe", text=text, first_line=first)
    asked = [first + 3, first, 0, first + 1, first + 9, first, first + 2]
    pieces = text.split("\n")
    expected = {n: pieces[n - first] if text and 0 <= n - first < len(pieces) else None
                for n in asked}
    assert record.source_lines(asked) == expected
    assert list(record.source_lines(asked)) == list(dict.fromkeys(asked))  # order asked
    assert all(record.source_line(n) == expected[n] for n in asked)


@pytest.mark.slow
def test_the_lines_of_many_problems_are_worked_out_in_one_pass():
    """Each problem's line was split off the record's text again: a million problems on
    one 1 MB line did not finish. Twice the problems now cost about twice the CPU."""

    def lines_cpu(count: int) -> float:
        record = GameNode("tilewe", text="z " * count + "\n", first_line=1)
        problems = [Problem(ProblemKind.SYNTAX, 1, 2 * i + 1, i + 1, "z", BAD)
                    for i in range(count)]
        outcome = Outcome(record, None, None, 0, problems)
        assert outcome.lines == {1: "z " * count}
        return cpu_of(lambda: outcome.lines)

    lines_cpu(1000)
    times = [lines_cpu(count) for count in (8000, 16000, 32000, 64000)]
    assert growth(times) < 8, times


# ---------------------------------------------------------------- the cap

def test_a_game_lists_its_first_problems_then_how_many_more():
    text = HEAD + "z " * 1000 + "\n"
    outcome = notation.run(notation.parse(text)[0])
    problems = outcome.problems
    assert len(problems) == MAX_PROBLEMS + 1
    assert [(p.line, p.column, p.ply, p.event, p.message) for p in problems[:MAX_PROBLEMS]] == [
        (4, 2 * i + 1, i + 1, "z", BAD) for i in range(MAX_PROBLEMS)]
    last = problems[-1]  # at the first problem not listed
    assert (last.kind, last.line, last.column, last.ply, last.event, last.message) == (
        ProblemKind.SYNTAX, 4, 2 * MAX_PROBLEMS + 1, MAX_PROBLEMS + 1, None, more(900))
    assert outcome.plies == 0 and outcome.error == problems[0]
    assert Outcome.from_json(outcome.to_json()).problems == problems  # as workers send it
    assert notation.run(notation.parse(text)[0], until=40).problems == problems[:40]


@pytest.mark.slow
@pytest.mark.parametrize("unit, kind", [("z ", "event"), (")", "variation"),
                                        ("$999 ", "annotation"), ("1. ", "number")])
def test_the_reader_counts_problems_past_the_cap_without_building_them(unit, kind):
    """Past the cap a run of problems is one item that counts them: what the record holds
    stays the same however many there are (each was an object and a message)."""

    def held(count: int) -> tuple[GameNode, int]:
        text = HEAD + "1. W5n-a1a1 " + unit * count + "\n"
        gc.collect()
        tracemalloc.start()
        try:
            (record,) = notation.parse(text)
            kept, _ = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        return record, kept

    held(10)  # (imports, grammars)
    (small, small_bytes), (large, large_bytes) = held(5000), held(20000)
    for record, count in ((small, 5000), (large, 20000)):
        *built, counted = record.items[1:]
        assert len(built) == MAX_PROBLEMS and not any(isinstance(i, Unlisted) for i in built)
        assert isinstance(counted, Unlisted) and counted.what == kind
        assert counted.count == count - MAX_PROBLEMS
        assert notation.run(record).problems[-1].message == more(count - MAX_PROBLEMS)
    assert large_bytes < small_bytes + (64 << 10), (small_bytes, large_bytes)


def test_rule_problems_of_many_variations_are_listed_up_to_the_cap():
    """Each variation's first rule problem is one problem: a thousand of them are listed
    the same way (a line stops at its first, so no more than one a line)."""
    text = HEAD + "1. W5n-a1a1 " + "(1. W5n-a1a1 2. W5n-a1a1) " * 1000 + "\n"
    (record,) = notation.parse(text)
    outcome = notation.run(record)
    assert outcome.plies == 1 and len(outcome.problems) == MAX_PROBLEMS + 1
    assert {(p.kind, p.ply) for p in outcome.problems[:-1]} == {(ProblemKind.RULE, 2)}
    assert outcome.problems[-1].message == more(1000 - MAX_PROBLEMS)
    assert outcome.problems[-1].variation == f"variation {MAX_PROBLEMS + 1} after ply 0"


def test_the_first_problem_of_the_mainline_stops_the_replay_listed_or_not():
    """Past a hundred problems in variations, an unreadable event of the mainline is only
    counted; the replay still stops before it, and ``replay`` raises there."""
    text = HEAD + "1. W5n-a1a1 " + "(zz) " * 150 + "2. I2n-a1t1 3. zz 4. I2n-a1s3\n"
    (record,) = notation.parse(text)
    outcome = notation.run(record)
    assert outcome.plies == 2 and outcome.error == outcome.problems[0]
    assert (outcome.error.ply, outcome.error.variation) == (1, "variation 1 after ply 0")
    assert outcome.problems[-1].message == more(51)
    with pytest.raises(notation.ReplayError) as raised:
        list(notation.replay(record))
    column = text.splitlines()[3].index("3. zz") + 4
    assert (raised.value.line, raised.value.column, raised.value.problem.ply) == (4, column, 3)


def test_validate_and_replay_json_list_the_cap_and_name_the_first_error(tmp_path):
    path = tmp_path / "many.tilewe"
    path.write_text(HEAD + "z " * 500 + "\n", encoding="utf-8")
    checked = invoke("validate", "--json", str(path))
    (verdict,) = [json.loads(line) for line in checked.output.splitlines()]
    assert checked.exit_code == 1 and len(verdict["errors"]) == MAX_PROBLEMS + 1
    assert verdict["errors"][-1]["message"] == more(400)
    replayed = invoke("replay", "--json", str(path))
    (game,) = [json.loads(line) for line in replayed.output.splitlines()]
    assert game["error"] == game["errors"][0] == verdict["errors"][0]
    assert game["error"]["message"] == BAD and game["errors"] == verdict["errors"]
    said = invoke("validate", str(path)).output.splitlines()
    assert len(said) == MAX_PROBLEMS + 1
    assert said[-1] == f"{path}:4:{2 * MAX_PROBLEMS + 1}: error: game 1, ply " \
                       f"{MAX_PROBLEMS + 1}: {more(400)}"


def test_a_pentobi_tree_counts_its_stray_parentheses_past_the_cap():
    text = "(;GM[Blokus];1[a18,a19,a20];2[t20])" + ")" * 20000
    (record,) = text_records(text, "x.blksgf")
    assert len(record.items) == 2 + MAX_PROBLEMS + 1  # two moves, the strays listed, a count
    assert isinstance(record.items[-1], Unlisted) and record.items[-1].count == 20000 - MAX_PROBLEMS
    problems = notation.run(record).problems
    assert len(problems) == MAX_PROBLEMS + 1 and problems[-1].message == more(19900)


CPU_BREAKER = 120  # CPU seconds: a hang breaker (the runs below take a few), not a measure


STRAYS = "(;GM[Blokus])" + ")" * 1_100_000
WORDS = HEAD + "z " * 300_000 + "\n"


@pytest.mark.slow
@pytest.mark.parametrize("name, text, listed, jobs", [
    ("strays.blksgf", STRAYS, 1_100_000, "1"), ("strays.blksgf", STRAYS, 1_100_000, "2"),
    ("words.tilewe", WORDS, 300_000, "1")], ids=["strays-jobs-1", "strays-jobs-2", "words"])
def test_validate_of_a_million_problems_prints_a_hundred_lines(tmp_path, name, text, listed,
                                                               jobs):
    """These ran for minutes (a problem's line worked out again for each problem) and
    would have printed a line each. With ``--jobs 2`` the verdict comes through the runner
    (as JSON): only for a file of ``SMALL_INPUT`` bytes or more, which the 0.6 MB of words
    are not (read with ``--jobs 2`` they took the path ``--jobs 1`` takes)."""
    if jobs != "1":
        assert len(text.encode()) >= runner.SMALL_INPUT  # else the same run as --jobs 1
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    done = subprocess.run(notation_exe() + ["validate", "--jobs", jobs, str(path)],
                          capture_output=True, text=True, timeout=3600,
                          preexec_fn=cpu_limited(CPU_BREAKER))
    lines = done.stdout.splitlines()
    assert done.returncode == 1, done.stderr
    assert len(lines) == MAX_PROBLEMS + 1
    assert lines[-1].endswith(more(listed - MAX_PROBLEMS))


# ---------------------------------------------------------------- nesting

def test_a_variation_nested_too_deep_is_one_problem_skipped_to_its_close():
    """Its events were one problem each (and its ``)`` then closed the wrong variations);
    now it is one problem at its ``(``, and what follows its ``)`` is read as before."""
    deep = "(1. W5n-a1a1 " * (MAX_VARIATION_DEPTH + 1)
    inside = "z ( zz ) {a comment} 5. $999 " * 300
    text = HEAD + "1. W5n-a1a1 " + deep + inside + ")" * (MAX_VARIATION_DEPTH + 1) + \
        "2. I2n-a1t1\n"
    (record,) = notation.parse(text)
    outcome = notation.run(record)
    (problem,) = outcome.problems
    assert problem.message == f"variations nested deeper than {MAX_VARIATION_DEPTH} levels"
    assert (problem.line, problem.column) == (4, text.splitlines()[3].index(deep) + 1
                                              + 13 * MAX_VARIATION_DEPTH)
    assert outcome.plies == 2 and str(record.events[-1]) == "I2n-a1t1"


def test_a_variation_nested_too_deep_and_never_closed_is_skipped_to_the_end():
    text = HEAD + "1. W5n-a1a1 " + "(1. W5n-a1a1 " * (MAX_VARIATION_DEPTH + 5) + "z " * 300 + "\n"
    problems = notation.run(notation.parse(text)[0]).problems
    messages = [p.message for p in problems]
    assert messages.count(f"variations nested deeper than {MAX_VARIATION_DEPTH} levels") == 1
    assert messages.count("variation '(' is never closed") == MAX_VARIATION_DEPTH
    assert len(problems) == MAX_VARIATION_DEPTH + 1  # no problem of what it skipped
