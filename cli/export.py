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
from contextlib import contextmanager
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


def opener(to: str, alone: bool = False) -> Opener:
    """The table writer of a format (Parquet's module only loaded when asked for);
    ``alone``: nothing else this command does asks Arrow for NumPy (no cluster), and
    the process is the console script's, so no caller's code runs after."""
    if to == "csv":
        return CsvTable
    if to == "jsonl":
        return JsonLinesTable
    refused = _NO_NUMPY if alone and _console_process() and "pyarrow" not in sys.modules else ()
    try:
        with _refused(refused):
            module = importlib.import_module("notation.tables.parquet")
    except ImportError:
        raise ExportError(PARQUET_HINT) from None
    _arrow_without_pandas()
    table: Opener = module.ParquetTable
    return table


#: What Arrow may do without when it writes a command line's tables: it imports NumPy
#: when it loads, if it can (0.15 s of CPU, measured, half its import), and it
#: converts no array of NumPy's here. An Arrow loaded without it keeps going without,
#: and NumPy's arrays given to it later crash the process: so only in a process that
#: ends with the command (pandas, say, in a caller's later code).
_NO_NUMPY = ("numpy",)


def _console_process() -> bool:
    """Whether this process is the console script's (:data:`cli.entry.OWN_PROCESS`)."""
    from . import entry
    return entry.OWN_PROCESS


@contextmanager
def _refused(names: tuple[str, ...]) -> Iterator[None]:
    """Imports of ``names`` (and their modules) refused while inside."""
    if not names or any(name in sys.modules for name in names):
        yield
        return
    finder = _Refusing(names)
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)


class _Refusing:
    """An import finder that refuses some packages, by name."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = frozenset(names)

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name.partition(".")[0] in self.names:
            raise ImportError(f"{name} is not for Arrow in the command line", name=name)


def _arrow_without_pandas() -> None:
    """Arrow told, in this process, that there is no pandas: on its first list of values it
    would otherwise import pandas (half a second of CPU, measured) only to ask whether
    the list is a pandas object, which the command line never gives it. Arrow asks once
    and keeps the answer; pandas is importable again straight after."""
    if "pandas" in sys.modules:
        return
    import pyarrow as pa
    with _refused(("pandas",)):
        pa.array([0])  # (the question asked, and its answer kept)


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
                 worker_timeout, alone=True)
    tally.summary()
    ctx.finish()


def write_tables(ctx: Context, tally: Tally, paths: tuple[str, ...], to: str, folder: str,
                 symmetric: bool, jobs: int | None, append: bool = False,
                 scheduler: str | None = None,
                 worker_timeout: float = WORKER_WAIT, alone: bool = False) -> None:
    """The tables of ``paths`` in ``folder`` (``export``'s work, and ``sql``'s over
    archives); a folder that cannot be written is an :class:`ExportError`. ``alone``:
    the process does nothing after (see :func:`opener`)."""
    table = opener(to, alone and scheduler is None)
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
