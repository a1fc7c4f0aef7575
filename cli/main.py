"""The `notation` command line: one click group, a command module per concern.

``run()`` is the whole program behind the console script: whatever happens,
one line and an exit status, never a traceback. Exit status: 0 all valid,
1 some record invalid (or, for ``diff`` and ``fmt --check``, some
difference), 2 usage, input or internal error, 130 interrupted (143 for
SIGTERM), 141 the reader of the output went away (a broken pipe, as git does).
"""
from __future__ import annotations

import importlib
import inspect
import os
import sys
from typing import Any, NoReturn, Sequence

import click

import notation

from . import signals
from .signals import OutputGone, ending

#: Every command: its module, its object and its one-line help, written here only (a
#: command's docstring says the rest: its help is this line, then that). Commands are
#: imported when used, so `notation --help` loads neither Lark nor any game.
COMMANDS = {
    "validate": ("validate", "validate", "Check every game of every record file against its rules."),
    "replay": ("check", "replay", "Replay records and show the board after a ply, after every "
                                  "ply, or at the end."),
    "legal": ("check", "legal", "List the legal moves of the player to move."),
    "diff": ("compare", "diff", "Compare two record files (or two positions)."),
    "fmt": ("rewrite", "fmt", "Write records in canonical form."),
    "merge": ("merge", "merge", "Merge annotated copies of one game into one tree."),
    "strip": ("rewrite", "strip", "Write records without variations, comments or annotations."),
    "convert": ("rewrite", "convert", "Rewrite records another way without changing what they "
                                      "mean."),
    "random": ("generate", "random_games", "Print random complete legal games."),
    "coords": ("info", "coords", "Convert one coordinate between player views."),
    "games": ("info", "games", "List the registered games, their file extensions and tags."),
    "deck": ("decks", "deck", "Check and show Sanguine deck files."),
    "tags": ("archive", "tags", "Headers only, one line per game (nothing is replayed)."),
    "select": ("archive", "select", "Write the games that match every filter, unchanged."),
    "dedupe": ("archive", "dedupe", "Keep the first copy of every game; drop the others."),
    "split": ("archive", "split", "Cut an archive into files of N games, or by a tag."),
    "cat": ("archive", "cat", "Join archives into one, every game unchanged."),
    "export": ("export", "export", "Write archives as tables: games, events and positions."),
    "sql": ("sql", "sql", "Run a SQL query (DuckDB) over archives or exported tables."),
    "explore": ("explore", "explore", "The archive's opening tree, with results per seat."),
    "stats": ("archive", "stats", "Games, verdicts, plies, results, first events, figures."),
    "engine": ("engine", "engine", "A bot on standard input and output, speaking the engine "
                                   "protocol (GTP's shape)."),
    "referee": ("referee", "referee", "Bots play each other: every game checked, recorded "
                                      "and added to an archive as it ends."),
    "lsp": ("lsp", "lsp", "Serve the Language Server Protocol: records checked as they are "
                          "typed, in any editor."),
    "render": ("pictures", "render", "Draw a position as SVG, or games as an HTML replay "
                                     "viewer (an archive's first 50)."),
}


class Interrupted(Exception):
    """SIGINT arrived: click must not turn it into its own 'Aborted!'."""


class Refused(click.ClickException):
    """The command needs a capability the game lacks (``MissingCapability``): one line,
    ``notation CMD: error: ...``, exit 2, whichever command and record met it."""

    exit_code = 2

    def __init__(self, command: str, reason: Exception) -> None:
        super().__init__(str(reason))
        self.command = command

    def show(self, file: Any = None) -> None:
        click.echo(f"notation {self.command}: error: {self.format_message()}", err=True,
                   file=file)


class NotationGroup(click.Group):
    """Commands loaded on first use; interrupts and dead output turned into our own
    exceptions before click sees them."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, attribute, summary = COMMANDS[name]
        command: click.Command = getattr(importlib.import_module(f"{__package__}.{module}"),
                                         attribute)
        if command.short_help != summary:  # (once) the summary heads the command's help
            command.short_help = summary
            details = inspect.cleandoc(command.help or "")
            command.help = summary + (f"\n\n{details}" if details else "")
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS[name][2]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            try:
                signals.raising = True  # a signal now raises where the command stands
                if signals.received is not None:  # one kept while click parsed
                    raise KeyboardInterrupt
                return super().invoke(ctx)
            finally:
                signals.raising = False  # click's own code again: a signal is kept
        except KeyboardInterrupt:
            raise Interrupted() from None
        except OSError as exc:
            if isinstance(exc, BrokenPipeError) or _output_dead():
                raise OutputGone(exc) from None
            raise
        except Exception as exc:
            # (start-up: loaded already by the game that raised it)
            from notation.core.game import MissingCapability
            if isinstance(exc, MissingCapability):
                raise Refused(ctx.invoked_subcommand or ctx.info_name or "", exc) from None
            raise


def _show_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """The version, and which parts ran compiled (games load only for this)."""
    if not value or ctx.resilient_parsing:
        return
    from notation.core import registry  # (start-up: no game loads for other commands)
    from notation.read import scanner
    from notation.tables import keys

    compiled = [f"{game.name} {part}" for game in registry.games() for part in game.compiled]
    compiled += ["position keys"] if keys.COMPILED else []
    compiled += ["tag lines"] if scanner.compiled_opening_tags is not None else []
    click.echo(f"notation, version {notation.__version__}")
    click.echo(f"compiled: {', '.join(compiled)}" if compiled
               else "compiled: nothing (every part in Python)")
    ctx.exit()


@click.group(cls=NotationGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=_show_version, help="Show the version, and which parts run compiled.")
def cli() -> None:
    """Read, check, replay, convert and compare records of played games."""


def _output_dead() -> bool:
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except (OSError, ValueError):
        return True
    return False


def _silence_stdout() -> None:
    """Point fd 1 at /dev/null so the interpreter's last flush cannot fail loudly."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
    except OSError:
        pass


def run(argv: Sequence[str] | None = None) -> None:
    """The program: run the command line, map every ending to one line and a status."""
    try:
        status = cli.main(args=argv, prog_name="notation", standalone_mode=False)
        if signals.received is not None:  # kept while click parsed or closed: it ends the run
            raise Interrupted()
    except SystemExit:
        raise
    except click.exceptions.ClickException as exc:
        if signals.received is not None:
            _interrupted()
        exc.show()
        sys.exit(exc.exit_code)
    except (Interrupted, KeyboardInterrupt, click.exceptions.Abort):
        _interrupted()
    except OutputGone as exc:
        _silence_stdout()
        if isinstance(exc.error, BrokenPipeError):
            sys.exit(141)  # the reader went away: quiet, as git and coreutils are
        _say_err(f"notation: error: cannot write to standard output: {exc}")
        sys.exit(2)
    except BrokenPipeError:
        _silence_stdout()
        sys.exit(141)
    except Exception as exc:  # a bug of ours outside any record: still one line
        if _output_dead():
            _silence_stdout()
            _say_err("notation: error: cannot write to standard output")
            sys.exit(2)
        _say_err(f"notation: internal error: {exc.__class__.__name__}: {exc}")
        sys.exit(2)
    sys.exit(status if isinstance(status, int) else 0)


def _interrupted() -> NoReturn:
    status, line = ending()  # Ctrl-C's, or SIGTERM's when that is what arrived
    _say_err(line)
    sys.exit(status)


def _say_err(message: str) -> None:
    try:
        click.echo(message, err=True)
    except Exception:
        pass


def main() -> None:
    """Kept for callers of ``notation.cli.main:main``; the console script uses ``entry``."""
    run()
