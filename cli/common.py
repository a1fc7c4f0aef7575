"""What every command shares: options, output that is safe for terminals, exit codes.

Exit status everywhere: 0 all valid, 1 some record invalid (or, for ``diff``
and ``fmt --check``, some difference), 2 usage, input or internal error.
"""
from __future__ import annotations

import json
import os
import sys
from types import TracebackType
from typing import Any, Callable

import click

from notation.core.tree import GameNode
from notation.core import registry

from notation.core.errors import Problem, ProblemKind, caret, problem_line
from notation.core.limits import printable
from notation.core.outcome import Outcome
from notation.core.replay import internal_problem

from .inputs import Inputs
from .signals import OutputGone as OutputGone  # where the commands have always found it

GAME_OPTION = click.option("--game", "game_name", metavar="GAME",
                           shell_complete=lambda ctx, param, incomplete: [
                               n for n in registry.names() if n.startswith(incomplete.lower())],
                           help="Game of records without a [Game] tag (before the file extension).")
def _note_dialect(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is not None:
        ctx.meta["notation.tags"] = {"Dialect": value}


#: A notation of a game's moves other than its canonical one (Flows: the quortextt app's),
#: for records that cannot say so with a [Dialect] tag; every reading command has it.
DIALECT_OPTION = click.option("--dialect", metavar="NAME", expose_value=False,
                              callback=_note_dialect,
                              help="Read records without a [Dialect] tag in this notation "
                                   "(flows: quortextt, the app's export).")
ENCODING_OPTION = click.option("--encoding", default="utf-8", show_default=True,
                               help="Text encoding of the input files.")
PATHS = click.argument("paths", nargs=-1, required=True, metavar="PATH...")
JOBS_OPTION = click.option(
    "--jobs", "-j", type=click.IntRange(min=1), default=None, metavar="N",
    help="Processes that check games, this one among them (default: the number of cores); "
         "never more than the cores nor than the input's parts of 256 KiB, and inputs "
         "under 1 MB use one.")


def color_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--color/--no-color``: default on a terminal, off with NO_COLOR or TERM=dumb."""
    return click.option("--color/--no-color", "color", default=None,
                        help="Colour the output (default: on a terminal, unless NO_COLOR is "
                             "set or TERM=dumb).")(func)


def reading_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """What every command that reads records takes: ``--game``, ``--dialect`` and
    ``--encoding``, in that order."""
    return GAME_OPTION(DIALECT_OPTION(ENCODING_OPTION(func)))


#: ``--in-place``: what the rewriting commands take to rewrite their files.
IN_PLACE_OPTION = click.option("--in-place", "-i", is_flag=True,
                               help="Rewrite the files (atomically).")


def wants_color(flag: bool | None, stream: Any = None) -> bool:
    if flag is not None:
        return flag
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return is_terminal(stream if stream is not None else sys.stdout)


def is_terminal(stream: Any) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (ValueError, OSError):
        return False


#: The live progress line on the terminal, if any (:mod:`.progress`): erased before any
#: other output, so the two never mix; it is drawn again at its next step.
live_lines: list[Any] = []


def emit(text: str, err: bool = False, nl: bool = True) -> None:
    """Write records' text as it is, every character kept (an escape sequence in a comment
    is data: ``fmt x > y`` must give ``x`` back); on a terminal, control characters are
    written as escapes (``\\x1b``), so a record cannot drive the terminal."""
    shown = printable(text) if is_terminal(sys.stderr if err else sys.stdout) else text
    _write(shown, err, True, nl)  # colour "on": click would strip escape sequences


def say(text: str, err: bool = False, color: bool = False, raw: bool = False,
        nl: bool = True) -> None:
    """Print one piece of output; text from a record is never sent raw to a terminal.

    ``raw`` is for text the toolkit drew itself (boards with its own colours); ``nl``
    false: a line said in pieces goes on (a tag value of megabytes is not copied whole).
    """
    _write(text if raw else printable(text), err, color, nl)


def _write(text: str, err: bool, color: bool, nl: bool) -> None:
    """One write to stdout or stderr; ``color`` false: click strips the colours of the
    toolkit's own drawing. A failing output becomes :class:`OutputGone`."""
    if live_lines and (err or is_terminal(sys.stdout)):  # the same screen as the bar
        for line in live_lines:
            line.erase()
    try:
        click.echo(text, err=err, color=color, nl=nl)
    except OSError as exc:
        raise OutputGone(exc) from None


def shown(path: str) -> str:
    """A file name as printed: one line, control characters escaped (as ``validate``
    shows problems), so a crafted name cannot forge a line of output."""
    return printable(path, newlines=False)


def warn(message: str) -> None:
    """A warning or input error: one line whatever the file names in it hold."""
    say(printable(message, newlines=False), err=True)


class Context:
    """Per-invocation state: inputs, the verdicts so far, terminal styling."""

    def __init__(self, game_name: str | None, encoding: str, color: bool | None = None) -> None:
        if game_name is not None and registry.get(game_name) is None:
            known = ", ".join(registry.names())
            raise click.UsageError(f"unknown game {game_name!r}; known games: {known}")
        here = click.get_current_context(silent=True)
        self.inputs = Inputs(encoding=encoding, game=game_name,
                             tags=here.meta.get("notation.tags", {}) if here else {})
        self.invalid = False   # some record invalid (exit 1)
        self.internal = False  # a bug of ours met somewhere (exit 2)
        self.color = wants_color(color)
        self.color_err = wants_color(color, sys.stderr)
        self.json = bool(click.get_current_context(silent=True) and
                         click.get_current_context().params.get("as_json"))

    def report(self, record: GameNode, problem: Problem, err: bool = False) -> None:
        """One problem: ``FILE:LINE:COL: error: ...`` and, on a terminal, the line with a caret."""
        self._said(record.source, record.index, record.source_line, problem, err)

    def report_outcome(self, outcome: Outcome, err: bool = False) -> None:
        """Every problem of an outcome (live, or one a worker sent back), as :meth:`report`
        says one."""
        for problem in outcome.problems:
            self._said(outcome.file, outcome.index, outcome.source_line, problem, err)

    def _said(self, source: str, index: int, source_line: Callable[[int], str | None],
              problem: Problem, err: bool) -> None:
        if problem.kind == ProblemKind.INTERNAL:
            self.internal = True
        line = printable(problem_line(source, index, problem), newlines=False)
        color = self.color_err if err else self.color
        if color:
            line = click.style(line, fg="red")
            excerpt = caret(source_line(problem.line), problem)
            if excerpt:
                line += "\n" + printable(excerpt)
        say(line, err=err, color=color, raw=True)

    def fail(self, message: str) -> None:
        """A failure of the run itself (a worker that died): said at the end, exit 2."""
        self.internal = True
        self.inputs.input_errors.append(message)

    def guard(self, record: GameNode) -> Guard:
        """Run one record's work; a bug of ours becomes that record's error, the run goes on
        (a capability the game lacks ends the run: the command cannot serve it)."""
        return Guard(self, record)

    def finish(self) -> None:
        for line in list(live_lines):  # the run is over: its progress line goes
            line.close()
        for message in self.inputs.warnings:
            warn(message)
        for message in self.inputs.input_errors:
            if self.json:  # one JSON shape for everything a --json run prints
                source, _, text = message.partition(": error: ")
                say(json.dumps({"file": source if text else None, "index": None,
                                "error": {"kind": "input", "message": text or message}}))
            else:
                warn(message)
        if self.inputs.input_errors or self.internal:
            sys.exit(2)
        sys.exit(1 if self.invalid else 0)


def plural(count: int, word: str, plural_word: str | None = None) -> str:
    """``1 ply``, ``2 plies``."""
    return f"{count:,} {word if count == 1 else (plural_word or word + 's')}"


class Guard:
    """:meth:`Context.guard`'s context: a class, not a generator (entered once a game:
    a generator's context cost three frames more)."""

    __slots__ = ("ctx", "record")

    def __init__(self, ctx: Context, record: GameNode) -> None:
        self.ctx, self.record = ctx, record

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 traceback: TracebackType | None) -> bool:
        if not isinstance(exc, Exception) or isinstance(exc, (
                click.exceptions.ClickException, click.exceptions.Exit, OutputGone)):
            return False  # none, or an interruption, or one that ends the run: let it go
        # (start-up: loaded already by the game that raised it)
        from notation.core.game import MissingCapability
        if isinstance(exc, MissingCapability):
            return False  # the command cannot serve the game: said once for the run (main)
        self.ctx.internal = True
        self.ctx.report(self.record, internal_problem(self.record, exc), err=True)
        return True
