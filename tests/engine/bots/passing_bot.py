"""A Sanguine bot written from the protocol page alone, without the notation package: it
passes whenever it is asked to move (always legal in Sanguine) and agrees to everything
else. Commands come one a line; each reply is "= text" or "? why" and a blank line."""
import sys

for line in sys.stdin:
    words = line.split("#")[0].split()
    if not words:
        continue
    number = ""
    if words[0].isdigit():
        number, words = words[0], words[1:]
    name = words[0] if words else ""
    if name == "genmove":
        answer = "R pass" if words[1:] == ["red"] else "B pass"
    elif name == "name":
        answer = "passer"
    elif name == "protocol_version":
        answer = "2"
    else:
        answer = ""
    sys.stdout.write(f"={number} {answer}".rstrip() + "\n\n")
    sys.stdout.flush()
    if name == "quit":
        break
