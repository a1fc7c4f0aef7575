"""The tree for people: from each start, the moves indented by ply, the most played
first, each with its games and its results per seat. A position met again by another
move order (a transposition) is not written out twice: the move says so instead."""
from __future__ import annotations

from typing import Iterator

from .seats import LOSS, NO_WINNER, SHARED, UNFINISHED, WIN
from .tally import Tally
from .tree import GameTree, OpeningTree, PositionEntry

#: Characters of a start's notation shown at most (Sanguine's decks make long ones).
NOTATION_SHOWN = 60

#: How a line names each kind of result, singular and plural.
WORDS = {WIN: ("win", "wins"), SHARED: ("shared win", "shared wins"),
         LOSS: ("loss", "losses"), NO_WINNER: ("no winner", "no winner"),
         UNFINISHED: ("unfinished", "unfinished")}


def counted(count: int, word: str, plural: str) -> str:
    return f"{count:,} {word if count == 1 else plural}"


def results_text(results: Tally) -> str:
    """``blue 2 wins, 1 loss, mean 71.5; yellow ...`` (kinds with no game left out)."""
    seats = []
    for seat, data in results.as_json().items():
        parts = [counted(data[kind], *words) for kind, words in WORDS.items() if data[kind]]
        if data["mean_score"] is not None:
            parts.append(f"mean {data['mean_score']:g}")
        seats.append(f"{seat} {', '.join(parts)}")
    return "; ".join(seats)


def _lines_from(tree: GameTree, root: PositionEntry, shown: set[str]) -> Iterator[str]:
    """The moves under ``root``, depth first; positions already written are not again."""
    shown.add(root.key)
    waiting = [(move, 1) for move in reversed(root.sorted_moves())]
    while waiting:
        move, level = waiting.pop()
        after = tree.positions[move.next_key]
        line = (f"{'  ' * level}{after.ply}. {move.text}  "
                f"{counted(move.games, 'game', 'games')}: {results_text(move.results)}")
        if move.next_key in shown:
            yield line + "  (transposition: its position is above)"
            continue
        yield line
        shown.add(move.next_key)
        waiting.extend((m, level + 1) for m in reversed(after.sorted_moves()))


def tree_lines(explored: OpeningTree) -> Iterator[str]:
    """Every game's tree as lines of text."""
    for tree in explored.trees.values():
        starts = len(tree.roots)
        yield (f"{tree.name}: {counted(tree.games, 'game', 'games')}, "
               f"{counted(starts, 'start', 'starts')}, depth {explored.depth}"
               f"{' (folded by symmetry)' if tree.folded else ''}")
        shown: set[str] = set()
        for number, key in enumerate(tree.roots, 1):
            root = tree.positions[key]
            label = f"start {number}" if starts > 1 else "start"
            notation = root.notation if len(root.notation) <= NOTATION_SHOWN else \
                root.notation[:NOTATION_SHOWN - 1] + "\u2026"
            yield (f"{label} [{notation}]  {counted(root.games, 'game', 'games')}: "
                   f"{results_text(root.results)}")
            yield from _lines_from(tree, root, shown)
