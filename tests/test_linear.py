"""Every grammar (and every reader behind it) runs in linear time on hostile text.

Each case is about 1 MB built from a fragment that starts a terminal and a
run that keeps it going (spaces, digits, an open quote, a deck block with no
end ...). A quadratic pattern needs minutes to hours here; a linear one a
second or two. The bound is generous so a slow machine does not fail it.
"""
from __future__ import annotations

import io
import resource
import signal
import time

import pytest

import notation

MB = 1 << 20
BOUND = 20.0  # seconds for 1 MB; quadratic patterns measured 500+ s on 64 KB-1 MB

HEADER = {g: f'[Game "{g}"]\n\n' for g in ("tilewe", "flows", "philosophy", "sanguine", "nomic")}

# (game, fragment repeated, prefix): the review's measured cases first, then one
# family per terminal shape (event words, numbers, quotes, brackets, comments).
CASES = [
    ("sanguine", " ", "R"), ("sanguine", " ", "R x"), ("sanguine", "deck R\n", ""),
    ("sanguine", "x\n", "deck R\n"), ("sanguine", "R pass ", ""), ("sanguine", "1", "result "),
    ("sanguine", " ", "R place Spark ("), ("sanguine", "a ", "R deal "),
    ("flows", "1", "P"), ("flows", "P1", ""), ("flows", "A1", "P1"), ("flows", "T", "P1"),
    ("tilewe", "1", ""), ("tilewe", "a", "W5n-"), ("tilewe", "-", "W5n"), ("tilewe", "1", "W5n-a"),
    ("philosophy", "\\a", 'In+:"'), ("philosophy", "[", "Te:C7ReNe"), ("philosophy", "No", "Te:C7Re"),
    ("philosophy", "(", "Te:C7ReNe"), ("philosophy", ".", "Te:C7ReNe"),
    ("nomic", " ", "round"), ("nomic", "\\x", 'note "'), ("nomic", " 1", "roll"),
    ("nomic", "N", "move "), ("nomic", " ", "move to ("), ("nomic", "a ", "invoke "),
    ("tilewe", "{", ""), ("tilewe", "{\n", ""), ("tilewe", "x\n", "{"), ("tilewe", "[", ""),
    ("tilewe", '\\"', '[Event "'), ("tilewe", " ", "["), ("tilewe", "1.", ""),
    ("tilewe", ";", ""), ("nomic", "#", ""), ("sanguine", "{", "R pass "),
]


def _too_slow(signum, frame):
    raise TimeoutError


@pytest.mark.parametrize("game, unit, prefix", CASES)
def test_one_megabyte_of_hostile_text_is_read_in_linear_time(game, unit, prefix):
    text = HEADER[game] + prefix + unit * (MB // len(unit))
    began = time.perf_counter()
    previous = signal.signal(signal.SIGALRM, _too_slow)  # the regex engine checks signals
    signal.alarm(int(BOUND))
    try:
        records = notation.parse(text, game)
        for record in records:
            record.run()
        for record in notation.read_games(io.StringIO(text), game, checked=True):  # fast path
            record.run()
    except TimeoutError:
        pytest.fail(f"{game} {prefix!r}+{unit!r}*: over {BOUND:.0f} s for 1 MB (not linear)")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    elapsed = time.perf_counter() - began
    assert elapsed < BOUND, f"{game} {prefix!r}+{unit!r}*: {elapsed:.1f} s for 1 MB"


def test_ten_megabyte_strings_stay_small_in_memory():
    """Quoted strings once cost 170 bytes of regex state per character."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    value = "x" * (10 * MB)
    notation.parse(f'[Game "tilewe"]\n[Event "{value}"]\n\n1. W5n-a1a1\n', "tilewe")[0].run()
    notation.parse(f'[Game "nomic"]\n\nnote "{value}"\n', "nomic")[0].run()
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mb < 400, f"peak memory grew {grown_mb:.0f} MB for 10 MB strings"
