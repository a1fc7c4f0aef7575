"""A real client: Pentobi draws the files we write, and each colour is where our board has it.

Random four-player Tilewe games started in Blokus's corners are written as ``.blksgf``;
``pentobi-thumbnailer`` (Debian's ``pentobi``) draws each final position, and every cell's
centre pixel is classified (blue, yellow, red, green, or empty) and compared with our final
board. Without pentobi installed the test fails, saying so in one line.
"""
from __future__ import annotations

import os
import random
import shutil
import struct
import subprocess
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from notation.core.tree import GameNode
from notation.core.ast import EventNode, Item, Tag
from notation.games.tilewe import generate, rules
from notation.games.tilewe.events import SIZE
from notation.games.tilewe.pentobi.format import FORMAT
from notation.games.tilewe.state import Board
from conftest import HANG_BREAKER

THUMBNAILER = "/usr/games/pentobi-thumbnailer"
GAMES = 50
PIXELS = 200
TAGS = {"Game": "tilewe", "Players": "4", "Corners": "fixed", "Scoring": "blokus"}


def random_game(seed: int) -> tuple[GameNode, Board]:
    """A whole random game under Blokus's corners, made by the engine, and its final board."""
    rng = random.Random(seed)
    board = rules.start(TAGS)
    items: list[Item] = []
    while (player := board.to_move()) is not None:
        move = generate.random_move(rng, board, player)
        rules.play(board, move)
        items.append(EventNode(move, None))
    return GameNode("tilewe", [Tag(k, v) for k, v in TAGS.items()], items), board


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and rows (RGBA bytes) of an 8-bit, non-interlaced RGB(A) PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks, header = 8, [], b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks.append(body)
        pos += 12 + length
    width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour_type in (2, 6) and not interlace, header
    step = 4 if colour_type == 6 else 3
    raw = zlib.decompress(b"".join(chunks))
    stride = width * step
    rows: list[bytes] = []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - step] if i >= step else 0
            up = previous[i]
            corner = previous[i - step] if i >= step else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                guess = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + guess) & 255
        rows.append(bytes(line) if step == 4 else
                    b"".join(bytes(line[i:i + 3]) + b"\xff" for i in range(0, stride, 3)))
        previous = line
    return width, height, rows


def colour_name(r: int, g: int, b: int) -> str:
    """Pentobi's four piece colours, or "" for an empty (grey) cell."""
    if max(r, g, b) - min(r, g, b) < 40:
        return ""
    if b > r and b > g:
        return "blue"
    if r > 150 and g > 150:
        return "yellow"
    if r > g:
        return "red"
    return "green"


def drawn_cells(png: bytes) -> dict[str, str]:
    """Each board cell's colour in Pentobi's picture (the board fills the square picture)."""
    width, height, rows = png_pixels(png)
    cell = width / SIZE
    out = {}
    for y in range(SIZE):
        for x in range(SIZE):
            px, py = int((x + 0.5) * cell), int((SIZE - 1 - y + 0.5) * cell)
            r, g, b, _ = rows[py][4 * px:4 * px + 4]
            out[f"{'abcdefghijklmnopqrst'[x]}{y + 1}"] = colour_name(r, g, b)
    return out


def draw(path: Path) -> bytes:
    picture = path.with_suffix(".png")
    subprocess.run([THUMBNAILER, "-s", str(PIXELS), str(path), str(picture)], check=True,
                   env={**os.environ, "QT_QPA_PLATFORM": "offscreen"}, timeout=HANG_BREAKER,
                   capture_output=True)
    return picture.read_bytes()


@pytest.mark.slow
def test_pentobi_draws_every_cell_where_our_board_has_it(tmp_path: Path) -> None:
    if shutil.which(THUMBNAILER) is None:
        pytest.fail(f"pentobi is not installed ({THUMBNAILER} missing): apt-get install pentobi")
    games = [random_game(seed) for seed in range(GAMES)]
    paths = []
    for seed, (record, _) in enumerate(games):
        path = tmp_path / f"game{seed}.blksgf"
        path.write_text(FORMAT.write(record), encoding="utf-8")
        paths.append(path)
    with ThreadPoolExecutor(2) as pool:
        pictures = list(pool.map(draw, paths))
    for seed, ((_, board), png) in enumerate(zip(games, pictures)):
        ours = {k: v for k, v in board.cells().items() if len(k) <= 3}
        drawn = drawn_cells(png)
        wrong = [f"{k}: ours {ours[k] or 'empty'}, pentobi's {drawn[k] or 'empty'}"
                 for k in ours if ours[k] != drawn[k]]
        assert not wrong, f"game {seed}: " + "; ".join(wrong[:5])
        assert sum(1 for v in ours.values() if v) > 150  # a whole game, not an empty board


def test_the_picture_reader_tells_the_colours_apart() -> None:
    """The classifier itself, on one game: all four colours and empty cells are seen."""
    if shutil.which(THUMBNAILER) is None:
        pytest.fail(f"pentobi is not installed ({THUMBNAILER} missing): apt-get install pentobi")
    assert {colour_name(40, 110, 220), colour_name(240, 200, 40), colour_name(220, 60, 50),
            colour_name(40, 180, 60), colour_name(160, 160, 160)} == {
        "blue", "yellow", "red", "green", ""}
