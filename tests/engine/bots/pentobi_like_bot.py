"""A four-colour Blokus bot that speaks Pentobi's GTP dialect, as pentobi-gtp does: it
knows no ``game`` command, takes ``set_game Blokus``, colours ``b``, ``y``, ``r``, ``g``,
and moves as the cells a piece covers (``a1,b1,b2``), both ways. (Its moves are chosen
with this package; what it speaks is Pentobi's.)"""
from __future__ import annotations

import random
import sys

import notation
from notation.games.tilewe.actors import read_answer
from notation.games.tilewe.pentobi.cells import cells_of

COLOURS = {"b": "blue", "y": "yellow", "r": "red", "g": "green"}


def main() -> None:
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else None)
    position = None
    known = {"protocol_version", "name", "version", "known_command", "list_commands", "quit",
             "set_game", "clear_board", "play", "genmove", "final_score", "showboard"}
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        name, args = words[0], words[1:]
        ok, text = True, ""
        if name == "known_command":
            text = "true" if args and args[0] in known else "false"
        elif name == "set_game":
            ok = " ".join(args) == "Blokus"
            text = "" if ok else "unknown game"
        elif name == "clear_board":
            position = notation.new("tilewe", players=4)
        elif name == "play" and position is not None:
            position.push(read_answer(position.state, args[1]))
        elif name == "genmove" and position is not None:
            move = rng.choice(position.legal_moves)
            position.push(move)
            text = cells_of(move)
        elif name == "quit":
            pass
        elif name not in known:
            ok, text = False, "unknown command"
        sys.stdout.write(("= " if ok else "? ") + text + "\n\n")
        sys.stdout.flush()
        if name == "quit":
            return


if __name__ == "__main__":
    main()
