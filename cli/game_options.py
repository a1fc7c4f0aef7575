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
from notation.core.options import GameOption


def click_type(option: GameOption) -> click.ParamType | None:
    """The click type of an option's values (None: a flag or plain text)."""
    if option.kind == "int":
        return click.IntRange(option.low, option.high)
    if option.kind == "choice":
        return click.Choice(list(option.choices))
    return None


class Offered:
    """One option as a command offers it: declared by one game or more."""

    def __init__(self, option: GameOption) -> None:
        self.option = option
        self.helps: list[str] = []
        self.values: list[str] = []  # for shell completion

    def add(self, game: str, option: GameOption) -> None:
        if option.kind != self.option.kind:
            raise click.ClickException(f"games disagree on {option.flag}: "
                                       f"{self.option.kind} and {option.kind}")
        self.helps.append(f"{game.capitalize()}: {option.help}")
        self.values += [v for v in option.complete if v not in self.values]

    def complete(self, ctx: Any, param: Any, incomplete: str) -> list[str]:
        return [v for v in self.values if v.startswith(incomplete)]

    def click_option(self) -> click.Option:
        option, text = self.option, " ".join(self.helps)
        if option.kind == "flag":
            return click.Option([option.flag], is_flag=True, default=False, help=text)
        return click.Option([option.flag], type=click_type(option), metavar=option.metavar,
                            help=text, shell_complete=self.complete if self.values else None)


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
        names = {each.option.name for each in offered(self.name or "")}
        given = {name: ctx.params.pop(name) for name in names if name in ctx.params}
        ctx.params["game_options"] = {name: value for name, value in given.items()
                                      if value is not None and value is not False}
        return super().invoke(ctx)
