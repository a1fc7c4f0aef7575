"""The hot path for well-formed games: scan, replay and judge in one pass, no AST.

Lark spends several microseconds a token; a bot's archive holds millions of
well-formed games. For each game the reader first tries this path: the
game's own terminals, taken from its Lark parser (in the order its lexer
tries them), scan a piece made of tag lines and events, and each event is
applied as soon as it is read (comments, which say nothing a verdict needs, are
passed over). If anything at all is unusual (a broken tag, an unreadable event,
a rule broken, a wrong result tag) the path gives up and the full Lark parse
and replay report the problem with its exact position. So the fast path only
ever says "valid"; tests prove it says so exactly when the full path does,
with the same final state.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Callable, Iterable, Iterator, Literal

from .tree import GameNode
from . import registry
from .ast import Directive, Pos, Tag
from .game import AnyGame
from .outcome import Judged
from notation.read.scanner import LONG_VALUE, Scanner, opening_tag_records, opening_tags, scanner
from notation.read.visitor import tag_parts
from .replay import end_checks, structure_problems

#: How a body in the usual layout starts: its first event's number.
_FIRST_NUMBER = re.compile(r"\s*1\.[ \t]")


def try_fast(text: str, first_line: int, game: AnyGame, source: str) -> GameNode | None:
    """The record of one piece with its outcome already known, or None to take the full path.

    The piece must be tag lines, then events (and the game's directives)
    separated by blanks; the record must replay to its end without a problem.
    The record's items hold its directives only: the fast path is for
    commands that need a verdict and a final state, not the events.
    """
    scan = scanner(game)
    head = _header(text, first_line, scan)
    if head is None:
        return None
    tags, at, line = head
    record = GameNode(game.name, tags, [], source=source, pos=tags[0].pos)
    if structure_problems(record):
        return None
    body = text[at:]
    refused = False  # (the usual words played in one call, and one was no legal move)
    if scan.single is not None and game.plays_words:
        played = _played_usual(record, game, body)
        if isinstance(played, tuple):
            return _judged(record, game, *played)
        refused = played is False  # a glyph, say, which the paths below read, or a rule
    if scan.single is not None:
        words = _plain_words(scan, body)
        if words is not None:  # (the usual words again, where those were taken: refused)
            return None if refused else _replay_words(scan, record, words)
        # not plain (numbers on some events only, say): the token loop below decides
    else:
        plain = _plain_events(scan, body)
        if plain is not None:
            return _replayed(record, game, iter(plain), len(plain))
    events = _token_events(scan, body, line, record)
    if events is None:
        return None
    return _replayed(record, game, (read(word) for read, word in events), len(events))


Reader = Callable[[str], Any]


def _token_events(scan: Scanner, body: str, line: int, record: GameNode,
                  verdict: bool = True) -> list[tuple[Reader, str]] | None:
    """A body's events as written, each with its terminal's reader, numbers checked and
    dropped; its directives go into ``record``'s body. None: anything else is there (or,
    unless all that is wanted is a ``verdict``, a comment: an export keeps comments)."""
    directives, readers = scan.directives, scan.readers
    skipped = scan.skipped if verdict else frozenset()
    events: list[tuple[Reader, str]] = []
    token = scan.token.match  # (inline, not scan.tokens: a generator costs 2-3% here)
    at = 0
    while (m := token(body, at)) is not None:
        at = m.end()
        index = m.lastindex or 0  # (always set: every alternative is a named group)
        kind, word = m.lastgroup or "", m.group(index)
        if kind in skipped:
            continue
        if kind not in readers and kind not in directives:
            return None  # a comment where it matters, or what the scanner cannot read
        if kind in directives:
            start = m.start(index)
            row = line + body.count("\n", 0, start)
            column = start - body.rfind("\n", 0, start)
            record.items.append(Directive(kind, word.rstrip(), Pos(row, column)))
            continue
        if word[0] <= "9":  # "12. F5e-a2d4": the terminal's digits must count the ply
            dot = word.find(".")
            if dot > 9 or int(word[:dot]) != len(events) + 1:
                return None
            word = word[dot + 1:].lstrip(" \t")
        events.append((readers[kind], word))
    tail = scan.tail.match(body, at)
    return events if events and tail is not None and tail.end() == len(body) else None


def _header(text: str, first_line: int, scan: Scanner) -> tuple[list[Tag], int, int] | None:
    """The tag lines that open a piece: (tags, where the body starts, its line), or None."""
    found = opening_tag_records(text, first_line, scan)
    if found is None:
        return None
    tags, at, lines = found
    if not tags or at >= len(text):
        return None
    return tags, at, first_line + lines


def hollowed(text: str, game: AnyGame) -> tuple[str, dict[int, str]] | None:
    """A piece for the full parse without its long tag values: each tag line that opens it
    with a value over :data:`LONG_VALUE` characters written ``[Key ""]``, and those values
    by line (from 1), each sliced from ``text`` once. Lark would copy the line twice (its
    match, then its token) beside the piece and the value (a 32 MB value cost four times
    its size); its lines and every column before the value stay as they were, and the
    line holds nothing after the tag. None: no such value, or a broken tag line among
    them (the text is parsed as it is)."""
    found = opening_tags(text, scanner(game))
    if found is None:
        return None
    values: dict[int, str] = {}
    kept: list[str] = []
    done = 0
    for line, _start, first, end in found[0]:
        opening = text.index('"', first, end)
        closing = text.rindex('"', opening + 1, end)
        if closing - opening > LONG_VALUE:
            values[line + 1] = tag_parts(text, first, end)[1]
            kept.append(text[done:opening + 1])
            done = closing
    if not values:
        return None
    kept.append(text[done:])
    return "".join(kept), values


#: A body line that is neither blank, a comment nor a tag (broken or not): what makes a
#: piece a game (``select``'s skimming reader asks the same).
PLAIN_LINE = re.compile(r"^[^\S\n]*[^\s;#\[{]", re.MULTILINE)


def try_headers(text: str, first_line: int, game: AnyGame, source: str) -> GameNode | None:
    """A plain game's record with its tags only, nothing past them parsed (``tags``).

    Plain: tag lines, then a body with no ``[`` and no ``{``, holding a line that is
    not a comment (so the game cannot hand anything on to the next). Any ``[`` in
    the body may start a tag token where the word before it ends (``1[x``), and a
    tag after events starts a new game in the full parse: such a piece is parsed.
    """
    head = _header(text, first_line, scanner(game))
    if head is None:
        return None
    tags, at, _line = head
    if "{" in text or text.find("[", at) >= 0 or not PLAIN_LINE.search(text, at):
        return None
    return GameNode(game.name, tags, [], source=source, pos=tags[0].pos)


def _judged(record: GameNode, game: AnyGame, state: Any, ply: int) -> GameNode | None:
    """The record with its outcome, if the end-of-record checks pass too (else None)."""
    # (a game without result tags of its own has them from its whole result: kept)
    standing = None if game.gives_result_tags else game.result(state)
    if end_checks(record, game, state, ply, standing) is not None:
        return None
    record.outcome = Judged(game, state, ply, standing)
    return record


def _replay_words(scan: Scanner, record: GameNode, words: list[str]) -> GameNode | None:
    """The fast path of a game with one event terminal, its body already cut in C: the
    whole game in one call where the game plays its words so (``Game.replay_words``,
    compiled), else each word read and applied."""
    game = scan.game
    if game.plays_words:
        state = played_words(record, game, words)
        if state is not None:
            return None if state is False else _judged(record, game, state, len(words))
    return _replayed(record, game, map(game.event_reader(scan.single or ""), words),
                     len(words))


def played_words(start: GameNode, game: AnyGame, words: list[str], state: Any = None) -> Any:
    """The state ``words`` lead to from ``start`` (or from ``state``, its start made
    already), played in one call (``Game.replay_words``); False at a word that is no legal
    event there, or a tag the game cannot start from (the full path says what); None
    where the game cannot play them so now (read and apply each instead)."""
    try:
        state = game.start(start) if state is None else state
        played = game.replay_words(state, words)
    except Exception:  # (a bug of ours too: the full path reports it where it struck)
        return False
    return None if played is None else state if played else False


def _played_usual(start: GameNode, game: AnyGame, body: str
                  ) -> tuple[Any, int] | Literal[False] | None:
    """A body in the usual layout played in one call: the state it leads to from
    ``start`` and its plies; False at a word that is no legal event there (or a tag the
    game cannot start from); None: another layout. The game cuts the body itself where it
    can (``Game.replay_body``), else it is cut here (:func:`_usual_words`)."""
    try:
        state = game.start(start)
        plies = game.replay_body(state, body)
    except Exception:  # (a bug of ours too: the full path reports it where it struck)
        return False
    if plies is not None:
        return False if plies is False else (state, int(plies))
    words = _usual_words(body)  # (the body not taken: the state untouched, played on here)
    found = None if words is None else played_words(start, game, words, state)
    if found is None or found is False:
        return None if found is None else False
    return found, len(words or ())


def _replayed(record: GameNode, game: AnyGame, events: Iterator[Any], plies: int
              ) -> GameNode | None:
    """The fast path's one replay: ``events`` (read as they are played) applied from the
    record's start with the game's fastest applier; None at the first problem of any kind,
    which the full path (:mod:`~notation.core.replayer`) then finds and reports. Held equal
    to it by the fast path's tests."""
    # (after the scan: directives may set the start)
    state = replayed_state(record, game, events)
    return None if state is None else _judged(record, game, state, plies)


def replayed_state(start: GameNode, game: AnyGame, events: Iterable[Any]) -> Any | None:
    """The state ``events`` (read as they are played) lead to from ``start`` with the
    game's fastest applier; None at the first problem of any kind (a tag the game cannot
    start from, an event that cannot be read, a rule broken, a bug of ours), which the
    full path then finds and reports."""
    try:
        state = game.start(start)
        apply = game.applier(state)
        for event in events:
            apply(event)
    except Exception:  # (a bug of ours too: the full path reports it where it struck)
        return None
    return state


def _plain_events(scan: Scanner, body: str) -> list[Any] | None:
    """The events of a body of events alone in the usual layout ("1. X 2. Y"), each word
    read once an archive (:attr:`Scanner.event_of`). None: anything else, or a word that
    is not one whole event token (a quoted name with a blank, a comment, a glyph): the
    token loop then decides. Blanks are the grammar's (``WS``: any white space, where
    ``split`` cuts), and the words between them are numbers and whole tokens: what the
    token loop reads."""
    if _FIRST_NUMBER.match(body) is None:  # (not split: Sanguine's decks are long)
        return None
    words = _split_words(body)
    if words is None:
        return None
    try:
        return list(map(scan.event_of, words))
    except Exception:  # (a reader's bug too: the token loop, then the full path, report it)
        return None


#: A number whose event does not follow on its line: ``EVENT_NUMBER`` allows only blanks
#: between them (``[0-9]+\.[ \t]*``), so such a body is read by the scanner instead.
_NUMBER_ALONE = re.compile(r"\.[ \t]*[^\S \t]")


def _usual_words(body: str) -> list[str] | None:
    """The words of a body in the usual layout ("1. X 2. Y"), for a game that reads every
    word itself (``Game.replay_words`` takes a word only where its one terminal matches it
    whole: a test holds that). The grammar's blanks (``WS``: any white space) are what
    ``str.split`` cuts at, and each number is followed on its line by its word, as
    ``EVENT_NUMBER`` requires: together, what ``scan.whole`` matches, without running the
    event's pattern over the body (a fifth of the fast path's time, measured). None:
    another layout (the scanner reads it)."""
    words = _split_words(body)
    return words if words is not None and _NUMBER_ALONE.search(body) is None else None


def _plain_words(scan: Scanner, body: str) -> list[str] | None:
    """The events of a one-terminal body as written, numbers checked and dropped.

    None when the body holds anything else, or numbers only some events (the
    token-by-token loop then checks each number).
    """
    if scan.whole.fullmatch(body) is None:
        return None
    words = _split_words(body)
    return words if words is not None else _numbered_words(scan, body)


def _split_words(body: str) -> list[str] | None:
    """The words between the numbers of a body in the usual layout, "1. X 2. Y", split in C.

    Each word is still to be checked as an event: this only sees that the
    numbers and words alternate and the numbers count from 1. Once the body is
    known to hold events only, that is all there is to check (a move ends at a
    blank, so no word is two events).
    """
    split = body.split()
    if len(split) % 2 == 0 and split[0::2] == _numbers(len(split) // 2):
        return split[1::2]
    return None


def _numbered_words(scan: Scanner, body: str) -> list[str] | None:
    """``_plain_words`` for any layout of a body already known to hold events only."""
    numbers = scan.number.findall(body)
    if not numbers:
        return _event_words(scan, body)
    words = _event_words(scan, scan.number.sub("", body))
    if len(numbers) != len(words) or [n.rstrip(" \t") for n in numbers] != _numbers(len(words)):
        return None
    return words


def _event_words(scan: Scanner, body: str) -> list[str]:
    """Each event of a body of events only, as written (group 1: a terminal's own named
    groups make ``findall`` give tuples)."""
    return [m.group(1) for m in scan.words.finditer(body)]


@lru_cache(maxsize=64)
def _numbers_cached(count: int) -> list[str]:
    return [f"{n}." for n in range(1, count + 1)]


def _numbers(count: int) -> list[str]:
    """``["1.", "2.", ...]``: what the event numbers of ``count`` events must read."""
    return _numbers_cached(count) if count < 4096 else [f"{n}." for n in range(1, count + 1)]


def _body(record: GameNode) -> tuple[str, int] | None:
    """The text after a headers-mode record's tags, and its first line."""
    raw, first_line = record.raw, record.first_line
    lines = record.tags[-1].pos.line - first_line + 1
    at = -1  # the body starts after the last tag's line (the tags were read already)
    find = raw.find
    for _ in range(lines):
        at = find("\n", at + 1)
        if at < 0:
            return None
    return raw[at + 1:], first_line + lines


def _plain_game(record: GameNode) -> AnyGame | None:
    """The game of a plain record read in headers mode (else None)."""
    game = registry.get(record.game) if record.game else None
    return game if game is not None and record.tags and record.unread else None


def quick_words(record: GameNode) -> list[str] | None:
    """A plain game's words between its numbers as written, without replaying.

    For games of one event terminal (Tilewe) read in headers mode; None when the
    body is not plain. The words of the usual layout are not checked as events
    here (the caller checks them all at once, as ``Game.quick_keys`` does); a
    word that is no event means the body must be parsed in full.
    """
    game = _plain_game(record)
    found = _body(record) if game is not None and scanner(game).single is not None else None
    if found is None:
        return None
    body = found[0]
    words = _split_words(body)
    if words is not None:
        return words
    scan = scanner(game)
    return _numbered_words(scan, body) if scan.whole.fullmatch(body) else None


def _plain_body(record: GameNode) -> tuple[AnyGame, str, int] | None:
    """A plain game read in headers mode: its game, the text after its tags, and the
    line that text starts on (else None)."""
    game = _plain_game(record)
    found = _body(record) if game is not None else None
    if game is None or found is None:
        return None
    return game, *found


def first_plain_event(record: GameNode) -> tuple[Reader, str] | None:
    """The first event of a game read in headers mode, as written, with its terminal's
    reader: only the body's first tokens are scanned. For a game this path has already
    read and replayed (``stats``' first moves), whose body is known to hold events;
    None where the body does not open with one (then read the game in full)."""
    found = _plain_body(record)
    if found is None:
        return None
    game, body, _line = found
    scan = scanner(game)
    token, between, at = scan.token.match, scan.between, 0
    while (m := token(body, at)) is not None:  # (as scan.tokens: inline, one game each)
        at = m.end()
        kind = m.lastgroup or ""
        if kind in between:  # set-up lines, comments
            continue
        word = m.group(m.lastindex or 0)
        if word[0] <= "9":  # "1. F5e-a2d4": the number is no part of the event
            word = word[word.find(".") + 1:].lstrip(" \t")
        return scan.readers[kind], word
    return None


def plain_events(record: GameNode) -> tuple[GameNode, list[tuple[Reader, str]]] | None:
    """A plain game read in headers mode: its events as written, each with its terminal's
    reader, neither read nor replayed, and a record of its tags and directives to start
    from. For callers that replay a game themselves with an eye on every ply (``export``);
    None when anything else is in its body (then read it in full)."""
    found = _plain_body(record)
    if found is None:
        return None
    game, body, line = found
    scan = scanner(game)
    start = GameNode(game.name, record.tags, [], source=record.source, pos=record.pos)
    if scan.single is not None:
        words = (_usual_words(body) if game.plays_words else None) or _plain_words(scan, body)
        if words is not None:
            read = game.event_reader(scan.single)
            return start, [(read, word) for word in words]
    events = _token_events(scan, body, line, start, verdict=False)
    return None if events is None else (start, events)


def plain_words(record: GameNode) -> tuple[GameNode, AnyGame, list[tuple[Reader, str]]] | None:
    """:func:`plain_events` of a game whose tags have no problem, with its game: for
    callers that read its events themselves, or play its words (``Game.replay_words``)."""
    plain = plain_events(record)
    if plain is None or structure_problems(plain[0]):
        return None
    start, pairs = plain
    game = registry.get(start.game or "")
    return None if game is None else (start, game, pairs)


def plain_game(record: GameNode) -> tuple[GameNode, AnyGame, list[Any]] | None:
    """A plain game read in headers mode with its events read (not replayed): a record of
    its tags and directives to start from, its game, its events. For callers that replay
    a game themselves in one pass (``export``, ``explore``); None when it is not plain,
    its tags have a problem, or an event cannot be read (the full path says what)."""
    plain = plain_words(record)
    if plain is None:
        return None
    start, game, pairs = plain
    try:
        return start, game, [read(word) for read, word in pairs]
    except Exception:  # an event that is no event, or a bug of ours: the full path says
        return None
