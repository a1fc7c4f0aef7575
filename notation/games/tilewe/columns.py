"""Export's event columns for Tilewe moves: each move's text and fields from two tables.

A move's canonical text is its spelling (piece, rotation and contact) and then its
target's name; its fields are the named groups of the grammar's ``MOVE`` terminal
(``notation.core.fields``), and the target is the last of them in name order. So both
text and fields are a part per spelling (a few hundred) followed by a part per target
(400). The parts are cut from ``fields_json`` of real moves, and each cut is checked to
give back what ``fields_json`` writes; should the grammar ever name its groups so that
the target is not last, there are no tables, and export reads each text back as for
any game. A test holds every spelling with every target to ``fields_json``.

The positions column (:func:`line_columns`) is the board's own (``state.replayed_columns``).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

from notation.core.fields import event_fields, fields_json
from notation.core.game import AnyGame, LineColumns
from notation.read.texts import Texts

from .events import SIZE, Move, square_name
from .pieces import ORIENTATION_NAMES, PIECE_NAMES, orientation
from .rules import applier
from .state import Board, replayed_columns

compiled_move_texts: Callable[..., tuple[bytes, bytes, bytes, bytes] | None] | None
try:  # the columns compiled (compiled/text.c), where the install could build it
    from .compiled.text import move_texts as compiled_move_texts
except ImportError:  # pragma: no cover - a machine without a C compiler
    compiled_move_texts = None

#: A spelling: piece, canonical orientation and contact cell (a move less its target).
Spelling = tuple[int, int, tuple[int, int]]
#: Per spelling its text and its fields' JSON up to the target's value; per target its
#: name and the end of the fields' JSON.
Tables = tuple[dict[Spelling, tuple[str, str]], list[tuple[str, str]]]


def _cut(game: AnyGame, move: Move) -> tuple[str, str, str] | None:
    """The move's text less its target's name, its fields less the target's value, and
    that value's end of the JSON; None if they do not end with the target."""
    text, fields, name = str(move), fields_json(game, str(move)), square_name(move.target)
    tail = f'"{name}"}}'
    if not text.endswith(name) or not fields.endswith(tail):
        return None
    return text[:-len(name)], fields[:-len(tail)], tail


@lru_cache(maxsize=None)
def tables(game: AnyGame) -> Tables | None:
    """The two tables, cut and checked once per run; None where they do not hold."""
    spellings: dict[Spelling, tuple[str, str]] = {}
    for piece in range(len(PIECE_NAMES)):
        for index in range(len(ORIENTATION_NAMES)):
            oriented = orientation(piece, index)
            for contact in oriented.contacts:
                cut = _cut(game, Move(piece, oriented.index, contact, 0))
                if cut is None:
                    return None
                spellings[piece, oriented.index, contact] = cut[0], cut[1]
    probe, (probe_text, probe_fields) = next(iter(spellings.items()))
    targets = []
    for target in range(SIZE * SIZE):
        move = Move(*probe, target)
        cut = _cut(game, move)
        if cut is None or cut[:2] != (probe_text, probe_fields):
            return None
        targets.append((square_name(target), cut[2]))
    return spellings, targets


#: The compiled tables: a spelling's text and fields part at its number (see ``text.c``),
#: each target's.
Compiled = tuple[list[bytes | None], list[bytes | None], list[bytes], list[bytes]]
_BOX = 5


@lru_cache(maxsize=None)
def compiled_tables(game: AnyGame) -> Compiled | None:
    """:func:`tables` as ``move_texts`` takes them (None where there are none)."""
    found = tables(game)
    if found is None:
        return None
    spellings, targets = found
    texts: list[bytes | None] = [None] * (len(PIECE_NAMES) * len(ORIENTATION_NAMES) * _BOX**2)
    fields = texts[:]
    for (piece, index, (x, y)), (text, field) in spellings.items():
        slot = ((piece * len(ORIENTATION_NAMES) + index) * _BOX + x) * _BOX + y
        texts[slot], fields[slot] = text.encode("utf-8"), field.encode("utf-8")
    return (texts, fields, [name.encode("utf-8") for name, _tail in targets],
            [tail.encode("utf-8") for _name, tail in targets])


def line_columns(board: Board, moves: Iterable[Move], /) -> LineColumns:
    """As the game's, all positions of the line written at once, and without the search
    for who is to move at every ply (:func:`~.state.replayed_columns`)."""
    movers, positions = replayed_columns(board, applier(board), moves)
    return movers, positions, positions


@lru_cache(maxsize=None)
def field_tables(game: AnyGame) -> tuple[list[str], dict[Spelling, tuple[str, ...]],
                                         list[str], list[tuple[str, ...]]] | None:
    """A move's fields split as its text is: the names and values of those a spelling
    fixes (per spelling) and of those its target fixes (per target), read from real
    moves' texts by the grammar (``event_fields``); None where a field is neither's."""
    probe = Move(0, orientation(0, 0).index, orientation(0, 0).contacts[0], 0)
    seen = [event_fields(game, str(Move(*probe[:3], target))) for target in range(SIZE * SIZE)]
    names = sorted(seen[0])
    by_target = sorted(name for name in names if len({fields.get(name) for fields in seen}) > 1)
    by_spelling = [name for name in names if name not in by_target]
    if any(sorted(fields) != names for fields in seen):
        return None
    targets = [tuple(fields[name] for name in by_target) for fields in seen]
    spellings: dict[Spelling, tuple[str, ...]] = {}
    for piece in range(len(PIECE_NAMES)):
        for index in range(len(ORIENTATION_NAMES)):
            oriented = orientation(piece, index)
            for contact in oriented.contacts:
                move = Move(piece, oriented.index, contact, 0)
                fields = event_fields(game, str(move))
                if sorted(fields) != names or any(fields[name] != value for name, value
                                                  in zip(by_target, targets[0])):
                    return None
                spellings[piece, oriented.index, contact] = tuple(
                    fields[name] for name in by_spelling)
    return by_spelling, spellings, by_target, targets


def event_columns(game: AnyGame, moves: list[Move], /
                  ) -> tuple[Sequence[str], dict[str, Sequence[str | None]]] | None:
    """Each move's canonical text and fields (``Game.event_columns``) as ``game`` reads
    them: the texts compiled, as :class:`Texts`, where built, else as a list; the fields
    column by column."""
    fielded = field_tables(game)
    if fielded is None:
        return None
    spelling_names, spelled_values, target_names, target_values = fielded
    try:
        spelled = [spelled_values[piece, index, contact] for piece, index, contact, _ in moves]
        aimed = [target_values[target] for *_, target in moves]
    except (KeyError, IndexError, TypeError):  # a move made by hand
        return None
    # each field's values, a column of the rows of values (zip: in C)
    columns = [*zip(*spelled), *zip(*aimed)] if moves else [() for _ in (
        *spelling_names, *target_names)]
    fields: dict[str, Sequence[str | None]] = dict(sorted(zip(
        (*spelling_names, *target_names), columns)))
    if compiled_move_texts is not None:
        compiled = compiled_tables(game)
        written = None if compiled is None else compiled_move_texts(moves, *compiled)
        if written is None:
            return None
        text_data, text_lengths, _fields_data, _fields_lengths = written
        return Texts(text_data, text_lengths), fields
    found = tables(game)
    if found is None:
        return None
    spellings, targets = found
    texts = []
    for piece, index, contact, target in moves:
        spelling = spellings.get((piece, index, contact))
        if spelling is None or not 0 <= target < SIZE * SIZE:  # a move made by hand
            return None
        texts.append(spelling[0] + targets[target][0])
    return texts, fields
