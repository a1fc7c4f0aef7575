"""An event's own fields, as its grammar terminal names them.

Each event's structure is written once, in its grammar terminal, whose named groups
are the event's parts (Tilewe's ``MOVE``: ``piece``, ``rotation``, ``contact``,
``target``). An event's canonical text matched against the game's terminals (the
scanner's, in the lexer's order) gives them back by name, for every game alike
(``export``'s ``fields`` column).

A group name is unique across a game's terminals, so a part that several terminals
have is named after its terminal (Sanguine's ``place_side``, ``draw_side``): such a
``kind_`` prefix, the terminal's own name in lower case, is dropped (``side``). A
terminal without named groups (Nomic's) gives no fields.
"""
from __future__ import annotations

import json
from functools import lru_cache
from re import Match, Pattern
from typing import AbstractSet, Any, Callable

from notation.read.scanner import scanner
from .game import AnyGame


#: Per terminal, its named groups as (group number, field name), by field name.
Layout = dict[str, list[tuple[int, str]]]


@lru_cache(maxsize=None)
def layout(game: AnyGame) -> Layout:
    """Which groups of the game's scanner's pattern are each terminal's fields."""
    scan = scanner(game)
    return terminal_layout(scan.token, scan.terminal_names)


def terminal_layout(pattern: Pattern[str], terminal_names: AbstractSet[str]) -> Layout:
    """Which groups of ``pattern`` (terminals as named alternatives, their fields named
    groups inside them) are each terminal's fields: those numbered after the terminal's
    own group and before the next terminal's."""
    starts = sorted((index, name) for name, index in pattern.groupindex.items()
                    if name in terminal_names)
    named = sorted((index, name) for name, index in pattern.groupindex.items()
                   if name not in terminal_names)
    found: Layout = {}
    for at, (first, kind) in enumerate(starts):
        last = starts[at + 1][0] if at + 1 < len(starts) else pattern.groups + 1
        prefix = kind.lower() + "_"
        fields = [(index, name.removeprefix(prefix)) for index, name in named
                  if first < index < last]
        found[kind] = sorted(fields, key=lambda field: field[1])
    return found


def _matched(game: AnyGame, text: str) -> list[tuple[str, str]]:
    """(field, value) of each named group of the terminal ``text`` is, that matched."""
    found = scanner(game).token.fullmatch(text)
    if found is None or found.lastgroup is None:
        return []
    group = found.group
    return [(name, value) for index, name in layout(game)[found.lastgroup]
            if (value := group(index)) is not None]


def event_fields(game: AnyGame, text: str) -> dict[str, str]:
    """The named parts of one event's text (its terminal's groups that matched); empty
    when the text is no single event of the game."""
    return dict(_matched(game, text))


def _json_text(value: str) -> str:
    if value.isascii() and value.isprintable() and '"' not in value and "\\" not in value:
        return f'"{value}"'
    return json.dumps(value, ensure_ascii=False)


@lru_cache(maxsize=None)
def _templates(game: AnyGame) -> dict[str, tuple[str, Callable[[Match[str]], tuple[Any, ...]]]]:
    """Per terminal, its fields' JSON with a ``%s`` for each value, and what takes the
    values from a match (in the fields' order)."""
    return {kind: ("{" + ", ".join(f'"{name}": "%s"' for _, name in fields) + "}",
                   _values_of([index for index, _ in fields]))
            for kind, fields in layout(game).items()}


def _values_of(groups: list[int]) -> Callable[[Match[str]], tuple[Any, ...]]:
    """What gives the values of ``groups`` of a match as a tuple."""
    if not groups:
        return lambda found: ()
    if len(groups) == 1:
        return lambda found: (found.group(groups[0]),)
    return lambda found: found.group(*groups)


def fields_json(game: AnyGame, text: str) -> str:
    """:func:`event_fields` as JSON text, keys sorted, as ``json.dumps`` writes it."""
    return fields_column(game, [text])[0]


def fields_column(game: AnyGame, texts: list[str]) -> list[str]:
    """:func:`fields_json` of each text (export writes one for every event), built from
    the terminal's layout: a text that needs no escape and has every field of its
    terminal fills the terminal's template, any other is written field by field."""
    match, templates = scanner(game).token.fullmatch, _templates(game)
    column = []
    for text in texts:
        found = match(text)
        if (found is not None and found.lastgroup is not None and text.isascii()
                and text.isprintable() and '"' not in text and "\\" not in text):
            template, values_of = templates[found.lastgroup]
            values = values_of(found)
            if None not in values:
                column.append(template % values)
                continue
        column.append("{" + ", ".join(f'"{name}": {_json_text(value)}'
                                      for name, value in _matched(game, text)) + "}")
    return column
