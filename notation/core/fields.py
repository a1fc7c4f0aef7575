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
from re import Match, Pattern, _constants, _parser
from typing import AbstractSet, Any, Callable, Iterable, Iterator, Literal

from notation.read.grammars import terminals as terminals_of
from notation.read.scanner import scanned_terminals, scanner, token_pattern
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


def fields_text(fields: Iterable[tuple[str, str]]) -> str:
    """Named parts (in key order) as a JSON object's text, as ``json.dumps`` writes it."""
    return "{" + ", ".join(f'"{name}": {_json_text(value)}' for name, value in fields) + "}"


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
        column.append(fields_text(_matched(game, text)))
    return column


# -- the fields as typed columns (export's Parquet) ---------------------------------------

FieldKind = Literal["int", "text"]

_DIGITS = frozenset(range(ord("0"), ord("9") + 1))


def _only_digits(items: Any, leading_sign: bool = True) -> bool:
    """Whether a parsed pattern matches whole numbers only: digits, and at most a ``-``
    in front (``-?[0-9]+``)."""
    c = _constants
    seen_digit = False
    for at, (op, arg) in enumerate(items):
        if op is c.LITERAL:
            if arg == ord("-") and at == 0 and leading_sign:
                continue
            if arg not in _DIGITS:
                return False
            seen_digit = True
        elif op is c.IN:
            for kind, value in arg:
                if kind is c.RANGE and not (value[0] in _DIGITS and value[1] in _DIGITS):
                    return False
                if kind is c.LITERAL and value not in _DIGITS:
                    return False
                if kind is c.CATEGORY and value is not c.CATEGORY_DIGIT:
                    return False
                if kind not in (c.RANGE, c.LITERAL, c.CATEGORY):
                    return False
            seen_digit = True
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            low, _high, inner = arg
            if at == 0 and low == 0 and list(inner) == [(c.LITERAL, ord("-"))]:
                continue  # the optional sign
            if not _only_digits(inner, False):
                return False
            seen_digit = seen_digit or low > 0
        elif op is c.SUBPATTERN:
            if not _only_digits(arg[-1], leading_sign and at == 0):
                return False
            seen_digit = True
        elif op is c.BRANCH:
            if not all(_only_digits(branch, leading_sign and at == 0) for branch in arg[1]):
                return False
            seen_digit = True
        else:
            return False
    return seen_digit


def _groups(items: Any) -> Iterator[tuple[int, Any]]:
    """Every capturing group of a parsed pattern: its number and its items."""
    c = _constants
    for op, arg in items:
        if op is c.SUBPATTERN:
            if arg[0] is not None:
                yield arg[0], arg[-1]
            yield from _groups(arg[-1])
        elif op is c.BRANCH:
            for branch in arg[1]:
                yield from _groups(branch)
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            yield from _groups(arg[2])
        elif op in (c.ASSERT, c.ASSERT_NOT):
            yield from _groups(arg[1])


def field_kinds(game: AnyGame) -> dict[str, FieldKind]:
    """Every field of the game's events, by name (sorted), with its kind as its grammar
    terminal defines it: ``int`` where the field's group matches whole numbers only
    (Sanguine's ``row``, Flows' ``tile``), else ``text``. A name two terminals share is
    ``int`` only if it is in both."""
    return grammar_field_kinds(game.grammar, game.grammar_package)


@lru_cache(maxsize=None)
def grammar_field_kinds(grammar: str, package: str) -> dict[str, FieldKind]:
    """:func:`field_kinds` of the games written in ``grammar``, from its terminals alone
    (kept between runs): the ``fields`` column's type names every game's fields without
    loading any game's code."""
    every = terminals_of(grammar, package)
    pattern = token_pattern(every)
    numbers = {number for number, items in _groups(_parser.parse(pattern.pattern, pattern.flags))
               if _only_digits(items)}
    names = frozenset(t.name for t in scanned_terminals(every))
    kinds: dict[str, FieldKind] = {}
    for fields in terminal_layout(pattern, names).values():
        for index, name in fields:
            kind: FieldKind = "int" if index in numbers else "text"
            kinds[name] = "text" if kinds.get(name, kind) != kind else kind
    return dict(sorted(kinds.items()))


def field_columns(game: AnyGame, texts: list[str]) -> dict[str, list[str | None]]:
    """Each field's value in each text (as text: the writer types them by
    :func:`field_kinds`), None where the text's terminal has no such part: the
    ``fields`` column of :func:`fields_column` column by column."""
    match, groups = scanner(game).token.fullmatch, layout(game)
    names = list(field_kinds(game))
    columns: dict[str, list[str | None]] = {name: [None] * len(texts) for name in names}
    for row, text in enumerate(texts):
        found = match(text)
        if found is None or found.lastgroup is None:
            continue
        group = found.group
        for index, name in groups[found.lastgroup]:
            columns[name][row] = group(index)
    return columns
