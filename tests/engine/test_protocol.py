"""The engine protocol's framing: every command and reply reads back as written, GTP's
line rules hold, and a reply that is no reply (garbage, a closed pipe, 100 MB on one
line, bytes that are not text) is one clear error, read within its bound."""
from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from notation.engine.protocol import (Command, ProtocolError, Reply, parse_command,
                                      read_reply)

WORDS = st.from_regex(r"[A-Za-z0-9_,()+:.-]{1,12}", fullmatch=True)
NAMES = st.from_regex(r"[a-z_]{1,16}", fullmatch=True)
IDS = st.none() | st.integers(0, 10**9)


@given(name=NAMES, args=st.lists(WORDS, max_size=6), number=IDS)
def test_a_command_reads_back_as_written(name, args, number):
    command = Command(name, tuple(args), number)
    assert parse_command(str(command)) == command
    assert parse_command(f"\t{command}  # a comment\r\n") == command


#: A reply's line (control characters are dropped as the line is read: none here).
LINES = st.from_regex(r"[^\s#\x00-\x1f\x7f][^\x00-\x1f\x7f]{0,30}", fullmatch=True)


@given(ok=st.booleans(), lines=st.lists(LINES, max_size=4),
       number=IDS)
def test_a_reply_reads_back_as_written(ok, lines, number):
    reply = Reply(ok, "\n".join(line.strip() for line in lines if line.strip()), number)
    stream = io.BytesIO(b"\n" + str(reply).encode() + str(Reply(True, "next")).encode())
    assert read_reply(stream) == reply
    assert read_reply(stream) == Reply(True, "next")  # (one reply read, no more)


def test_blank_lines_and_comments_are_no_commands():
    assert parse_command("") is None and parse_command("   # only a comment") is None
    assert parse_command("genmove\x01 blue") == Command("genmove", ("blue",))
    with pytest.raises(ProtocolError, match="number with no command"):
        parse_command("12")


@pytest.mark.parametrize("sent, says", [
    (b"", "closed its output"),
    (b"= half a reply\n", "closed its output after"),
    (b"garbage\n\n", "not a reply"),
    (b"=\xff\xfe\n\n", "not UTF-8"),
    (b"= " + b"x" * (3 << 20) + b"\n\n", "longer than"),
])
def test_a_reply_that_is_no_reply_is_one_error(sent, says):
    stream = io.BytesIO(sent)
    with pytest.raises(ProtocolError, match=says):
        read_reply(stream, limit=1 << 20)
    assert stream.tell() <= (1 << 20) + 1  # (read within the bound, never whole)
