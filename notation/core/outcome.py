"""The verdict on one game: what replaying it found, live or read back from JSON.

:func:`notation.core.replay.run` returns a live outcome (its record, game and
state). Worker processes and Dask tasks send outcomes back as JSON
(:meth:`Outcome.to_json`; pickling does the same), and what comes back
(:meth:`Outcome.from_json`) has no record, game or state but answers every
question a verdict is asked: file, index, game name, validity, plies,
problems, tags, result and the source lines the problems point at.
"""
from __future__ import annotations

from dataclasses import field
from typing import Any, NamedTuple

from .protocols import RecordView, Result
from .errors import Problem, ProblemKind
from .game import Game
from .hand_dataclass import hand_dataclass


@hand_dataclass(frozen=True, slots=True)
class Facts:
    """What an outcome read back from JSON knows in place of its record and state."""

    file: str
    index: int
    game: str | None
    tags: dict[str, str]
    result: Any  # the game's result JSON, None when the replay reached no state
    lines: dict[int, str | None]  # the source line of each problem, by line number

    def __init__(self, file: str, index: int, game: str | None, tags: dict[str, str],
                 result: Any, lines: dict[int, str | None]) -> None:
        setting = object.__setattr__
        setting(self, "file", file)
        setting(self, "index", index)
        setting(self, "game", game)
        setting(self, "tags", tags)
        setting(self, "result", result)
        setting(self, "lines", lines)


class Judged(NamedTuple):
    """What the reader's fast path found replaying a valid record as it read it, kept on
    the record (``RecordView.outcome``) until :func:`~notation.core.replay.run` makes it an
    :class:`Outcome`. Not an Outcome itself: one holds its record, and a record and
    outcome holding each other would keep the record's text (a 32 MB line, say) until
    the garbage collector ran, however many records were read since."""

    game: Game[Any, Any]
    state: Any
    plies: int
    #: ``game.result(state)`` where the end check asked for it whole (a game without
    #: result tags of its own), for those who count results (``stats``).
    standing: Result | None = None


@hand_dataclass(slots=True)
class Outcome:
    """What replaying one game found."""

    record: RecordView | None  # None when read back from JSON
    game: Game[Any, Any] | None
    state: Any  # the state after the last applied event; None if there is none
    plies: int  # events applied
    problems: list[Problem] = field(default_factory=list)
    text: str | None = None  # the game in canonical form (``fmt``), when asked for
    data: Any = None  # a task's own output, of JSON types (``replay --json``'s position)
    facts: Facts | None = None  # what it knows without its record (read back from JSON)
    #: ``game.result(state)``, where the reader's fast path asked for it already.
    standing: Result | None = field(default=None, compare=False, repr=False)
    #: The problems' source lines once worked out (:meth:`source_line`, line by line, would
    #: otherwise scan the record's text up to each problem again).
    _lines: dict[int, str | None] | None = field(default=None, init=False, repr=False,
                                                 compare=False)

    def __init__(self, record: RecordView | None, game: Game[Any, Any] | None, state: Any,
                 plies: int, problems: list[Problem] | None = None, text: str | None = None,
                 data: Any = None, facts: Facts | None = None,
                 standing: Result | None = None) -> None:
        self.record = record
        self.game = game
        self.state = state
        self.plies = plies
        self.problems = [] if problems is None else problems
        self.text = text
        self.data = data
        self.facts = facts
        self.standing = standing
        self._lines = None

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def error(self) -> Problem | None:
        """The first problem in record order."""
        return self.problems[0] if self.problems else None

    def _facts(self) -> Facts:
        """The facts of an outcome without its record (read back from JSON)."""
        if self.facts is None:
            raise ValueError("an outcome without its record needs the facts read with it")
        return self.facts

    @property
    def file(self) -> str:
        return self.record.source if self.record is not None else self._facts().file

    @property
    def index(self) -> int:
        """The game's place in its file, from 1."""
        return self.record.index if self.record is not None else self._facts().index

    @property
    def game_name(self) -> str | None:
        return self.record.game if self.record is not None else self._facts().game

    @property
    def tags(self) -> dict[str, str]:
        if self.record is None:
            return self._facts().tags
        headers = self.record.headers
        copied = getattr(headers, "as_dict", None)  # (a tree's headers: one pass)
        return copied() if copied is not None else dict(headers)

    @property
    def result(self) -> Any:
        """The game's ``result`` JSON (None when the replay reached no state)."""
        if self.record is None:
            return self._facts().result
        if self.game is None or self.state is None:
            return None
        return self.game.result_json(self.state)

    @property
    def lines(self) -> dict[int, str | None]:
        """The source line each problem points at, by line number (each worked out once,
        all in one pass over the record's text)."""
        if self.record is None:
            return self._facts().lines
        return self.record.source_lines(p.line for p in self.problems)

    def source_line(self, line: int) -> str | None:
        """Line ``line`` of the file, if it is one the problems point at (or in the record)."""
        if self.record is None:
            return self._facts().lines.get(line)
        if self._lines is None:
            self._lines = self.lines
        return self._lines[line] if line in self._lines else self.record.source_line(line)

    def verdict_json(self) -> dict[str, Any]:
        """The object ``validate --json`` prints for this game."""
        return {"file": self.file, "index": self.index, "game": self.game_name,
                "valid": self.valid, "plies": self.plies,
                "errors": [p.as_json() for p in self.problems], "tags": self.tags,
                "result": self.result}

    def to_json(self) -> dict[str, Any]:
        """The outcome as JSON types: :meth:`verdict_json`'s keys, then ``lines`` (keyed by
        line number as text), and ``text`` and ``data`` when they are set."""
        out = self.verdict_json()
        out["lines"] = {str(line): text for line, text in self.lines.items()}
        if self.text is not None:
            out["text"] = self.text
        if self.data is not None:
            out["data"] = self.data
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        """An outcome read back from :meth:`to_json`: no record, game or state."""
        facts = Facts(data["file"], data["index"], data["game"], dict(data["tags"]),
                      data["result"], {int(line): text for line, text in data["lines"].items()})
        problems = [problem_of(p) for p in data["errors"]]
        return cls(None, None, None, data["plies"], problems, data.get("text"), data.get("data"),
                   facts)

    def detached(self, facts: bool = True) -> Outcome:
        """The outcome as it reads back from JSON, without record, game or state (what a
        worker sends home). ``facts=False``: a valid game's tags and result are left out
        (empty), for a consumer that reads only its verdict (working out the result
        cost a worker more than checking the game)."""
        if self.record is None:
            return self
        if not facts and not self.problems:
            return Outcome(None, None, None, self.plies, [], self.text, self.data,
                           Facts(self.file, self.index, self.game_name, {}, None, {}))
        known = Facts(self.file, self.index, self.game_name, self.tags, self.result, self.lines)
        return Outcome(None, None, None, self.plies, self.problems, self.text, self.data, known)

    def shifted(self, by: int) -> Outcome:
        """The outcome of the same game ``by`` places on in its file (a batch's games are
        numbered from 1; their places come once the batches before are counted)."""
        if not by:
            return self
        detached = self.detached()
        f = detached._facts()  # (built, not ``dataclasses.replace``d: 8 us less a game)
        facts = Facts(f.file, f.index + by, f.game, f.tags, f.result, f.lines)
        return Outcome(None, None, None, detached.plies, detached.problems, detached.text,
                       detached.data, facts)

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        """Pickled as its JSON: a game or a live state never travels to another process."""
        return Outcome.from_json, (self.to_json(),)


def problem_of(data: dict[str, Any]) -> Problem:
    """A :class:`Problem` from its JSON form (``Problem.as_json``)."""
    return Problem(ProblemKind(data["kind"]), data["line"], data["column"], data["ply"], data["event"],
                   data["message"], data["rule"] or "", data.get("variation", ""))


class Verdict(Outcome):
    """A valid game's outcome as a worker sends it home for a verdict alone: its file, place,
    game and plies, and nothing else (no tags, result, text or data).

    What it lacks is its class's, not its own: made with four values, not eight and the
    facts', it costs the main process of a run of many workers a third of an outcome
    read back (30,000 games: 0.1 s of CPU, in a run whose workers spend 0.8 s). It answers
    as the outcome it stands for and pickles as it; its problems and facts, once asked
    for, are its own (a problem added makes it invalid), and its other fields cannot be
    set. :func:`notation.parallel.runs.outcomes` gives :meth:`as_outcome` in its place."""

    __slots__ = ("_file", "_index", "_game", "_problems", "_known")

    record = None
    game = None
    state = None
    text = None
    data = None
    standing = None
    _lines = None

    def __init__(self, file: str, index: int, game: str | None, plies: int) -> None:
        self._file, self._index, self._game = file, index, game
        self.plies = plies
        self._problems: list[Problem] | None = None
        self._known: Facts | None = None

    @property
    def problems(self) -> list[Problem]:  # type: ignore[override]
        if self._problems is None:
            self._problems = []
        return self._problems

    @property
    def facts(self) -> Facts:  # type: ignore[override]
        if self._known is None:
            self._known = Facts(self._file, self._index, self._game, {}, None, {})
        return self._known

    @property
    def file(self) -> str:
        return self._file

    @property
    def index(self) -> int:
        return self._index

    @property
    def game_name(self) -> str | None:
        return self._game

    @property
    def valid(self) -> bool:
        return not self._problems

    def as_outcome(self) -> Outcome:
        """The outcome it stands for, as one read back from JSON."""
        return Outcome(None, None, None, self.plies, list(self.problems), None, None,
                       self.facts)

    def shifted(self, by: int) -> Outcome:
        if self._problems or self._known is not None:  # (changed: as an outcome is)
            return self.as_outcome().shifted(by)
        return self if not by else Verdict(self._file, self._index + by, self._game, self.plies)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Outcome) and other.record is None and other.facts is not None:
            return self.to_json() == other.to_json()
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"Verdict(file={self._file!r}, index={self._index!r}, game={self._game!r}, "
                f"plies={self.plies!r})")
