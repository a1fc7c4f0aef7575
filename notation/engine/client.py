"""Driving a bot from Python, as python-chess's ``chess.engine`` drives a chess engine:

    with notation.engine.popen(["notation", "engine", "tilewe"]) as bot:
        while not pos.is_over():
            pos.push(bot.play(pos, limit=5.0))

The bot is told the game and every event so far (``game``, ``clear_board``, ``play``),
then asked for the mover's (``genmove``); what it answers is read as an event of the game
(:class:`~notation.core.errors.InvalidEventError` if it is none). A bot that answers
nothing within ``limit`` seconds, closes its output or answers garbage raises
:class:`EngineError`.
"""
from __future__ import annotations

import queue
import shlex
import subprocess
import threading
from typing import IO, Any, Sequence

from notation.core.errors import Error
from notation.core.position import Position

from .protocol import ProtocolError, Reply, read_reply
from .session import CHANCE, seat_word


class EngineError(Error):
    """The bot did not answer as the protocol says: the reason, in one line."""


class Engine:
    """A bot process and its pipes; use it as a context manager (it quits on leaving)."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        assert process.stdin is not None and process.stdout is not None
        self._stdin: IO[bytes] = process.stdin
        self._replies: queue.Queue[Reply | ProtocolError] = queue.Queue()
        self._reader = threading.Thread(target=self._read, args=(process.stdout,), daemon=True)
        self._reader.start()

    def _read(self, stream: IO[bytes]) -> None:
        while True:
            try:
                self._replies.put(read_reply(stream))
            except ProtocolError as exc:
                self._replies.put(exc)
                return

    def command(self, line: str, limit: float | None = None) -> str:
        """Send one command and wait (at most ``limit`` seconds) for its reply's text.

        :raises EngineError: a refusal (``?``), no reply in time, a closed pipe, garbage."""
        try:
            self._stdin.write(line.encode("utf-8") + b"\n")
            self._stdin.flush()
        except OSError as exc:
            raise EngineError(f"the bot's input is closed ({exc.strerror or exc})") from None
        try:
            reply = self._replies.get(timeout=limit)
        except queue.Empty:
            raise EngineError(f"no reply to {line.split()[0]} within {limit} s") from None
        if isinstance(reply, ProtocolError):
            raise EngineError(str(reply))
        if not reply.ok:
            raise EngineError(f"{line.split()[0]} refused: {reply.text}")
        return reply.text

    def play(self, position: Position[Any], limit: float | None = None) -> Any:
        """The bot's event for the player to move in ``position`` (not pushed)."""
        # (a tag that points at set-up lines, Sanguine's inline decks, is left out: the
        # bot starts from the game's own default for it; a position set up otherwise is
        # refused by the bot at its first event it cannot play)
        tags = " ".join(f"{key} {shlex.quote(value)}" for key, value in position.tags.items()
                        if key != "Game" and value != "inline")
        self.command(f"game {position.game.name} {tags}".rstrip(), limit)
        for seat, event in position.history(CHANCE):
            self.command(f"play {seat_word(seat)} {position.game.format_event(event)}", limit)
        return position.read(self.command(f"genmove {seat_word(position.turn)}", limit))

    def quit(self) -> None:
        """Ask the bot to quit, close its input and reap it (killed if it ignores both)."""
        if self.process.poll() is None:
            try:
                self._stdin.write(b"quit\n")
                self._stdin.flush()
            except OSError:
                pass
        try:
            self._stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.quit()


def popen(command: str | Sequence[str]) -> Engine:
    """Start the bot ``command`` (a list of words, or one string split as a shell would)."""
    words = shlex.split(command) if isinstance(command, str) else list(command)
    try:
        process = subprocess.Popen(words, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    except OSError as exc:
        raise EngineError(f"cannot start {words[0] if words else '(nothing)'}: "
                          f"{exc.strerror or exc}") from None
    return Engine(process)


__all__ = ["Engine", "EngineError", "popen"]
