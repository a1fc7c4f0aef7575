"""Options a game adds to some commands.

A game declares them (Flows' ``--tile`` for ``legal``, Sanguine's deal
options for ``random``); the command line offers every registered game's
options generically and hands the values given to the game, by ``name``.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class GameOption:
    """One ``--flag`` a game adds to the commands named in ``commands``.

    ``kind`` is ``"int"`` (within ``low``..``high``), ``"choice"`` (one of
    ``choices``), ``"flag"`` (no value) or ``"text"``. The value reaches the
    game as the keyword ``name`` of the method the command calls.
    """

    name: str
    commands: frozenset[str]
    help: str
    kind: str = "text"
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    metavar: str | None = None
    #: The values a shell may complete (``P1``..``P6`` for Flows' ``--perspective``).
    complete: tuple[str, ...] = field(default=())

    @property
    def flag(self) -> str:
        """The option as typed: ``--hand-size`` for ``hand_size``."""
        return "--" + self.name.replace("_", "-")
