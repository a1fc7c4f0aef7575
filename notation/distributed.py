"""Archives on a Dask cluster, as Dask collections: an analysis that stays on the cluster
(``pip install 'game-notation[dask]'``; the tables need pandas too).

The same work the command line does with ``--scheduler``, for a Dask user::

    from dask.distributed import Client
    import notation.distributed as nd
    client = Client("tcp://scheduler:8786")
    nd.outcomes(["2025.tilewe"]).filter(lambda o: not o.valid).count().compute()
    games = nd.tables(["2025.tilewe", "2026.tilewe"])["games"]   # a Dask DataFrame
    games[games.valid].groupby("game").plies.mean().compute()
    nd.stats(["2025.tilewe"])        # what `notation stats --json` prints

Each file is cut into byte spans that the workers read themselves (they must see the
files at the same paths: a local cluster, or shared storage), each span's games are
worked on where it is read, and every game is numbered in its file as a run here numbers
it (:mod:`notation.parallel.dask_cluster`). What comes back is plain values: no game or
state travels.
"""
from __future__ import annotations

import functools
import os
from operator import attrgetter
from typing import Any, Iterable

from notation.archive.stats import Stats, figured
from notation.parallel.batch import TARGET
from notation.parallel.dask_cluster import FIELDS, game_bag, game_results, row_of
from notation.parallel.runs import VALIDATE, Task
from notation.tables.rows import placed_rows, tabled
from notation.tables.schema import TABLES

__all__ = ["FIELDS", "game_results", "outcomes", "row_of", "stats", "tables"]

Paths = Iterable[str | os.PathLike[str]]


def outcomes(paths: Paths, task: Task = VALIDATE, game: str | None = None,
             encoding: str = "utf-8", target: int = TARGET) -> Any:
    """A Dask bag of every game's :class:`~notation.core.outcome.Outcome` (``task``:
    what is done with each game, :data:`~notation.parallel.runs.VALIDATE` by default; any
    task of :mod:`notation.parallel.tasks`, or a module-level function of a record),
    in input order, each numbered in its file. An input that cannot be read is left out
    (:func:`game_results` has a row for it)."""
    return game_bag(paths, game, encoding, target, task, _outcome_rows)


def _outcome_rows(part: Any, before: int) -> list[Any]:
    return [outcome.shifted(before).detached() for outcome in part.outcomes]


def stats(paths: Paths, game: str | None = None, encoding: str = "utf-8",
          target: int = TARGET) -> dict[str, Any]:
    """The figures ``notation stats --json`` prints, each game's worked out on the
    cluster, added up in input order."""
    figures = Stats()
    found = outcomes(paths, Task(figured), game, encoding, target).map(attrgetter("data"))
    for data in found.compute():
        if data is not None:
            figures.add(data)
    return figures.as_json()


def tables(paths: Paths, symmetric: bool = False, game: str | None = None,
           encoding: str = "utf-8", target: int = TARGET) -> dict[str, Any]:
    """The three tables ``notation export`` writes (games, events, positions) as Dask
    DataFrames, one partition a span, with the Parquet schema's types (pandas'
    ``ArrowDtype``: lists, maps and structs as such), rows in the order export writes
    them."""
    import dask.dataframe as dd
    from dask import delayed  # type: ignore[attr-defined]

    from notation.tables.parquet import arrow_schema  # (pyarrow: the data extra's)

    task = Task(functools.partial(tabled, symmetric=symmetric), headers=True)
    bag = game_bag(paths, game, encoding, target, task, _outcome_rows)
    parts = bag.to_delayed(optimize_graph=False)
    frames = {}
    for name in TABLES:
        meta = arrow_schema(TABLES[name]).empty_table().to_pandas(types_mapper=_arrow_dtype)
        frames[name] = dd.from_delayed([delayed(_frame)(part, name) for part in parts],
                                       meta=meta, verify_meta=False)
    return frames


def _arrow_dtype(kind: Any) -> Any:
    import pandas as pd  # type: ignore[import-untyped,unused-ignore]
    return pd.ArrowDtype(kind)


def _frame(outcomes: list[Any], name: str) -> Any:
    """One partition's rows of table ``name`` as a pandas DataFrame (typed by Arrow)."""
    import pyarrow as pa

    from notation.tables.parquet import arrow_schema, batch_of

    rows = [placed_rows(outcome) for outcome in outcomes]
    schema = arrow_schema(TABLES[name])
    table = pa.Table.from_batches([batch_of(schema, rows, name)], schema=schema)
    return table.to_pandas(types_mapper=_arrow_dtype)
