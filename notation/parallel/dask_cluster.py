"""Validating archives on a Dask cluster (``pip install game-notation[dask]``).

The client scans each file for the byte ranges of whole games
(:mod:`notation.parallel.spans`); each Dask task reads its range and checks its games
(:func:`notation.parallel.work.span_part`), so one big file spreads over every
worker. The workers must see the files at the same paths (a local cluster,
or shared storage): each span names its file by the absolute path resolved
on the client (a worker's working folder is its own), and a worker that sees
another file there (its size, modification time or first 64 KiB differ from
what the client measured) gives an input-error row for that file instead of
its games from there on, as a file's first input error ends it everywhere.
Rows quote each path as it was given.

    from dask.distributed import Client
    import notation.parallel.dask_cluster as nd
    client = nd.connect("tcp://scheduler:8786")   # refuses a peer that is not Dask
    games = nd.game_results(["archive-2025.tilewe", "archive-2026.tilewe"])
    games.filter(lambda g: not g["valid"]).pluck("file").frequencies().compute()

For outcomes one at a time in input order instead of a bag, use
``notation.parallel.runs.outcomes(paths, client=client)``.
"""
from __future__ import annotations

import os
import socket
import struct
import time
from typing import Any, Callable, Iterable

from notation.parallel.batch import TARGET
from notation.core.outcome import Outcome
from notation.parallel.runs import VALIDATE, Part, Task
from notation.parallel.cluster import with_workers
from notation.parallel.order import Numbering
from notation.parallel.work import part_of
from notation.parallel.spans import Span, spans
from notation.parallel import WORKER_WAIT

#: The fields of every per-game result.
FIELDS = ("file", "index", "game", "valid", "plies", "error", "result")


def row_of(outcome: Outcome) -> dict[str, Any]:
    """A game's row of :func:`game_results`: the :data:`FIELDS` of its outcome."""
    return {"file": outcome.file, "index": outcome.index, "game": outcome.game_name,
            "valid": outcome.valid, "plies": outcome.plies,
            "error": outcome.error.as_json() if outcome.error else None,
            "result": outcome.result}


def rows_of(part: Part, before: int) -> list[dict[str, Any]]:
    """A part's rows, its games ``before`` places on, and a row for its input error."""
    rows = [row_of(outcome.shifted(before)) for outcome in part.outcomes]
    error = part.input_failure()
    if error is not None:
        rows.append({"file": part.source, "index": 0, "game": None, "valid": False,
                     "plies": 0, "error": {"kind": "input", "message": str(error)},
                     "result": None})
    return rows


def _summary(part: Part) -> tuple[int, bool]:
    """What the client needs to number a part: its games, and whether it ends its file."""
    return len(part.outcomes), part.input_error is not None


def all_spans(paths: Iterable[str | os.PathLike[str]], game: str | None = None,
              encoding: str = "utf-8", target: int = TARGET) -> list[Span]:
    """Every span of every file (a few dozen bytes each, whatever the archive's size)."""
    return [span for _key, span in _keyed_spans(paths, game, encoding, target)]


def _keyed_spans(paths: Iterable[str | os.PathLike[str]], game: str | None, encoding: str,
                 target: int) -> list[tuple[int, Span]]:
    """Every span with its file's place among the paths (a file given twice is two)."""
    return [(key, span) for key, path in enumerate(paths)
            for span in spans(path, game, encoding, target)]


def game_results(paths: Iterable[str | os.PathLike[str]], game: str | None = None,
                 encoding: str = "utf-8", target: int = TARGET, task: Task = VALIDATE,
                 wait: float = WORKER_WAIT) -> Any:
    """A Dask bag of per-game results: ``file, index, game, valid, plies, error, result``.

    Runs on the current Dask client (or scheduler). The games' indexes are
    their places in their files: the spans are checked once (persisted),
    counted, then numbered as the runner numbers them
    (:class:`notation.parallel.order.Numbering`). A client whose cluster has no worker is
    waited on at most ``wait`` seconds (:class:`~notation.parallel.runs.NoWorkers`), not forever.
    """
    return game_bag(paths, game, encoding, target, task, rows_of, wait)


def game_bag(paths: Iterable[str | os.PathLike[str]], game: str | None, encoding: str,
             target: int, task: Task, rows: Callable[[Part, int], list[Any]],
             wait: float = WORKER_WAIT) -> Any:
    """A Dask bag of ``rows(part, before)`` of every span's part (``before``: the games of
    its file before it), one partition a span, in input order (see
    :func:`game_results`)."""
    # The [dask] extra, loaded only when asked for (its names are not re-exported for mypy).
    from dask import compute, delayed, persist  # type: ignore[attr-defined]
    from dask.bag import from_delayed

    client = _current_client()
    if client is not None:
        with_workers(client, wait)
    keyed = _keyed_spans(paths, game, encoding, target)
    parts = [delayed(part_of)(span, task) for _key, span in keyed]
    (parts,) = persist(parts)  # type: ignore[no-untyped-call]
    counts = [delayed(_summary)(part) for part in parts]
    summaries = compute(*counts)  # type: ignore[no-untyped-call]
    numbering = Numbering()
    placed = []
    for (key, _span), part, (games, ends) in zip(keyed, parts, summaries):
        before = numbering.admit(key, games, ends)
        if before is not None:
            placed.append(delayed(rows)(part, before))
    return from_delayed(placed)  # type: ignore[no-untyped-call]


def _current_client() -> Any:
    """The Dask client that runs what this module computes, if there is one (None: Dask's
    local schedulers, which need no worker)."""
    from distributed import default_client
    try:
        return default_client()  # type: ignore[no-untyped-call]
    except ValueError:  # no client: the local scheduler computes
        return None


def game_frame(paths: Iterable[str | os.PathLike[str]], **options: Any) -> Any:
    """The same results as a Dask dataframe (needs pandas), one row per game."""
    bag = game_results(paths, **options)
    return bag.map(_flat).to_dataframe()


def _flat(row: dict[str, Any]) -> dict[str, Any]:
    """A row with its error message and result as text (dataframe columns)."""
    return ({k: row[k] for k in FIELDS if k not in ("error", "result")}
            | {"error": (row["error"] or {}).get("message"),
               "result": None if row["result"] is None else str(row["result"])})


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
    import distributed  # the [dask] extra, loaded only when asked for
    addressing = distributed.comm.addressing
    scheme, location = addressing.parse_address(address, strict=False)
    if scheme != "tcp":
        return
    host, port = addressing.parse_host_port(location)
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


def connect(address: str, timeout: float = CONNECT_TIMEOUT) -> Any:
    """A ``distributed.Client`` of the scheduler at ``address``, once :func:`probe_scheduler`
    found it speaks Dask (``OSError``, ``TimeoutError``, ``ValueError`` if not; ``TypeError``
    for a ``tls://`` address without TLS set up)."""
    import distributed  # the [dask] extra, loaded only when asked for
    probe_scheduler(address, timeout)
    return distributed.Client(address, timeout=timeout)  # type: ignore[no-untyped-call]


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
