"""What a game's start sets up, however its tags spell it (``merge`` and ``dedupe``).

Two records start the same game when their starts have one ``Game.setup_identity``, and
write their moves alike when they also have one ``Game.notation_identity``: a tag given at
its default or left out, ``04`` for 4, or a tag the game keeps only for people (Philosophy's
``[Players]``) makes no difference. A start is built from what can set it up: the tags the
game reads (``Game.tags``; result tags, which say how a game ended, aside), its set-up lines
and its file (where Sanguine finds its decks). So it is built once per distinct set-up, and
the last few hundred are remembered: an archive's games share a handful, and the memory of
``dedupe`` stays flat however many there are.
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Mapping, Sequence

from notation.core.tree import GameNode
from notation.core.ast import Directive, Tag
from notation.core.errors import TagError
from notation.core.game import AnyGame
from notation.core.position import directives_of

#: How many distinct set-ups are remembered.
REMEMBERED = 256

#: A set-up: the game, the tags it reads (sorted), its set-up lines, the file and whether
#: the start is taken up to the board's symmetries.
SetUp = tuple[str, tuple[tuple[str, str], ...], tuple[tuple[str, str], ...], str, bool]


@dataclass(frozen=True, slots=True)
class StartIdentity:
    """A start's full position (``Game.full_position``), what it sets up
    (``Game.setup_identity``) and how its moves are written (``Game.notation_identity``)."""

    position: str
    setup: str
    notation: str
    #: The board's symmetries that take the start to its least image (``symmetric``
    #: identities only): a game's moves are compared in those images alone.
    transforms: tuple[str, ...] | None = None


class Starts:
    """Start identities, each built once per distinct set-up (the last :data:`REMEMBERED`)."""

    def __init__(self) -> None:
        self._known: OrderedDict[SetUp, StartIdentity | TagError] = OrderedDict()
        #: The tags that set each game up: those it reads but ``[Game]`` and, once a start
        #: of it was built, its result tags (``Game.result_tags``).
        self._setting: dict[str, frozenset[str]] = {}

    def __len__(self) -> int:
        """How many set-ups are remembered."""
        return len(self._known)

    def identity(self, game: AnyGame, tags: Mapping[str, str],
                 directives: Sequence[Directive] = (), source: str = "<string>",
                 symmetric: bool = False) -> StartIdentity:
        """The identity of the start that ``tags``, ``directives`` and ``source`` give;
        :class:`TagError` for a tag the game cannot start from."""
        setting = self._setting.get(game.name)
        if setting is None:
            setting = self._setting[game.name] = frozenset(game.tags) - {"Game"}
        read = tuple(sorted([(key, value) for key, value in tags.items() if key in setting]))
        lines = tuple((line.kind, line.text) for line in directives)
        set_up = (game.name, read, lines, source, symmetric)
        known = self._known.get(set_up)
        if known is None:
            known = self._built(game, read, directives, source, symmetric)
            self._known[set_up] = known
            if len(self._known) > REMEMBERED:
                self._known.popitem(last=False)
        else:
            self._known.move_to_end(set_up)
        if isinstance(known, TagError):
            raise TagError(known.key, known.message)
        return known

    def setup_of(self, game: AnyGame, record: GameNode, symmetric: bool = False
                 ) -> tuple[str, tuple[str, ...] | None]:
        """What ``record``'s start sets up, and (``symmetric``) the symmetries that take it
        to its least image: from its tags and set-up lines (remembered); else from the
        whole record, for a start its moves decide (Flows' app export, which they seat),
        not remembered; else, when it has no start, its tags as written (and every
        symmetry: None)."""
        lines = directives_of(record) if game.directives else []
        try:
            known = self.identity(game, record.headers, lines, record.source, symmetric)
            return known.setup, known.transforms
        except TagError:
            pass
        try:
            state = game.start(record)
        except TagError:
            setting = self._setting.get(game.name, frozenset(game.tags))
            written = sorted((key, value) for key, value in record.headers.items()
                             if key in setting)
            return f"no start: {written!r}", None
        return game.setup_identity(state, symmetric), _transforms(game, state, symmetric)

    def _built(self, game: AnyGame, read: tuple[tuple[str, str], ...],
               directives: Sequence[Directive], source: str,
               symmetric: bool) -> StartIdentity | TagError:
        record = GameNode(game.name, [Tag(key, value) for key, value in read], list(directives),
                        source=source)
        try:
            state = game.start(record)
        except TagError as exc:  # (kept without its traceback and the frames it holds)
            return TagError(exc.key, exc.message)
        identity = StartIdentity(game.full_position(state), game.setup_identity(state, symmetric),
                                 game.notation_identity(state),
                                 _transforms(game, state, symmetric))
        self._setting[game.name] -= frozenset(game.result_tags(state))
        return identity


def _transforms(game: AnyGame, state: object, symmetric: bool) -> tuple[str, ...] | None:
    """The symmetries taking the start ``state`` to its least image (None: not asked)."""
    return game.least_image(game.full_position(state))[1] if symmetric else None
