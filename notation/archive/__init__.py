"""Archive tools as a library: select, dedupe, split, join, count and rewrite games.

What the ``select``, ``dedupe``, ``split``, ``cat``, ``stats``, ``fmt``, ``strip`` and
``convert`` commands do, callable without the command line::

    import notation
    from notation.archive import Filters, GameSink

    wanted = Filters(tags=("Game=tilewe",), validity=True)
    with GameSink("valid.tilewe") as out:   # made whole at commit(), or not at all
        for record in notation.read_headers("big.tilewe"):
            if wanted.matches(record):
                out.add(record)
        out.commit()

The tools' own errors (a bad filter, a merge conflict) derive from
:class:`ArchiveError`; an output that cannot be written raises ``notation.WriteError``
(the twin of ``notation.InputError``), and notation errors stay the core's.
"""
from __future__ import annotations

from notation.core.errors import WriteError
from .errors import ArchiveError, FilterError
from .filters import Filters, Selector, TagTest, parse_plies, reaches
from .keys import Duplicates, game_key
from .merge import Conflict, MergeError, merge_trees
from notation.save.files import AtomicFile, DeviceFile, open_output, write_atomically
from .rewrite import (FileRewrite, Mode, Settled, canonical_text, converted_text,
                      to_format)
from notation.save.sink import GameSink, game_text
from .split import PieceNames, Pieces, game_extension, input_name, piece_name
from .stats import Stats, Summary, game_figures, summary_lines
from .strip import Strip

__all__ = [
    "ArchiveError", "AtomicFile", "Conflict", "DeviceFile", "Duplicates", "FileRewrite",
    "FilterError", "Filters", "GameSink", "MergeError", "Mode", "PieceNames",
    "Pieces", "Selector", "Settled", "Stats", "Strip", "Summary", "TagTest", "WriteError",
    "canonical_text", "converted_text", "game_extension", "game_figures", "game_key",
    "game_text", "input_name", "merge_trees", "open_output", "parse_plies", "piece_name", "reaches", "summary_lines",
    "to_format", "write_atomically",
]
