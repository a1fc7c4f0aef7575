"""The engine protocol's framing, GTP's: one command a line, each reply ``= text`` or
``? message`` ended by a blank line, an optional number before a command that its reply
repeats (``12 genmove blue`` / ``=12 F5e-a2d4``).

As GTP says: a line's control characters but the tab and the line end are dropped, a
tab is a blank, text from ``#`` on is a comment, and a line with nothing left is no
command. A reply is read with a bound (:data:`MOST_REPLY_BYTES`): a bot that answers a
100 MB line is refused after reading the bound, never held whole.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import IO

from notation.core.errors import Error

#: The most a reply may hold, its blank line included.
MOST_REPLY_BYTES = 1 << 20

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_COMMAND = re.compile(r"(?:(?P<id>[0-9]+)[ ]+)?(?P<name>\S+)(?P<args>(?:[ ]+\S+)*)[ ]*\Z")
_REPLY = re.compile(r"(?P<status>[=?])(?P<id>[0-9]+)?(?:[ ](?P<text>.*))?\Z", re.DOTALL)


class ProtocolError(Error):
    """What the other side sent is no reply (or no command) of the protocol."""


@dataclass(frozen=True, slots=True)
class Command:
    """One command: its number (None: none given), its name and its arguments."""

    name: str
    args: tuple[str, ...] = ()
    id: int | None = None

    def __str__(self) -> str:
        head = "" if self.id is None else f"{self.id} "
        return head + " ".join((self.name, *self.args))


@dataclass(frozen=True, slots=True)
class Reply:
    """One reply: success (``=``) or failure (``?``), the number of the command it
    answers, and its text (lines joined by line ends)."""

    ok: bool
    text: str = ""
    id: int | None = None

    def __str__(self) -> str:
        head = ("=" if self.ok else "?") + ("" if self.id is None else str(self.id))
        return (f"{head} {self.text}" if self.text else head) + "\n\n"


def cleaned(line: str) -> str:
    """A line as GTP reads it: control characters dropped, tabs as blanks, no comment."""
    line = _CONTROL.sub("", line.replace("\t", " ")).rstrip("\r\n")
    return line.split("#", 1)[0].strip(" ")


def parse_command(line: str) -> Command | None:
    """The command on ``line`` (None for a blank line or a comment).

    :raises ProtocolError: a line that is no command (a number alone)."""
    text = cleaned(line)
    if not text:
        return None
    found = _COMMAND.match(text)
    if found is None:
        raise ProtocolError(f"not a command: {text[:80]!r}")
    if found["id"] is None and found["name"].isdigit():
        raise ProtocolError(f"a command number with no command: {text[:80]!r}")
    return Command(found["name"], tuple(found["args"].split()),
                   None if found["id"] is None else int(found["id"]))


def read_reply(stream: IO[bytes], limit: int = MOST_REPLY_BYTES) -> Reply:
    """The next reply on ``stream``: lines up to a blank one, at most ``limit`` bytes.

    :raises ProtocolError: the stream ended (the other side closed it), the reply is
        longer than the bound, not UTF-8, or not ``=``/``?`` framed."""
    lines: list[str] = []
    size = 0
    while True:
        raw = stream.readline(limit - size + 1)
        if not raw:
            said = f" after {size} bytes of a reply" if size else ""
            raise ProtocolError(f"the other side closed its output{said}")
        size += len(raw)
        if size > limit:
            raise ProtocolError(f"a reply longer than {limit:,} bytes")
        try:
            line = raw.decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError:
            raise ProtocolError("a reply that is not UTF-8 text") from None
        if not line.strip():
            if lines:
                break
            continue  # (blank lines before a reply are passed over)
        lines.append(_CONTROL.sub("", line.replace("\t", " ")))
    found = _REPLY.match("\n".join(lines))
    if found is None:
        raise ProtocolError(f"not a reply (= or ?): {lines[0][:80]!r}")
    return Reply(found["status"] == "=", (found["text"] or "").strip(" "),
                 None if found["id"] is None else int(found["id"]))


__all__ = ["Command", "MOST_REPLY_BYTES", "ProtocolError", "Reply", "cleaned",
           "parse_command", "read_reply"]
