"""Figures of an archive (``notation stats``): per game, verdicts, plies, results per seat
or colour, first events, and the figures each game reports of its own (``Game.facts``).

Each record gives plain data (:func:`game_figures`; :func:`figured`, the workers' task,
gives it as its outcome's ``data``); :class:`Summary` counts them in flat memory,
whatever the archive's size. Records are best read on the reader's fast path
(``checked``): a valid plain game then comes replayed, and only its first event is read
again, from its text as written, not by a full parse.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from functools import lru_cache
from typing import Any, Callable


from notation.core.forfeit import ending
from notation.core.tree import GameNode
from notation.core.fastpath import first_plain_event
from notation.core.game import AnyGame
from notation.core.outcome import Outcome
from notation.core.replay import game_of, run

#: How many of the most common first events are shown.
FIRST_EVENTS = 10


def _first_event(record: GameNode) -> str | None:
    """The first event's canonical text; a record whose events are still in its text (a
    fast reading) has its first event read alone, when its body is plain."""
    game = game_of(record)
    if game is None:
        return None
    first = first_written_event(record, game)
    if first is not None:
        return first
    events = record.events  # (a record whose events are still in its text is parsed here)
    return game.format_event(events[0]) if events else None


def first_written_event(record: GameNode, game: AnyGame) -> str | None:
    """The canonical text of the first event of a game the reader's fast path replayed
    (valid, its events still in its text), read from its words as written, not parsed;
    None for any other record (its events are then read in full)."""
    if record.outcome is None or not record.unread:
        return None  # (only a replayed game's words are known to be its events)
    first = first_plain_event(record)
    if first is None:
        return None
    return _canonical(game, *first)


@lru_cache(maxsize=4096)
def _canonical(game: AnyGame, read: Callable[[str], Any], word: str) -> str:
    """An event's canonical text from its words as written (an archive's games open
    with the same few hundred: each read once)."""
    return game.format_event(read(word))


def game_figures(record: GameNode) -> dict[str, Any]:
    """What ``stats`` counts of one game, as plain data: file, index, game, valid,
    plies, first event, and for a valid game whether it is over, its winners and
    its facts."""
    return _figures_of(record, run(record))


def figured(record: GameNode) -> Outcome:
    """The game's verdict with its figures (:func:`game_figures`) as ``data``: the task
    that worker processes run for ``stats``."""
    outcome = run(record)
    outcome.data = _figures_of(record, outcome)
    return outcome


def _figures_of(record: GameNode, outcome: Outcome) -> dict[str, Any]:
    first = _first_event(record)  # (first: a record read in full here has its tags anew)
    valid, game, state = outcome.valid, outcome.game, outcome.state
    scored = valid and state is not None
    finished = False
    winners: list[str] = []
    facts: dict[str, Any] = {}
    if scored and game is not None:
        finished, winners = ending(record, game, state, outcome.standing)
        facts = game.facts(state)
    return {"file": record.source, "index": record.index, "game": record.game or "unknown",
            "valid": valid, "plies": outcome.plies, "first": first,
            "scored": scored, "finished": finished, "winners": winners, "facts": facts}


class Summary:
    """Running figures of one game's records (plies kept as counts for the median)."""

    def __init__(self) -> None:
        self.games = self.valid = 0
        self.plies: Counter[int] = Counter()
        self.wins: Counter[str] = Counter()
        self.ties: Counter[str] = Counter()
        self.finished = 0
        self.first: Counter[str] = Counter()
        self.numbers: defaultdict[str, list[float]] = defaultdict(lambda: [0.0, 0])
        self.words: defaultdict[str, Counter[str]] = defaultdict(Counter)

    def add(self, figures: dict[str, Any]) -> None:
        """Count one game's figures (:func:`game_figures`)."""
        self.games += 1
        self.plies[figures["plies"]] += 1
        if figures.get("first"):
            self.first[figures["first"]] += 1
        if not figures.get("scored"):
            return
        self.valid += 1
        if figures["finished"]:
            self._count_result(figures["winners"])
        numbers = self.numbers
        for key, value in figures["facts"].items():
            kind = type(value)
            if kind is int or kind is float:  # (most facts: the test below, inline)
                total = numbers[key]
                total[0] += value
                total[1] += 1
            else:
                self._count_fact(key, value)

    def _count_result(self, winners: list[str]) -> None:
        self.finished += 1
        for name in winners:
            (self.wins if len(winners) == 1 else self.ties)[name] += 1

    def _count_fact(self, key: str, value: Any) -> None:
        """A number goes to a mean; anything else but None is counted as a word."""
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            total = self.numbers[key]
            total[0] += value
            total[1] += 1
        elif value is not None:
            self.words[key][str(value)] += 1

    def as_json(self) -> dict[str, Any]:
        """The figures as ``stats --json`` prints them."""
        finished = self.finished or 1
        return {
            "games": self.games, "valid": self.valid, "invalid": self.games - self.valid,
            "plies": _spread(self.plies) if self.plies else None,
            "finished": self.finished,
            "results": {name: {"wins": self.wins[name], "ties": self.ties[name],
                               "win_rate": round(self.wins[name] / finished, 4),
                               "tie_rate": round(self.ties[name] / finished, 4)}
                        for name in sorted(set(self.wins) | set(self.ties))},
            "first_events": dict(self.first.most_common(FIRST_EVENTS)),
            "means": {k: round(total / n, 3) for k, (total, n) in self.numbers.items() if n},
            "counts": {k: dict(v.most_common()) for k, v in self.words.items()},
        }

    def lines(self, name: str) -> list[str]:
        """The figures as ``stats`` prints them for people, headed by the game's ``name``."""
        return summary_lines(name, self.as_json())


class Stats:
    """One :class:`Summary` per game, filled from :func:`game_figures` of any games."""

    def __init__(self) -> None:
        self.summaries: defaultdict[str, Summary] = defaultdict(Summary)

    def add(self, figures: dict[str, Any]) -> None:
        self.summaries[figures["game"] or "unknown"].add(figures)

    def as_json(self) -> dict[str, dict[str, Any]]:
        """Every game's figures, by game name in order."""
        return {name: self.summaries[name].as_json() for name in sorted(self.summaries)}

    def lines(self) -> list[str]:
        return [line for name, data in self.as_json().items()
                for line in summary_lines(name, data)]


def _counted(count: int, word: str) -> str:
    return f"{count:,} {word if count == 1 else word + 's'}"


def summary_lines(name: str, data: dict[str, Any]) -> list[str]:
    """The lines for people of one game's figures (:meth:`Summary.as_json`)."""
    lines = [f"{name}: {_counted(data['games'], 'game')}, {data['valid']:,} valid, "
             f"{data['invalid']:,} invalid"]
    if data["plies"]:
        p = data["plies"]
        lines.append(f"  plies: min {p['min']}, median {p['median']:g}, max {p['max']}")
    if data["results"]:
        lines.append(f"  results of {_counted(data['finished'], 'finished game')}:")
        lines.extend(f"    {who:<10} {r['wins']:>6,} wins ({r['win_rate']:.1%}), "
                     f"{r['ties']:,} ties ({r['tie_rate']:.1%})"
                     for who, r in data["results"].items())
    if data["first_events"]:
        lines.append("  first events: " + ", ".join(f"{e} {n:,}"
                                                    for e, n in data["first_events"].items()))
    lines.extend(f"  mean {key}: {mean:g}" for key, mean in data["means"].items())
    lines.extend(f"  {key}: " + ", ".join(f"{v} {n:,}" for v, n in counts.items())
                 for key, counts in data["counts"].items())
    return lines


def _spread(counts: Counter[int]) -> dict[str, float]:
    """Min, median and max of counted values, walking the distinct values (memory stays
    flat: one entry per ply count, not one per game)."""
    values = sorted(counts.items())
    total = sum(counts.values())
    middle = [(total - 1) // 2, total // 2]  # the one or two middle places, from 0
    found: list[int] = []
    seen = 0
    for value, count in values:
        while middle and middle[0] < seen + count:
            found.append(value)
            middle.pop(0)
        seen += count
    median = found[0] if total % 2 else (found[0] + found[1]) / 2  # as statistics.median
    return {"min": values[0][0], "median": median, "max": values[-1][0]}
