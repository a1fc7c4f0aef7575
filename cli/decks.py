"""``notation deck check`` and ``notation deck show`` (Sanguine deck files)."""
from __future__ import annotations

import sys
from typing import Iterator

import click

from notation.core.errors import InputError
from notation.core.limits import MAX_DECK_BYTES
from notation.read.text import decode
from notation.games.sanguine.deck import Card, Deck, DeckError, draw_grid, load_deck, parse_deck

from .common import color_option, plural, say, shown, warn
from .inputs import STDIN, Inputs

DECK_EXTENSIONS = (".deck",)


@click.group()
def deck() -> None:
    """`check` validates deck files; `show` prints them."""


def _decks(paths: tuple[str, ...], inputs: Inputs) -> Iterator[tuple[str, Deck | DeckError]]:
    """(source, Deck or DeckError) for every deck file, folder (walked for .deck) or '-'."""
    for path in inputs.walk(paths, DECK_EXTENSIONS):
        try:
            if path == "-":
                data = sys.stdin.buffer.read(MAX_DECK_BYTES + 1) if sys.stdin else b""
                if len(data) > MAX_DECK_BYTES:
                    raise InputError(STDIN, f"is larger than {MAX_DECK_BYTES:,} bytes")
                yield STDIN, parse_deck(decode(data, STDIN), STDIN)
            else:
                yield path, load_deck(path)
        except InputError as exc:
            inputs.input_errors.append(str(exc))
        except DeckError as exc:
            yield path if path != "-" else STDIN, exc


@deck.command("check")
@click.argument("paths", nargs=-1, required=True, metavar="DECK...")
@color_option
def deck_check(paths: tuple[str, ...], color: bool | None) -> None:
    """Validate deck files (folders are walked for *.deck; - reads standard input)."""
    inputs = Inputs()
    invalid = False
    for source, result in _decks(paths, inputs):
        if isinstance(result, DeckError):
            invalid = True
            for problem in result.problems:
                say(f"{shown(source)}:{problem.line}:1: error: {problem.message}")
            continue
        designs = len(set(result.cards))
        say(f"{shown(source)}: ok, {plural(len(result), 'card')} ({plural(designs, 'design')}), fits "
            f"boards of up to {len(result)} cells, hand size up to {len(result) // 3}")
    _finish(inputs, invalid)


@deck.command("show")
@click.argument("path", metavar="DECK")
@click.option("--blue", is_flag=True, help="Mirror the grids as Blue plays them.")
@color_option
def deck_show(path: str, blue: bool, color: bool | None) -> None:
    """Draw every card's influence grid (# the card, * influenced)."""
    inputs = Inputs()
    invalid = False
    for source, result in _decks((path,), inputs):
        if isinstance(result, DeckError):
            invalid = True
            for problem in result.problems:
                say(f"{shown(source)}:{problem.line}:1: error: {problem.message}")
            continue
        seen: set[Card] = set()
        for card in result.cards:
            if card in seen:
                continue
            copies = sum(1 for c in result.cards if c == card)
            seen.add(card)
            say(f"{card.name}  cost {card.cost}  value {card.value}"
                + (f"  (x{copies})" if copies > 1 else ""))
            for line in draw_grid(card, blue).splitlines():
                say("  " + line)
    _finish(inputs, invalid)


def _finish(inputs: Inputs, invalid: bool) -> None:
    for message in inputs.warnings + inputs.input_errors:
        warn(message)
    sys.exit(2 if inputs.input_errors else 1 if invalid else 0)
