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
    nd.probe_scheduler("tcp://scheduler:8786")     # refuses a peer that is not Dask
    client = Client("tcp://scheduler:8786")
    games = nd.game_results(["archive-2025.tilewe", "archive-2026.tilewe"])
    games.filter(lambda g: not g["valid"]).pluck("file").frequencies().compute()
"""
from __future__ import annotations

import os
import socket
import struct
import time
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


#: Seconds to connect to the scheduler and hear its handshake.
CONNECT_TIMEOUT = 15.0

#: A Dask handshake is a few dozen bytes: a first frame announcing more is not Dask's.
HANDSHAKE_LIMIT = 1 << 20


def probe_scheduler(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Refuse a peer that does not open with a Dask handshake of sane size (``OSError``,
    ``ValueError``), before ``Client`` talks to it.

    Why: distributed's TCP comm reads an 8-byte frame length and allocates that
    many bytes before reading them, and no setting of distributed bounds it; so
    a peer that is not a scheduler (another service on that port) could make the
    client allocate whatever its first 8 bytes say. A scheduler writes its
    handshake (a few dozen bytes) as soon as it accepts a connection: read it
    here on a plain socket, with a deadline and a size bound, and go on only if
    its length and frame prelude are sane. Only ``tcp://`` addresses (and bare
    ``HOST:PORT``) are probed: ``tls://`` starts with a TLS handshake of its own,
    other comms do not frame this way. A peer that answers this probe like a
    scheduler and the client's connection otherwise is not guarded against.
    """
    from distributed.comm.addressing import parse_address, parse_host_port
    scheme, location = parse_address(address, strict=False)
    if scheme != "tcp":
        return
    host, port = parse_host_port(location)
    deadline = time.monotonic() + timeout
    try:
        with socket.create_connection((host, port), timeout=timeout) as peer:
            (length,) = struct.unpack("Q", _receive(peer, 8, deadline))
            if not 8 <= length <= HANDSHAKE_LIMIT:
                raise ValueError(f"the peer does not speak Dask's protocol (its first frame "
                                 f"announces {length:,} bytes)")
            frame = _receive(peer, length, deadline)
    except TimeoutError:
        raise TimeoutError(f"no Dask handshake within {timeout:g} s") from None
    (count,) = struct.unpack_from("Q", frame)
    if 8 * (1 + count) > length or sum(struct.unpack_from(f"{count}Q", frame, 8)) > \
            HANDSHAKE_LIMIT:
        raise ValueError("the peer does not speak Dask's protocol (its first frame is not a "
                         "Dask handshake)")


def _receive(peer: socket.socket, size: int, deadline: float) -> bytes:
    """Exactly ``size`` bytes from ``peer`` before ``deadline`` (``size`` is bounded)."""
    data = bytearray()
    while len(data) < size:
        peer.settimeout(max(0.001, deadline - time.monotonic()))
        piece = peer.recv(min(size - len(data), 1 << 16))
        if not piece:
            raise ConnectionError("the peer closed the connection without a Dask handshake")
        data += piece
    return bytes(data)
