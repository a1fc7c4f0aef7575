"""A bot that answers as ``notation engine`` does until it is first asked to move
(``genmove``), then misbehaves in the way its first argument names (the referee's tests
seat it):

illegal  answers an event the rules forbid      garbage  answers no reply of the protocol
silent   answers nothing, ever                  huge     answers a 100 MB line
close    closes its output and waits            exit     exits at once
ignore   plays fairly, then ignores ``quit`` and the end of its input
"""
from __future__ import annotations

import os
import sys
import time

from notation.engine.protocol import Reply, parse_command
from notation.engine.session import EngineSession

#: An answer no rule allows at a seat's first move: off its corner, a seat that is not
#: there, a card no hand holds, a colour that did not join, a voter who does not play.
ILLEGAL = {"tilewe": "O1n-a1j10", "flows": "P6A1T0N", "sanguine": "R place Nothing (0,0)",
           "philosophy": "Zz:C1PuNo", "nomic": "vote Nobody yes"}


def main(how: str, game: str) -> None:
    session = EngineSession(game)
    out = sys.stdout.buffer
    asked = 0
    for raw in sys.stdin.buffer:
        command = parse_command(raw.decode("utf-8", "replace"))
        if command is None:
            continue
        if command.name == "quit" and how == "ignore":
            continue  # (and the end of the input below)
        if command.name == "genmove":
            asked += 1
        if command.name == "genmove" and how != "ignore":
            misbehave(how, game, out)
        out.write(str(session.handle(command)).encode())
        out.flush()
        if session.done:
            return
    if how == "ignore":
        while True:
            time.sleep(60)


def misbehave(how: str, game: str, out) -> None:
    if how == "illegal":
        out.write(f"= {ILLEGAL[game]}\n\n".encode())
    elif how == "garbage":
        out.write(b"the answer is 42\n\n")
    elif how == "huge":
        try:
            for _ in range(100):
                out.write(b"x" * (1 << 20))
            out.write(b"\n\n")
        except BrokenPipeError:
            pass
    elif how == "close":
        out.flush()
        os.close(1)
        while True:
            time.sleep(60)
    elif how == "exit":
        os._exit(3)
    elif how == "silent":
        while True:
            time.sleep(60)
    out.flush()
    # (wait for the referee to end the game; it says quit, or closes the pipe)
    for raw in sys.stdin.buffer:
        if raw.strip() == b"quit":
            break
    sys.exit(0)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
