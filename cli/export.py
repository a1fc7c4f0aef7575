"""``notation export``: archives as three tables (games, events, positions) in a folder,
as Parquet, CSV or JSON lines (:mod:`notation.tables`).

An invalid game is a row with its error and the run goes on (exit 1, as ``validate``).
The tables appear only once the run is through; a run that stops (an interrupt, a full
disk, a bug) leaves nothing new. An input that cannot be read is said at the end
(exit 2); the tables still hold every game that was read.
"""
from __future__ import annotations

import importlib
from typing import Any, Iterator

import click

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
    table: Opener = module.ParquetTable
    return table


def _outcomes(ctx: Context, paths: tuple[str, ...], task: runner.Task,
              jobs: int | None) -> Iterator[Outcome]:
    """Every game's outcome with its rows, from worker processes when that pays."""
    workers = parallel.workers(ctx.inputs, paths, jobs)
    if workers is not None:
        yield from parallel.in_workers(ctx.inputs, paths, task, workers, ctx.fail)
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
@JOBS_OPTION
@reading_options
def export(paths: tuple[str, ...], to: str, folder: str, symmetric: bool, jobs: int | None,
           game_name: str | None, encoding: str) -> None:
    ctx = Context(game_name, encoding, None)
    tally = Tally(watch(ctx, paths, True))
    write_tables(ctx, tally, paths, to, folder, symmetric, jobs)
    tally.summary()
    ctx.finish()


def write_tables(ctx: Context, tally: Tally, paths: tuple[str, ...], to: str, folder: str,
                 symmetric: bool, jobs: int | None) -> None:
    """The tables of ``paths`` in ``folder`` (``export``'s work, and ``sql``'s over
    archives); a folder that cannot be written is an :class:`ExportError`."""
    table = opener(to)
    task = runner.Task(tabled_symmetric if symmetric else tabled, headers=True)
    try:
        tables = Export(folder, to, table)
    except OSError as exc:
        raise ExportError(f"cannot write to {folder}: {exc.strerror or exc}") from None
    try:
        for outcome in _outcomes(ctx, paths, task, jobs):
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
