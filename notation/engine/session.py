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
from notation.core.events import game_named
from notation.core.ast import Malformed, Tag
from notation.core.position import Position, at_start
from notation.core.writer import format_tags
from notation.read.reading import parse

from .bots import BOTS, Bot
from .protocol import MOST_REPLY_BYTES, Command, ProtocolError, Reply, parse_command

#: The protocol's version (GTP's is 2; this is its shape).
PROTOCOL_VERSION = "2"
#: The seat that plays chance's events (a card drawn, a die rolled).
CHANCE = "chance"
#: A tag value saying the game's set-up lines hold it (Sanguine's ``RedDeck``).
INLINE = "inline"
#: The most set-up lines a game may have (a bound on a controller's memory use).
MOST_SETUP_LINES = 100_000


def acting_seat(position: Position[Any]) -> str | None:
    """The seat whose event comes next where a player (not chance) is to play: the first,
    in seat order, that has a legal event of its own (a nomic vote: each voter in turn);
    None where only the rules' own events come next (nomic's next turn, a vote's
    outcome), which a referee plays, or a bot asked for the seat to move."""
    game, state = position.game, position.state
    actors = {game.actor(state, event) for event in position.legal_moves} - {None}
    if not actors:
        return None
    order = game.seats(state) or []
    return min(actors, key=lambda seat: (order.index(seat) if seat in order else len(order),
                                         seat or ""))


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
        self.tags: dict[str, str] = {}
        self.setup_lines: list[str] = []
        self._position: Position[Any] | None = new(game)
        self.done = False
        self.handlers: dict[str, Callable[[list[str]], str]] = {
            "protocol_version": lambda args: PROTOCOL_VERSION,
            "name": lambda args: "notation",
            "version": lambda args: __version__,
            "list_commands": lambda args: "\n".join(self.handlers),
            "known_command": lambda args: str(bool(args) and args[0] in self.handlers).lower(),
            "quit": self.quit,
            "game": self.set_game,
            "setup": self.setup,
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

    @property
    def position(self) -> Position[Any]:
        """The game's position, set up from its tags and set-up lines when first needed
        after they changed."""
        if self._position is None:
            self._position = started_from(self.game, self.tags, self.setup_lines)
        return self._position

    def set_game(self, args: list[str]) -> str:
        """``game GAME [TAG VALUE]...``: a new game with those tags (a value with blanks
        in double quotes: ``game nomic Players "Alice Bob"``); no set-up lines yet."""
        words = shlex.split(" ".join(args))
        if not words or len(words) % 2 != 1:
            raise ValueError("usage: game GAME [TAG VALUE]...")
        game, tags = words[0], dict(zip(words[1::2], words[2::2]))
        position = None if any(value == INLINE for value in tags.values()) \
            else started_from(game, tags, [])  # (refused now when it cannot start)
        self.game, self.tags, self.setup_lines, self._position = game, tags, [], position
        return ""

    def setup(self, args: list[str]) -> str:
        """``setup LINE``: one more line of the game's set-up text (Sanguine's inline
        decks, line by line), read with the game's grammar when the position is next
        needed."""
        if len(self.setup_lines) >= MOST_SETUP_LINES:
            raise ValueError(f"more than {MOST_SETUP_LINES:,} set-up lines")
        self.setup_lines.append(" ".join(args))
        self._position = None
        return ""

    def clear_board(self, args: list[str]) -> str:
        self._position = None
        self.position  # (a set-up that cannot start is refused here)
        return ""

    def play(self, args: list[str]) -> str:
        """``play SEAT EVENT``: an event as the game writes it (it may hold blanks)."""
        if len(args) < 2:
            raise ValueError("usage: play SEAT EVENT")
        seat, event = args[0], self.position.read(" ".join(args[1:]))
        self._check_seat(seat, event)
        self.position.push(event)
        return ""

    def genmove(self, args: list[str]) -> str:
        """``genmove SEAT``: the bot's event for SEAT (the seat to move, where only the
        rules' own events come next: one of those, for a controller that leaves them to
        its bots)."""
        if len(args) != 1:
            raise ValueError("usage: genmove SEAT")
        if self.position.is_over():
            raise ValueError("the game is over")
        seat, position = args[0], self.position
        if position.is_chance():
            raise ValueError("chance is to play now (play chance EVENT), not a seat")
        game = position.game
        legal = list(position.legal_moves)
        actors = [game.actor(position.state, move) for move in legal]
        moves = [move for move, actor in zip(legal, actors) if seat_word(actor) == seat]
        if not moves and seat == seat_word(position.turn):  # (the rules' own, for the mover)
            moves = [move for move, actor in zip(legal, actors) if actor is None]
        if not moves:
            raise ValueError(f"no event is {seat}'s to play now"
                             + (f" ({seat_word(position.turn)} is to move)"
                                if position.turn is not None else ""))
        move = self.bot(position, moves, seat, self.rng)
        return game.format_event(position.push(move))

    def undo(self, args: list[str]) -> str:
        if not self.position.history():
            raise ValueError("nothing to undo")
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

    def _check_seat(self, seat: str, event: Any = None) -> None:
        """``seat`` may play ``event`` now (None: the seat's own next event, genmove's):
        chance plays chance's events and nothing else; an event the rules play themselves
        (nomic's turn order, Philosophy's joins) may come with any seat word; any other is
        the seat's that plays it (a nomic vote: the voter's), by default the one to move."""
        position = self.position
        game = position.game
        if event is not None and game.chance_event(event) and position.is_chance():
            if seat != CHANCE:
                raise ValueError(f"{game.format_event(event)} is chance's to play, not {seat}'s")
            return
        if seat == CHANCE:
            raise ValueError(f"no chance event is due: {seat_word(position.turn)} is to move"
                             if not position.is_chance() else
                             f"{game.format_event(event)} is not one of chance's events")
        if event is None:
            if position.is_chance():
                raise ValueError("chance is to play now (play chance EVENT), not a seat")
            turn = position.turn
            if turn is not None and seat != seat_word(turn):
                raise ValueError(f"it is {seat_word(turn)}'s turn, not {seat}'s")
            return
        actor = game.actor(position.state, event)
        if actor is not None and seat != seat_word(actor):
            if actor == position.turn:
                raise ValueError(f"it is {seat_word(actor)}'s turn, not {seat}'s")
            raise ValueError(f"{game.format_event(event)} is {seat_word(actor)}'s to play, "
                             f"not {seat}'s")

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


def started_from(game: str, tags: dict[str, str], lines: list[str]) -> Position[Any]:
    """The start of ``game`` with ``tags`` (record tags: ``Players``, ``RedDeck``) and
    set-up ``lines``: the game's defaults for what they leave out (:func:`new`) when there
    are no lines, else the record they write, read as any record is."""
    file_tags = game_named(game).file_tags
    for tag, value in tags.items():  # (in the order given: the first said first)
        if tag not in file_tags:
            continue
        if value != INLINE:  # (a file the other side names: never read)
            raise ValueError(f"{tag} names a file; send it as set-up lines: {tag} {INLINE}, "
                             f"then setup LINE for each of its lines")
        if value == INLINE and not lines:
            raise ValueError(f"{tag} is {INLINE}: its set-up lines are still to come "
                             f"(setup LINE)")
    if not lines:
        return new(game, **{snake_case(tag): value for tag, value in tags.items()})
    given = [Tag(tag, value) for tag, value in {**tags, "Game": game}.items()]
    text = "\n".join([*format_tags(given, None), "", *lines]) + "\n"
    (record, *more) = parse(text, game, source="<set-up>") or [None]
    if record is None or more:
        raise ValueError("the set-up lines are not one game's")
    problems = [item for item in (*record.tags, *record.items) if isinstance(item, Malformed)]
    if problems:
        raise ValueError(f"set-up: {problems[0].message}")
    if record.events:
        raise ValueError("set-up lines hold no events (play them)")
    return at_start(record)


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, MoveError):
        return exc.problem.describe()
    text = str(exc).strip().replace("\n", " ")
    return text or exc.__class__.__name__


__all__ = ["CHANCE", "EngineSession", "acting_seat", "INLINE", "PROTOCOL_VERSION", "seat_word", "started_from"]
