"""A record as a JSON document (``schemas/record.schema.json``): tags in order, then the
line of play as a list of items, each event in its game's canonical notation."""
from __future__ import annotations

import json
from typing import Any

from notation.core.tree import GameNode
from notation.core import registry
from notation.core.ast import Comment, Directive, EventNode, Item, Malformed, Tag, Variation
from notation.core.errors import NotationError
from notation.core.game import AnyGame
from notation.core.writer import check_nesting, writable_comments

from . import FORMAT_NAME, VERSION


def document(record: GameNode) -> dict[str, Any]:
    """The record's document; :class:`NotationError` for a record with a problem of its
    own (what cannot be read cannot be written as if it were)."""
    game = registry.get(record.game or "")
    if game is None or record.game_problem:
        raise NotationError(record.game_problem or f"no known game {record.game!r} to write")
    tags: list[list[str]] = []
    for tag in record.tags:
        if not isinstance(tag, Tag):
            raise NotationError(f"line {tag.pos.line}: {tag.message}")
        tags.append([tag.key, tag.value])
    check_nesting(record.items)
    return {"format": FORMAT_NAME, "version": VERSION, "game": game.name, "tags": tags,
            "moves": items_of(record.items, game)}


def items_of(items: list[Item], game: AnyGame) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for item in items:  # a comment a brace cannot hold goes as line comments, as in fmt
        parts = writable_comments(item) if isinstance(item, Comment) else [item]
        out += [item_of(part, game) for part in parts]
    return out


def item_of(item: Item, game: AnyGame) -> dict[str, Any]:
    if isinstance(item, EventNode):
        out: dict[str, Any] = {"event": game.format_event(item.event)}
        if item.nags:
            out["nags"] = list(item.nags)
        return out
    if isinstance(item, Comment):
        out = {"comment": item.text}
        if not item.brace:
            out["line"] = item.marker
        if item.commands:
            out["commands"] = item.commands
        return out
    if isinstance(item, Variation):
        if not item.closed:
            raise NotationError(f"line {item.pos.line}: variation '(' is never closed")
        return {"variation": items_of(item.items, game)}
    if isinstance(item, Directive):
        return {"directive": item.text}
    assert isinstance(item, Malformed)
    raise NotationError(f"line {item.pos.line}: {item.message}")


def dumps(record: GameNode) -> str:
    """The record as one line of JSON (JSON Lines), UTF-8 text as it is."""
    return json.dumps(document(record), ensure_ascii=False) + "\n"
