"""A match: many refereed games between the same bots, seats rotating from game to game,
each game added to the archive the moment it ends, and the results of them all.

Each game is appended to the archive whole (a temporary renamed over it:
:func:`~notation.save.files.append_atomically`), so an interrupted match leaves every
finished game readable and no half game; the results file is rewritten the same way
after each game. Games run ``jobs`` at a time (threads: the work is the bots'; each game
keeps its own position and its own chance, seeded from the match's seed and its number,
so a match plays the same games whatever ``jobs`` is and in whatever order they end).
"""
from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Iterator, Sequence

from notation.core.writer import format_record
from notation.core.errors import WriteError
from notation.save.files import append_atomically, write_atomically

from .players import ENDING, QUIT_GRACE, STARTUP_TIME, Faults, Player
from .referee import PlayedGame, play_game


@dataclass
class BotFigures:
    """One bot's (one command's) games, results and faults over a match."""

    games: int = 0
    wins: int = 0
    ties: int = 0
    forfeits: int = 0
    faults: Faults = field(default_factory=Faults)

    def as_json(self) -> dict[str, int]:
        return {"games": self.games, "wins": self.wins, "ties": self.ties,
                "forfeits": self.forfeits, **asdict(self.faults)}


def seating(commands: Sequence[str], index: int) -> list[str]:
    """The commands in seat order for game ``index`` (1-based): each game one seat on."""
    shift = (index - 1) % len(commands)
    return [*commands[len(commands) - shift:], *commands[:len(commands) - shift]]


@dataclass
class Match:
    """The games of one ``notation referee`` run."""

    game: str
    commands: list[str]
    archive: str
    games: int = 1
    jobs: int = 1
    options: dict[str, str] = field(default_factory=dict)
    seed: int | str | None = None
    move_time: float = 10.0
    max_plies: int = 1000
    startup_time: float = STARTUP_TIME
    quit_grace: float = QUIT_GRACE
    results_path: str | None = None
    on_game: Callable[[PlayedGame, int], None] | None = None
    played: list[PlayedGame] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _stopping: bool = False
    _live: list[Player] = field(default_factory=list)

    def run(self) -> list[PlayedGame]:
        """Play every game; on an interrupt, the games in play are ended unwritten and
        the interrupt goes on (the finished ones are in the archive already)."""
        try:
            if self.jobs <= 1:
                for index in range(1, self.games + 1):
                    self._finish(self._play(index))
            else:
                self._run_parallel()
        except BaseException:
            self.stop()
            raise
        return sorted(self.played, key=lambda played: played.index)

    def _run_parallel(self) -> None:
        with ThreadPoolExecutor(self.jobs, thread_name_prefix="referee") as pool:
            pending: set[Future[PlayedGame]] = set()
            indexes = iter(range(1, self.games + 1))
            try:
                for index in indexes:
                    pending.add(pool.submit(self._play, index))
                    if len(pending) >= self.jobs:
                        done, pending = wait(pending, return_when=FIRST_COMPLETED)
                        for future in done:
                            self._finish(future.result())
                while pending:
                    done, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        self._finish(future.result())
            except BaseException:
                self.stop()
                for future in pending:
                    future.cancel()
                raise

    def _play(self, index: int) -> PlayedGame:
        return play_game(self.game, seating(self.commands, index), self.options, index=index,
                         seed=self.seed, move_time=self.move_time, max_plies=self.max_plies,
                         startup_time=self.startup_time, quit_grace=self.quit_grace,
                         live=self._live)

    def _finish(self, played: PlayedGame) -> None:
        """The game into the archive, its figures into the results (unless stopping)."""
        with self._lock, held_signals():
            if self._stopping:
                return
            path = self.archive
            try:
                append_atomically(path, _apart(path)
                                  + format_record(played.record).rstrip("\n") + "\n")
                self.played.append(played)
                if self.results_path is not None:
                    path = self.results_path
                    write_atomically(path, json.dumps(self.results(), indent=2) + "\n",
                                     create=True)
            except WriteError as exc:
                self._stopping = True  # (the next games would meet it too)
                raise WriteError(f"{path}: error: not written: {exc}") from None
        if self.on_game is not None:
            self.on_game(played, len(self.played))

    def stop(self) -> None:
        """No more games are written; every bot still running is killed."""
        with self._lock:
            self._stopping = True
        for player in list(self._live):
            player.kill()

    def results(self) -> dict[str, Any]:
        """The results file's content: each game, and each bot's figures."""
        bots = {command: BotFigures() for command in self.commands}
        games = []
        for played in sorted(self.played, key=lambda p: p.index):
            for seat, command in played.seats.items():
                figures = bots.setdefault(command, BotFigures())
                figures.games += 1
                if seat in played.winners:
                    if len(played.winners) == 1:
                        figures.wins += 1
                    else:
                        figures.ties += 1
                if played.forfeit is not None and played.forfeit.seat == seat:
                    figures.forfeits += 1
                figures.faults.add(played.faults.get(seat, Faults()))
            forfeit = played.forfeit
            games.append({
                "index": played.index, "seats": played.seats, "result": played.result,
                "winners": played.winners, "scores": played.facts, "plies": played.plies,
                "termination": played.termination,
                "forfeit": None if forfeit is None else {
                    "seat": forfeit.seat, "reason": forfeit.why, "answer": forfeit.answer}})
        return {"game": self.game, "archive": self.archive, "seed": self.seed,
                "move_time": self.move_time, "games": games,
                "bots": {command: figures.as_json() for command, figures in bots.items()}}


@contextlib.contextmanager
def held_signals() -> Iterator[None]:
    """An interrupt waits until the block is done (a game goes to the archive and the
    results together)."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, ENDING)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _apart(path: str) -> str:
    """What goes before a game added to the file at ``path``: a blank line after the
    games already there (none at the start of a file)."""
    try:
        with open(path, "rb") as handle:
            handle.seek(max(0, os.path.getsize(path) - 2))
            tail = handle.read()
    except OSError:
        return ""
    if not tail:
        return ""
    return "" if tail.endswith(b"\n\n") else "\n" if tail.endswith(b"\n") else "\n\n"


__all__ = ["BotFigures", "Match", "seating"]
