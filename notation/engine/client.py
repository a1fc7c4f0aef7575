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

from notation.core.errors import Error, InvalidEventError, NotationError, Problem, ProblemKind
from notation.core.position import Position

from .protocol import ProtocolError, Reply, read_reply
from .session import CHANCE, acting_seat, seat_word


class EngineError(Error):
    """The bot did not answer as the protocol says: the reason, in one line, and its
    kind: ``refused`` (a ``?`` reply), ``time`` (no reply within the limit), ``closed``
    (its output closed: it stopped, or cannot be started), ``garbage`` (no reply of the
    protocol: not framed, not UTF-8, over the bound)."""

    def __init__(self, message: str, kind: str = "garbage") -> None:
        super().__init__(message)
        self.kind = kind


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
        except (OSError, ValueError) as exc:
            raise EngineError(f"the bot's input is closed ({getattr(exc, 'strerror', None) or exc})",
                              "closed") from None
        name = line.split()[0] if line.split() else "(nothing)"
        try:
            reply = self._replies.get(timeout=limit)
        except queue.Empty:
            raise EngineError(f"no reply to {name} within {limit:g} s", "time") from None
        if isinstance(reply, ProtocolError):
            self._replies.put(reply)  # (every later command meets it too)
            closed = "closed its output" in str(reply)
            raise EngineError(str(reply), "closed" if closed else "garbage")
        if not reply.ok:
            raise EngineError(f"{name} refused: {reply.text}", "refused")
        return reply.text

    def new_game(self, position: Position[Any], limit: float | None = None) -> None:
        """Tell the bot the game of ``position``: its tags (``game``), its set-up lines
        (``setup``, one a line: Sanguine's inline decks) and every event so far (``play``,
        chance's as ``chance``)."""
        tags = " ".join(f"{key} {shlex.quote(value)}" for key, value in position.tags.items()
                        if key != "Game")
        self.command(f"game {position.game.name} {tags}".rstrip(), limit)
        for directive in position.directives:
            for line in directive.text.split("\n"):
                self.command(f"setup {line}", limit)
        for seat, event in position.history(CHANCE):
            self.tell(seat_word(seat), position.game.format_event(event), limit)

    def tell(self, seat: str, event: str, limit: float | None = None) -> None:
        """``play SEAT EVENT``: an event the bot did not choose."""
        self.command(f"play {seat} {event}", limit)

    def genmove(self, seat: str, limit: float | None = None) -> str:
        """``genmove SEAT``: the bot's answer, as it wrote it."""
        return self.command(f"genmove {seat}", limit)

    def play(self, position: Position[Any], limit: float | None = None) -> Any:
        """The bot's event for the player to move in ``position`` (not pushed): the game
        told afresh (:meth:`new_game`), then ``genmove``; its answer read as the game's
        event (:meth:`Position.read`, or the game's other spelling of an answer: a Tilewe
        piece's cells)."""
        self.new_game(position, limit)
        seat = acting_seat(position) or position.turn
        return read_answer(position, self.genmove(seat_word(seat), limit))

    def quit(self, grace: float = 5.0) -> None:
        """Ask the bot to quit, close its input and reap it (killed if it ignores both for
        ``grace`` seconds)."""
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
            self.process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.quit()


def popen(command: str | Sequence[str], stderr: int | None = None) -> Engine:
    """Start the bot ``command`` (a list of words, or one string split as a shell would);
    ``stderr``: where its error output goes (``subprocess.DEVNULL``; default: ours)."""
    try:
        words = shlex.split(command) if isinstance(command, str) else list(command)
    except ValueError as exc:
        raise EngineError(f"cannot read the command {command!r}: {exc}", "closed") from None
    if not words:
        raise EngineError("an empty command starts no bot", "closed")
    try:
        process = subprocess.Popen(words, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=stderr)
    except (OSError, ValueError) as exc:
        raise EngineError(f"cannot start {words[0]}: {getattr(exc, 'strerror', None) or exc}",
                          "closed") from None
    return Engine(process)


def read_answer(position: Position[Any], text: str) -> Any:
    """A bot's answer as an event of ``position``'s game: its notation, else the game's
    other spelling of an answer (:meth:`Game.read_answer`: a Tilewe piece's cells, as
    Pentobi's engine answers).

    :raises InvalidEventError: text that is neither."""
    try:
        other = position.game.read_answer(position.state, text.strip())
    except NotationError as exc:
        raise InvalidEventError(Problem(ProblemKind.SYNTAX, 0, 0, position.ply + 1,
                                        text.strip(), str(exc))) from None
    return position.read(text) if other is None else other


__all__ = ["Engine", "EngineError", "popen"]
