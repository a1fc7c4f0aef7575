"""Export's event columns for Tilewe moves: each move's text and fields from tables.

A move's canonical text is its spelling (piece, rotation and contact) and then its
target's name; each of its fields (the named groups of the grammar's ``MOVE`` terminal,
``notation.core.fields``) is fixed by its spelling or by its target. So every column is a
part per spelling (a few hundred) followed by a part per target (400), one of them empty
for a field. The text's parts are cut from real moves' texts, the fields' read from real
moves by the grammar (:func:`field_tables`); should a field ever depend on both, there
are no tables, and export reads each text back as for any game. A test holds every
spelling with every target to the texts written and read back.

The positions column (:func:`line_columns`) is the board's own (``state.replayed_columns``).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

from notation.core.fields import event_fields
from notation.core.game import AnyGame, LineColumns
from notation.read.texts import Texts

from .events import SIZE, Move, square_name
from .pieces import ORIENTATION_NAMES, PIECE_NAMES, SPELLING_NUMBERS, orientation, spelling_number
from .rules import applier, replay_recorded
from .state import Board, replayed_columns

compiled_move_columns: Callable[..., list[tuple[bytes, bytes]] | None] | None
try:  # the columns compiled (compiled/text.c), where the install could build it
    from .compiled.text import move_columns as compiled_move_columns
except ImportError:  # pragma: no cover - a machine without a C compiler
    compiled_move_columns = None

#: A spelling: piece, canonical orientation and contact cell (a move less its target).
Spelling = tuple[int, int, tuple[int, int]]
#: Per spelling its part of the text; per target its name.
Tables = tuple[dict[Spelling, str], list[str]]


@lru_cache(maxsize=None)
def tables(game: AnyGame) -> Tables | None:
    """The text's two tables, cut and checked once per run; None where a text does not
    end with its target's name."""
    spellings: dict[Spelling, str] = {}
    for piece in range(len(PIECE_NAMES)):
        for index in range(len(ORIENTATION_NAMES)):
            oriented = orientation(piece, index)
            for contact in oriented.contacts:
                text = game.format_event(Move(piece, oriented.index, contact, 0))
                if not text.endswith(square_name(0)):
                    return None
                spellings[piece, oriented.index, contact] = text[:-len(square_name(0))]
    probe, head = next(iter(spellings.items()))
    targets = [square_name(target) for target in range(SIZE * SIZE)]
    if any(game.format_event(Move(*probe, target)) != head + name
           for target, name in enumerate(targets)):
        return None
    return spellings, targets


#: A column as ``move_columns`` takes it: a part at each spelling's number
#: (:func:`~.pieces.spelling_number`; None: no spelling), and each target's.
CompiledColumn = tuple[tuple[bytes | None, ...], tuple[bytes | None, ...]]


def _compiled_column(spellings: dict[Spelling, str], targets: list[str]) -> CompiledColumn:
    parts: list[bytes | None] = [None] * SPELLING_NUMBERS
    for spelling, part in spellings.items():
        parts[spelling_number(*spelling)] = part.encode("utf-8")
    return tuple(parts), tuple(target.encode("utf-8") for target in targets)


@lru_cache(maxsize=None)
def compiled_tables(game: AnyGame) -> tuple[list[str], list[CompiledColumn]] | None:
    """The text column and each field's (the fields by name), as ``move_columns`` takes
    them; None where :func:`tables` or :func:`field_tables` do not hold."""
    found, fielded = tables(game), field_tables(game)
    if found is None or fielded is None:
        return None
    spellings, targets = found
    columns = [_compiled_column(spellings, targets)]
    spelling_names, spelled, target_names, aimed = fielded
    names = []
    for at, name in enumerate(spelling_names):
        names.append(name)
        columns.append(_compiled_column({s: values[at] for s, values in spelled.items()},
                                        [""] * len(aimed)))
    for at, name in enumerate(target_names):
        names.append(name)
        columns.append(_compiled_column({s: "" for s in spelled},
                                        [values[at] for values in aimed]))
    order = sorted(range(len(names)), key=names.__getitem__)
    return [names[at] for at in order], columns[:1] + [columns[1 + at] for at in order]


def line_columns(board: Board, moves: Iterable[Move], /) -> LineColumns:
    """As the game's, all positions of the line written at once, and without the search
    for who is to move at every ply (:func:`~.state.replayed_columns`)."""
    movers, positions = replayed_columns(board, applier(board), moves, replay_recorded)
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
    them: compiled where built, each column as :class:`Texts` written from the tables in
    one call; else as lists, the fields column by column."""
    if compiled_move_columns is not None:
        compiled = compiled_tables(game)
        written = None if compiled is None else compiled_move_columns(moves, compiled[1])
        if compiled is None or written is None:
            return None
        texts, *values = (Texts(data, lengths) for data, lengths in written)
        return texts, dict(zip(compiled[0], values))
    fielded, found = field_tables(game), tables(game)
    if fielded is None or found is None:
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
    spellings, targets = found
    move_texts: list[str] = []
    for piece, index, contact, target in moves:
        spelling = spellings.get((piece, index, contact))
        if spelling is None or not 0 <= target < SIZE * SIZE:  # a move made by hand
            return None
        move_texts.append(spelling + targets[target])
    return move_texts, fields
