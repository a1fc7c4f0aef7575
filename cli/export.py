"""``notation export``: archives as three tables (games, events, positions) in a folder,
as Parquet, CSV or JSON lines (:mod:`notation.tables`).

An invalid game is a row with its error and the run goes on (exit 1, as ``validate``).
The tables appear only once the run is through; a run that stops (an interrupt, a full
disk, a bug) leaves nothing new. An input that cannot be read is said at the end
(exit 2); the tables still hold every game that was read.
"""
from __future__ import annotations

import importlib
import sys
from typing import Any, Iterator

import click

from notation.parallel import WORKER_WAIT
from notation.parallel import runs as runner
from notation.core.errors import ProblemKind
from notation.core.outcome import Outcome
from notation.tables import FORMATS, CsvTable, Export, JsonLinesTable, Opener, placed_rows
from notation.tables import tabled, tabled_symmetric

from . import parallel
from .common import JOBS_OPTION, PATHS, Context, reading_options
from .progress import Tally, watch

#: How to get Parquet: said in one line, exit 2, when pyarrow is missing.
PARQUET_HINT = "--to parquet needs pyarrow: pip install 'game-notation[data]'"


class ExportError(click.ClickException):
    """A missing extra or an output that cannot be written: one line, exit 2."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"notation: error: {self.format_message()}", err=True, file=file)


def opener(to: str) -> Opener:
    """The table writer of a format (Parquet's module only loaded when asked for)."""
    if to == "csv":
        return CsvTable
    if to == "jsonl":
        return JsonLinesTable
    try:
        module = importlib.import_module("notation.tables.parquet")
    except ImportError:
        raise ExportError(PARQUET_HINT) from None
    _arrow_without_pandas()
    table: Opener = module.ParquetTable
    return table


def _arrow_without_pandas() -> None:
    """Arrow told, in this process, that there is no pandas: on its first list of values it
    would otherwise import pandas (half a second of CPU, measured) only to ask whether
    the list is a pandas object, which the command line never gives it. Arrow asks once
    and keeps the answer; pandas is importable again straight after."""
    if "pandas" in sys.modules:
        return
    import pyarrow as pa
    sys.meta_path.insert(0, _NoPandas)
    try:
        pa.array([0])  # (the question asked, and its answer kept)
    finally:
        sys.meta_path.remove(_NoPandas)


class _NoPandas:
    """An import finder that refuses pandas (:func:`_arrow_without_pandas`)."""

    @staticmethod
    def find_spec(name: str, path: Any = None, target: Any = None) -> None:
        if name == "pandas" or name.startswith("pandas."):
            raise ImportError("pandas is not for Arrow in the command line", name=name)


def _outcomes(ctx: Context, paths: tuple[str, ...], task: runner.Task, jobs: int | None,
              scheduler: str | None, worker_timeout: float) -> Iterator[Outcome]:
    """Every game's outcome with its rows, from a Dask cluster, or worker processes when
    that pays."""
    spread = parallel.spread(ctx, paths, lambda: task, jobs, scheduler, worker_timeout)
    if spread is not None:
        yield from spread
        return
    for records in ctx.inputs.read(paths, headers=task.headers):
        for record in records:
            yield runner.outcome_of(task, record)


@click.command()
@PATHS
@click.option("--to", "to", type=click.Choice(FORMATS), required=True,
              help="The tables' format.")
@click.option("-o", "--output", "folder", required=True, metavar="DIR",
              help="Folder of the tables (made if missing): DIR/games.EXT, DIR/events.EXT, "
                   "DIR/positions.EXT.")
@click.option("--symmetric", is_flag=True,
              help="Position keys equal for Tilewe's eight board symmetries.")
@click.option("--append", is_flag=True,
              help="Add the games to the folder's tables as new files beside them "
                   "(NAME_000002.EXT, ...), leaving the tables' files as they are; a folder "
                   "whose tables have other columns is refused.")
@JOBS_OPTION
@parallel.cluster_options
@reading_options
def export(paths: tuple[str, ...], to: str, folder: str, symmetric: bool, append: bool,
           jobs: int | None, scheduler: str | None, worker_timeout: float,
           game_name: str | None, encoding: str) -> None:
    ctx = Context(game_name, encoding, None)
    tally = Tally(watch(ctx, paths, True))
    write_tables(ctx, tally, paths, to, folder, symmetric, jobs, append, scheduler,
                 worker_timeout)
    tally.summary()
    ctx.finish()


def write_tables(ctx: Context, tally: Tally, paths: tuple[str, ...], to: str, folder: str,
                 symmetric: bool, jobs: int | None, append: bool = False,
                 scheduler: str | None = None,
                 worker_timeout: float = WORKER_WAIT) -> None:
    """The tables of ``paths`` in ``folder`` (``export``'s work, and ``sql``'s over
    archives); a folder that cannot be written is an :class:`ExportError`."""
    table = opener(to)
    task = runner.Task(tabled_symmetric if symmetric else tabled, headers=True)
    try:
        tables = Export(folder, to, table, append)
    except OSError as exc:
        raise ExportError(f"cannot write to {folder}: {exc.strerror or exc}") from None
    try:
        for outcome in _outcomes(ctx, paths, task, jobs, scheduler, worker_timeout):
            tally.count(outcome.valid, outcome.plies)
            ctx.invalid |= not outcome.valid
            if any(p.kind == ProblemKind.INTERNAL for p in outcome.problems):
                ctx.report_outcome(outcome, err=True)  # a bug of ours: said, and the run goes on
            tables.add(placed_rows(outcome))
        tables.commit()
    except OSError as exc:  # the folder's disk or rights: the tables are dropped
        tally.close()
        tables.discard()
        raise ExportError(f"cannot write the tables in {folder}: {exc.strerror or exc}") \
            from None
    except BaseException:
        tally.close()
        tables.discard()
        raise


__all__ = ["ExportError", "export", "write_tables"]
