"""A fuzz suite that stays: every command against mutated, cross-game and random input.

Whatever the input, a run ends with exit 0, 1 or 2, each problem is one line
that starts with its position, and nothing is a traceback or an internal
error. The CI run takes a fixed budget (``FUZZ_EXAMPLES``, default 500 per
test); ``make fuzz`` runs many more.
"""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation.cli.main import cli

from conftest import SAMPLES

pytestmark = pytest.mark.fuzz

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "500"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))

RECORDS = sorted(p for p in SAMPLES.rglob("*") if p.is_file() and p.suffix != ".deck"
                 and "__pycache__" not in p.parts and p.suffix not in (".py", ".pyc"))
DECKS = sorted((SAMPLES / "sanguine" / "decks").glob("*.deck"))
EXTENSIONS = [".tilewe", ".flows", ".philosophy", ".sanguine", ".nomic"]
# A line of output that reports something: FILE:LINE:COL: (error|internal error|warning):
# or FILE: error: / FILE: warning: (a whole file), or the CLI's own usage and summary lines.
PROBLEM = re.compile(r"^\S.*?:(\d+:\d+:)? (error|warning): ")
ALLOWED_PLAIN = ("Usage:", "Try ", "Error: ", "", "notation: error: ")

ALPHABET = st.sampled_from(list("[]{};#\"\\().,-+: \t\n\r0123456789abcdefgPRBTNSEWnesw²\x00\x1b")
                           + ["\u00a0", "\u202e", "enddeck", "deck R\n", "1. ", '[Game "nomic"]'])


@st.composite
def mutated(draw, text: str) -> str:
    """``text`` with a few characters or lines deleted, inserted, swapped or duplicated."""
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["del", "ins", "swap", "dup", "line-del", "line-dup",
                                     "line-swap"]))
        if not text:  # (ALPHABET holds words too: a text of them, not of characters)
            text = "".join(draw(st.lists(ALPHABET, max_size=20)))
            continue
        i = draw(st.integers(0, len(text) - 1))
        if kind == "del":
            text = text[:i] + text[i + draw(st.integers(1, 8)):]
        elif kind == "ins":
            text = text[:i] + draw(ALPHABET) + text[i:]
        elif kind == "swap" and i + 1 < len(text):
            text = text[:i] + text[i + 1] + text[i] + text[i + 2:]
        elif kind == "dup":
            text = text[:i] + text[i:i + 8] + text[i:]
        else:
            lines = text.split("\n")
            j = draw(st.integers(0, len(lines) - 1))
            if kind == "line-del":
                del lines[j]
            elif kind == "line-dup":
                lines.insert(j, lines[j])
            else:
                k = draw(st.integers(0, len(lines) - 1))
                lines[j], lines[k] = lines[k], lines[j]
            text = "\n".join(lines)
    return text


@st.composite
def hostile_file(draw) -> tuple[bytes, str]:
    """(content, extension): a mutated sample, read as its own game or another, or noise."""
    how = draw(st.sampled_from(["mutated", "mutated", "mutated", "other game", "bytes"]))
    if how == "bytes":
        return draw(st.binary(max_size=400)), draw(st.sampled_from(EXTENSIONS))
    sample = draw(st.sampled_from(RECORDS))
    text = draw(mutated(sample.read_text(encoding="utf-8")))
    ext = sample.suffix if how == "mutated" else draw(st.sampled_from(EXTENSIONS))
    return text.encode("utf-8", "surrogatepass"), ext


COMMANDS = [
    ["validate"], ["validate", "--json"], ["replay"], ["replay", "--json"], ["replay", "--every"],
    ["replay", "--ply", "3"], ["fmt"], ["fmt", "--check"], ["fmt", "-i"], ["fmt", "--fix-results"],
    ["legal", "--count"], ["convert", "--perspective", "P2"], ["convert", "--perspective", "blue"],
    ["convert", "--choices", "separate"], ["convert", "--transform", "flip-d"],
    ["diff", "{original}"], ["tags"], ["tags", "--json"], ["select", "--valid"],
    ["select", "--winner", "blue", "--json"], ["select", "--plies", "3:", "--invert"],
    ["select", "--position", "20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20 b "
     "1fffff,1fffff,1fffff,1fffff"], ["dedupe", "--report"], ["dedupe", "--symmetric"],
    ["stats"], ["stats", "--json"], ["cat"], ["render"], ["render", "--ply", "2"],
    ["render", "--html"], ["render", "--perspective", "P2"], ["render", "--perspective", "blue"],
    ["replay", "--json", "--every"],
]


def check_run(result) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{type(result.exception).__name__}: {result.exception}")
    assert result.exit_code in (0, 1, 2), result.exit_code
    output = result.output
    assert "Traceback" not in output and "internal error" not in output, output[-2000:]
    for line in output.split("\n"):
        if " error: " in line or " warning: " in line:
            assert PROBLEM.match(line) or line.startswith(ALLOWED_PLAIN), line


def workdir(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("fuzz")
    for deck in DECKS:  # sanguine samples name their decks beside them
        shutil.copy(deck, folder / deck.name)
    (folder / "decks").mkdir()
    for deck in DECKS:
        shutil.copy(deck, folder / "decks" / deck.name)
    return folder


@FUZZ
@given(data=hostile_file(), command=st.sampled_from(COMMANDS))
def test_every_command_survives_hostile_records(tmp_path_factory, data, command):
    folder = workdir(tmp_path_factory)
    content, ext = data
    path = folder / f"fuzz{ext}"
    path.write_bytes(content)
    original = folder / f"original{ext}"
    original.write_bytes(content[: len(content) // 2])
    args = [a.replace("{original}", str(original)) for a in command] + [str(path)]
    check_run(CliRunner().invoke(cli, args, catch_exceptions=True))


@FUZZ
@given(text=st.sampled_from(DECKS).map(lambda p: p.read_text()).flatmap(mutated))
def test_deck_check_survives_hostile_decks(tmp_path_factory, text):
    folder = tmp_path_factory.mktemp("decks")
    path = folder / "x.deck"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    for args in (["deck", "check", str(path)], ["deck", "show", str(path)]):
        check_run(CliRunner().invoke(cli, args, catch_exceptions=True))


@FUZZ
@given(data=hostile_file(), game=st.sampled_from(["tilewe", "flows", "philosophy",
                                                  "sanguine", "nomic"]))
def test_stdin_and_every_game_flag(data, game):
    """Any game's records read as any game (each case one flag: the budget spread over
    the five, not spent five times on one record)."""
    content, ext = data
    result = CliRunner().invoke(cli, ["validate", "--game", game, "-"], input=content,
                                catch_exceptions=True)
    check_run(result)
