"""``notation engine``: a bot that speaks the engine protocol on a pair of streams.

The session keeps one :class:`~notation.core.position.Position` and answers the commands
of :data:`COMMANDS`; whatever it is sent, it answers (``?`` and why) and goes on: an
unknown command, a move that is no event or breaks a rule (the words ``validate``
prints), a line longer than the protocol's bound.
"""
from __future__ import annotations

import random
import shlex
from typing import IO, Any, Callable

from notation import __version__
from notation.core.errors import Error, MoveError
from notation.core.game import MissingCapability, snake_case
from notation.core.new_games import new
from notation.core.position import Position

from .bots import BOTS, Bot
from .protocol import MOST_REPLY_BYTES, Command, ProtocolError, Reply, parse_command

#: The protocol's version (GTP's is 2; this is its shape).
PROTOCOL_VERSION = "2"
#: The seat that plays chance's events (a card drawn, a die rolled).
CHANCE = "chance"


def seat_word(seat: str | None) -> str:
    """A seat as the protocol names it: one word (Philosophy's ``new player``, whose turn
    it is before everyone has joined, is ``new_player``; no seat at all is ``anyone``)."""
    return "anyone" if seat is None else seat.replace(" ", "_")


class EngineSession:
    """One bot's side of the protocol: a game, its position, the bot and its dice."""

    def __init__(self, game: str, bot: str = "random", seed: int | None = None) -> None:
        self.bot: Bot = BOTS[bot]
        self.rng = random.Random(seed)
        self.game = game
        self.options: dict[str, Any] = {}
        self.position: Position[Any] = new(game)
        self.done = False
        self.handlers: dict[str, Callable[[list[str]], str]] = {
            "protocol_version": lambda args: PROTOCOL_VERSION,
            "name": lambda args: "notation",
            "version": lambda args: __version__,
            "list_commands": lambda args: "\n".join(self.handlers),
            "known_command": lambda args: str(bool(args) and args[0] in self.handlers).lower(),
            "quit": self.quit,
            "game": self.set_game,
            "clear_board": self.clear_board,
            "play": self.play,
            "genmove": self.genmove,
            "undo": self.undo,
            "showboard": self.showboard,
            "position": lambda args: self.position.position(),
            "final_score": self.final_score,
        }

    # -- commands ----------------------------------------------------------------------
    def handle(self, command: Command) -> Reply:
        handler = self.handlers.get(command.name)
        if handler is None:
            return Reply(False, f"unknown command: {command.name}", command.id)
        try:
            text = handler(list(command.args))
        except (Error, ValueError, IndexError, KeyError) as exc:
            return Reply(False, _one_line(exc), command.id)
        except Exception as exc:  # a bug of ours: said, and the session goes on
            return Reply(False, f"internal error: {exc.__class__.__name__}: {_one_line(exc)}",
                         command.id)
        # (a blank line would end the reply early: a board's are left out)
        return Reply(True, "\n".join(line for line in text.split("\n") if line.strip()),
                     command.id)

    def quit(self, args: list[str]) -> str:
        self.done = True
        return ""

    def set_game(self, args: list[str]) -> str:
        """``game GAME [TAG VALUE]...``: a new game with those tags (a value with blanks
        in double quotes: ``game nomic Players "Alice Bob"``)."""
        words = shlex.split(" ".join(args))
        if not words or len(words) % 2 != 1:
            raise ValueError("usage: game GAME [TAG VALUE]...")
        options = {snake_case(tag): value for tag, value in zip(words[1::2], words[2::2])}
        position = new(words[0], **options)
        self.game, self.options, self.position = words[0], options, position
        return ""

    def clear_board(self, args: list[str]) -> str:
        self.position = new(self.game, **self.options)
        return ""

    def play(self, args: list[str]) -> str:
        """``play SEAT EVENT``: an event as the game writes it (it may hold blanks)."""
        if len(args) < 2:
            raise ValueError("usage: play SEAT EVENT")
        seat, event = args[0], " ".join(args[1:])
        self._check_seat(seat)
        self.position.push(event)
        return ""

    def genmove(self, args: list[str]) -> str:
        """``genmove SEAT``: the bot's event for SEAT."""
        if len(args) != 1:
            raise ValueError("usage: genmove SEAT")
        if self.position.is_over():
            raise ValueError("the game is over")
        if self.position.is_chance():
            raise ValueError("chance is to play (play chance EVENT), not a seat")
        self._check_seat(args[0])
        move = self.bot(self.position, self.rng)
        return self.position.game.format_event(self.position.push(move))

    def undo(self, args: list[str]) -> str:
        self.position.pop()
        return ""

    def showboard(self, args: list[str]) -> str:
        try:
            return self.position.game.render(self.position.state)
        except MissingCapability:
            return self.position.position()

    def final_score(self, args: list[str]) -> str:
        result = self.position.result()
        return "\n".join(f"{key} {value}" for key, value in result.tags.items())

    def _check_seat(self, seat: str) -> None:
        chance = self.position.is_chance()
        if seat == CHANCE and not chance:
            raise ValueError(f"no chance event is due: {self.position.turn} is to move")
        if seat != CHANCE and chance:
            raise ValueError("chance is to play now, not a seat")
        turn = self.position.turn
        if seat != CHANCE and turn is not None and seat != seat_word(turn):
            raise ValueError(f"it is {seat_word(turn)}'s turn, not {seat}'s")

    # -- the streams -------------------------------------------------------------------
    def serve(self, commands: IO[bytes], replies: IO[bytes]) -> None:
        """Answer each command line of ``commands`` on ``replies`` until ``quit`` or the
        end of the input."""
        while not self.done:
            raw = commands.readline(MOST_REPLY_BYTES + 1)
            if not raw:
                return
            if len(raw) > MOST_REPLY_BYTES and not raw.endswith(b"\n"):
                while (rest := commands.readline(MOST_REPLY_BYTES)) and not rest.endswith(b"\n"):
                    pass  # (the rest of an overlong line, read and dropped)
                reply = Reply(False, f"a command line longer than {MOST_REPLY_BYTES:,} bytes")
            else:
                try:
                    command = parse_command(raw.decode("utf-8", "replace"))
                except ProtocolError as exc:
                    command, reply = None, Reply(False, str(exc))
                else:
                    if command is None:
                        continue
                    reply = self.handle(command)
            replies.write(str(reply).encode("utf-8"))
            replies.flush()


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, MoveError):
        return exc.problem.describe()
    text = str(exc).strip().replace("\n", " ")
    return text or exc.__class__.__name__


__all__ = ["CHANCE", "EngineSession", "PROTOCOL_VERSION", "seat_word"]
