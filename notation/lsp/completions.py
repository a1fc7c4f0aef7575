"""What an editor offers at the cursor in a record: the legal events of the player to
move at that point of the record (the mainline, or the variation the cursor is in),
spelled as ``notation legal`` spells them, filtered by what is typed.

The point of the record is read from the text before the cursor alone, leniently (an
unclosed variation ends with the text, as the reader reads it): the innermost variation
left open is the line the cursor is in, and its position is found by the one walk of
the record's tree (:func:`notation.core.walk.walk`).
"""
from __future__ import annotations

import re
from typing import Any

from notation.core.ast import EventNode, Item, Pos, Variation
from notation.core.game import AnyGame
from notation.core.replay import run
from notation.core.tree import Node
from notation.core.walk import Step, walk
from notation.read.reading import choose_game, records_of_pieces
from notation.read.text import chunks, pieces

#: An event number typed in front of the event (``12.``), which is no part of it.
_NUMBER = re.compile(r"\A[0-9]+\.")


def completions_at(text: str, source: str, line: int, column: int,
                   game: str | AnyGame | None = None) -> list[str] | None:
    """The legal events at ``line``, ``column`` (1-based) that start with what is typed
    there, or None where the cursor is in no game's body (or the game is unknown); on a
    tag line, the game's tags (or, in the value, the values their meanings quote).

    What is typed is the longest end of the line before the cursor, from a word's start,
    that begins a legal event (an event may hold blanks: Sanguine's ``R draw Ar``); the
    position is that of the text before it.
    """
    head = _text_before(text, source, line, column)
    if head is None:
        return None
    first_line, before = head
    chosen = choose_game(before, source, game)
    if chosen is None:
        return None
    start = before.rfind("\n") + 1
    current = before[start:]
    if _TAG_START.match(current):
        return _tag_words(current, before[:start], chosen)
    starts = [k for k in range(len(current) + 1)
              if k == 0 or (current[k - 1] in _BREAKS and (k == len(current)
                                                          or current[k] not in " \t"))]
    # An event holds no bracket of the container but its own coordinates' (Sanguine's
    # "(1,0)"): of the word starts after brackets only the last is tried (a line of
    # 100,000 "(" is read once, not 8 times).
    blank = [k for k in starts if not k or current[k - 1] in " \t"]
    if len(blank) < len(starts):
        last = max(k for k in starts if k and current[k - 1] not in " \t")
        starts = sorted(blank + [last])
    for k in starts[-_MOST_WORDS:]:
        typed = _NUMBER.sub("", current[k:].lstrip(" \t")).lstrip(" \t")
        records = list(records_of_pieces([(first_line, before[:start + k])], source, chosen))
        if not records:
            return None
        words = _legal_words(records[-1])
        if words is None:
            return None
        offered = [w for w in words if w.startswith(typed)]
        if offered or k == starts[-1]:
            return offered
    return []  # (no word start on the line: not reached)


#: A line that starts a tag, up to the cursor: the key typed so far, or the key and the
#: start of the value.
_TAG_START = re.compile(r"[ \t]*\[")
_TAG_KEY = re.compile(r"[ \t]*\[[ \t]*(?P<key>[A-Za-z0-9_]*)\Z")
_TAG_VALUE = re.compile(r'[ \t]*\[[ \t]*(?P<key>[A-Za-z][A-Za-z0-9_]*)[ \t]+"(?P<value>[^"]*)\Z')
_TAG_KEYS = re.compile(r"^[ \t]*\[[ \t]*([A-Za-z][A-Za-z0-9_]*)", re.MULTILINE)
_QUOTED = re.compile(r'"([^"]+)"')


def _tag_words(current: str, above: str, game: AnyGame) -> list[str]:
    """On a tag line: the game's tags not yet given (as the key is typed), or the values
    its meaning quotes (as the value is typed: ``"recorded"``, ``"file"``)."""
    key = _TAG_KEY.match(current)
    if key is not None:
        given = set(_TAG_KEYS.findall(above))
        return [name for name in game.tags if name not in given
                and name.startswith(key["key"])]
    value = _TAG_VALUE.match(current)
    if value is None or value["key"] not in game.tags:
        return []
    choices = list(dict.fromkeys(_QUOTED.findall(game.tags[value["key"]])))
    return [choice for choice in choices if choice.startswith(value["value"])]


#: What a word starts after: a blank, or a bracket of the container (a variation's "(").
_BREAKS = frozenset(" \t(){}[];")
#: How many of the line's last words an event being typed may hold.
_MOST_WORDS = 8


def _text_before(text: str, source: str, line: int, column: int) -> tuple[int, str] | None:
    """The piece the cursor is in, up to the cursor, with its first line."""
    found = None
    for first_line, piece in pieces(chunks((text,), source), source):
        if first_line > line:
            break
        found = first_line, piece
    if found is None:
        return None
    first_line, piece = found
    rows = piece.split("\n")
    row = line - first_line
    if row >= len(rows):  # below the piece (blank lines after it): the piece's end
        return first_line, piece
    return first_line, "\n".join(rows[:row] + [rows[row][:column - 1]])


def _target(items: list[Item]) -> Pos | None:
    """Where the position to move from is, at the end of the innermost line of play left
    open in ``items``: after its last event (None: the start)."""
    path = [items]
    while path[-1] and isinstance(path[-1][-1], Variation) and not path[-1][-1].closed:
        path.append(path[-1][-1].items)
    return _after(path, len(path) - 1, len(path[-1]))


def _after(path: list[list[Item]], depth: int, end: int) -> Pos | None:
    """The position after the events of ``path[depth][:end]``: a line with none yet starts
    where the event it replaces was played from."""
    events = [item for item in path[depth][:end] if isinstance(item, EventNode)]
    if events:
        return events[-1].pos
    if depth == 0:
        return None
    outer = path[depth - 1]  # (the open variation is its last item)
    replaced = [k for k in range(len(outer) - 1) if isinstance(outer[k], EventNode)]
    return _after(path, depth - 1, replaced[-1]) if replaced else None


def _legal_words(record: Any) -> list[str] | None:
    """The legal events, as written, at the record's open line's end (None: no game)."""
    outcome = run(record)
    game = outcome.game
    if game is None:
        return None
    target = _target(record.items)
    words: list[str] = []

    def visit(node: Node, step: Step, state: Any) -> None:
        if (node.pos if step.ply else None) == target and not game.is_over(state):
            words[:] = [game.format_event(m) for m in game.legal_moves(state)]

    walk(record, outcome, visit)
    return words


__all__ = ["completions_at"]
