"""One game's values of a table column, in the forms that cost least to make and to move.

A column's values for one game are a list, a range (plies counted), a :class:`Repeated`
value (a plain game's variation, comment and the like: one value for every row) or
:class:`~notation.read.texts.Texts` (positions written by compiled code). Workers send
them home as they are; a Parquet writer turns a row group's runs of one value into one
Arrow array, and takes texts' buffers whole; text formats read every value.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import repeat
from typing import Any, Union

from notation.core.fields import fields_text
from notation.read.texts import Texts


class Repeated:
    """``value`` for each of ``count`` rows (not to be changed once made: a plain class,
    as a frozen dataclass costs three times as much to make, and every game makes a
    dozen)."""

    __slots__ = ("value", "count")

    def __init__(self, value: Any, count: int) -> None:
        self.value = value
        self.count = count

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[Any]:
        return repeat(self.value, self.count)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Repeated):
            return (self.count == other.count and type(self.value) is type(other.value)
                    and self.value == other.value)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Repeated({self.value!r}, {self.count})"




class Fields:
    """One game's ``fields`` column: each field's values as text (None where an event's
    terminal has no such part), by field name, sorted; ``taken`` says which rows are
    events read (None: every row), the others (an unreadable event, an unknown game) are
    null. Parquet makes a struct of it, typed by the game's grammar; iterated, it gives
    each row's text form: a JSON object of the fields it has (keys sorted)."""

    __slots__ = ("game", "values", "count", "taken")

    def __init__(self, game: str | None, values: dict[str, Sequence[str | None]], count: int,
                 taken: list[bool] | None = None) -> None:
        self.game = game
        self.values = values
        self.count = count
        self.taken = taken

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[str | None]:
        names = list(self.values)
        columns = [self.values[name] for name in names]
        for row in range(self.count):
            if self.taken is not None and not self.taken[row]:
                yield None
                continue
            yield fields_text((name, value) for name, column in zip(names, columns)
                              if (value := column[row]) is not None)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Fields):
            return (self.game, self.values, self.count, self.taken) == (
                other.game, other.values, other.count, other.taken)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Fields({self.game!r}, {self.values!r}, {self.count}, {self.taken!r})"


#: One game's values of a column (a range: plies counted).
Column = Union[list[Any], range, Repeated, Texts, Fields]

#: Rows of a table as columns: each column's values in row order.
Columns = dict[str, Column]
