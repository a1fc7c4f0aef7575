"""A self-contained HTML replay viewer: one file, no network, no external parts.

The page lists a game's events with its variations in place (PGN's way), and
draws the position at any of them. Each position is drawn once in Python (the
game's own SVG) and stored as compact data: every distinct top-level SVG part
goes once into a string table, a position is a list of table indexes, and a
position is stored as its changes from the one before it on its line (the
indexes that changed, or the parts between the start and end it shares with
it). The page's script rebuilds a position from the nearest full one on its
path, so a 10,000-event record is a page of a few megabytes at most, not a
picture per ply.
"""
from __future__ import annotations

from typing import Any, Iterable

from notation.core.ast import Tag
from notation.core.errors import Problem
from notation.core.outcome import Outcome
from notation.core.output import event_text, glyph_text
from notation.core.replay import run
from notation.core.tree import GameNode, Node
from notation.core.walk import Step, Walk, walk
from .pages import PartTable, filled

#: A full position at least every this many plies along a path, so the script never
#: walks far.
FULL_EVERY = 64


class _Frames:
    """Positions as indexes into one table of distinct SVG parts, each stored as its
    changes from its parent's (a full list at every ``FULL_EVERY``-th ply)."""

    def __init__(self) -> None:
        self.parts = PartTable()
        self.table = self.parts.table
        self.frames: list[Any] = []
        self._ids: list[list[int]] = []  # every frame in full, for its children

    def add(self, parts: list[str], parent: int | None, ply: int) -> int:
        """Store a position (``parent``: the frame it follows) and return its number."""
        ids = self.parts.add(parts)
        if parent is None or not ply % FULL_EVERY:
            self.frames.append(ids)
        else:
            self.frames.append(_change(self._ids[parent], ids))
        self._ids.append(ids)
        return len(self.frames) - 1


def _change(last: list[int], ids: list[int]) -> dict[str, Any]:
    """``ids`` as changes to ``last``: the indexes that changed, or (when parts came or
    went) the common start and end kept and the middle stored."""
    if len(last) == len(ids):
        return {"d": [[i, v] for i, (u, v) in enumerate(zip(last, ids)) if u != v]}
    size = min(len(last), len(ids))
    head = next((i for i in range(size) if last[i] != ids[i]), size)
    tail = next((i for i in range(size - head) if last[-1 - i] != ids[-1 - i]), size - head)
    return {"h": head, "t": tail, "m": ids[head:len(ids) - tail]}


def _problem(problem: Problem) -> dict[str, Any]:
    return {"ply": problem.ply, "message": problem.describe(), "line": problem.line,
            "column": problem.column}


def _node_data(tree: Walk, node: Node, ids: dict[int, int], game: Any) -> dict[str, Any]:
    """One entry of the page's ``nodes``; empty fields are left out (a page stays small)."""
    step = tree.steps[node]
    data: dict[str, Any] = {"ply": step.ply, "text": step.written or event_text(game, node) or ""}
    if node.parent is not None:
        data["parent"] = ids[id(node.parent)]
        if node.pos is not None:
            data["line"] = node.pos.line
    fields = {"nags": [[n, glyph_text((n,))] for n in node.nags],
              "before": [node.starting_comment] if node.starting_comment else [],
              "comments": [node.comment] if node.comment else [],
              "commands": [[k, v] for k, v in node.commands.items()],
              "variations": [[ids[id(n)] for n in line] for line in step.variations],
              "problem": None if step.problem is None else _problem(step.problem)}
    data.update((key, value) for key, value in fields.items() if value)
    return data


def game_data(record: GameNode, outcome: Outcome | None = None, **options: Any) -> dict[str, Any]:
    """What the viewer shows of one game: tags, its tree of events (``nodes``, the start
    first; ``main``: the mainline's) with their comments, annotations and commands, their
    positions (``frames``: one per node reached, in the order of ``nodes``), the first
    problem (``error``), where the page opens (``focus``) and the problems at no event
    (``notes``). ``outcome``: the record's :func:`run`, when the caller has it already."""
    outcome = run(record) if outcome is None else outcome
    game = outcome.game
    frames = _Frames()

    frame_of: dict[Node, int] = {}  # each position's frame, for the positions after it

    def picture(node: Node, step: Step, state: Any) -> int:
        assert game is not None  # only a game's positions are reached
        parent = None if node.parent is None else frame_of.get(node.parent)
        frame = frame_of[node] = frames.add(game.drawing(state, **options).parts(), parent,
                                            step.ply)
        return frame

    tree = walk(record, outcome, picture)
    steps = tree.steps
    nodes = tree.nodes()
    ids = {id(node): at for at, node in enumerate(nodes)}
    # the start's own problem (a tag's) stays a note: the move list shows no start problem
    placed = [steps[n].problem for n in nodes[1:] if steps[n].problem is not None]
    ends = [n for n in [tree.root, *tree.mainline] if steps[n].reached]
    focus = ids[id(ends[-1])] if ends else 0
    problem = outcome.error
    if problem is not None:
        focus = next((ids[id(n)] for n in nodes if steps[n].problem == problem), focus)
    return {
        "title": f"{record.source} game {record.index}" + (f" ({game.name})" if game else ""),
        "game": game.name if game else None,
        "tags": [[t.key, t.value] for t in record.tags if isinstance(t, Tag)],
        "nodes": [_node_data(tree, node, ids, game) for node in nodes],
        "main": [ids[id(node)] for node in tree.mainline],
        "error": None if problem is None else _problem(problem),
        "notes": [_problem(p) for p in outcome.problems if p not in placed],
        "focus": focus if problem is not None else 0,
        "table": frames.table, "frames": frames.frames,
    }


#: Tags that tell games apart, in the order a game's label names them.
LABEL_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Players", "Id", "Seed",
              "Result", "Scores")
#: Tags that never tell a game apart (or are too long to).
UNLABELLED = {"Game", "Source"}
LABEL_PARTS = 3     # informative tags in a label, at most
PART_LENGTH = 40    # characters of one part, at most


def _shortened(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= PART_LENGTH else text[:PART_LENGTH - 1] + "\u2026"


def _tag_part(key: str, tags: dict[str, str]) -> str | None:
    """How a label says one tag: ``Round 3``, ``Alice vs Bob``, ``4 players``."""
    value = tags[key]
    if key == "Black" and "White" in tags:
        return None  # said with White
    if key == "White" and "Black" in tags:
        return f"{value} vs {tags['Black']}"
    if key == "Players":
        names = value.split()
        if value.isdigit():
            return f"{value} players"
        return " vs ".join(names) if len(names) == 2 else ", ".join(names)
    if key in ("Event", "Id"):
        return value
    return f"{key.lower() if key in LABEL_TAGS and key != 'Round' else key} {value}"


def _tag_parts(tags: dict[str, str]) -> dict[str, str]:
    """A game's tags as its label would say them, by tag: the known ones first."""
    parts = {}
    for key in (*LABEL_TAGS, *tags):
        if key in tags and key not in parts and key not in UNLABELLED:
            text = _tag_part(key, tags)
            if text:
                parts[key] = _shortened(text)
    return parts


def chooser_labels(games: list[dict[str, Any]]) -> list[str]:
    """What the chooser calls each game: its number and its first few tags that differ
    between the games (all of its tags when none differ), such as
    ``3. Round 3 — Alice vs Bob — result 1-0``; a game without tags, by its place."""
    said = [_tag_parts({k: v for k, v in reversed(g["tags"])}) for g in games]  # first values
    order = {key: i for i, key in enumerate(LABEL_TAGS)}
    keys = sorted(dict.fromkeys(k for parts in said for k in parts),
                  key=lambda k: order.get(k, len(order)))
    chosen = [k for k in keys if len({parts.get(k) for parts in said}) > 1] or keys
    labels = []
    for i, (data, parts) in enumerate(zip(games, said)):
        shown = [parts[k] for k in chosen if k in parts][:LABEL_PARTS]
        labels.append(f"{data.get('number', i + 1)}. " +
                      (" — ".join(shown) if shown else data["title"]))
    return labels


def page(games: list[dict[str, Any]], title: str = "notation viewer",
         note: str | None = None) -> str:
    """The viewer page for games already turned into data (:func:`game_data`); ``note``:
    said beside the chooser (which games of how many the page holds)."""
    games = [dict(g, label=label) for g, label in zip(games, chooser_labels(games))]
    return filled("viewer.html", {"title": title, "note": note, "games": games})


def html(records: Iterable[GameNode], title: str = "notation viewer", **options: Any) -> str:
    """The viewer page for these games (``options``: the drawing's, such as ``perspective``)."""
    return page([game_data(record, **options) for record in records], title)
