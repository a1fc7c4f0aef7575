"""What ``notation strip`` removes from a record: pgn-extract's ``-V``, ``-C``, ``-N``.

A record rewritten without its variations, its comments, its move annotations or only its
comment commands (``[%clk ...]``); everything else stays where it was. Set-up lines
(directives such as Sanguine's decks) are not comments and always stay.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from notation.core.tree import GameNode
from notation.core.ast import Comment, EventNode, Item, Variation


@dataclass(frozen=True)
class Strip:
    """What to remove; ``Strip()`` removes nothing."""

    variations: bool = False
    comments: bool = False
    annotations: bool = False  # glyphs and $N
    commands: bool = False     # [%key value] inside comments; a comment left empty goes too

    def __bool__(self) -> bool:
        return self.variations or self.comments or self.annotations or self.commands

    def record(self, record: GameNode) -> GameNode:
        """``record`` without what this removes (the record itself when nothing is)."""
        if not self:
            return record
        return record.rewritten(self.items(record.items))

    def items(self, items: list[Item]) -> list[Item]:
        kept: list[Item] = []
        for item in items:
            if isinstance(item, Variation):
                if not self.variations:
                    kept.append(replace(item, items=self.items(item.items)))
            elif isinstance(item, Comment):
                if self.comments:
                    continue
                if self.commands and item.brace and item.commands:
                    if not item.remark:
                        continue
                    item = replace(item, text=f" {item.remark} ")
                kept.append(item)
            elif isinstance(item, EventNode) and self.annotations and item.nags:
                kept.append(replace(item, nags=()))
            else:
                kept.append(item)
        return kept
