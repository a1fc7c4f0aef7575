"""Options the games declare, offered by the commands they name.

A game lists its options (``GameOption``: Flows' ``--tile`` for ``legal``,
Sanguine's deal options for ``random``) and the registry knows them without
importing the game. A command made with ``cls=WithGameOptions`` adds them to
its own when it parses its arguments or shows its help, and hands the values
given to the callback as one dict, ``game_options``. Two games may declare the
same option (both Flows and Sanguine have ``--perspective``): it is offered
once, its help naming each game.
"""
from __future__ import annotations

from typing import Any

import click

from notation.core import registry
from notation.core.game import AnyGame
from notation.core.plugins import GameOption, refusal


def click_type(options: list[GameOption]) -> click.ParamType[int | str, str] | None:
    """The click type of an option's values (None: a flag or plain text); where games
    declare it with different values (Tilewe's 1 to 4 players, Flows' 2 to 6), any of
    theirs, and the game named checks its own (:func:`check_for`)."""
    option = options[0]
    if option.kind == "int":
        if all((o.low, o.high) == (option.low, option.high) for o in options):
            return click.IntRange(option.low, option.high)
        return click.INT
    if option.kind == "choice":
        return click.Choice(list(dict.fromkeys(c for o in options for c in o.choices)))
    return None


class Offered:
    """One option as a command offers it: declared by one game or more."""

    def __init__(self, option: GameOption) -> None:
        self.option = option
        self.declared: list[GameOption] = []
        self.helps: list[str] = []
        self.values: list[str] = []  # for shell completion

    def add(self, game: str, option: GameOption) -> None:
        if option.kind != self.option.kind:
            raise click.ClickException(f"games disagree on {option.flag}: "
                                       f"{self.option.kind} and {option.kind}")
        self.declared.append(option)
        self.helps.append(f"{game.capitalize()}: {option.help}")
        self.values += [v for v in option.complete if v not in self.values]

    def complete(self, ctx: Any, param: Any, incomplete: str) -> list[str]:
        return [v for v in self.values if v.startswith(incomplete)]

    def click_option(self) -> click.Option:
        option, text = self.option, " ".join(self.helps)
        names = [*option.flags, option.name]  # the value reaches the game by its name
        if option.kind == "flag":
            return click.Option(names, is_flag=True, default=False, help=text)
        return click.Option(names, type=click_type(self.declared),
                            metavar=option.metavar, help=text,
                            shell_complete=self.complete if self.values else None)


def offered(command: str) -> list[Offered]:
    """Each game option of ``command`` once, in the order the games are named."""
    found: dict[str, Offered] = {}
    for game, option in registry.options(command):
        found.setdefault(option.name, Offered(option)).add(game, option)
    return list(found.values())


class WithGameOptions(click.Command):
    """A command that also offers the options the games declare for it."""

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        params = super().get_params(ctx)
        ours = [each.click_option() for each in offered(self.name or "")]
        help_option = self.get_help_option(ctx)
        if help_option is not None and params and params[-1] is help_option:
            return params[:-1] + ours + params[-1:]
        return params + ours

    def invoke(self, ctx: click.Context) -> Any:
        names = [each.option.name for each in offered(self.name or "")]  # in a fixed order
        given = {name: ctx.params.pop(name) for name in names if name in ctx.params}
        ctx.params["game_options"] = {name: value for name, value in given.items()
                                      if value is not None and value is not False}
        return super().invoke(ctx)


def check_for(game: AnyGame, command: str, given: dict[str, Any]) -> None:
    """The options given to ``command`` for one named game (``random tilewe``), each checked
    by that game's declaration: one it does not declare, or a value it does not take, is a
    usage error naming what it takes."""
    declared = {option.name: option for option in game.options if command in option.commands}
    for name in given:
        if name not in declared:
            flags = ", ".join(option.flag for option in declared.values()) or "none"
            raise click.UsageError(f"{'--' + name.replace('_', '-')}: not an option of "
                                   f"{game.name} (its options here: {flags})")
        why = refusal(game.name, declared[name], given[name], lambda option: option.flag + " ")
        if why is not None:
            raise click.UsageError(why)
