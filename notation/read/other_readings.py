"""A record refused as it is read, tried under the other readings there are, so that the
refusal can name the one that reads it, in one line.

Two kinds of reading are tried the same way: another notation of the record's game (a
``[Dialect]``: Flows' records in the quortextt app's spelling), and another game altogether
(``[Game]``, through the registry: a Flows record named ``.tilewe``). Each is a value of one
tag under which the record reads (:func:`first_reading`), and the advice says how to write
that tag (:func:`tag_advice`), in words an editor reads back as a fix
(:func:`advised_tags`).
"""
from __future__ import annotations

import re
from typing import Callable, Iterable

from notation.core.tree import GameNode
from notation.core import registry
from notation.core.ast import EventNode, Item, Malformed, MalformedKind, Tag, Unlisted
from notation.core.errors import shorten
from notation.core.game import AnyGame
from .visitor import unescape


def retagged(record: GameNode, key: str, value: str | None) -> GameNode:
    """``record`` with its tag ``key`` set to ``value`` (None: without the tag)."""
    tags = [t for t in record.tags if not (isinstance(t, Tag) and t.key == key)]
    if value is not None:
        tags.append(Tag(key, value))
    return record.rewritten(record.items, tags)


def first_reading(values: Iterable[str], own: str, reads: Callable[[str], bool]) -> str | None:
    """The first of ``values``, other than the record's ``own``, under which it ``reads``."""
    return next((value for value in values if value != own and reads(value)), None)


def tag_advice(key: str, given: str | None, wanted: str, default: str | None = None) -> str:
    """How to make a record read as ``wanted``: add its tag, change the one ``given``, or
    remove it when ``wanted`` is what no tag means (``default``)."""
    if given is None:
        return f'add [{key} "{wanted}"]'
    if wanted == default:
        return f'remove [{key} "{shorten(given)}"]'
    return f'change [{key} "{shorten(given)}"] to [{key} "{wanted}"]'


def tag_choices(key: str, values: Iterable[str]) -> str:
    """Several values one of which the tag ``key`` should take, as advice."""
    return " or ".join(f'[{key} "{value}"]' for value in values)


#: A tag as advice writes it: after "add", "to", "of" or "or" a value to give it, after
#: "remove" one to take away (its value shortened, so not read).
_ADVISED = re.compile(r'\b(?P<verb>add|remove|to|or|of) \[(?P<key>[A-Za-z][A-Za-z0-9_]*) '
                      r'"(?P<value>(?:[^"\\\n]|\\.)*)"\]')


def advised_tags(message: str) -> list[tuple[str, str | None]]:
    """The tag changes a refusal's message advises (:func:`tag_advice`,
    :func:`tag_choices`), as (key, value to set or None to remove), in its order."""
    return [(m["key"], None if m["verb"] == "remove" else unescape(m["value"]))
            for m in _ADVISED.finditer(message)]


def mainline_events(items: list[Item]) -> list[Item]:
    """The mainline's events, read (:class:`EventNode`) or not (:class:`Malformed`)."""
    return [i for i in items if isinstance(i, EventNode)
            or isinstance(i, Malformed) and i.what == MalformedKind.EVENT]


def reads_all(items: list[Item]) -> bool:
    """Whether the mainline has events and every one was read."""
    events = mainline_events(items)
    return bool(events) and all(isinstance(i, EventNode) for i in events)


def reads_few(items: list[Item]) -> bool:
    """Whether most of the mainline's events could not be read (another game's moves may
    happen to spell one of its game's now and then: nomic's ``NE`` is a Philosophy choice;
    a record with a typo or two is not tried as another game)."""
    events = mainline_events(items)
    # (an Unlisted item stands for ``count`` unread events the reader only counted)
    unread = sum(i.count if isinstance(i, Unlisted) else 1
                 for i in events if not isinstance(i, EventNode))
    read = sum(1 for i in events if isinstance(i, EventNode))
    return unread > read


#: Records in a row that a reading tries as the other games, none reading one, before it
#: stops trying: each try parses the record's opening with every other game's grammar, so
#: an archive of junk cost five times its own reading, while a file of another game's
#: records is told by its first.
OTHER_GAME_MISSES = 16


class OtherGames:
    """The other-game check of one reading (a file, or a batch of one): a record most of
    whose events its game cannot read, but another game reads all of, has one problem
    saying so (``these moves are flows's, not tilewe's: add [Game "flows"]``) instead of
    one for each move. Once :data:`OTHER_GAME_MISSES` records in a row were no other
    game's either, the reading stops trying (its records keep their own problems)."""

    __slots__ = ("misses",)

    def __init__(self) -> None:
        self.misses = 0  # records in a row that no other game reads

    def note(self, record: GameNode, chosen: AnyGame | None,
             reads_as: Callable[[GameNode, AnyGame], bool], by_option: bool = False) -> None:
        """Try ``record`` (``reads_as``: whether a game's grammar reads every event of the
        record's text; ``by_option``: its game was chosen by ``--game``, not by a tag or
        the file's extension)."""
        if (chosen is None or record.game_problem or self.misses >= OTHER_GAME_MISSES
                or not reads_few(record.items)):
            return
        other = first_reading(registry.names(), chosen.name,
                              lambda name: _reads(record, registry.get(name), reads_as))
        if other is None:
            self.misses += 1
            return
        self.misses = 0
        advice = tag_advice("Game", record.headers.get("Game"), other)
        if by_option:  # no tag named the game: --game did, and may name the other
            advice = f"read it with --game {other}, or {advice}"
        record.game = None  # not a record of its game: that is its one problem
        record.game_problem = f"these moves are {other}'s, not {chosen.name}'s: {advice}"


def _reads(record: GameNode, game: AnyGame | None, reads_as: Callable[[GameNode, AnyGame], bool]
           ) -> bool:
    return game is not None and reads_as(record, game)
