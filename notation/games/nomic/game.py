"""The exploration nomic behind the core's :class:`~notation.core.game.Game` interface."""
from __future__ import annotations

import random
import re
from typing import Any, Mapping

from notation.core.ast import Record
from notation.core.errors import NotationError, TagError
from notation.core.game import Game

from . import events as ev
from .engine import ORIGIN, RESOURCES, STEP, NomicState
from .events import (
    End, Invoke, Join, Judgment, Move, Note, Outcome, Propose, Reveal, Roll, Round, Turn, Vote,
    coord_text,
)

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*\Z")
_SYMBOL = {"Wood": "w", "Metal": "m", "Water": "~", "Food": "f"}
#: The widest map the text view draws, in spaces.
MAP_SPAN = 61


class Nomic(Game):
    name = "nomic"
    title = "The exploration nomic (Havvy's rules 101-115): rounds, moves, votes, judgments"
    extensions = (".nomic",)
    grammar = "nomic.lark"
    event_per_line = True
    numbered = False
    tags = {
        "Game": '"Nomic"',
        "Players": "names of the players who joined before the game began, space-separated",
        "Ruleset": '"Havvy 101-115" (the default and only one known)',
        "Result": '"*": the Initial Set has no end condition, so no game has a result',
    }

    def read_event(self, kind: str, text: str) -> ev.Event:
        return ev.read(kind, text)

    def diagnose(self, text: str) -> str:
        return ev.diagnose(text)


    # -- rules ------------------------------------------------------------------------
    def start(self, record: Record) -> NomicState:
        tags = record.tag_dict
        ruleset = tags.get("Ruleset", "Havvy 101-115")
        if ruleset != "Havvy 101-115":
            raise TagError("Ruleset", f'[Ruleset "{ruleset}"]: only "Havvy 101-115" is known')
        state = NomicState()
        for name in tags.get("Players", "").split():
            if not _NAME.match(name):
                raise TagError("Players", f"{name!r} is not a player name ([A-Za-z][A-Za-z0-9_-]*)")
            if any(p.casefold() == name.casefold() for p in state.players):
                raise TagError("Players", f"{name} is named twice (names are compared ignoring case)")
            state.players[name] = ORIGIN
        return state

    def apply(self, state: NomicState, event: ev.Event) -> None:
        state.apply(event)

    def legal_moves(self, state: NomicState, **options: Any) -> list[ev.Event]:
        """The options at this point: destinations for the roll, who may vote, and so on."""
        if options:
            raise NotationError(f"nomic legal moves take no options ({', '.join(options)})")
        if state.ended:
            return []
        who = state.current
        if who is None or state.turn_complete():
            nxt = state.next_turn() if state.round else None
            return [Turn(nxt) if nxt is not None else Round(state.round + 1), End()]
        if state.rolls is None and not state.moved:
            return [Roll((d,)) for d in range(1, 7)]
        if not state.moved:  # every destination exactly the rolled distance away
            (x, y), d = state.players[who], sum(state.rolls)
            ends = {(x + dx, y + sign * (d - abs(dx))) for dx in range(-d, d + 1) for sign in (1, -1)}
            return [Move(None, c) for c in sorted(ends)]
        if state.reveal_due is not None:
            return [Reveal(state.reveal_due, r) for r in RESOURCES]
        if state.proposal is None:
            return ([Propose("enact", state.counter, "<text>")]
                    + [Propose("repeal", n) for n, r in sorted(state.rules.items()) if r.in_effect])
        missing = [p for p in state.order() if p not in state.votes]
        if missing:
            return [Vote(p, yes) for p in missing for yes in (True, False)]
        return [Outcome(all(state.votes.values()))]

    def is_over(self, state: NomicState) -> bool:
        return state.ended

    def copy(self, state: NomicState) -> NomicState:
        return state.copy()

    def to_move(self, state: NomicState) -> str | None:
        if state.ended:
            return None
        return state.current or state.next_turn()

    # -- output -----------------------------------------------------------------------
    def position(self, state: NomicState) -> str:
        """Players and locations, revealed spaces, round and phase, on one line."""
        players = " ".join(f"{p}@{coord_text(c) if c else '-'}" for p, c in
                           ((p, state.players[p]) for p in state.order()))
        revealed = " ".join(f"{coord_text(c)}{r}" for c, r in sorted(state.revealed.items()))
        return f"{state.label}; {players}; {revealed or '-'}; next {state.counter}"

    def read_position(self, text: str) -> NomicState:
        parts = [p.strip() for p in text.split(";")]
        if len(parts) != 4:
            raise NotationError("a nomic position is 'LABEL; PLAYERS; REVEALED; next N'")
        state = NomicState()
        for item in parts[1].split():
            m = re.fullmatch(r"([A-Za-z][A-Za-z0-9_-]*)@\((-?[0-9]{1,9}),(-?[0-9]{1,9})\)", item)
            if not m:
                raise NotationError(f"{item!r} is not NAME@(X,Y)")
            state.players[m.group(1)] = (int(m.group(2)), int(m.group(3)))
        if parts[2] != "-":
            for item in parts[2].split():
                m = re.fullmatch(r"\((-?[0-9]{1,9}),(-?[0-9]{1,9})\)(Wood|Metal|Water|Food)", item)
                if not m:
                    raise NotationError(f"{item!r} is not (X,Y)Resource")
                state.revealed[(int(m.group(1)), int(m.group(2)))] = m.group(3)
        m = re.fullmatch(r"next ([0-9]{1,9})", parts[3])
        if not m:
            raise NotationError(f"{parts[3]!r} is not 'next N'")
        state.counter, state.label = int(m.group(1)), parts[0]
        return state

    def _rule_json(self, rule) -> dict[str, Any]:
        return {"number": rule.number, "text": rule.text, "origin": rule.origin,
                "adopted": rule.adopted, "in_effect": rule.in_effect, "status": rule.status,
                "amended": rule.amended, "history": rule.history}

    def state_json(self, state: NomicState) -> dict[str, Any]:
        return {
            "players": [{"name": p, "at": list(state.players[p]) if state.players[p] else None}
                        for p in state.order()],
            "revealed": [{"at": list(c), "resource": r} for c, r in sorted(state.revealed.items())],
            "rules": [self._rule_json(r) for _, r in sorted(state.rules.items())],
            "next_rule_number": state.counter,
            "pending": [{"kind": k, "rule": n} for k, n, _ in state.pending],
            "checks_off": state.checks_off(),
            "round": state.round,
            "turn": state.current,
            "phase": state.phase if state.current or state.round == 0 else "between turns",
            "next": None if state.ended else state.next_turn(),
        }

    def result_tags(self, state: NomicState) -> dict[str, str]:
        return {"Result": "*"}

    def player_count(self, state: NomicState) -> int:
        return len(state.players)

    def facts(self, state: NomicState) -> dict[str, Any]:
        return {"rules in effect": sum(1 for r in state.rules.values() if r.in_effect)}

    def result_json(self, state: NomicState) -> dict[str, Any]:
        return {"over": state.ended, "winners": [], "complete_turn": state.turn_complete()}

    def drawing(self, state: NomicState, **options: Any) -> Any:
        if options:
            raise NotationError(f"nomic maps take no view options ({', '.join(options)})")
        from .svg import draw
        return draw(state)

    def render(self, state: NomicState, color: bool = False, **options: Any) -> str:
        if options:
            raise NotationError(f"nomic maps take no view options ({', '.join(options)})")
        spots = [c for c in state.players.values() if c] + list(state.revealed) + [ORIGIN]
        xs, ys = [c[0] for c in spots], [c[1] for c in spots]
        x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
        cut = x1 - x0 >= MAP_SPAN or y1 - y0 >= MAP_SPAN
        if cut:  # a far-flung map: draw the window around the origin and say so
            half = MAP_SPAN // 2
            x0, x1 = max(x0, -half), min(x1, half)
            y0, y1 = max(y0, -half), min(y1, half)
        at: dict[tuple[int, int], list[str]] = {}
        for p, c in state.players.items():
            if c:
                at.setdefault(c, []).append(p[0])
        lines = []
        for y in range(y1, y0 - 1, -1):
            row = []
            for x in range(x0, x1 + 1):
                here = "".join(sorted(at.get((x, y), [])))
                ground = "o" if (x, y) == ORIGIN else _SYMBOL.get(state.revealed.get((x, y)), ".")
                row.append(f"{here or ground:>3}")
            lines.append(f"{y:>4} " + "".join(row))
        lines.append("     " + "".join(f"{x:>3}" for x in range(x0, x1 + 1)))
        lines.append("(o origin, w Wood, m Metal, ~ Water, f Food, . unknown; letters: players)")
        if cut:
            lines.append(f"(map cut to x and y within {MAP_SPAN // 2} of the origin)")
        where = "; ".join(f"{p} {coord_text(state.players[p])}" for p in state.order())
        lines.append(f"players (turn order): {where or 'none'}")
        status = (f"{state.label}, phase {state.phase}" if state.current else
                  "before the game" if state.round == 0 else
                  f"round {state.round}, between turns, next: {state.next_turn() or 'a new round'}")
        lines.append(status + (" (record ended)" if state.ended else ""))
        lines.append(f"next rule number: {state.counter}")
        lines.append("rules in effect: " + ", ".join(
            str(n) + ("*" if r.amended else "") for n, r in sorted(state.rules.items()) if r.in_effect)
            + "   (* amended)")
        for n, r in sorted(state.rules.items()):
            if n > 115 or r.amended or not r.in_effect:
                lines.append(f"  {n} {r.status}{', amended' if r.amended else ''}: {r.text}")
        if state.pending:
            lines.append("pending: " + ", ".join(f"{k} {n}" for k, n, _ in state.pending))
        if state.checks_off():
            lines.append("checks off: " + ", ".join(f"{n} ({r})" for n, r in
                                                   ((n, "amended" if state.rules[n].amended else "repealed")
                                                    for n in state.checks_off())))
        return "\n".join(lines)

    def cells(self, state: NomicState) -> dict[str, str]:
        out = {f"{p} at": coord_text(c) if c else "moving" for p, c in state.players.items()}
        out.update({f"space {coord_text(c)}": r for c, r in state.revealed.items()})
        for n, r in state.rules.items():
            out[f"rule {n}"] = f"{r.status}{' amended' if r.amended else ''}: {r.text}"
        out["next rule number"] = str(state.counter)
        out["pending"] = ", ".join(f"{k} {n}" for k, n, _ in state.pending)
        out["round/turn/phase"] = f"{state.round} {state.current or '-'} {state.phase}"
        return out

    # -- generation -------------------------------------------------------------------
    def random_tags(self, options: Mapping[str, Any]) -> dict[str, str]:
        players = options.get("players") or 3
        if not 1 <= players <= 8:
            raise NotationError("the random nomic games take 1 to 8 players")
        names = ["Alice", "Bob", "Carol", "Dana", "Erin", "Frank", "Gwen", "Hugo"][:players]
        return {"Game": "Nomic", "Players": " ".join(names)}

    def random_events(self, rng: random.Random, record: Record,
                      max_plies: int = 10_000) -> list[ev.Event]:
        """Three to five rounds: moves along random staircase paths, random reveals,
        enactments, repeals and now and then an amendment, votes mostly yes, a
        judgment or a note, and a late joiner at a round's start."""
        state = self.start(record)
        out: list[ev.Event] = []

        def play(event: ev.Event) -> None:
            state.apply(event)
            out.append(event)

        spare = ["Ivy", "Jon", "Kim"]
        for number in range(1, rng.randint(3, 5) + 1):
            play(Round(number))
            if number > 1 and spare and rng.random() < 0.3:
                play(Join(spare.pop(0)))
            while state.next_turn() is not None:
                who = state.next_turn()
                play(Turn(who))
                dice = rng.randint(1, 6)
                play(Roll((dice,)) if state.on(109) else Roll((dice, rng.randint(1, 6))))
                total = sum(state.rolls) if not state.on(109) else dice
                dx = rng.randint(0, total)
                steps = ("E" if rng.random() < 0.5 else "W") * dx + \
                        ("N" if rng.random() < 0.5 else "S") * (total - dx)
                steps = "".join(rng.sample(steps, len(steps)))
                form = rng.random()
                start = state.players[who]
                x, y = start
                for letter in steps:
                    x, y = x + STEP[letter][0], y + STEP[letter][1]
                play(Move(steps, None) if form < 0.4 else Move(None, (x, y)) if form < 0.7
                     else Move(steps, (x, y)))
                if state.reveal_due is not None:
                    play(Reveal(state.reveal_due, rng.choice(RESOURCES)))
                if rng.random() < 0.15:
                    play(Invoke(rng.choice(state.order()), "Is this move legal?"))
                    play(Judgment(state.counter, state.judge(), "Yes."))
                if rng.random() < 0.1:
                    play(Note(f"{who} looks around."))
                repealable = [n for n, r in state.rules.items() if r.in_effect and n > 115]
                roll = rng.random()
                if roll < 0.15 and repealable:
                    play(Propose("repeal", rng.choice(repealable)))
                elif roll < 0.2:
                    play(Propose("amend", rng.choice([109, 201] if 201 in state.rules
                                                     and state.rules[201].in_effect else [109])
                                 , "Two d6 are rolled; their sum is the movement distance."))
                else:
                    play(Propose("enact", state.counter, f"Rule made by {who}."))
                for p in state.order():
                    play(Vote(p, rng.random() < 0.85))
                play(Outcome(all(state.votes.values())))
        play(End())
        return out


__all__ = ["Nomic"]
