"""Games' options: each value checked by the game's own declaration, on the command line
and in ``notation.new`` alike, with the values it takes named in one line."""
from __future__ import annotations

import random

import click
import pytest

from notation.core.new_games import random_record
import notation
from notation.core import registry
from notation.core.errors import NotationError
from notation.core.plugins import setup_options

from conftest import SAMPLES, invoke

SET_UP_GAMES = ("flows", "nomic", "philosophy", "tilewe")


def usage_error(*args: str) -> str:
    """The error line of a command that must stop with a usage error (exit 2, no output)."""
    result = invoke(*args)
    assert result.exit_code == 2 and result.stdout == "", result.output
    return result.stderr.splitlines()[-1]


def test_random_refuses_an_option_or_value_the_game_does_not_take():
    assert usage_error("random", "sanguine", "--players", "3") == \
        "Error: --players 3: sanguine takes 2"
    assert usage_error("random", "sanguine", "--corners", "fixed").startswith(
        "Error: --corners: not an option of sanguine (its options here: --players, "
        "--red-deck, --blue-deck, ")
    assert usage_error("random", "tilewe", "--players", "5") == \
        "Error: --players 5: tilewe takes 1 to 4"
    assert usage_error("random", "flows", "--players", "1") == \
        "Error: --players 1: flows takes 2 to 6"
    assert usage_error("random", "tilewe", "--red-deck", "ember").startswith(
        "Error: --red-deck: not an option of tilewe (its options here: --players, --corners")
    assert "'any', 'fixed'" in usage_error("random", "tilewe", "--corners", "sideways")


@pytest.mark.parametrize("game", registry.names())
def test_new_takes_every_set_up_option_by_the_name_random_offers_it_under(game):
    """One vocabulary: each set-up option ``random`` offers (``--red-deck``), ``notation.new``
    takes by the declared name (``red_deck``); a value may be refused, the name never
    (Sanguine's decks were ``--red``/``--blue`` there and ``red_deck``/``blue_deck`` here)."""
    rules = registry.require(game)
    for option in setup_options(rules.options).values():
        value = (option.low if option.kind == "int" else
                 option.choices[0] if option.kind == "choice" else "x")
        try:
            notation.new(game, **{option.name: value})
        except notation.Error as exc:
            assert "has no option" not in str(exc), (option.flag, str(exc))


def test_sanguine_decks_are_one_option_under_both_spellings():
    """``--red-deck``/``--blue-deck`` (the names ``notation.new`` takes) and ``--red``/
    ``--blue`` (their first spellings, which the README gives) play the same games, and
    ``notation.new`` takes either name too."""
    board = ("random", "sanguine", "--seed", "3", "--rows", "3", "--cols", "5")
    by_name = invoke(*board, "--red-deck", "ember", "--blue-deck", "tide")
    by_alias = invoke(*board, "--red", "ember", "--blue", "tide")
    assert by_name.exit_code == 0, by_name.output
    assert by_name.stdout == by_alias.stdout
    assert by_name.stdout != invoke(*board).stdout  # (legion's, by default)
    dealt = notation.GameNode.from_position(notation.new("sanguine", rows=3, cols=5, red_deck="ember", blue_deck="tide"))
    made = notation.parse(by_name.stdout, game="sanguine")[0]
    assert [i.text for i in made.items if type(i).__name__ == "Directive"] == [
        i.text for i in dealt.items if type(i).__name__ == "Directive"]
    by_alias = notation.GameNode.from_position(
        notation.new("sanguine", rows=3, cols=5, red="ember", blue="tide"))
    assert notation.format_record(by_alias) == notation.format_record(dealt)
    with pytest.raises(notation.Error, match="red is another name of red_deck: give one"):
        notation.new("sanguine", red_deck="ember", red="tide")


def test_convert_refuses_an_option_the_records_game_does_not_take_as_random_does(tmp_path):
    """The one check (``check_for``) for every command that takes game options: the same
    line and exit 2 as ``random``, naming the options the game has there (convert once
    said each game's own sentence, ``tilewe converts with --transform ...``)."""
    from notation.cli.game_options import check_for
    for game, option, value, file in [("tilewe", "--choices", "inline", "t.tilewe"),
                                      ("philosophy", "--transform", "rot90", "p.philosophy"),
                                      ("sanguine", "--choices", "separate", "s.sanguine")]:
        path = tmp_path / file
        path.write_text(invoke("random", game, "--seed", "1").stdout)
        line = usage_error("convert", option, value, str(path))
        with pytest.raises(click.UsageError) as refused:
            check_for(registry.require(game), "convert", {option[2:]: value})
        assert line == f"Error: {refused.value.format_message()}"
        assert line.startswith(f"Error: {option}: not an option of {game} (its options here: ")
    assert usage_error("random", "tilewe", "--hand-size", "3") == (
        "Error: --hand-size: not an option of tilewe (its options here: --players, --corners, "
        "--owners, --scoring)")


def test_select_refuses_a_winner_no_game_ever_names():
    """One archive may hold several games, so a word is refused only when no game can say
    it (a colour misspelt), with each game's words; any game's word selects as before."""
    tilewe = str(SAMPLES / "tilewe")
    assert usage_error("select", "--winner", "bleu", tilewe) == (
        "Error: --winner bleu: no game has a winner called so (flows: P1, P2, P3, P4, P5, "
        "P6; nomic: none; philosophy: In, Te, Am, Sa; sanguine: red, blue; tilewe: blue, "
        "yellow, red, green)")
    assert usage_error("select", "--count", "--winner", "blue", "--winner", "Bleu", tilewe) \
        .startswith("Error: --winner Bleu: no game has a winner called so")
    assert invoke("select", "--count", "--winner", "blue", tilewe).stdout.strip() == "6"
    assert invoke("select", "--count", "--winner", "P2", tilewe).stdout.strip() == "0"


@pytest.mark.parametrize("game", SET_UP_GAMES)
def test_new_and_random_take_the_same_numbers_of_players(game):
    """One rule for both: every count random refuses, new refuses; every count it takes,
    new takes, and starts the game random starts from."""
    for players in range(10):
        cli = invoke("random", game, "--players", str(players), "--seed", "1")
        try:
            position = notation.new(game, players=players)
        except notation.Error as exc:
            assert cli.exit_code == 2, (players, cli.output)
            assert cli.stderr.splitlines()[-1] == f"Error: --{exc}".replace("=", " ", 1)
            continue
        assert cli.exit_code == 0, (players, cli.output)
        made = notation.parse(cli.stdout, game=game)[0]
        assert made.headers["Players"] == position.tags["Players"]


def test_new_seats_a_number_of_nomic_players_as_random_does():
    assert notation.new("nomic", players=3).tags["Players"] == "Alice Bob Carol"
    assert notation.new("nomic", players="Ann Bea").tags["Players"] == "Ann Bea"
    with pytest.raises(notation.Error, match="players=9: nomic takes 1 to 8"):
        notation.new("nomic", players=9)
    with pytest.raises(notation.Error, match="players=5: philosophy takes 2 to 4"):
        notation.new("philosophy", players=5)
    with pytest.raises(notation.Error, match="corners='sideways': tilewe takes any or fixed"):
        notation.new("tilewe", corners="sideways")


def test_random_games_start_from_the_game_options_given():
    """The options are the game's declared set-ups: Blokus's rules for Tilewe, the seats
    for Flows, each written as the tag notation.new writes."""
    result = invoke("random", "tilewe", "--corners", "fixed", "--scoring", "blokus",
                    "--owners", "1 2 1 2", "--seed", "4", "--count", "3")
    assert result.exit_code == 0, result.output
    for record in notation.parse(result.stdout):
        assert {k: record.headers[k] for k in ("Players", "Corners", "Scoring", "Owners")} \
            == {"Players": "4", "Corners": "fixed", "Scoring": "blokus", "Owners": "1 2 1 2"}
        assert notation.run(record).valid
    seated = notation.parse(invoke("random", "flows", "--players", "3", "--seats", "0 1 2",
                                   "--seed", "2").stdout)[0]
    assert seated.headers["Seats"] == "0 1 2" and notation.run(seated).valid
    refused = usage_error("random", "tilewe", "--owners", "1 2")
    assert refused.startswith('Error: tilewe: option owners: [Owners "1 2"]: one player number')


def test_the_library_checks_random_options_by_the_same_declaration():
    tilewe = registry.require("tilewe")
    with pytest.raises(NotationError, match="players=7: tilewe takes 1 to 4"):
        random_record(tilewe, random.Random(1), {"players": 7})
    sanguine = registry.require("sanguine")
    with pytest.raises(NotationError, match="rows=0: sanguine takes 1 to 50"):
        random_record(sanguine, random.Random(1), {"rows": 0})
    assert tilewe.random_tags({}) == {"Game": "tilewe", "Players": "4"}


@pytest.mark.parametrize("game", ["flows", "tilewe"])
def test_a_records_players_tag_is_checked_by_the_same_declaration(game):
    """The rules' check of ``[Players]`` reads the option's declaration: a count that
    ``notation.new`` and ``random`` refuse is refused in a record, and the other way round."""
    declared = next(o for o in registry.require(game).options if o.name == "players")
    for count in range(0, 9):
        record = notation.parse(f'[Game "{game}"]\n[Players "{count}"]\n\n')[0]
        refused = [p for p in notation.run(record).problems if p.rule == "tag Players"]
        assert bool(refused) == (not declared.takes(count)), (game, count)
        if refused:
            assert refused[0].message.endswith(f"is for {declared.allowed} players")


@pytest.mark.parametrize("game", ["flows", "nomic", "philosophy", "sanguine", "tilewe"])
def test_an_option_given_as_none_is_the_games_default(game):
    """``players=None`` was written as the text "None": a nomic player called None,
    Philosophy's [Players "None"], a refusal quoting it in Tilewe and Flows."""
    default = notation.new(game)
    given = notation.new(game, players=None, seed=None) if game == "sanguine" else \
        notation.new(game, players=None)
    assert given.position() == default.position()
    assert given.tags == default.tags
