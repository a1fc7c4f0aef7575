"""``notation engine``: a bot answers every command of the protocol, plays whole games of
every game against a controller (chance's events sent as ``play chance``), and answers
whatever else it is sent with ``?`` and why, never a traceback."""
from __future__ import annotations

import io
import random
import subprocess
import sys

import pytest

import notation
import notation.engine
from notation.engine.protocol import Reply, read_reply
from notation.engine.session import EngineSession, acting_seat, seat_word

from stalls import finished


def talk(session: EngineSession, *lines: str) -> list[Reply]:
    replies = io.BytesIO()
    session.serve(io.BytesIO("".join(line + "\n" for line in lines).encode()), replies)
    replies.seek(0)
    found = []
    while replies.tell() < len(replies.getvalue()):
        found.append(read_reply(replies))
    return found


def test_the_protocols_own_commands():
    replies = talk(EngineSession("tilewe"), "protocol_version", "7 name", "known_command play",
                   "known_command fly", "list_commands", "quit", "name")
    assert [(r.ok, r.id) for r in replies] == [(True, None), (True, 7)] + [(True, None)] * 4
    assert replies[0].text == "2" and replies[1].text == "notation"
    assert [r.text for r in replies[2:4]] == ["true", "false"]
    assert {"play", "genmove", "undo", "showboard", "position", "final_score"} <= \
        set(replies[4].text.split("\n"))  # (and nothing answered after quit)


def test_a_move_against_the_rules_is_refused_with_validates_words():
    (first, second, third) = talk(EngineSession("tilewe"), "play blue W5n-a1a1",
                                  "play yellow W5n-a1a1", "play yellow W5n-zz")
    assert first.ok and not second.ok and not third.ok
    assert "[rule: empty tiles]" in second.text and "W5n-zz" in third.text


@pytest.mark.parametrize("lines, says", [
    (["genmove yellow"], "no event is yellow's to play now (blue is to move)"),
    (["undo"], "nothing to undo"),
    (["game sanguine RedDeck /etc/passwd"], "RedDeck names a file; send it as set-up lines"),
    (["game sanguine RedDeck inline", "position"], "set-up lines are still to come"),
    (["game tilewe", "setup 1. W5n-a1a1", "position"], "set-up lines hold no events"),
    (["game nosuchgame"], "nosuchgame"),
    (["play blue"], "usage: play SEAT EVENT"),
    (["play chance O1n-a1a1"], "no chance event is due"),
    (["fly"], "unknown command: fly"),
    (["12"], "a command number with no command"),
])
def test_whatever_else_it_is_sent_it_says_why(lines, says):
    *before, reply = talk(EngineSession("tilewe"), *lines)
    assert all(each.ok for each in before) and not reply.ok and says in reply.text


def test_an_overlong_line_is_refused_and_the_next_command_answered():
    huge = "play blue " + "x" * (3 << 20)
    first, second = talk(EngineSession("tilewe"), huge, "name")
    assert not first.ok and "longer than" in first.text
    assert second.ok and second.text == "notation"


GAMES = {"tilewe": ["Players", "2"], "flows": [], "philosophy": [],
         "sanguine": ["Rows", "3", "Cols", "3", "HandSize", "2"],
         "nomic": ["Players", '"Alice Bob"']}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_an_engine_plays_a_whole_game_that_validates(game):
    """A controller asks one engine for every seat's move, draws chance's events itself
    (the library's chance) and tells the engine with ``play chance``; the game the
    controller recorded is valid."""
    rng = random.Random(1)
    engine = subprocess.Popen([sys.executable, "-m", "notation", "engine", game, "--seed", "5",
                               "--bot", "greedy"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE)
    assert engine.stdin is not None and engine.stdout is not None

    def ask(line: str) -> Reply:
        engine.stdin.write(line.encode() + b"\n")
        engine.stdin.flush()
        return read_reply(engine.stdout)

    options = dict(zip(GAMES[game][::2], (v.strip('"') for v in GAMES[game][1::2])))
    assert ask(" ".join(["game", game, *GAMES[game]])).ok
    pos = notation.new(game, **{notation.core.game.snake_case(k): v
                                for k, v in options.items()})
    plies = 0
    while not pos.is_over() and plies < 400:
        if pos.is_chance():
            event = pos.sample_chance(rng)
            reply = ask(f"play chance {pos.game.format_event(event)}")
            assert reply.ok, reply.text
        else:
            reply = ask(f"genmove {seat_word(pos.turn)}")
            assert reply.ok, reply.text
            pos.push(reply.text)
        plies += 1
    assert ask("position").text == pos.position()
    ask("quit")
    engine.stdin.close()
    assert finished(engine, "the engine") == 0
    record = notation.GameNode.from_position(pos)
    assert notation.run(notation.parse(notation.format_record(record), game)[0]).valid


@pytest.mark.parametrize("game", sorted(GAMES))
def test_popen_drives_a_bot_from_python_for_a_whole_game(game):
    import notation.engine
    rng = random.Random(2)
    options = dict(zip(GAMES[game][::2], (v.strip('"') for v in GAMES[game][1::2])))
    pos = notation.new(game, **{notation.core.game.snake_case(k): v for k, v in options.items()})
    with notation.engine.popen([sys.executable, "-m", "notation", "engine", game, "--seed",
                                "4"]) as bot:
        while not pos.is_over() and pos.ply < 60:
            if pos.is_chance():
                pos.sample_chance(rng)
            else:
                pos.push(bot.play(pos))
        process = bot.process
    assert finished(process, "the bot") == 0
    record = notation.GameNode.from_position(pos)
    assert notation.run(notation.parse(notation.format_record(record), game)[0]).valid


def test_the_seat_asked_is_the_one_whose_event_comes_next():
    """A nomic vote is its voter's, asked of each voter in seat order while the proposer
    stays the player to move; a vote's outcome and the next turn are the rules' own."""
    pos = notation.new("nomic", players="Alice Bob")
    assert acting_seat(pos) is None  # (round 1: the rules')
    for event in ("round 1", "turn Alice", "roll 2", "move to (2,0)", "reveal (2,0) Food",
                  "propose repeal 115"):
        pos.push(event)
    assert acting_seat(pos) == "Alice" == pos.turn
    pos.push("vote Alice yes")
    assert acting_seat(pos) == "Bob" and pos.turn == "Alice"
    (reply,) = talk_to(pos, "genmove Bob")
    assert reply.ok and reply.text.startswith("vote Bob ")
    with notation.engine.popen([sys.executable, "-m", "notation", "engine", "nomic"]) as bot:
        assert str(bot.play(pos)).startswith("vote Bob ")  # (asked of Bob, not of Alice)
    pos.push("vote Bob no")
    assert acting_seat(pos) is None and [str(m) for m in pos.legal_moves] == ["failed"]


def talk_to(position: notation.Position, *lines: str) -> list[Reply]:
    """A session told ``position``'s game and events, then ``lines``; their replies."""
    session = EngineSession(position.game.name)
    tags = " ".join(f'{k} "{v}"' for k, v in position.tags.items() if k != "Game")
    told = [f"game {position.game.name} {tags}"] + [
        f"play {seat_word(seat)} {event}" for seat, event in position.history()]
    replies = talk(session, *told, *lines)
    assert all(reply.ok for reply in replies[:len(told)]), replies
    return replies[len(told):]


def test_a_bot_that_answers_garbage_or_nothing_is_one_engine_error(tmp_path):
    import notation.engine
    script = tmp_path / "bad_bot.py"
    script.write_text("import sys\nfor line in sys.stdin:\n    print('garbage')\n"
                      "    print()\n    sys.stdout.flush()\n")
    pos = notation.new("tilewe")
    with notation.engine.popen([sys.executable, str(script)]) as bot:
        with pytest.raises(notation.engine.EngineError, match="not a reply"):
            bot.play(pos)
    with pytest.raises(notation.engine.EngineError, match="cannot start"):
        notation.engine.popen(["/nonexistent/bot"])
