"""``dedupe``'s key: a game is its start and its moves. Records with the same moves from
other set-ups (other players, scoring, corners) are other games; tags that spell one start
(a default given or left out, ``04`` for 4) are one; the start is built once per set-up,
and the fast path and the memory bound stay."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import notation
from notation.archive import Duplicates, game_key
from notation.archive.starts import REMEMBERED, Starts

from conftest import SAMPLES, run_cli

MOVES = "1. W5n-a1a1 2. I2n-a1t1\n"


def tilewe(tags: str) -> str:
    return f'[Game "tilewe"]\n{tags}\n{MOVES}'


#: One start, however the tags spell it.
SAME = ["", '[Players "4"]\n', '[Players "04"]\n', '[Corners "any"]\n',
        '[Scoring "tiles"]\n', '[Owners "1 2 3 4"]\n']
#: The same moves from other set-ups: each another game.
OTHERS = ['[Players "2"]\n', '[Players "3"]\n', '[Corners "fixed"]\n',
          '[Scoring "blokus"]\n', '[Owners "1 2 1 2"]\n',
          '[Players "2"]\n[Scoring "blokus"]\n']


def duplicate_of(tmp_path: Path, texts: list[str], *extra: str) -> list[str | None]:
    """``dedupe --json``'s ``duplicate_of`` of each record of ``texts``, one archive."""
    archive = tmp_path / "archive.tilewe"
    archive.write_text("\n".join(texts))
    result = run_cli("dedupe", "--json", *extra, str(archive))
    assert result.returncode == 0, result.stderr
    return [json.loads(line)["duplicate_of"] for line in result.stdout.splitlines()]


@pytest.mark.slow
@pytest.mark.parametrize("extra", [[], ["--symmetric"]])
def test_the_same_moves_from_other_set_ups_are_other_games(tmp_path: Path, extra):
    texts = [tilewe(tags) for tags in SAME[:1] + OTHERS]
    assert duplicate_of(tmp_path, texts, *extra) == [None] * len(texts)


@pytest.mark.slow
@pytest.mark.parametrize("extra", [[], ["--symmetric"]])
def test_tags_that_spell_one_start_are_one_game(tmp_path: Path, extra):
    texts = [tilewe(tags) for tags in SAME]
    first = f"{tmp_path / 'archive.tilewe'}:1"
    assert duplicate_of(tmp_path, texts, *extra) == [None] + [first] * (len(texts) - 1)


def test_game_keys_hold_the_start_read_in_full_or_headers_only():
    keys = set()
    for tags in SAME + OTHERS:
        (parsed,) = notation.parse(tilewe(tags), "tilewe")
        (headers,) = notation.read_headers(io.StringIO(tilewe(tags)), "tilewe")
        key = game_key(parsed)
        assert key is not None and len(key) == 16 and game_key(headers) == key
        keys.add(key)
    assert len(keys) == 1 + len(OTHERS)


def test_the_fast_path_stays_a_plain_game_s_own():
    """A plain Tilewe game read headers-only keeps its events unread: its start comes
    from its tags, its keys from its words."""
    (record,) = notation.read_headers(io.StringIO(tilewe('[Corners "fixed"]\n')), "tilewe")
    assert record.unread
    Duplicates().original_of(record)
    assert record.unread


@pytest.mark.slow
def test_flows_copies_in_other_notations_are_still_one_game(tmp_path: Path):
    """Another view, or the app's notation with no seats (its moves seat the players)."""
    original = SAMPLES / "flows" / "flows-000.flows"
    app = tmp_path / "app.flows"
    converted = run_cli("convert", "--to", "quortextt", str(original)).stdout
    app.write_text("".join(line for line in converted.splitlines(keepends=True)
                           if not line.startswith("[Seats")))
    result = run_cli("dedupe", "--json", str(original),
                     str(SAMPLES / "flows" / "flows-000.as-P2.flows"), str(app))
    rows = [json.loads(line)["duplicate_of"] for line in result.stdout.splitlines()]
    assert rows == [None, f"{original}:1", f"{original}:1"]


def test_starts_are_built_once_per_set_up_and_a_few_hundred_kept():
    rules = notation.get_game("tilewe")
    starts = Starts()
    first = starts.identity(rules, {"Players": "4", "Event": "a"})
    assert starts.identity(rules, {"Players": "4", "Event": "b"}) is first  # remembered
    assert starts.identity(rules, {}) == first
    for number in range(2 * REMEMBERED):  # set-ups that do not start: remembered too
        with pytest.raises(notation.TagError):
            starts.identity(rules, {"Players": str(number + 5)})
    assert len(starts) == REMEMBERED


def test_symmetric_keys_take_the_start_and_the_moves_in_one_frame():
    """A set-up start and its moves are turned by one transform: a game and its mirror
    image are one, while the mirrored start with moves turned another way is another."""
    from notation.games.tilewe import symmetry

    game = notation.get_game("tilewe")
    (played,) = notation.parse(run_cli("random", "tilewe", "--seed", "3").stdout, "tilewe")
    events = played.events
    position = notation.new("tilewe", players=4)
    for move in events[:8]:
        position.push(move)
    start = game.full_position(position.state)

    def record(transform: str, turn: str) -> notation.GameNode:
        tpn = symmetry.position_images(start)[transform]
        moves = " ".join(str(symmetry.transform_move(turn, m)) for m in events[8:12])
        (found,) = notation.parse(f'[Game "tilewe"]\n[Position "{tpn}"]\n{moves}\n', "tilewe")
        assert not notation.run(found).problems or turn != transform
        return found

    original = game_key(record("identity", "identity"), symmetric=True)
    assert game_key(record("flip-h", "flip-h"), symmetric=True) == original
    assert game_key(record("flip-h", "rot90"), symmetric=True) != original
