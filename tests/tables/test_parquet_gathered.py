"""A Parquet row group's columns are gathered game by game in their cheapest form (one
value repeated, texts as one buffer, else a list of values); any
mix of forms, in any order, gives the values as they came.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pyarrow as pa  # noqa: E402  (the test extra's: no silent skip)
import pyarrow.parquet as pq  # noqa: E402

from notation.read.texts import Texts  # noqa: E402
from notation.tables.columns import Column, Fields, Repeated  # noqa: E402
from notation.tables import parquet  # noqa: E402
from notation.tables.parquet import FieldsGathered, Gathered, ParquetTable  # noqa: E402
from notation.tables.schema import Column as SchemaColumn  # noqa: E402

TEXT = st.text(max_size=6)
NUMBER = st.integers(-(2**63), 2**63 - 1)


def text_columns() -> st.SearchStrategy[Column]:
    return st.one_of(
        st.lists(st.none() | TEXT, max_size=5),
        st.builds(Repeated, st.none() | st.sampled_from(["", "[]", "x"]) | TEXT,
                  st.integers(0, 4)),
        st.builds(Texts.of, st.lists(TEXT, max_size=5)))


def number_columns() -> st.SearchStrategy[Column]:
    return st.one_of(
        st.lists(st.none() | NUMBER, max_size=5),
        st.builds(lambda a, n: range(a, a + n), st.integers(0, 50), st.integers(0, 5)),
        st.builds(Repeated, st.none() | st.integers(0, 3) | NUMBER, st.integers(0, 4)))


def gathered(kind: Any, chunks: list[Column]) -> list[Any]:
    into = Gathered(kind)
    for chunk in chunks:
        into.add(chunk)
    return list(into.array().to_pylist())


@pytest.mark.slow
@given(st.lists(text_columns(), min_size=1, max_size=8))
@settings(max_examples=300, deadline=None)
def test_texts_in_any_forms_come_out_as_they_went_in(chunks: list[Column]) -> None:
    assert gathered(pa.string(), chunks) == [v for chunk in chunks for v in chunk]


@pytest.mark.slow
@given(st.lists(number_columns(), min_size=1, max_size=8))
@settings(max_examples=300, deadline=None)
def test_numbers_in_any_forms_come_out_as_they_went_in(chunks: list[Column]) -> None:
    assert gathered(pa.int64(), chunks) == [v for chunk in chunks for v in chunk]


def test_a_number_beyond_64_bits_is_refused_by_arrow_not_wrapped() -> None:
    with pytest.raises(OverflowError):
        gathered(pa.int64(), [range(3), Repeated(2**64, 2)])


def test_one_value_repeated_is_one_arrow_value_repeated() -> None:
    """(The form the constant columns of plain games take.)"""
    into = Gathered(pa.string())
    for _ in range(3):
        into.add(Repeated("", 4))
    assert into.same == "" and into.values is None
    assert into.array().to_pylist() == [""] * 12


def game_columns(rows: int) -> st.SearchStrategy[tuple[Column, Column]]:
    """A text and a number column of one game of ``rows`` rows, in any forms."""
    texts = st.lists(st.none() | TEXT, min_size=rows, max_size=rows)
    numbers = st.lists(st.none() | NUMBER, min_size=rows, max_size=rows)
    return st.tuples(
        st.one_of(texts, st.builds(Repeated, st.none() | st.sampled_from(["", "x"]),
                                   st.just(rows)),
                  st.builds(Texts.of, st.lists(TEXT, min_size=rows, max_size=rows))),
        st.one_of(numbers, st.builds(lambda a: range(a, a + rows), st.integers(0, 50)),
                  st.builds(Repeated, st.none() | st.integers(0, 3), st.just(rows))))


@pytest.mark.slow
@given(st.lists(st.integers(0, 5).flatmap(game_columns), max_size=12))
@settings(max_examples=60, deadline=None)
def test_a_table_written_game_by_game_reads_back(tmp_path_factory: pytest.TempPathFactory,
                                                 games: list[tuple[Column, Column]]) -> None:
    """Through ``ParquetTable.add``'s own short cuts (the same object repeated, values
    kept one by one), with row groups closed on the way."""
    path = Path(tmp_path_factory.mktemp("gathered")) / "t.parquet"
    table = ParquetTable(str(path), (SchemaColumn("text", "text"), SchemaColumn("n", "int")))
    for texts, numbers in games:
        table.add({"text": texts, "n": numbers})
        if len(games) % 3 == 0:
            table.flush()
    table.close()
    read = pq.read_table(path).to_pydict()
    assert read["text"] == [v for texts, _n in games for v in texts]
    assert read["n"] == [v for _t, numbers in games for v in numbers]


@pytest.mark.parametrize("texts", [
    Texts(b"\xff\xfe", (2).to_bytes(4, sys.byteorder)),  # no UTF-8
    Texts(b"abc", (5).to_bytes(4, sys.byteorder)),  # lengths past the data
    Texts(b"abc", (1).to_bytes(4, sys.byteorder))])  # data past the lengths
def test_texts_that_are_no_texts_are_refused_not_written(texts: Texts) -> None:
    """A game's own ``Texts`` made wrong: refused when the group is made, not written to
    fail when read."""
    into = Gathered(pa.string())
    into.add(texts)
    with pytest.raises((pa.ArrowInvalid, ValueError)):
        into.array()


def test_offsets_in_python_refuse_a_length_below_0(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parquet, "text_offsets", None)
    with pytest.raises(ValueError):
        parquet.offsets_of((-1).to_bytes(4, sys.byteorder, signed=True))


def list_columns() -> st.SearchStrategy[Column]:
    """Lists of annotations in every form a game gives them: lists, tuples, the shared
    empty tuple repeated."""
    value = st.lists(st.integers(0, 255), max_size=3)
    return st.one_of(
        st.lists(st.none() | value | value.map(tuple), max_size=5),
        st.builds(Repeated, st.none() | st.just(()) | value.map(tuple), st.integers(0, 4)))


@pytest.mark.slow
@given(st.lists(list_columns(), min_size=1, max_size=8))
@settings(max_examples=200, deadline=None)
def test_lists_in_any_forms_come_out_as_they_went_in(chunks: list[Column]) -> None:
    assert gathered(pa.list_(pa.int16()), chunks) == [
        None if v is None else list(v) for chunk in chunks for v in chunk]


#: Two games' fields as a schema has them: one with a number.
FIELDS_KIND = pa.struct([
    ("a", pa.struct([("n", pa.int64()), ("s", pa.string())])),
    ("b", pa.struct([("t", pa.string())]))])


def fields_chunks() -> st.SearchStrategy[Any]:
    """A game's ``fields`` column: game a's, game b's (some rows not read), or rows of
    no event read (an unknown game)."""
    def of_game(game: str, names: list[str], rows: int) -> st.SearchStrategy[Fields]:
        value = st.integers(-99, 99).map(str) if game == "a" else TEXT
        return st.builds(
            lambda values, taken: Fields(game, values, rows, taken),
            st.fixed_dictionaries({name: st.lists(st.none() | value, min_size=rows,
                                                   max_size=rows) for name in names}),
            st.none() | st.lists(st.booleans(), min_size=rows, max_size=rows))
    return st.integers(0, 4).flatmap(lambda rows: st.one_of(
        of_game("a", ["n", "s"], rows), of_game("b", ["t"], rows),
        st.just(Repeated(None, rows))))


def expected_fields(chunk: Any) -> list[Any]:
    if type(chunk) is Repeated:
        return [None] * chunk.count
    rows = []
    for row in range(chunk.count):
        if chunk.taken is not None and not chunk.taken[row]:
            rows.append(None)
            continue
        own = {name: (None if values[row] is None else
                      int(values[row]) if name == "n" else values[row])
               for name, values in chunk.values.items()}
        rows.append({"a": own if chunk.game == "a" else None,
                     "b": own if chunk.game == "b" else None})
    return rows


@pytest.mark.slow
@given(st.lists(fields_chunks(), min_size=1, max_size=8))
@settings(max_examples=100, deadline=None)
def test_fields_come_out_as_each_games_struct(chunks: list[Any]) -> None:
    """Each row's fields in its game's member, typed (numbers as numbers), every other
    member null; a row of no event read is null."""
    into = FieldsGathered(FIELDS_KIND)
    for chunk in chunks:
        into.add(chunk)
    assert into.array().to_pylist() == [row for chunk in chunks for row in expected_fields(chunk)]


def test_fields_text_form_is_the_json_of_the_parts_a_row_has() -> None:
    column = Fields("a", {"n": ["1", None], "s": ['say "hi"', None]}, 3, [True, True, False])
    assert list(column) == ['{"n": "1", "s": "say \\"hi\\""}', "{}", None]


REPEATABLE = st.one_of(
    st.tuples(st.just("text"), st.none() | TEXT | st.sampled_from(["", "é"])),
    st.tuples(st.just("int"), st.none() | NUMBER),
    st.tuples(st.just("texts"), st.just(()) | st.lists(TEXT, max_size=2).map(tuple)),
    st.tuples(st.just("smallints"), st.just(()) | st.lists(st.integers(-5, 5), max_size=2)),
    st.tuples(st.just("map"), st.just({}) | st.dictionaries(TEXT, TEXT, max_size=2)))


@given(REPEATABLE, st.integers(0, 40))
@settings(max_examples=200, deadline=None)
def test_a_repeated_value_from_its_buffers_is_the_value_repeated(
        kind_value: tuple[str, Any], count: int) -> None:
    kind, value = kind_value
    made = parquet.repeated_array(parquet._TYPES[kind], value, count)
    made.validate(full=True)
    assert made.type == parquet._TYPES[kind]
    assert made.to_pylist() == pa.array([value] * count, parquet._TYPES[kind]).to_pylist()
