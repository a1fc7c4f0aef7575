"""A controller written from the protocol page alone, without the notation package, as
GoGui's twogtp drives two Go engines: it starts one engine per colour of a two-colour
Tilewe game, asks the colour to move for its move (``genmove``), tells the other engine
(``play``), and prints each move, one a line, until neither colour has one. The engine
command is its arguments."""
import subprocess
import sys


def ask(engine, line):
    engine.stdin.write(line + "\n")
    engine.stdin.flush()
    lines = []
    while True:
        got = engine.stdout.readline()
        if not got:
            raise SystemExit(f"the engine closed its output after {line!r}")
        if not got.strip():
            if lines:
                break
            continue
        lines.append(got.rstrip("\n"))
    reply = "\n".join(lines)
    return reply[0] == "=", reply[1:].strip()


def main(command):
    colours = ["blue", "yellow"]
    engines = {c: subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   text=True) for c in colours}
    for engine in engines.values():
        ok, text = ask(engine, "game tilewe Players 2")
        assert ok, text
    turn, stuck = 0, 0
    while stuck < 2:
        colour = colours[turn % 2]
        other = colours[(turn + 1) % 2]
        ok, text = ask(engines[colour], f"genmove {colour}")
        turn += 1
        if not ok:  # this colour has no move: the other goes on
            stuck += 1
            continue
        stuck = 0
        told, why = ask(engines[other], f"play {colour} {text}")
        assert told, why
        print(text)
    for engine in engines.values():
        ask(engine, "quit")
        engine.wait()


if __name__ == "__main__":
    main(sys.argv[1:])
