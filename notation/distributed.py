"""Validating archives on a Dask cluster (``pip install notation[dask]``).

The client scans each file for the byte ranges of whole games
(:mod:`notation.spans`); each Dask task reads its range and checks its games,
so one big file spreads over every worker. The workers must see the files at
the same paths (a local cluster, or shared storage): each span names its file
by the absolute path resolved on the client (a worker's working folder is its
own), and a worker that sees another file there (its size, modification time
or first 64 KiB differ from what the client measured) gives an input-error
row for each span of that file instead of its games. Rows quote each path as
it was given.

    from dask.distributed import Client
    import notation.distributed as nd
    client = Client("tcp://scheduler:8786")
    games = nd.game_results(["archive-2025.tilewe", "archive-2026.tilewe"])
    games.filter(lambda g: not g["valid"]).pluck("file").frequencies().compute()
"""
from __future__ import annotations

import os
from typing import Any, Iterable

from notation.core.batch import TARGET
from notation.spans import Span, check_span, spans

#: The fields of every per-game result.
FIELDS = ("file", "index", "game", "valid", "plies", "error", "result")


def _row(data: dict[str, Any]) -> dict[str, Any]:
    if "input_error" in data:
        return {"file": data["file"], "index": 0, "game": None, "valid": False, "plies": 0,
                "error": {"kind": "input", "message": data["input_error"]}, "result": None}
    return {"file": data["file"], "index": data["index"], "game": data["game"],
            "valid": data["valid"], "plies": data["plies"],
            "error": data["errors"][0] if data["errors"] else None, "result": data["result"]}


def _games_in(games: list[dict[str, Any]]) -> int:
    return sum(1 for data in games if "index" in data)


def _numbered(games: list[dict[str, Any]], before: int) -> list[dict[str, Any]]:
    out = []
    for data in games:
        row = _row(data)
        if row["index"]:
            row["index"] += before
        out.append(row)
    return out


def all_spans(paths: Iterable[str | os.PathLike[str]], game: str | None = None,
              encoding: str = "utf-8", target: int = TARGET) -> list[Span]:
    """Every span of every file (a few dozen bytes each, whatever the archive's size)."""
    return [span for path in paths for span in spans(path, game, encoding, target)]


def game_results(paths: Iterable[str | os.PathLike[str]], game: str | None = None,
                 encoding: str = "utf-8", target: int = TARGET):
    """A Dask bag of per-game results: ``file, index, game, valid, plies, error, result``.

    Runs on the current Dask client (or scheduler). The games' indexes are
    their places in their files: the spans are checked once (persisted),
    counted, then numbered.
    """
    import dask
    import dask.bag as db

    spans_list = all_spans(paths, game, encoding, target)
    parts = [dask.delayed(check_span)(span) for span in spans_list]
    (parts,) = dask.persist(parts)
    counts = dask.compute(*[dask.delayed(_games_in)(part) for part in parts])
    numbered, before = [], {}
    for span, part, count in zip(spans_list, parts, counts):
        offset = before.get(span.source, 0)
        numbered.append(dask.delayed(_numbered)(part, offset))
        before[span.source] = offset + count
    return db.from_delayed(numbered)


def game_frame(paths: Iterable[str | os.PathLike[str]], **options: Any):
    """The same results as a Dask dataframe (needs pandas), one row per game."""
    bag = game_results(paths, **options)
    return bag.map(lambda row: {k: row[k] for k in FIELDS if k not in ("error", "result")}
                   | {"error": (row["error"] or {}).get("message"),
                      "result": None if row["result"] is None else str(row["result"])}).to_dataframe()
