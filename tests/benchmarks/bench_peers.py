"""Each game's validate path against python-chess's ``read_game``, in one run: figures, not
timed tests.

    python tests/benchmarks/bench_peers.py [--rounds 5]

Both sides read archives of random games made beforehand, each game's from its own
generator. Each side's CPU time (user and system, one core) is taken in rounds that
alternate between them, and each keeps its least: the machine's other load weighs as
little as it can on a ratio of two figures measured side by side. Our side is what
``notation validate --jobs 1`` does with each game (the reader, its fast path, the rules,
the result check), in this process; python-chess runs in ``.venv-bench`` (a separate
environment, made on first use: not a dependency of this project).
"""
from __future__ import annotations

import argparse
import io
import random
import subprocess
import sys
import time
from pathlib import Path

from notation.core.new_games import random_record
import notation
from notation.read.reading import source_records
from notation.core.results import with_result_tags
from notation.core.writer import format_record

ROOT = Path(__file__).resolve().parents[2]
DECKS = ROOT / "samples" / "sanguine" / "decks"

#: Games per archive, and the target ratio of moves/s to python-chess's: issue 23's, raised
#: to at least 2x for every game by the speed issue (round 4).
GAMES = {"tilewe": (300, 3.5), "flows": (300, 2.0), "philosophy": (300, 2.0),
         "sanguine": (60, 2.0), "nomic": (200, 3.0)}

#: Python run in ``.venv-bench`` (after ``import chess, chess.pgn``): ``random_game(rng)``,
#: a random game of 40 to 120 moves and how many it has (``bench_select.py`` uses it too).
RANDOM_GAME = r'''
def random_game(rng):
    board, game = chess.Board(), chess.pgn.Game()
    node, moves = game, 0
    for _ in range(rng.randint(40, 120)):
        legal = list(board.legal_moves)
        if not legal:
            break
        move = rng.choice(legal)
        node = node.add_variation(move)
        board.push(move)
        moves += 1
    return game, moves
'''

#: python-chess: 400 random games as PGN, then rounds of ``read_game`` over them, each
#: printing its CPU seconds and the moves read (one line per round, on request).
CHESS = "import chess, chess.pgn, io, random, sys, time\n" + RANDOM_GAME + r'''
rng = random.Random(1)
games, moves = [], 0
for _ in range(400):
    game, count = random_game(rng)
    games.append(str(game))
    moves += count
text = "\n\n".join(games)
for line in sys.stdin:
    start = time.process_time()
    handle = io.StringIO(text)
    while chess.pgn.read_game(handle) is not None:
        pass
    print(time.process_time() - start, moves, flush=True)
'''


def chess_peer() -> subprocess.Popen[str]:
    """python-chess, ready to read its archive once per line it is sent."""
    python = ROOT / ".venv-bench" / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(python.parent.parent)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "chess"], check=True)
    return subprocess.Popen([str(python), "-c", CHESS], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)


def chess_round(peer: subprocess.Popen[str]) -> float:
    """python-chess's moves per CPU second, one round."""
    assert peer.stdin is not None and peer.stdout is not None
    peer.stdin.write("go\n")
    peer.stdin.flush()
    seconds, moves = peer.stdout.readline().split()
    return int(moves) / float(seconds)


def archive(name: str, count: int) -> str:
    """``count`` random games of ``name`` with their result tags, as one text."""
    game = notation.get_game(name)
    rng = random.Random(7)
    options = ({"red": str(DECKS / "legion.deck"), "blue": str(DECKS / "legion.deck")}
               if name == "sanguine" else {})  # (the decks are Sanguine's options alone)
    texts = []
    for _ in range(count):
        record, _ = with_result_tags(random_record(game, rng, options))
        texts.append(format_record(record, game))
    return "\n".join(texts)


def our_round(name: str, text: str) -> float:
    """Our moves per CPU second on ``text``, one round (``validate``'s path)."""
    start = time.process_time()
    plies = 0
    for record in source_records(io.StringIO(text), name, checked=True):
        outcome = notation.run(record)
        assert outcome.valid, outcome.error
        plies += outcome.plies
    return plies / (time.process_time() - start)


def measured(names: list[str], rounds: int) -> tuple[float, dict[str, float]]:
    """python-chess's best moves/s and each game's, over ``rounds`` alternating rounds."""
    texts = {name: archive(name, GAMES[name][0]) for name in names}
    peer = chess_peer()
    ours = {name: 0.0 for name in names}
    chess = 0.0
    try:
        for _ in range(rounds):
            for name, text in texts.items():
                chess = max(chess, chess_round(peer))
                ours[name] = max(ours[name], our_round(name, text))
    finally:
        peer.terminate()
    return chess, ours


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", default=",".join(GAMES),
                    help="comma-separated games to run (default: all)")
    args = ap.parse_args()
    names = [name for name in args.games.split(",") if name]
    unknown = sorted(set(names) - set(GAMES))
    if unknown:
        ap.error(f"unknown games: {', '.join(unknown)}")
    games = {name: GAMES[name] for name in names}
    chess, ours = measured(list(games), args.rounds)
    print(f"python-chess read_game: {chess:,.0f} moves/s per CPU second (best of "
          f"{args.rounds * len(games)} rounds)\n")
    print("| game | validate path (moves/s) | ratio to python-chess | target | met |")
    print("|---|---|---|---|---|")
    for name, (_count, target) in games.items():
        ratio = ours[name] / chess
        print(f"| {name} | {ours[name]:,.0f} | {ratio:.2f}x | >= {target}x | "
              f"{'yes' if ratio >= target else 'no'} |")


if __name__ == "__main__":
    main()
