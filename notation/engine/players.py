"""A bot seated in one refereed game: its process, the dialect it speaks, and what it did
wrong (the counts a tournament's results keep).

Two dialects: this package's protocol (``game``, ``setup``, ``play``, ``genmove``), and
Pentobi's for a four-colour Tilewe game (``set_game Blokus``; moves as the cells a piece
covers; colours ``b``, ``y``, ``r``, ``g``), which a bot speaks when it refuses ``game``
and takes ``set_game``: ``pentobi-gtp`` plugs in unchanged.
"""
from __future__ import annotations

import signal
import subprocess
from dataclasses import dataclass, field
from dataclasses import fields as fields_of
from typing import Any

from notation.core.position import Position

from .client import Engine, EngineError, popen
from .session import seat_word

#: The signals that end a referee.
ENDING = frozenset({signal.SIGINT, signal.SIGTERM})
#: Pentobi's colour letters, in Tilewe's seat order.
PENTOBI_COLOURS = {"blue": "b", "yellow": "y", "red": "r", "green": "g"}
#: What a bot is allowed, in seconds, to quit before it is killed.
QUIT_GRACE = 2.0
#: What a bot is allowed, in seconds, to start and take in the game (a loaded machine
#: may need a while to start a program; a move's time is another matter).
STARTUP_TIME = 60.0


@dataclass
class Faults:
    """What a bot did wrong, counted over the games it played."""

    protocol_errors: int = 0
    illegal_events: int = 0
    time_outs: int = 0
    crashes: int = 0

    def add(self, other: Faults) -> None:
        for name in fields_of(self):
            setattr(self, name.name, getattr(self, name.name) + getattr(other, name.name))


@dataclass
class Player:
    """One seat's bot in one game."""

    seat: str
    command: str
    limit: float
    startup: float = STARTUP_TIME
    grace: float = QUIT_GRACE
    engine: Engine | None = None
    pentobi: bool = False
    faults: Faults = field(default_factory=Faults)

    def start(self, position: Position[Any]) -> None:
        """Start the bot and tell it the game so far.

        :raises EngineError: it cannot be started, or refuses the game."""
        # (an interrupt waits until the bot is ours to end: never one started and lost)
        held = signal.pthread_sigmask(signal.SIG_BLOCK, ENDING)
        try:
            self.engine = popen(self.command, stderr=subprocess.DEVNULL)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        limit = max(self.limit, self.startup)
        try:
            self.engine.new_game(position, limit)
        except EngineError as exc:
            if exc.kind != "refused" or not self._speaks_pentobi(position):
                raise
            self.pentobi = True
            self.engine.command("set_game Blokus", limit)
            self.engine.command("clear_board", limit)
            for seat, event in position.history():
                self.tell(position, seat or "", event)

    def _speaks_pentobi(self, position: Position[Any]) -> bool:
        """A four-colour Tilewe game, and a bot that takes ``set_game``."""
        if position.game.name != "tilewe" or position.game.seats(position.state) != list(
                PENTOBI_COLOURS):
            return False
        assert self.engine is not None
        return self.engine.command("known_command set_game", max(self.limit, self.startup)) \
            == "true"

    def tell(self, position: Position[Any], seat: str, event: Any) -> None:
        """``play``: an event the bot did not choose (``position``: the game before it)."""
        assert self.engine is not None
        if self.pentobi:
            from notation.games.tilewe.pentobi.cells import cells_of
            self.engine.command(f"play {PENTOBI_COLOURS[seat]} {cells_of(event)}", self.limit)
        else:
            self.engine.tell(seat_word(seat), position.game.format_event(event), self.limit)

    def ask(self) -> str:
        """``genmove``: the bot's answer for its seat, as written."""
        assert self.engine is not None
        word = PENTOBI_COLOURS[self.seat] if self.pentobi else seat_word(self.seat)
        return self.engine.genmove(word, self.limit)

    def stop(self) -> None:
        """Ask the bot to quit and reap it (killed when it does not)."""
        if self.engine is not None:
            self.engine.quit(self.grace)

    def kill(self) -> None:
        """End the bot now (a referee interrupted)."""
        if self.engine is not None and self.engine.process.poll() is None:
            self.engine.process.kill()
            self.engine.process.wait()


__all__ = ["Faults", "PENTOBI_COLOURS", "Player", "QUIT_GRACE", "STARTUP_TIME"]
